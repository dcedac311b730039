/* POST /api/v1/auth/login: tokens and the user object for a password. */
#include "lc_http.h"

int
lc_h_login(struct lc_ctx *ctx)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_login_result r;
	const char *email, *password;

	if (lc_in_str(e, ctx->in, "email", 1, LC_EMAIL_MAX, &email) == -1 ||
	    lc_in_str(e, ctx->in, "password", 1, LC_PASSWORD_MAX,
	    &password) == -1 ||
	    lc_login(&ctx->dom, email, password, &r) == -1)
		return -1;
	ctx->out = lc_fmt_tokens(&r.tokens);
	json_object_object_add(ctx->out, "user", lc_fmt_user(&r.profile));
	lc_profile_free(&r.profile);
	return 0;
}
