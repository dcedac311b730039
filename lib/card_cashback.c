/*
 * Cashback cards: each purchase earns its tier's rate, stored as its own
 * ledger row whose remaining amount FIFO redemption consumes.
 */
#include <string.h>

#include "lc_core.h"

static int
cashback_purchase(struct lc_dom *dom, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t,
    struct lc_purchase_result *r)
{
	int changed;
	int64_t rate = lc_card_tiered_purchase(c, p->amount, &changed);
	int64_t earned = lc_apply_rate(p->amount, rate);

	c->cashback_balance += earned;
	c->lifetime_cashback += earned;
	t->rate_bp = rate;
	t->cashback_earned = earned;
	if (lc_txn_add(dom, t) == -1)
		return -1;
	/* A zero earning leaves nothing to redeem: no ledger row. Its
	 * expiry is fixed now, by the program's term of today. */
	if (earned > 0 && lc_db_earning_add_until(dom->db, t->id, c->id, earned,
	    p->at_ms, lc_expiry_at(&c->program, p->at_ms)) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (lc_card_save(dom, c) == -1)
		return -1;
	r->rate_bp = rate;
	r->cashback_earned = earned;
	r->new_balance = c->cashback_balance;
	r->tier_changed = changed;
	snprintf(r->tier_name, sizeof(r->tier_name), "%s", lc_card_tier_name(c));
	return 0;
}

const struct lc_cardtype lc_cardtype_cashback = { "cashback", cashback_purchase };
