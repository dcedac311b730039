/* GET POST PATCH /api/v1/admin/locations and below: the owner's locations. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_locations");
}
