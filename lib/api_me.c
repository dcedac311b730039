/* GET /api/v1/auth/me: the caller's user object. */
#include "lc_http.h"

int
lc_h_me(struct lc_ctx *ctx)
{
	struct lc_profile p;

	if (lc_profile_get(&ctx->dom, ctx->dom.caller.user_id, &p) == -1)
		return -1;
	ctx->out = lc_fmt_user(&p);
	lc_profile_free(&p);
	return 0;
}
