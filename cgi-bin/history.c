/* GET /api/v1/transactions/history: a card's transactions, paged. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/transactions/history", "GET", LC_EP_AUTH, lc_h_history
};

int
main(void)
{
	return lc_serve(&ep);
}
