/* POST /api/v1/auth/refresh: a new token pair for a refresh token. */
#include "lc_http.h"

int
lc_h_refresh(struct lc_ctx *ctx)
{
	struct lc_tokens t;
	const char *token;

	if (lc_in_str(&ctx->dom.err, ctx->in, "refresh_token", 1, 512,
	    &token) == -1 || lc_refresh(&ctx->dom, token, &t) == -1)
		return -1;
	ctx->out = lc_fmt_tokens(&t);
	return 0;
}
