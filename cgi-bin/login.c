/* POST /api/v1/auth/login: e-mail and password for a token pair. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("login");
}
