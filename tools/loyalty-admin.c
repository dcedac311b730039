/* loyalty-admin: sets up merchants, locations, users, programs and cards. */
#include "lcard.h"

int
main(int argc, char *argv[])
{
	return lc_admin_main(argc, argv);
}
