/*
 * /api/v1/admin/users: the owner's staff and owners. GET lists, POST
 * adds, PATCH /{id} renames, moves, disables, enables or sets a new
 * password (which ends that user's sessions).
 */
#include <string.h>

#include "lc_http.h"

struct user_write {
	const char *id;
	struct lc_user in;		/* POST */
	struct lc_user_change ch;	/* PATCH */
	struct lc_user u;
};

static int
add_rule(struct lc_dom *dom, void *arg)
{
	struct user_write *uw = arg;
	char id[LC_ID_LEN + 1];

	return lc_shop_user_add(dom, &uw->in, id) == -1 ? -1 :
	    lc_shop_user(dom, id, &uw->u);
}

static int
update_rule(struct lc_dom *dom, void *arg)
{
	struct user_write *uw = arg;

	/* The hash is no one's to read, but that it changed is. */
	if (uw->ch.hash != NULL)
		lc_audit_note(dom, "password", json_object_new_string("changed"));
	return lc_shop_user_update(dom, uw->id, &uw->ch, &uw->u);
}

static json_object *
answer(void *arg)
{
	return lc_view_one("user", lc_view_staff(&((struct user_write *)arg)->u));
}

static int
list_one(void *arg, const struct lc_user *u)
{
	json_object_array_add(arg, lc_view_staff(u));
	return 0;
}

/* A password from the body, hashed (slow: before any write). */
static int
password(struct lc_ctx *ctx, int required, char hash[LC_HASH_MAX + 1],
    int *present)
{
	const char *pw;

	*present = 0;
	if (lc_in_str(&ctx->dom.err, ctx->in, "password", required,
	    LC_PASSWORD_MAX, &pw) == -1)
		return -1;
	if (pw == NULL)
		return 0;
	if (lc_utf8_chars(pw) < LC_PASSWORD_MIN)
		return lc_fail(ctx, LC_E_VALIDATION, "password",
		    "password must be %d to %d characters", LC_PASSWORD_MIN,
		    LC_PASSWORD_MAX);
	if (lc_auth_hash_password(pw, hash, LC_HASH_MAX + 1) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	*present = 1;
	return 0;
}

static int
add(struct lc_ctx *ctx, struct user_write *uw, struct lc_write *w)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_user *u = &uw->in;
	const char *email, *type, *loc, *name;
	int has, rc;

	if (lc_in_str(e, ctx->in, "email", 1, LC_EMAIL_MAX, &email) == -1 ||
	    lc_in_str(e, ctx->in, "user_type", 1, 16, &type) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 0, LC_REF_MAX, &loc) == -1 ||
	    lc_in_str(e, ctx->in, "name", 0, LC_NAME_MAX, &name) == -1 ||
	    lc_in_key(e, ctx->in, 0, &w->key) == -1)
		return -1;
	if (strcmp(type, "owner") != 0 && strcmp(type, "system_user") != 0)
		return lc_fail(ctx, LC_E_VALIDATION, "user_type",
		    "user_type must be owner or system_user");
	u->is_owner = strcmp(type, "owner") == 0;
	if (!u->is_owner && loc == NULL)
		return lc_fail(ctx, LC_E_VALIDATION, "location_id",
		    "A system_user needs its location_id.");
	if (!lc_email_ok(email))
		return lc_fail(ctx, LC_E_VALIDATION, "email",
		    "email must be an e-mail address");
	/* Longer than any id: it names no location (and must not be cut
	 * short into one). */
	if (loc != NULL && strlen(loc) > LC_ID_LEN)
		return lc_fail(ctx, LC_E_NOT_FOUND, "location_id",
		    "No such location.");
	if (password(ctx, 1, u->password_hash, &has) == -1)
		return -1;
	memcpy(u->merchant_id, ctx->dom.caller.merchant_id,
	    sizeof(u->merchant_id));
	snprintf(u->email, sizeof(u->email), "%s", email);
	snprintf(u->location_id, sizeof(u->location_id), "%s",
	    loc != NULL ? loc : "");
	snprintf(u->display_name, sizeof(u->display_name), "%s",
	    name != NULL ? name : "");
	if ((rc = lc_write(&ctx->dom, w, &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}

static int
update(struct lc_ctx *ctx, struct user_write *uw, struct lc_write *w)
{
	struct lc_error *e = &ctx->dom.err;
	char hash[LC_HASH_MAX + 1];
	int disabled, has;

	if (lc_in_str(e, ctx->in, "name", 0, LC_NAME_MAX, &uw->ch.name) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 0, LC_REF_MAX,
	    &uw->ch.location_id) == -1 ||
	    lc_in_bool(e, ctx->in, "disabled", 0, &disabled, &has) == -1)
		return -1;
	uw->ch.disabled = has ? disabled : -1;
	if (password(ctx, 0, hash, &has) == -1)
		return -1;
	uw->ch.hash = has ? hash : NULL;
	w->kind = NULL;
	w->rule = update_rule;
	w->action = "user.update";
	w->object_id = uw->id;
	return lc_write(&ctx->dom, w, &ctx->out) == -1 ? -1 : 0;
}

int
lc_h_admin_users(struct lc_ctx *ctx)
{
	struct user_write uw;
	struct lc_write w = { "user_add", NULL, add_rule, answer, &uw,
	    "user.create", "user", NULL };
	char id[LC_ID_LEN + 1];
	const char *rest;
	json_object *a;

	memset(&uw, 0, sizeof(uw));
	if (ctx->subpath[0] == '\0') {
		if (lc_method_is(ctx, "GET")) {
			a = json_object_new_array();
			if (lc_db_users(ctx->dom.db, ctx->dom.caller.merchant_id,
			    list_one, a) != 0) {
				json_object_put(a);
				return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
			}
			ctx->out = lc_view_one("users", a);
			return 0;
		}
		if (!lc_method_is(ctx, "POST"))
			return lc_not_allowed(ctx, "GET, POST");
		return lc_body(ctx) == -1 ? -1 : add(ctx, &uw, &w);
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		return -1;
	if (*rest != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (!lc_method_is(ctx, "PATCH"))
		return lc_not_allowed(ctx, "PATCH");
	uw.id = id;
	return lc_body(ctx) == -1 ? -1 : update(ctx, &uw, &w);
}
