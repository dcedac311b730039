/* POST /api/v1/auth/login: e-mail and password for a token pair. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/auth/login", "POST", LC_EP_BARE | LC_EP_NOSTORE | LC_EP_JSON, lc_h_login
};

int
main(void)
{
	return lc_serve(&ep);
}
