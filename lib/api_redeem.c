/*
 * POST /api/v1/cashback/redeem: spends cashback on a purchase, optionally
 * earning on what the customer still pays.
 */
#include <string.h>

#include "lc_http.h"

struct redeem_write {
	struct lc_redeem q;
	struct lc_redeem_result r;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
redeem_rule(struct lc_dom *dom, void *arg)
{
	struct redeem_write *rw = arg;

	rw->cur = &dom->cur;
	return lc_redeem(dom, &rw->q, &rw->r);
}

static json_object *
redeem_answer(void *arg)
{
	struct redeem_write *rw = arg;

	return lc_fmt_redeem(&rw->r, rw->cur);
}

int
lc_h_redeem(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct redeem_write rw;
	struct lc_write w = { "redeem", NULL, redeem_rule, redeem_answer, &rw,
	    "cashback.redeem", "card", NULL };
	struct lc_redeem *q = &rw.q;
	json_object *in = ctx->in;
	int rc;

	memset(&rw, 0, sizeof(rw));
	if (lc_in_str(e, in, "card_instance_id", 1, LC_REF_MAX, &q->card_id) == -1 ||
	    lc_in_money(e, in, "redemption_amount", 1, &ctx->dom.cur,
	    &q->amount, NULL) == -1 ||
	    lc_in_money(e, in, "purchase_amount", 1, &ctx->dom.cur,
	    &q->purchase, NULL) == -1 ||
	    lc_in_str(e, in, "location_id", 1, LC_REF_MAX, &q->location_id) == -1 ||
	    lc_in_str(e, in, "staff_user_id", 1, LC_REF_MAX,
	    &q->staff_user_id) == -1 ||
	    lc_in_str(e, in, "transaction_notes", 0, LC_NOTES_MAX, &q->notes) == -1 ||
	    lc_in_bool(e, in, "earn_on_remainder", 0, &q->earn, NULL) == -1 ||
	    lc_in_key(e, in, 0, &q->key) == -1 ||
	    lc_in_card_code(e, in, &q->card_code) == -1)
		return -1;
	if (q->amount <= 0 || q->amount > q->purchase)
		return lc_fail(ctx, LC_E_VALIDATION, "redemption_amount",
		    "redemption_amount must be above 0 and at most "
		    "purchase_amount");
	if (lc_auth_scope(&ctx->dom, q->location_id, q->staff_user_id, 1) == -1)
		return -1;
	w.key = q->key;
	rc = lc_card_code_write(&ctx->dom, q->card_id, q->card_code, &w,
	    &ctx->out);
	lc_redeem_result_free(&rw.r);
	if (rc == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}
