/* POST /api/v1/auth/logout: ends a login. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("logout");
}
