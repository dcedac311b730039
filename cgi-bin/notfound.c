/* Every path under /api/ that no other responder serves: 404. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("notfound");
}
