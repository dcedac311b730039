/* GET POST /api/v1/cards/enrol: the programs to issue, a card issued at the counter. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("enrol");
}
