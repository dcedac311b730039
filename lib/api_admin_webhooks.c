/*
 * /api/v1/admin/webhooks: the owner's webhook endpoints (webhook.c), an
 * owner's or an integration token's of scope webhooks:manage, on the
 * caller's merchant. GET lists them with the deliverer's last run and its
 * cron line (an owner's only: it names server paths and the database),
 * POST adds one (its secret shown this once); GET, PATCH and
 * DELETE /{id}; POST /{id}/rotate (a new secret, shown once), /{id}/test
 * and /{id}/resend (a job for the deliverer: 202); GET /{id}/deliveries,
 * its delivery log, newest first. What chooses the events an endpoint
 * is sent (a create, a new url or event_types, a re-send) reads them as
 * the feed would: an integration token needs events:read for it too.
 */
#include <string.h>

#include "lc_http.h"

struct hook_write {
	struct lc_webhook_in in;
	struct lc_webhook w;
	struct lc_webhook_job j;
	const char *id, *event_id;
	int64_t now;
	int with_secret;
};

static int
create_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_create(dom, &hw->in, &hw->w);
}

static int
update_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_update(dom, hw->id, &hw->in, &hw->w);
}

static int
delete_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_delete(dom, hw->id, &hw->w);
}

static int
rotate_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_rotate(dom, hw->id, &hw->w);
}

static int
test_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_test(dom, hw->id, &hw->j);
}

static int
resend_rule(struct lc_dom *dom, void *arg)
{
	struct hook_write *hw = arg;

	return lc_webhook_resend(dom, hw->id, hw->event_id, &hw->j);
}

static json_object *
hook_answer(void *arg)
{
	struct hook_write *hw = arg;
	json_object *o = lc_view_webhook(&hw->w, hw->now, 1);

	/* Shown here alone: a create's, a rotation's. */
	if (hw->with_secret)
		json_object_object_add(o, "secret",
		    json_object_new_string(hw->w.secret));
	return lc_view_one("webhook", o);
}

static json_object *
job_answer(void *arg)
{
	struct hook_write *hw = arg;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(hw->j.id));
	json_object_object_add(o, "kind", json_object_new_string(hw->j.kind));
	json_object_object_add(o, "created_at",
	    lc_json_time(hw->j.created_at));
	return lc_view_one("delivery_job", o);
}

/* An integration token without events:read may not choose what events
 * are sent where: 0, or -1 with 403. */
static int
events_scope(struct lc_ctx *ctx)
{
	if (ctx->dom.caller.token_id[0] == '\0' ||
	    (ctx->dom.caller.scopes & LC_SCOPE_EVENTS) != 0)
		return 0;
	return lc_fail(ctx, LC_E_FORBIDDEN, NULL, "This token needs the scope "
	    "events:read too to create a webhook, change its url or "
	    "event_types, or re-send an event: it would read the events.");
}

/* The members of a create or a change into hw->in. */
static int
read_in(struct lc_ctx *ctx, struct lc_webhook_in *in, int create)
{
	struct lc_error *e = &ctx->dom.err;
	json_object *a, *v;
	size_t i;
	int present;

	memset(in, 0, sizeof(*in));
	in->enabled = -1;
	if (lc_in_str(e, ctx->in, "url", create, LC_WEBHOOK_URL_MAX,
	    &in->url) == -1 ||
	    lc_in_str(e, ctx->in, "description", 0, LC_WEBHOOK_DESC_MAX,
	    &in->description) == -1)
		return -1;
	if (!create) {
		if (lc_in_bool(e, ctx->in, "enabled", 0, &in->enabled,
		    &present) == -1)
			return -1;
		if (!present)
			in->enabled = -1;
	}
	if (json_object_object_get_ex(ctx->in, "event_types", &a)) {
		in->types_set = 1;
		if (a == NULL)
			return 0;	/* null: every type */
		if (!json_object_is_type(a, json_type_array))
			return lc_fail(ctx, LC_E_VALIDATION, "event_types",
			    "event_types must be a list of event types, or "
			    "null for all");
		if ((in->ntypes = json_object_array_length(a)) == 0)
			return lc_fail(ctx, LC_E_VALIDATION, "event_types",
			    "event_types must list at least one type (or be "
			    "null for all)");
		if (in->ntypes > sizeof(in->types) / sizeof(in->types[0]))
			return lc_fail(ctx, LC_E_VALIDATION, "event_types",
			    "event_types lists too many types");
		for (i = 0; i < in->ntypes; i++) {
			v = json_object_array_get_idx(a, i);
			if (!json_object_is_type(v, json_type_string))
				return lc_fail(ctx, LC_E_VALIDATION,
				    "event_types", "event_types must hold "
				    "strings");
			in->types[i] = json_object_get_string(v);
		}
	}
	if (!create && in->url == NULL && in->description == NULL &&
	    !in->types_set && in->enabled == -1)
		return lc_fail(ctx, LC_E_VALIDATION, NULL, "Send what to "
		    "change: enabled, url, event_types or description.");
	return 0;
}

struct list_arg {
	struct lc_ctx *ctx;
	json_object *a;
};

static int
list_one(void *arg, const struct lc_webhook *w)
{
	struct list_arg *la = arg;
	struct lc_webhook c = *w;

	if (lc_db_hook_pending(la->ctx->dom.db, &c, &c.pending) == -1)
		return -1;
	json_object_array_add(la->a, lc_view_webhook(&c,
	    la->ctx->dom.now_ms, 1));
	return 0;
}

static int
list(struct lc_ctx *ctx)
{
	struct list_arg la = { ctx, json_object_new_array() };
	json_object *d;
	int64_t started = -1, ended = -1;
	char cmd[8192];
	int rc;

	if (lc_db_hooks(ctx->dom.db, ctx->dom.caller.merchant_id, list_one,
	    &la) != 0 || (rc = lc_db_hook_deliverer(ctx->dom.db, &started,
	    &ended)) == -1) {
		json_object_put(la.a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = lc_view_one("webhooks", la.a);
	d = json_object_new_object();
	json_object_object_add(d, "last_run_at", rc == 1 ?
	    lc_json_time(started) : NULL);
	json_object_object_add(d, "command", ctx->dom.caller.is_owner ?
	    json_object_new_string(lc_webhook_command(ctx->db_path,
	    ctx->prog_dir, cmd, sizeof(cmd))) : NULL);
	json_object_object_add(ctx->out, "deliverer", d);
	return 0;
}

struct log_arg {
	json_object *a;
};

static json_object *
or_null_int(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

static int
log_one(void *arg, const struct lc_hook_delivery *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(d->id));
	json_object_object_add(o, "event_id",
	    json_object_new_string(d->event_id));
	json_object_object_add(o, "event_type",
	    json_object_new_string(d->event_type));
	json_object_object_add(o, "attempt", json_object_new_int64(d->attempt));
	json_object_object_add(o, "at", lc_json_time(d->at));
	json_object_object_add(o, "status", or_null_int(d->status));
	json_object_object_add(o, "duration_ms", or_null_int(d->duration_ms));
	json_object_object_add(o, "outcome", json_object_new_string(d->outcome));
	json_object_object_add(o, "error", lc_json_str_or_null(d->error));
	json_object_object_add(o, "response", lc_json_str_or_null(d->response));
	json_object_array_add(((struct log_arg *)arg)->a, o);
	return 0;
}

/* GET /{id}/deliveries?limit=&offset= */
static int
deliveries(struct lc_ctx *ctx, const char *id)
{
	struct lc_webhook w;
	struct log_arg la;
	int64_t limit = 20, offset = 0, total;
	int rc;

	if (lc_q_int(ctx, "limit", 1, LC_WEBHOOK_PAGE_MAX, &limit) == -1 ||
	    lc_q_int(ctx, "offset", 0, 1000000000, &offset) == -1)
		return -1;
	if ((rc = lc_webhook_get(&ctx->dom, id, &w)) != 1)
		return rc == -1 ? lc_dom_settle(&ctx->dom) : -1;
	if (lc_db_hook_deliveries_count(ctx->dom.db, id, &total) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	la.a = json_object_new_array();
	if (offset < total && lc_db_hook_deliveries(ctx->dom.db, id, limit,
	    offset, log_one, &la) != 0) {
		json_object_put(la.a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = lc_view_one("deliveries", la.a);
	json_object_object_add(ctx->out, "total", json_object_new_int64(total));
	return 0;
}

/* A write on hw: its answer in ctx->out, status when it is not 200. */
static int
run(struct lc_ctx *ctx, struct hook_write *hw, int (*rule)(struct lc_dom *,
    void *), json_object *(*answer)(void *), const char *action, int status)
{
	struct lc_write w = { "webhook", NULL, rule, answer, hw, action,
	    "webhook", hw->id };

	hw->now = ctx->dom.now_ms;
	if (lc_write(&ctx->dom, &w, &ctx->out) == -1)
		return -1;
	if (status != 0)
		ctx->status = status;
	return 0;
}

int
lc_h_admin_webhooks(struct lc_ctx *ctx)
{
	struct hook_write hw;
	char id[LC_ID_LEN + 1];
	const char *rest;
	int rc;

	memset(&hw, 0, sizeof(hw));
	if (ctx->subpath[0] == '\0') {
		if (lc_method_is(ctx, "GET"))
			return list(ctx);
		if (!lc_method_is(ctx, "POST"))
			return lc_not_allowed(ctx, "GET, POST");
		if (events_scope(ctx) == -1 || lc_body(ctx) == -1 ||
		    read_in(ctx, &hw.in, 1) == -1)
			return -1;
		hw.with_secret = 1;
		return run(ctx, &hw, create_rule, hook_answer, "webhook.create",
		    201);
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		return -1;
	hw.id = id;
	if (*rest == '\0') {
		if (lc_method_is(ctx, "GET")) {
			hw.now = ctx->dom.now_ms;
			if ((rc = lc_webhook_get(&ctx->dom, id, &hw.w)) != 1)
				return rc == -1 ? lc_dom_settle(&ctx->dom) : -1;
			ctx->out = hook_answer(&hw);
			return 0;
		}
		if (lc_method_is(ctx, "DELETE"))
			return run(ctx, &hw, delete_rule, hook_answer,
			    "webhook.delete", 0);
		if (!lc_method_is(ctx, "PATCH"))
			return lc_not_allowed(ctx, "GET, PATCH, DELETE");
		if (lc_body(ctx) == -1 || read_in(ctx, &hw.in, 0) == -1 ||
		    ((hw.in.url != NULL || hw.in.types_set) &&
		    events_scope(ctx) == -1))
			return -1;
		return run(ctx, &hw, update_rule, hook_answer, "webhook.update",
		    0);
	}
	if (strcmp(rest, "/deliveries") == 0)
		return lc_method_is(ctx, "GET") ? deliveries(ctx, id) :
		    lc_not_allowed(ctx, "GET");
	if (strcmp(rest, "/rotate") != 0 && strcmp(rest, "/test") != 0 &&
	    strcmp(rest, "/resend") != 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (!lc_method_is(ctx, "POST"))
		return lc_not_allowed(ctx, "POST");
	if (strcmp(rest, "/resend") == 0 && events_scope(ctx) == -1)
		return -1;
	/* No body needed but resend's; one sent must be a JSON object. */
	if (strcmp(rest, "/resend") == 0 || (ctx->req.body != NULL &&
	    ctx->req.bodylen > 0))
		if (lc_body(ctx) == -1)
			return -1;
	if (strcmp(rest, "/rotate") == 0) {
		hw.with_secret = 1;
		return run(ctx, &hw, rotate_rule, hook_answer,
		    "webhook.rotate", 0);
	}
	if (strcmp(rest, "/test") == 0)
		return run(ctx, &hw, test_rule, job_answer, "webhook.test",
		    202);
	if (lc_in_str(&ctx->dom.err, ctx->in, "event_id", 1, LC_REF_MAX,
	    &hw.event_id) == -1)
		return -1;
	return run(ctx, &hw, resend_rule, job_answer, "webhook.resend", 202);
}
