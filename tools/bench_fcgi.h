/*
 * What tools/bench's do-nothing responder (bench_noop) and its floor
 * (bench_floor) share: the start of a FastCGI responder and the one
 * answer both give, the same bytes, so that the ratio of the two compares
 * only the work before it.
 */
#ifndef BENCH_FCGI_H
#define BENCH_FCGI_H

#include <signal.h>
#include <stdio.h>

#include <fcgiapp.h>

/* About the size of a lookup's answer head: small JSON. */
static const char bench_answer[] =
    "{\"data\":{\"card_instance_id\":\"00000000-0000-4000-8000-000000000000\","
    "\"status\":\"active\",\"card_type\":\"cashback\"}}\n";

/*
 * Sets up the responder (SIGPIPE ignored, a run as plain CGI refused)
 * and writes the answer's head into head: its length, or -1 (said on
 * stderr as prog's).
 */
static int
bench_fcgi_start(const char *prog, FCGX_Request *req, char *head, size_t sz)
{
	int n;

	signal(SIGPIPE, SIG_IGN);
	if (FCGX_IsCGI()) {
		fprintf(stderr, "%s: run me under a FastCGI server\n", prog);
		return -1;
	}
	if (FCGX_Init() != 0 || FCGX_InitRequest(req, 0, 0) != 0) {
		fprintf(stderr, "%s: cannot initialise FastCGI\n", prog);
		return -1;
	}
	/* libfcgi's own printf knows no %zu: the head is made once here. */
	n = snprintf(head, sz,
	    "Status: 200 OK\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-store\r\n"
	    "\r\n", sizeof(bench_answer) - 1);
	if (n < 0 || (size_t)n >= sz) {
		fprintf(stderr, "%s: the answer's head does not fit\n", prog);
		return -1;
	}
	return n;
}

#endif /* BENCH_FCGI_H */
