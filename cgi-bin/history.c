/* GET /api/v1/transactions/history: a card's transactions, paged. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("history");
}
