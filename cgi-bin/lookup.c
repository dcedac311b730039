/* POST /api/v1/cards/lookup: a card by QR payload or barcode (read-only). */
#include "lcard.h"

static const struct lc_endpoint ep = {
	"/api/v1/cards/lookup", "POST", LC_EP_AUTH | LC_EP_JSON, lc_h_lookup
};

int
main(void)
{
	return lc_serve(&ep);
}
