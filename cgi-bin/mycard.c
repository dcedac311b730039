/* GET POST /api/v1/mycard and below: a customer's own card by its share token, public. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("mycard");
}
