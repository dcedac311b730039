/*
 * /api/v1/cards/enrol: a card issued at the counter. GET lists the
 * programs the caller may issue a card of; POST issues one to a customer
 * and answers what the till shows and prints (201, or 200 replayed from
 * its idempotency key).
 */
#include <string.h>

#include "lc_http.h"

struct enrol_write {
	struct lc_enrol en;
	struct lc_card card;
};

static int
enrol_rule(struct lc_dom *dom, void *arg)
{
	struct enrol_write *ew = arg;

	return lc_enrol(dom, &ew->en, &ew->card);
}

static json_object *
enrol_answer(void *arg)
{
	return lc_fmt_enrolled(&((struct enrol_write *)arg)->card);
}

static int
program_one(void *arg, const struct lc_program *p, int64_t cards)
{
	(void)cards;
	json_object_array_add(arg, lc_fmt_enrol_program(p));
	return 0;
}

/* The merchant's programs, oldest first; none when the caller may not
 * enrol, so a till shows no choice it would be refused. */
static int
programs(struct lc_ctx *ctx)
{
	json_object *a = json_object_new_array();
	int can = lc_enrol_allowed(&ctx->dom);

	if (can && lc_db_programs(ctx->dom.db, ctx->dom.caller.merchant_id,
	    program_one, a) != 0) {
		json_object_put(a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = json_object_new_object();
	json_object_object_add(ctx->out, "can_enrol",
	    json_object_new_boolean(can));
	json_object_object_add(ctx->out, "programs", a);
	return 0;
}

static int
enrol(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct enrol_write ew;
	struct lc_write w = { "enrol", NULL, enrol_rule, enrol_answer, &ew,
	    "card.enrol", "card", NULL };
	int rc;

	memset(&ew, 0, sizeof(ew));
	/* Refused before the body's fields: the till offers no form then. */
	if (lc_enrol_check(&ctx->dom) == -1 ||
	    lc_in_str(e, ctx->in, "program_id", 1, LC_REF_MAX,
	    &ew.en.program_id) == -1 ||
	    lc_in_str(e, ctx->in, "customer_name", 1, LC_NAME_MAX,
	    &ew.en.customer_name) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 0, LC_REF_MAX,
	    &ew.en.location_id) == -1 ||
	    lc_in_key(e, ctx->in, 0, &w.key) == -1 ||
	    lc_enrol_scope(&ctx->dom, &ew.en.location_id) == -1 ||
	    (rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	ctx->status = rc == 1 ? 200 : 201;
	return 0;
}

int
lc_h_enrol(struct lc_ctx *ctx)
{
	return lc_method_is(ctx, "POST") ? enrol(ctx) : programs(ctx);
}
