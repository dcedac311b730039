/* POST /api/v1/transactions/sync: purchases captured offline, in a batch. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("sync");
}
