/* Every path under /api/ that no other responder serves: 404. */
#include "lcard.h"

static const struct lc_endpoint ep = {
	NULL, "GET", 0, lc_h_notfound
};

int
main(void)
{
	return lc_serve(&ep);
}
