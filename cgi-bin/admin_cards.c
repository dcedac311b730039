/* GET POST PATCH /api/v1/admin/cards and below: cards, their images, sheets. */
#include "lcard.h"

int
main(void)
{
	return lc_serve("admin_cards");
}
