/*
 * /api/v1/admin/webhooks: webhook endpoints.
 */
#include "lc_http.h"

int
lc_h_admin_webhooks(struct lc_ctx *ctx)
{
	return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
}
