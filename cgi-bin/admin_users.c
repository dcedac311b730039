/* GET POST PATCH /api/v1/admin/users and below: the owner's staff. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_users");
}
