/* GET POST /api/v1/setup: the first run, while the shop has no owner. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("setup");
}
