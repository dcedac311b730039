/* POST /api/v1/cards/lookup: a card by QR payload or barcode (read-only). */
#include "lcard.h"

int
main(void)
{
	return lc_serve("lookup");
}
