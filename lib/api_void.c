/*
 * POST /api/v1/transactions/void: undoes a transaction by a compensating
 * void linked to it (rule_void.c), with a reason, through the write path
 * like every other write.
 *
 * GET /api/v1/transactions/void: what the caller may still void at a
 * till, so that "void last sale" comes from the server, whichever till or
 * tab recorded the sale (and sales sent from the offline queue too).
 */
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"

struct void_write {
	struct lc_void q;
	struct lc_void_result r;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
void_rule(struct lc_dom *dom, void *arg)
{
	struct void_write *vw = arg;

	vw->cur = &dom->cur;
	return lc_void(dom, &vw->q, &vw->r);
}

static json_object *
void_answer(void *arg)
{
	struct void_write *vw = arg;

	return lc_fmt_void(&vw->r, vw->cur);
}

static int void_post(struct lc_ctx *);

#define MINE_MAX 20
#define OWNER_PERIOD_MIN 30	/* the owner's list when staff may not void */

struct mine {
	char location_id[LC_REF_MAX + 1], staff_user_id[LC_REF_MAX + 1];
	int64_t window, since, until_ms;	/* until_ms 0: no limit */
	json_object *items;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
mine_add(void *arg, const struct lc_txn_row *t)
{
	struct mine *m = arg;
	json_object *o;

	lc_fmt_txn_row(m->items, t, m->cur);
	o = json_object_array_get_idx(m->items,
	    json_object_array_length(m->items) - 1);
	json_object_object_add(o, "voidable_until", m->until_ms == 0 ? NULL :
	    lc_json_time(t->it.created_at + m->until_ms));
	return 0;
}

/* Scope, window and list from one snapshot. */
static int
mine_read(struct lc_dom *dom, void *arg)
{
	struct mine *m = arg;
	int64_t win;

	if (lc_auth_scope(dom, m->location_id, m->staff_user_id, 0) == -1)
		return -1;
	m->cur = &dom->cur;
	m->window = win = lc_setting(dom->db, LC_SET_VOID_WINDOW);
	/* Staff: their window, ending at created_at + window. The owner
	 * voids at any time: the till lists the recent ones. */
	if (!dom->caller.is_owner) {
		if (win == 0)
			return 0;
		m->until_ms = win * 60000;
	} else if (win == 0)
		win = OWNER_PERIOD_MIN;
	m->since = dom->now_ms - win * 60000;
	if (lc_db_txns_mine(dom->db, dom->caller.merchant_id, m->staff_user_id,
	    m->location_id, m->since, MINE_MAX, mine_add, m) != 0)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

static int
mine(struct lc_ctx *ctx)
{
	struct mine m;
	int rc;

	memset(&m, 0, sizeof(m));
	if ((rc = lc_q_str(ctx, "location_id", m.location_id,
	    sizeof(m.location_id))) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_VALIDATION, "location_id",
		    "location_id is required");
	if ((rc = lc_q_str(ctx, "staff_user_id", m.staff_user_id,
	    sizeof(m.staff_user_id))) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_VALIDATION, "staff_user_id",
		    "staff_user_id is required");
	m.items = json_object_new_array();
	if (lc_read(&ctx->dom, mine_read, &m) == -1) {
		json_object_put(m.items);
		return -1;
	}
	ctx->out = json_object_new_object();
	json_object_object_add(ctx->out, "void_window_minutes",
	    json_object_new_int64(m.window));
	json_object_object_add(ctx->out, "transactions", m.items);
	return 0;
}

int
lc_h_void(struct lc_ctx *ctx)
{
	if (lc_method_is(ctx, "GET"))
		return mine(ctx);
	return void_post(ctx);
}

static int
void_post(struct lc_ctx *ctx)
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
	    lc_void_reason_check(e, q->reason) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 1, LC_REF_MAX,
	    &q->location_id) == -1 ||
	    lc_in_str(e, ctx->in, "staff_user_id", 1, LC_REF_MAX,
	    &q->staff_user_id) == -1 ||
	    lc_in_key(e, ctx->in, 0, &q->key) == -1 ||
	    lc_auth_scope(&ctx->dom, q->location_id, q->staff_user_id, 1) == -1)
		goto out;
	w.key = q->key;
	w.object_id = q->txn_id;
	if ((rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
		goto out;
	lc_fmt_idempotent(ctx, rc);
	ret = 0;
out:
	free(vw);
	return ret;
}
