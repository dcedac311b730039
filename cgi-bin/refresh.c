/* POST /api/v1/auth/refresh: rotates a refresh token. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/auth/refresh", "POST", LC_EP_BARE | LC_EP_NOSTORE | LC_EP_JSON, lc_h_refresh
};

int
main(void)
{
	return lc_serve(&ep);
}
