/*
 * POST /api/v1/auth/logout: ends the login of the bearer access token
 * and of the body's refresh_token (either may be left out).
 */
#include "lc_http.h"

int
lc_h_logout(struct lc_ctx *ctx)
{
	const char *access, *refresh;

	if (lc_serve_bearer(ctx, 0, &access) == -1 ||
	    lc_in_str(&ctx->dom.err, ctx->in, "refresh_token", 0, 512,
	    &refresh) == -1 || lc_logout(&ctx->dom, access, refresh) == -1)
		return -1;
	if ((ctx->out = json_object_new_object()) == NULL ||
	    json_object_object_add(ctx->out, "logged_out",
	    json_object_new_boolean(1)) != 0)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	return 0;
}
