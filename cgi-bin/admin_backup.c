/* GET /api/v1/admin/backup: a copy of the live database. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_backup");
}
