/*
 * GET /api/v1/admin/events: the feed of events.
 */
#include "lc_http.h"

int
lc_h_admin_events(struct lc_ctx *ctx)
{
	return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
}
