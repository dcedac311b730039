/* GET /api/v1/admin/reports and below: summaries and transactions. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_reports");
}
