/* GET POST /api/v1/transactions/void: what the caller may still void; a void. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("void");
}
