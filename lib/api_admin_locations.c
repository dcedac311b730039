/*
 * /api/v1/admin/locations: the owner's locations. GET lists, POST adds,
 * PATCH /{id} renames.
 */
#include <string.h>

#include "lc_http.h"

struct loc_write {
	const char *id, *name;
	struct lc_location l;
};

static int
add_rule(struct lc_dom *dom, void *arg)
{
	struct loc_write *lw = arg;
	char id[LC_ID_LEN + 1];

	return lc_shop_location_add(dom, dom->caller.merchant_id, lw->name,
	    id) == -1 ? -1 : lc_shop_location(dom, id, &lw->l);
}

static int
rename_rule(struct lc_dom *dom, void *arg)
{
	struct loc_write *lw = arg;

	return lc_shop_location_rename(dom, lw->id, lw->name, &lw->l);
}

static json_object *
answer(void *arg)
{
	return lc_view_one("location",
	    lc_view_location(&((struct loc_write *)arg)->l));
}

static int
list_one(void *arg, const struct lc_location *l)
{
	json_object_array_add(arg, lc_view_location(l));
	return 0;
}

int
lc_h_admin_locations(struct lc_ctx *ctx)
{
	struct loc_write lw;
	struct lc_write w = { "location_add", NULL, add_rule, answer, &lw,
	    "location.create", "location", NULL };
	char id[LC_ID_LEN + 1];
	const char *rest;
	json_object *a;
	int rc;

	memset(&lw, 0, sizeof(lw));
	if (ctx->subpath[0] == '\0') {
		if (lc_method_is(ctx, "GET")) {
			a = json_object_new_array();
			if (lc_db_locations(ctx->dom.db, ctx->dom.caller.merchant_id,
			    list_one, a) != 0) {
				json_object_put(a);
				return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
			}
			ctx->out = lc_view_one("locations", a);
			return 0;
		}
		if (!lc_method_is(ctx, "POST"))
			return lc_not_allowed(ctx, "GET, POST");
		if (lc_body(ctx) == -1)
			return -1;
		if (lc_in_str(&ctx->dom.err, ctx->in, "name", 1, LC_NAME_MAX,
		    &lw.name) == -1 ||
		    lc_in_key(&ctx->dom.err, ctx->in, 0, &w.key) == -1 ||
		    (rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
			return -1;
		lc_fmt_idempotent(ctx, rc);
		return 0;
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		return -1;
	if (*rest != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (!lc_method_is(ctx, "PATCH"))
		return lc_not_allowed(ctx, "PATCH");
	if (lc_body(ctx) == -1)
		return -1;
	lw.id = w.object_id = id;
	w.kind = NULL;
	w.rule = rename_rule;
	w.action = "location.update";
	if (lc_in_str(&ctx->dom.err, ctx->in, "name", 1, LC_NAME_MAX,
	    &lw.name) == -1)
		return -1;
	return lc_write(&ctx->dom, &w, &ctx->out) == -1 ? -1 : 0;
}
