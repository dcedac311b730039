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


/* A void of a cashback purchase (rule_void.c): what remains of its
 * earning, and its spend. */
static int
cashback_void(struct lc_dom *dom, struct lc_card *c,
    const struct lc_txn_info *o, struct lc_txn *t, struct lc_void_result *r)
{
	struct lc_earning e;
	int64_t earned = o->cashback_earned > 0 ? o->cashback_earned : 0;
	int64_t removed = 0;
	int rc;

	if (earned > 0) {
		if ((rc = lc_db_earning_get(dom->db, o->id, &e)) == -1)
			return -1;
		if (rc == 1 && e.remaining > 0) {
			if (lc_db_earning_use(dom->db, o->id, e.remaining) != 1)
				return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
			removed = e.remaining;
		}
	}
	/* The balance is the ledger's sum: it holds what was removed. */
	c->cashback_balance -= removed;
	c->lifetime_cashback = c->lifetime_cashback >= removed ?
	    c->lifetime_cashback - removed : 0;
	c->lifetime_spend = c->lifetime_spend >= o->purchase_amount ?
	    c->lifetime_spend - o->purchase_amount : 0;
	t->cashback_earned = -removed;
	r->cashback_removed += removed;
	r->cashback_not_removed += earned - removed;
	r->spend_removed += o->purchase_amount;
	return 0;
}

/* An adjustment of cashback (rule_adjust.c): added, an earning of its
 * own; taken, from the ledger as a redemption takes it. */
static int
cashback_adjust(struct lc_dom *dom, struct lc_card *c,
    const struct lc_adjust *q, struct lc_txn *t, struct lc_adjust_result *r)
{
	struct lc_earning e;
	int64_t left, use, x = q->cashback;
	char bal[32];
	int rc;

	(void)r;
	t->cashback_earned = x;
	if (x > 0) {
		c->cashback_balance += x;
		c->lifetime_cashback += x;
		if (lc_txn_add(dom, t) == -1)
			return -1;
		if (lc_db_earning_add(dom->db, t->id, c->id, x, dom->now_ms) == -1)
			return -1;
		return 0;
	}
	if (-x > c->cashback_balance) {
		lc_money_fmt(c->cashback_balance, lc_currency_exp(&dom->cur),
		    bal);
		return lc_dom_fail(dom, LC_E_INSUFFICIENT_BALANCE,
		    "cashback_amount", "The cashback balance is %s.", bal);
	}
	if (lc_txn_add(dom, t) == -1)
		return -1;
	/* Taken as a redemption takes it, recorded the same way. */
	for (left = -x; left > 0; left -= use) {
		if ((rc = lc_db_earning_oldest(dom->db, c->id, &e)) == -1)
			return -1;
		if (rc == 0) {
			lc_log("cashback ledger of card %s is short", c->id);
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		}
		use = e.remaining < left ? e.remaining : left;
		if (lc_db_earning_use(dom->db, e.txn_id, use) != 1 ||
		    lc_db_entry_add(dom->db, t->id, e.txn_id, use) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	c->cashback_balance += x;
	return 0;
}

/* Its fields in the answers. */

static void
cashback_balance(const struct lc_card *c, struct lc_fields *f)
{
	f->money(f, "cashback_balance", c->cashback_balance);
	f->rate(f, "cashback_rate", lc_card_rate(c));
	f->str(f, "current_tier_name", lc_card_tier_name(c));
	f->money(f, "lifetime_cashback", c->lifetime_cashback);
}

/* The card's next expiry, null for none; nothing when not asked. */
static void
cashback_next_expiry(const struct lc_card *c, struct lc_fields *f)
{
	if (c->next_expiry_at < 0)
		return;
	if (c->next_expiry_at > 0) {
		f->money(f, "next_expiry_amount", c->next_expiry_amount);
		f->time(f, "next_expiry_at", c->next_expiry_at);
	} else {
		f->null(f, "next_expiry_amount");
		f->null(f, "next_expiry_at");
	}
}

static void
cashback_purchased(const struct lc_purchase_result *r, struct lc_fields *f)
{
	f->money(f, "purchase_amount", r->purchase_amount);
	f->rate(f, "cashback_rate", r->rate_bp);
	f->money(f, "cashback_earned", r->cashback_earned);
	f->money(f, "new_balance", r->new_balance);
	f->flag(f, "tier_changed", r->tier_changed);
	f->str(f, "current_tier_name", r->tier_name);
}

static void
cashback_voided(const struct lc_void_result *r, struct lc_fields *f)
{
	f->money(f, "cashback_removed", r->cashback_removed);
	/* Already spent: never clawed back. */
	f->money(f, "cashback_not_removed", r->cashback_not_removed);
	f->money(f, "lifetime_spend_removed", r->spend_removed);
}

static void
cashback_program(const struct lc_program *p, struct lc_fields *f)
{
	if (p->expiry_days > 0)
		f->num(f, "expiry_days", p->expiry_days);
	else
		f->null(f, "expiry_days");
}

static void
cashback_audit(const struct lc_card *c, struct lc_fields *f)
{
	f->money(f, "cashback_balance", c->cashback_balance);
	f->money(f, "lifetime_spend", c->lifetime_spend);
}

const struct lc_cardtype lc_cardtype_cashback = {
	.id = LC_CT_CASHBACK,
	.name = "cashback",
	.cols = LC_CT_TIERS | LC_CT_EXPIRES,
	.purchase = cashback_purchase,
	.void_purchase = cashback_void,
	.adjust_field = "cashback_amount",
	.adjust = cashback_adjust,
	.balance = cashback_balance,
	.lookup = cashback_next_expiry,
	.mycard = cashback_next_expiry,
	.purchased = cashback_purchased,
	.voided = cashback_voided,
	.program = cashback_program,
	.audit = cashback_audit,
};
