/* POST /api/v1/transactions/record: a purchase on a card. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("record");
}
