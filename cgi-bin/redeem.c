/* POST /api/v1/cashback/redeem: cashback against a purchase, oldest first. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/cashback/redeem", "POST", LC_EP_BARE | LC_EP_AUTH | LC_EP_JSON, lc_h_redeem
};

int
main(void)
{
	return lc_serve(&ep);
}
