/*
 * Discount cards: the tier's rate off each purchase; lifetime spend moves
 * the card up the tiers.
 */
#include "lc_int.h"

static void
discount_balance(const struct lc_card *c, json_object *o)
{
	int t = lc_card_tier(c, c->lifetime_spend);
	int top = c->ntiers == 0 || t == c->ntiers - 1;

	json_object_object_add(o, "discount_rate", lc_json_rate(lc_card_rate(c)));
	json_object_object_add(o, "current_tier_name",
	    json_object_new_string(lc_card_tier_name(c)));
	json_object_object_add(o, "next_tier_name",
	    top ? NULL : json_object_new_string(c->tiers[t + 1].name));
	json_object_object_add(o, "next_tier_threshold",
	    top ? NULL : lc_json_money(c->tiers[t + 1].min_spend));
	json_object_object_add(o, "lifetime_spend", lc_json_money(c->lifetime_spend));
}

static int
discount_purchase(struct lc_ctx *ctx, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t, json_object **data)
{
	/* Lifetime spend counts the purchase before any discount. */
	int changed;
	int64_t rate = lc_card_tiered_purchase(c, p->amount, &changed);
	int64_t off = lc_apply_rate(p->amount, rate);
	json_object *d;

	t->type = "discount";
	t->rate_bp = rate;
	t->discount_amount = off;
	if (lc_txn_insert(ctx, t) == -1 || lc_card_save(ctx, c) == -1)
		return -1;
	d = lc_txn_result(t, "discount");
	json_object_object_add(d, "purchase_amount", lc_json_money(p->amount));
	json_object_object_add(d, "discount_rate", lc_json_rate(rate));
	json_object_object_add(d, "discount_amount", lc_json_money(off));
	json_object_object_add(d, "final_amount", lc_json_money(p->amount - off));
	json_object_object_add(d, "tier_changed", json_object_new_boolean(changed));
	json_object_object_add(d, "current_tier_name",
	    json_object_new_string(lc_card_tier_name(c)));
	*data = d;
	return 0;
}

const struct lc_cardtype lc_cardtype_discount = {
	"discount", discount_balance, discount_purchase
};
