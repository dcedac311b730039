/*
 * /api/v1/admin/settings: GET lists the settings with their defaults and
 * ranges, as the caller's shop sees them; PATCH sets several at once, all
 * or none. A whole-number setting is a JSON number, a text setting a
 * string. The shop's own settings (scope "shop": currency,
 * currency_symbol, time_zone, language, public_url) are stored for the
 * caller's merchant; the others (scope "installation") for every shop.
 */
#include <string.h>

#include "lc_conf.h"
#include "lc_http.h"

struct set_write {
	json_object *in;
	const char *merchant_id;	/* the caller's shop */
};

static int
set_rule(struct lc_dom *dom, void *arg)
{
	struct set_write *sw = arg;
	const struct lc_setting_info *si;
	const char *value;
	char text[32];
	int s;

	json_object_object_foreach(sw->in, key, v) {
		if ((s = lc_setting_lookup(key)) == -1)
			return lc_dom_fail(dom, LC_E_VALIDATION, key,
			    "%s is not a setting", key);
		si = lc_setting_info((enum lc_setting)s);
		if (si->tool_only)
			return lc_dom_fail(dom, LC_E_FORBIDDEN, key,
			    "%s is set on the server, with loyalty-admin "
			    "setting set.", key);
		if (si->kind == LC_SETTING_TEXT) {
			/* A string, whole (no NUL cutting it short); "" clears
			 * it, null is no text. */
			if (v == NULL)
				return lc_dom_fail(dom, LC_E_VALIDATION, key,
				    "%s must be a string", key);
			/* Read at any length up to the longest setting's:
			 * the setting's own check then says its rule. */
			if (lc_in_str(&dom->err, sw->in, key, 0, LC_URL_MAX,
			    &value) == -1)
				return -1;
		} else if (!json_object_is_type(v, json_type_int))
			return lc_dom_fail(dom, LC_E_VALIDATION, key,
			    "%s must be a whole number", key);
		else {
			snprintf(text, sizeof(text), "%lld",
			    (long long)json_object_get_int64(v));
			value = text;
		}
		/* A shop's own setting is the caller's shop's. */
		if (lc_setting_set_shop(dom, si->per_shop ? sw->merchant_id : "",
		    key, value) == -1) {
			snprintf(dom->err.field, sizeof(dom->err.field), "%s",
			    key);
			return -1;
		}
	}
	return 0;
}

static json_object *
settings(struct lc_db *db, const char *merchant_id)
{
	const struct lc_setting_info *si;
	json_object *a = json_object_new_array(), *o;
	char text[LC_BYTES(LC_URL_MAX)];
	int i;

	for (i = 0; i < LC_SET__MAX; i++) {
		si = lc_setting_info((enum lc_setting)i);
		o = json_object_new_object();
		json_object_object_add(o, "key", json_object_new_string(si->name));
		json_object_object_add(o, "scope", json_object_new_string(
		    si->per_shop ? "shop" : "installation"));
		if (si->kind == LC_SETTING_TEXT) {
			/* A text has no range: its longest length instead. */
			json_object_object_add(o, "value", json_object_new_string(
			    lc_setting_shop_text(db, merchant_id,
			    (enum lc_setting)i, text, sizeof(text))));
			json_object_object_add(o, "default",
			    json_object_new_string(si->text_def != NULL ?
			    si->text_def : ""));
			json_object_object_add(o, "max_length",
			    json_object_new_int64(si->max));
		} else {
			json_object_object_add(o, "value", json_object_new_int64(
			    lc_setting_shop(db, merchant_id,
			    (enum lc_setting)i)));
			json_object_object_add(o, "default",
			    json_object_new_int64(si->def));
			json_object_object_add(o, "min",
			    json_object_new_int64(si->min));
			json_object_object_add(o, "max",
			    json_object_new_int64(si->max));
		}
		json_object_array_add(a, o);
	}
	return lc_view_one("settings", a);
}

int
lc_h_admin_settings(struct lc_ctx *ctx)
{
	struct set_write sw = { ctx->in, ctx->dom.caller.merchant_id };
	struct lc_write w = { NULL, NULL, set_rule, NULL, &sw,
	    "settings.update", "settings", NULL };
	int64_t shops;
	int s;

	if (ctx->subpath[0] != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (lc_method_is(ctx, "PATCH")) {
		if (json_object_object_length(ctx->in) == 0)
			return lc_fail(ctx, LC_E_VALIDATION, NULL,
			    "Send the settings to change.");
		/* The installation's settings are every shop's: on one
		 * serving several, one owner must not change them for all.
		 * The whole PATCH is refused then, the shop's own too. */
		if (lc_db_merchant_count(ctx->dom.db, &shops) == -1)
			return -1;
		if (shops > 1) {
			json_object_object_foreach(ctx->in, key, v) {
				(void)v;
				if ((s = lc_setting_lookup(key)) != -1 &&
				    !lc_setting_per_shop((enum lc_setting)s))
					return lc_fail(ctx, LC_E_FORBIDDEN, key,
					    "This installation serves several "
					    "shops: %s is changed on the server "
					    "(loyalty-admin setting); a shop "
					    "sets only its own currency, "
					    "currency_symbol, time_zone, "
					    "language and public_url.", key);
			}
		}
		if (lc_write(&ctx->dom, &w, NULL) == -1)
			return -1;
	}
	ctx->out = settings(ctx->dom.db, ctx->dom.caller.merchant_id);
	/* Read-only: what the owner must know of the host (back office). */
	json_object_object_add(ctx->out, "hosting", lc_fmt_hosting(
	    lc_conf_hosting(ctx->prog_dir != NULL ? ctx->prog_dir : "",
	    ctx->db_path)));
	return 0;
}
