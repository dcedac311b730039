/*
 * /api/v1/admin/tokens: integration tokens, the owner's only (an
 * integration token here is refused before the handler). GET lists
 * (newest first), POST makes one (its secret shown this once), GET
 * /{id} shows one, DELETE /{id} revokes it.
 */
#include <string.h>

#include "lc_http.h"

struct tok_write {
	const char *id, *name;
	int scopes;
	struct lc_apitoken t;
	char secret[LC_APITOKEN_LEN + 1];	/* "": none to show */
};

/* The token as the API shows it; secret NULL: not shown. */
static json_object *
token_json(const struct lc_apitoken *t, const char *secret)
{
	json_object *o = json_object_new_object(), *a;
	const char *name;
	int bit;

	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "name", json_object_new_string(t->name));
	a = json_object_new_array();
	for (bit = 1; bit <= LC_SCOPE_ALL; bit <<= 1)
		if ((t->scopes & bit) &&
		    (name = lc_apitoken_scope_name(bit)) != NULL)
			json_object_array_add(a, json_object_new_string(name));
	json_object_object_add(o, "scopes", a);
	json_object_object_add(o, "prefix", json_object_new_string(t->prefix));
	json_object_object_add(o, "created_at", lc_json_time(t->created_at));
	json_object_object_add(o, "last_used_at",
	    lc_json_time_or_null(t->last_used_at));
	json_object_object_add(o, "revoked_at", lc_json_time_or_null(t->revoked_at));
	if (secret != NULL)
		json_object_object_add(o, "secret",
		    json_object_new_string(secret));
	return o;
}

static int
create_rule(struct lc_dom *dom, void *arg)
{
	struct tok_write *tw = arg;
	json_object *a;
	const char *name;
	int bit;

	if (lc_apitoken_create(dom, tw->name, tw->scopes, &tw->t,
	    tw->secret) == -1)
		return -1;
	/* The trail keeps what was made, never the secret. */
	lc_audit_note_str(dom, "name", tw->t.name);
	a = json_object_new_array();
	for (bit = 1; bit <= LC_SCOPE_ALL; bit <<= 1)
		if ((tw->t.scopes & bit) &&
		    (name = lc_apitoken_scope_name(bit)) != NULL)
			json_object_array_add(a, json_object_new_string(name));
	lc_audit_note(dom, "scopes", a);
	lc_audit_note_str(dom, "prefix", tw->t.prefix);
	return 0;
}

static int
revoke_rule(struct lc_dom *dom, void *arg)
{
	struct tok_write *tw = arg;

	if (lc_apitoken_revoke(dom, tw->id, &tw->t) == -1)
		return -1;
	lc_audit_note_str(dom, "name", tw->t.name);
	return 0;
}

static json_object *
answer(void *arg)
{
	struct tok_write *tw = arg;

	return lc_view_one("token", token_json(&tw->t,
	    tw->secret[0] != '\0' ? tw->secret : NULL));
}

static int
list_one(void *arg, const struct lc_apitoken *t)
{
	json_object_array_add(arg, token_json(t, NULL));
	return 0;
}

/* The body of a POST: name and scopes (a list of known scopes, at least
 * one, none twice). 0, or -1 (VALIDATION_ERROR). */
static int
read_create(struct lc_ctx *ctx, struct tok_write *tw)
{
	json_object *a, *v;
	size_t i, n;
	int bit;

	if (lc_in_str(&ctx->dom.err, ctx->in, "name", 1, LC_NAME_MAX,
	    &tw->name) == -1)
		return -1;
	if (!json_object_object_get_ex(ctx->in, "scopes", &a))
		return lc_fail(ctx, LC_E_VALIDATION, "scopes",
		    "scopes is required");
	if (!json_object_is_type(a, json_type_array) ||
	    (n = json_object_array_length(a)) == 0)
		return lc_fail(ctx, LC_E_VALIDATION, "scopes", "scopes must be "
		    "a list of at least one of events:read, webhooks:manage");
	for (i = 0; i < n; i++) {
		v = json_object_array_get_idx(a, i);
		if (!json_object_is_type(v, json_type_string) ||
		    (bit = lc_apitoken_scope(json_object_get_string(v))) == 0)
			return lc_fail(ctx, LC_E_VALIDATION, "scopes",
			    "scopes may hold only events:read and "
			    "webhooks:manage");
		if (tw->scopes & bit)
			return lc_fail(ctx, LC_E_VALIDATION, "scopes",
			    "scopes names %s twice", lc_apitoken_scope_name(bit));
		tw->scopes |= bit;
	}
	return 0;
}

int
lc_h_admin_tokens(struct lc_ctx *ctx)
{
	struct tok_write tw;
	/* No idempotency key: a replayed answer would be the secret,
	 * kept in the database in clear. */
	struct lc_write w = { NULL, NULL, create_rule, answer, &tw,
	    "token.create", "token", NULL };
	char id[LC_ID_LEN + 1];
	const char *rest;
	json_object *a;
	int rc;

	memset(&tw, 0, sizeof(tw));
	if (ctx->subpath[0] == '\0') {
		if (lc_method_is(ctx, "GET")) {
			a = json_object_new_array();
			if (lc_db_apitokens(ctx->dom.db,
			    ctx->dom.caller.merchant_id, list_one, a) != 0) {
				json_object_put(a);
				return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
			}
			ctx->out = lc_view_one("tokens", a);
			return 0;
		}
		if (!lc_method_is(ctx, "POST"))
			return lc_not_allowed(ctx, "GET, POST");
		if (lc_body(ctx) == -1 || read_create(ctx, &tw) == -1 ||
		    lc_write(&ctx->dom, &w, &ctx->out) == -1)
			return -1;
		ctx->status = 201;
		return 0;
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		return -1;
	if (*rest != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (lc_method_is(ctx, "GET")) {
		if ((rc = lc_db_apitoken_get(ctx->dom.db,
		    ctx->dom.caller.merchant_id, id, &tw.t)) == -1)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		if (rc == 0)
			return lc_fail(ctx, LC_E_NOT_FOUND, NULL,
			    "No such integration token.");
		ctx->out = answer(&tw);
		return 0;
	}
	if (!lc_method_is(ctx, "DELETE"))
		return lc_not_allowed(ctx, "GET, DELETE");
	tw.id = w.object_id = id;
	w.rule = revoke_rule;
	w.action = "token.revoke";
	return lc_write(&ctx->dom, &w, &ctx->out) == -1 ? -1 : 0;
}
