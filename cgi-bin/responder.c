/*
 * Every responder: the program cgi-bin/NAME.fcgi is this file built with
 * LC_ENDPOINT "NAME" (cgi-bin/endpoints.am, made by tools/gen-endpoints
 * from lib/endpoints.def), and serves that row of the endpoint table.
 */
#include "lcard.h"

#ifndef LC_ENDPOINT
#error "LC_ENDPOINT: build this file with -DLC_ENDPOINT='\"NAME\"'"
#endif

int
main(void)
{
	return lc_serve(LC_ENDPOINT);
}
