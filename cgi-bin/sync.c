/* POST /api/v1/transactions/sync: purchases captured offline, in a batch. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/transactions/sync", "POST", LC_EP_AUTH | LC_EP_JSON, lc_h_sync
};

int
main(void)
{
	return lc_serve(&ep);
}
