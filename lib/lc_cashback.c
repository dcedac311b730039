/*
 * Cashback cards: each purchase earns its tier's rate, stored as its own
 * ledger row whose remaining amount FIFO redemption consumes.
 */
#include "lc_int.h"

static void
cashback_balance(const struct lc_card *c, json_object *o)
{
	json_object_object_add(o, "cashback_balance", lc_json_money(c->cashback_balance));
	json_object_object_add(o, "cashback_rate", lc_json_rate(lc_card_rate(c)));
	json_object_object_add(o, "current_tier_name",
	    json_object_new_string(lc_card_tier_name(c)));
	json_object_object_add(o, "lifetime_cashback",
	    lc_json_money(c->lifetime_cashback));
}

static int
cashback_purchase(struct lc_ctx *ctx, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t, json_object **data)
{
	int changed;
	int64_t rate = lc_card_tiered_purchase(c, p->amount, &changed);
	int64_t earned = lc_apply_rate(p->amount, rate);
	sqlite3_stmt *st;
	json_object *d;

	c->cashback_balance += earned;
	c->lifetime_cashback += earned;
	t->type = "cashback";
	t->rate_bp = rate;
	t->cashback_earned = earned;
	if (lc_txn_insert(ctx, t) == -1)
		return -1;
	/* A zero earning leaves nothing to redeem: no ledger row. */
	if (earned > 0 && ((st = lc_db_prep(ctx->db, LC_SQL_EARNING_ADD,
	    "ssiii", t->id, c->id, earned, earned, p->at_ms)) == NULL ||
	    lc_db_exec(ctx->db, st) == -1))
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (lc_card_save(ctx, c) == -1)
		return -1;
	d = lc_txn_result(t, "cashback");
	json_object_object_add(d, "purchase_amount", lc_json_money(p->amount));
	json_object_object_add(d, "cashback_rate", lc_json_rate(rate));
	json_object_object_add(d, "cashback_earned", lc_json_money(earned));
	json_object_object_add(d, "new_balance", lc_json_money(c->cashback_balance));
	json_object_object_add(d, "tier_changed", json_object_new_boolean(changed));
	json_object_object_add(d, "current_tier_name",
	    json_object_new_string(lc_card_tier_name(c)));
	*data = d;
	return 0;
}

const struct lc_cardtype lc_cardtype_cashback = {
	"cashback", cashback_balance, cashback_purchase
};
