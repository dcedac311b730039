/* GET PATCH /api/v1/admin/settings: the installation's settings. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_settings");
}
