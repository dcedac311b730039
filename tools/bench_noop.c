/*
 * bench_noop: the do-nothing FastCGI responder of tools/bench, the
 * ceiling a lookup is measured against. It goes through what any
 * responder must (libfcgi's re-entrant accept loop, reading the whole
 * request body, one JSON answer with the service's usual headers) and
 * nothing else: no database, no JSON parsing, no token check.
 *
 * Served by lighttpd like any responder of the service (tools/bench adds
 * it to the rendered configuration under /api/v1/bench/noop).
 */
#include "bench_fcgi.h"

/* Reads and drops the request body, as a real responder reads it. */
static void
drain(FCGX_Stream *in)
{
	char buf[4096];

	while (FCGX_GetStr(buf, (int)sizeof(buf), in) > 0)
		;
}

int
main(void)
{
	FCGX_Request req;
	char head[256];
	int n;

	if ((n = bench_fcgi_start("bench_noop", &req, head, sizeof(head))) ==
	    -1)
		return 1;
	while (FCGX_Accept_r(&req) >= 0) {
		drain(req.in);
		FCGX_PutStr(head, n, req.out);
		FCGX_PutStr(bench_answer, (int)sizeof(bench_answer) - 1,
		    req.out);
		FCGX_Finish_r(&req);
	}
	return 0;
}
