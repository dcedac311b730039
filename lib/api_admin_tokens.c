/*
 * /api/v1/admin/tokens: integration tokens.
 */
#include "lc_http.h"

int
lc_h_admin_tokens(struct lc_ctx *ctx)
{
	return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
}
