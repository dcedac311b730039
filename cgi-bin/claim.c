/* POST /api/v1/rewards/claim: the oldest pending reward of a punch card. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("claim");
}
