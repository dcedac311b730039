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
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include <fcgiapp.h>

/* About the size of a lookup's answer head: small JSON. */
static const char answer[] =
    "{\"data\":{\"card_instance_id\":\"00000000-0000-4000-8000-000000000000\","
    "\"status\":\"active\",\"card_type\":\"cashback\"}}\n";

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

	signal(SIGPIPE, SIG_IGN);
	if (FCGX_IsCGI()) {
		fputs("bench_noop: run me under a FastCGI server\n", stderr);
		return 1;
	}
	if (FCGX_Init() != 0 || FCGX_InitRequest(&req, 0, 0) != 0) {
		fputs("bench_noop: cannot initialise FastCGI\n", stderr);
		return 1;
	}
	/* libfcgi's own printf knows no %zu: the head is made once here. */
	n = snprintf(head, sizeof(head),
	    "Status: 200 OK\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-store\r\n"
	    "\r\n", sizeof(answer) - 1);
	if (n < 0 || (size_t)n >= sizeof(head))
		return 1;
	while (FCGX_Accept_r(&req) >= 0) {
		drain(req.in);
		FCGX_PutStr(head, n, req.out);
		FCGX_PutStr(answer, (int)sizeof(answer) - 1, req.out);
		FCGX_Finish_r(&req);
	}
	return 0;
}
