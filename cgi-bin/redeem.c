/* POST /api/v1/cashback/redeem: cashback against a purchase, oldest first. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("redeem");
}
