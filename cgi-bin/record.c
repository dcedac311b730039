/* POST /api/v1/transactions/record: a purchase on a card. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/transactions/record", "POST", LC_EP_AUTH | LC_EP_JSON, lc_h_record
};

int
main(void)
{
	return lc_serve(&ep);
}
