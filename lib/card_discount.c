/*
 * Discount cards: the tier's rate off each purchase; lifetime spend moves
 * the card up the tiers.
 */
#include <string.h>

#include "lc_core.h"

static int
discount_purchase(struct lc_dom *dom, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t,
    struct lc_purchase_result *r)
{
	/* Lifetime spend counts the purchase before any discount. */
	int changed;
	int64_t rate = lc_card_tiered_purchase(c, p->amount, &changed);
	int64_t off = lc_apply_rate(p->amount, rate);

	t->rate_bp = rate;
	t->discount_amount = off;
	if (lc_txn_add(dom, t) == -1 || lc_card_save(dom, c) == -1)
		return -1;
	r->rate_bp = rate;
	r->discount_amount = off;
	r->final_amount = p->amount - off;
	r->tier_changed = changed;
	snprintf(r->tier_name, sizeof(r->tier_name), "%s", lc_card_tier_name(c));
	return 0;
}

const struct lc_cardtype lc_cardtype_discount = { "discount", discount_purchase };
