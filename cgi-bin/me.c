/* GET /api/v1/auth/me: the caller's profile. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("me");
}
