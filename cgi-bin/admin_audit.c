/* GET /api/v1/admin/audit: the owner's audit trail. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_audit");
}
