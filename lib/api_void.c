/*
 * POST /api/v1/transactions/void: undoes a transaction by a compensating
 * void linked to it (rule_void.c), with a reason, through the write path
 * like every other write.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_int.h"

struct void_write {
	struct lc_void q;
	struct lc_void_result r;
};

static int
void_rule(struct lc_dom *dom, void *arg)
{
	struct void_write *vw = arg;

	return lc_void(dom, &vw->q, &vw->r);
}

static json_object *
void_answer(void *arg)
{
	return lc_fmt_void(&((struct void_write *)arg)->r);
}

int
lc_h_void(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct void_write *vw;
	struct lc_write w = { "void", NULL, void_rule, void_answer, NULL,
	    "transaction.void", "transaction", NULL };
	struct lc_void *q;
	int rc, ret = -1;

	/* A card with its program and tiers: kept off the stack. */
	if ((vw = calloc(1, sizeof(*vw))) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	q = &vw->q;
	w.arg = vw;
	if (lc_in_str(e, ctx->in, "transaction_id", 1, LC_REF_MAX,
	    &q->txn_id) == -1 ||
	    lc_in_str(e, ctx->in, "reason", 1, LC_NOTES_MAX, &q->reason) == -1 ||
	    lc_reason_check(e, q->reason) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 1, LC_REF_MAX,
	    &q->location_id) == -1 ||
	    lc_in_str(e, ctx->in, "staff_user_id", 1, LC_REF_MAX,
	    &q->staff_user_id) == -1 ||
	    lc_in_key(e, ctx->in, 0, &q->key) == -1 ||
	    lc_auth_scope(&ctx->dom, q->location_id, q->staff_user_id) == -1)
		goto out;
	w.key = q->key;
	w.object_id = q->txn_id;
	if ((rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
		goto out;
	lc_idempotent(ctx, rc);
	ret = 0;
out:
	free(vw);
	return ret;
}

int
lc_reason_check(struct lc_error *e, const char *reason)
{
	if (lc_text_check(e, "reason", reason, LC_NOTES_MAX, 0) == -1)
		return -1;
	if (reason[strspn(reason, " ")] == '\0')
		return lc_error_set(e, LC_E_VALIDATION, "reason",
		    "reason must say why");
	return 0;
}
