/*
 * GET and POST /api/v1/setup: the first run of a new installation (see
 * rule_setup.c). Both answer 404 once the shop has an owner.
 */
#include <string.h>

#include "lc_conf.h"
#include "lc_http.h"

/* What the host's layout lets others reach (lc_conf_hosting). */
static int
hosting(const struct lc_ctx *ctx)
{
	return lc_conf_hosting(ctx->prog_dir != NULL ? ctx->prog_dir : "",
	    ctx->db_path);
}

/*
 * The proof file's way, where the programs' folder is the account's
 * alone: a new secret each time (the secret is not kept: the file's name
 * is its hash with the database's nonce), the file to put, the folder's
 * own name and the nonce's public token. Else why not, for the page to
 * say what to change.
 */
static int
add_proof(struct lc_ctx *ctx)
{
	struct lc_setup_proof pr;
	const char *d = ctx->prog_dir != NULL ? ctx->prog_dir : "", *why;
	json_object *p;
	int rc = 0;

	if ((why = lc_setup_proof_unavailable(d)) != NULL ||
	    (rc = lc_setup_proof_new(&ctx->dom, d, &pr)) != 1) {
		if (rc == -1)
			return -1;
		json_object_object_add(ctx->out, "proof_unavailable",
		    json_object_new_string(why != NULL ? why :
		    "programs_folder_unknown"));
		return 0;
	}
	p = json_object_new_object();
	json_object_object_add(p, "secret", json_object_new_string(pr.secret));
	json_object_object_add(p, "file", json_object_new_string(pr.file));
	json_object_object_add(p, "folder", json_object_new_string(
	    strrchr(d, '/') != NULL ? strrchr(d, '/') + 1 : d));
	json_object_object_add(p, "round", json_object_new_string(pr.round));
	json_object_object_add(ctx->out, "proof", p);
	return 0;
}

static int
setup_get(struct lc_ctx *ctx)
{
	char file[4200];
	const char *base;
	int flags = hosting(ctx), code_ok = !(flags & LC_HOST_SHARED_USER), rc;

	if ((rc = lc_setup_needed(&ctx->dom, ctx->db_path, code_ok)) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (lc_setup_file(ctx->db_path, file, sizeof(file)) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	ctx->out = json_object_new_object();
	json_object_object_add(ctx->out, "setup_needed",
	    json_object_new_boolean(1));
	/* On PostgreSQL the code is the database's: the command that shows
	 * it, instead of a file. The file's name only: where the database
	 * lives is the host's business, and the merchant knows where they
	 * put it. None where every site could read it. */
	if (lc_db_name_is_pg(ctx->db_path))
		json_object_object_add(ctx->out, "code_command",
		    json_object_new_string("loyalty-admin setup-code"));
	else if (code_ok) {
		base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 :
		    file;
		json_object_object_add(ctx->out, "code_file",
		    json_object_new_string(base));
	}
	if (add_proof(ctx) == -1)
		return -1;
	json_object_object_add(ctx->out, "hosting", lc_fmt_hosting(flags));
	return 0;
}

/* The shop's own settings the owner chose on the setup page, each
 * checked as a settings PATCH checks it, before anything is made. */
static int
shop_settings(struct lc_ctx *ctx, struct lc_setup *in)
{
	const char *names[] = { "currency", "time_zone", "language" };
	const char **vals[] = { &in->currency, &in->time_zone, &in->language };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (lc_in_str(&ctx->dom.err, ctx->in, names[i], 0, LC_URL_MAX,
		    vals[i]) == -1)
			return -1;
		if (*vals[i] != NULL &&
		    lc_setting_check(&ctx->dom, names[i], *vals[i]) == -1) {
			snprintf(ctx->dom.err.field, sizeof(ctx->dom.err.field),
			    "%s", names[i]);
			return -1;
		}
	}
	return 0;
}

static int
setup_post(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_setup in;
	struct lc_setup_result r;
	struct lc_profile p;
	const char *password;
	json_object *o, *m, *l;
	int rc;

	memset(&in, 0, sizeof(in));
	/* Nothing is said about a shop that has its owner. */
	in.code_ok = lc_db_name_is_pg(ctx->db_path) ||
	    !(hosting(ctx) & LC_HOST_SHARED_USER);
	if ((rc = lc_setup_needed(&ctx->dom, ctx->db_path, in.code_ok)) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	/* A missing code is a wrong one: 403, counted, like any guess. */
	if (lc_in_str(e, ctx->in, "setup_code", 0, 64, &in.code) == -1 ||
	    lc_in_str(e, ctx->in, "setup_proof", 0, 64, &in.proof) == -1 ||
	    lc_in_str(e, ctx->in, "merchant_name", 1, LC_NAME_MAX,
	    &in.merchant_name) == -1 ||
	    lc_text_check(e, "merchant_name", in.merchant_name, LC_NAME_MAX,
	    0) == -1 ||
	    lc_in_str(e, ctx->in, "location_name", 1, LC_NAME_MAX,
	    &in.location_name) == -1 ||
	    lc_text_check(e, "location_name", in.location_name, LC_NAME_MAX,
	    0) == -1 ||
	    lc_in_str(e, ctx->in, "owner_name", 1, LC_NAME_MAX,
	    &in.owner_name) == -1 ||
	    lc_text_check(e, "owner_name", in.owner_name, LC_NAME_MAX, 0) == -1 ||
	    lc_in_str(e, ctx->in, "owner_email", 1, LC_EMAIL_MAX,
	    &in.owner_email) == -1 ||
	    lc_in_str(e, ctx->in, "owner_password", 1, LC_PASSWORD_MAX,
	    &password) == -1)
		return -1;
	if (shop_settings(ctx, &in) == -1)
		return -1;
	if (in.code == NULL)
		in.code = "";
	in.prog_dir = ctx->prog_dir != NULL ? ctx->prog_dir : "";
	if (lc_utf8_chars(password) < LC_PASSWORD_MIN)
		return lc_fail(ctx, LC_E_VALIDATION, "owner_password",
		    "owner_password must be %d to %d characters", LC_PASSWORD_MIN,
		    LC_PASSWORD_MAX);
	if (!lc_email_ok(in.owner_email))
		return lc_fail(ctx, LC_E_VALIDATION, "owner_email",
		    "owner_email must be an e-mail address");
	/* Slow: before any write. */
	if (lc_auth_hash_password(password, in.hash, sizeof(in.hash)) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if (lc_setup(&ctx->dom, ctx->db_path, &in, &r) == -1 ||
	    lc_profile_get(&ctx->dom, r.user_id, &p) == -1)
		return -1;
	o = json_object_new_object();
	m = json_object_new_object();
	json_object_object_add(m, "id", json_object_new_string(r.merchant_id));
	json_object_object_add(m, "name", json_object_new_string(in.merchant_name));
	json_object_object_add(o, "merchant", m);
	l = json_object_new_object();
	json_object_object_add(l, "id", json_object_new_string(r.location_id));
	json_object_object_add(l, "name", json_object_new_string(in.location_name));
	json_object_object_add(o, "location", l);
	json_object_object_add(o, "user", lc_fmt_user(&p));
	lc_profile_free(&p);
	ctx->out = o;
	return 0;
}

int
lc_h_setup(struct lc_ctx *ctx)
{
	if (ctx->subpath[0] != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	return lc_method_is(ctx, "GET") ? setup_get(ctx) : setup_post(ctx);
}
