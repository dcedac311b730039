/* POST /api/v1/auth/refresh: rotates a refresh token. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("refresh");
}
