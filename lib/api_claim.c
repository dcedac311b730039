/* POST /api/v1/rewards/claim: the oldest pending reward of a punch card. */
#include <string.h>

#include "lc_http.h"

struct claim_write {
	struct lc_claim q;
	struct lc_claim_result r;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
claim_rule(struct lc_dom *dom, void *arg)
{
	struct claim_write *cw = arg;

	cw->cur = &dom->cur;
	return lc_claim(dom, &cw->q, &cw->r);
}

static json_object *
claim_answer(void *arg)
{
	struct claim_write *cw = arg;

	return lc_fmt_claim(&cw->r, cw->cur);
}

int
lc_h_claim(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct claim_write cw;
	struct lc_write w = { "claim", NULL, claim_rule, claim_answer, &cw,
	    "reward.claim", "card", NULL };
	struct lc_claim *q = &cw.q;
	int rc;

	memset(&cw, 0, sizeof(cw));
	if (lc_in_str(e, ctx->in, "card_instance_id", 1, LC_REF_MAX,
	    &q->card_id) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 1, LC_REF_MAX,
	    &q->location_id) == -1 ||
	    lc_in_str(e, ctx->in, "staff_user_id", 1, LC_REF_MAX,
	    &q->staff_user_id) == -1 ||
	    lc_in_key(e, ctx->in, 0, &q->key) == -1 ||
	    lc_in_card_code(e, ctx->in, &q->card_code) == -1 ||
	    lc_auth_scope(&ctx->dom, q->location_id, q->staff_user_id, 1) == -1)
		return -1;
	w.key = q->key;
	if ((rc = lc_card_code_write(&ctx->dom, q->card_id, q->card_code, &w,
	    &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}
