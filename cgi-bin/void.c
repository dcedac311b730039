/* POST /api/v1/transactions/void: undoes a transaction by a linked void. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("void");
}
