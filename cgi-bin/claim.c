/* POST /api/v1/rewards/claim: the oldest pending reward of a punch card. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/rewards/claim", "POST", LC_EP_BARE | LC_EP_AUTH | LC_EP_JSON, lc_h_claim
};

int
main(void)
{
	return lc_serve(&ep);
}
