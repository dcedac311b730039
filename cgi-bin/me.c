/* GET /api/v1/auth/me: the caller's profile. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/auth/me", "GET", LC_EP_BARE | LC_EP_NOSTORE | LC_EP_AUTH, lc_h_me
};

int
main(void)
{
	return lc_serve(&ep);
}
