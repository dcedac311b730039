/* GET POST PATCH /api/v1/admin/programs and below: the owner's programs. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_programs");
}
