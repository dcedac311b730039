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


/* A void of a discount purchase (rule_void.c): its spend. */
static int
discount_void(struct lc_dom *dom, struct lc_card *c,
    const struct lc_txn_info *o, struct lc_txn *t, struct lc_void_result *r)
{
	(void)dom;
	c->lifetime_spend = c->lifetime_spend >= o->purchase_amount ?
	    c->lifetime_spend - o->purchase_amount : 0;
	t->discount_amount = o->discount_amount > 0 ? -o->discount_amount : 0;
	r->spend_removed += o->purchase_amount;
	return 0;
}

/* Its fields in the answers. */

static void
discount_balance(const struct lc_card *c, struct lc_fields *f)
{
	const struct lc_program *p = &c->program;
	int t = lc_card_tier(c, c->lifetime_spend);
	int top = p->ntiers == 0 || t == p->ntiers - 1;

	f->rate(f, "discount_rate", lc_card_rate(c));
	f->str(f, "current_tier_name", lc_card_tier_name(c));
	f->str(f, "next_tier_name", top ? NULL : p->tiers[t + 1].name);
	if (top)
		f->null(f, "next_tier_threshold");
	else
		f->money(f, "next_tier_threshold", p->tiers[t + 1].min_spend);
	f->money(f, "lifetime_spend", c->lifetime_spend);
}

static void
discount_purchased(const struct lc_purchase_result *r, struct lc_fields *f)
{
	f->money(f, "purchase_amount", r->purchase_amount);
	f->rate(f, "discount_rate", r->rate_bp);
	f->money(f, "discount_amount", r->discount_amount);
	f->money(f, "final_amount", r->final_amount);
	f->flag(f, "tier_changed", r->tier_changed);
	f->str(f, "current_tier_name", r->tier_name);
}

static void
discount_voided(const struct lc_void_result *r, struct lc_fields *f)
{
	f->money(f, "lifetime_spend_removed", r->spend_removed);
}

static void
discount_audit(const struct lc_card *c, struct lc_fields *f)
{
	f->money(f, "lifetime_spend", c->lifetime_spend);
}

/* No adjustment: a discount card holds nothing to correct. */
const struct lc_cardtype lc_cardtype_discount = {
	.id = LC_CT_DISCOUNT,
	.name = "discount",
	.cols = LC_CT_TIERS,
	.purchase = discount_purchase,
	.void_purchase = discount_void,
	.balance = discount_balance,
	.purchased = discount_purchased,
	.voided = discount_voided,
	.audit = discount_audit,
};
