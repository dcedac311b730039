/*
 * Fuzz target: the request reader, lc_req_read, fed a fake CGI environment
 * and a body made from the input, then lc_query_get on what it read.
 *
 * Input layout:
 *
 *   byte 0      how the body is served (see below)
 *   env lines   NAME=VALUE, each ended by '\n' (a line without '=' is
 *               ignored; a later line of the same name wins); a NUL in a
 *               value ends it, as in a real environment
 *   '\n'        an empty line ends the environment
 *   body        every byte after the empty line (none when there is no
 *               empty line)
 *
 * Byte 0: bits 0-2 pick the most a read returns (0 as much as asked, then
 * 1, 2, 3, 7, 64, 1000, 4096 bytes); bit 3 makes the reader end with -1
 * (an error) rather than 0 (end of file); bits 4-6 all set stretch the
 * body by repeating it to LC_BODY_MAX bytes, or LC_BODY_MAX + 1 with bit 7
 * set too, to reach the size limit and the buffer's growth (one input in
 * eight: a megabyte is slow to serve); a stretched body is served in
 * pieces of 1000 bytes or more.
 *
 * Checks, beyond the sanitizers: the copied fields equal the environment;
 * the body is a NUL-terminated prefix of what was served, never over
 * LC_BODY_MAX unless too_large is set, exactly CONTENT_LENGTH bytes (or
 * all there was) for a valid length within the limit, and a body over the
 * limit is drained from the reader; lc_query_get answers 1, 0 or -1 and a
 * value found fits its buffer.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"

#define ENV_MAX 64

struct env {
	const char *name[ENV_MAX];
	const char *value[ENV_MAX];
	int n;
};

struct reader {
	const unsigned char *body;	/* the bytes given */
	size_t bodylen;
	size_t total;			/* what is served: bodylen, or the
					 * stretched length */
	size_t pos;			/* served so far */
	int chunk;			/* most per read, 0 none */
	int fail;			/* end with -1 */
};

static void __attribute__((noreturn))
die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_request: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	abort();
}

static const char *
getparam(const char *name, void *envp)
{
	const struct env *e = envp;
	int i;

	for (i = e->n - 1; i >= 0; i--)
		if (strcmp(e->name[i], name) == 0)
			return e->value[i];
	return NULL;
}

/*
 * Compares (cmp) or copies into buf the n served bytes from at: the body,
 * repeated when stretched (spaces for an empty one). 0 when equal. The
 * first period is the body's, every later byte the one a period before:
 * a few memcmp or memcpy calls, however short the body.
 */
static int
served(const struct reader *r, size_t at, char *buf, size_t n, int cmp)
{
	const unsigned char *body = r->bodylen > 0 ? r->body :
	    (const unsigned char *)" ";
	size_t period = r->bodylen > 0 ? r->bodylen : 1;
	size_t first = n < period ? n : period, off = at % period, k, done;

	k = period - off < first ? period - off : first;
	if (cmp)
		return memcmp(buf, body + off, k) != 0 ||
		    memcmp(buf + k, body, first - k) != 0 ||
		    (n > period && memcmp(buf + period, buf, n - period) != 0);
	memcpy(buf, body + off, k);
	memcpy(buf + k, body, first - k);
	for (done = first; done < n; done += k) {
		k = done < n - done ? done : n - done;
		memcpy(buf + done, buf, k);
	}
	return 0;
}

static int
readfn(void *arg, char *buf, int n)
{
	struct reader *r = arg;
	size_t left = r->total - r->pos, want;

	if (n <= 0)
		die("read asked for no bytes", NULL);
	if (left == 0)
		return r->fail ? -1 : 0;
	want = (size_t)n;
	if (r->chunk > 0 && want > (size_t)r->chunk)
		want = (size_t)r->chunk;
	if (want > left)
		want = left;
	(void)served(r, r->pos, buf, want, 0);
	r->pos += want;
	return (int)want;
}

/* Splits the copy of the input into env lines and a body. */
static void
split(char *s, size_t len, struct env *e, const unsigned char **body,
    size_t *bodylen)
{
	char *p = s, *end = s + len, *nl, *eq;

	e->n = 0;
	*body = NULL;
	*bodylen = 0;
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl == p) {
			/* The empty line: the body follows. */
			*body = (const unsigned char *)p + 1;
			*bodylen = (size_t)(end - p - 1);
			return;
		}
		*nl = '\0';
		if ((eq = strchr(p, '=')) != NULL && e->n < ENV_MAX) {
			*eq = '\0';
			e->name[e->n] = p;
			e->value[e->n] = eq + 1;
			e->n++;
		}
		p = nl + 1;
	}
}

static int
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* CONTENT_LENGTH as lc_req_read documents it: -1 when absent or not a
 * plain decimal, else its value (saturated). */
static long long
content_length(const char *v)
{
	char *end;
	long long n;

	if (v == NULL || *v == '\0')
		return -1;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno == ERANGE && n > 0)
		return LLONG_MAX;
	if (errno != 0 || *end != '\0' || end == v || n < 0)
		return -1;
	return n;
}

static void
check_fields(const struct lc_req *r, const struct env *e)
{
	const char *v, *q;
	char want[16];

	v = getparam("REQUEST_METHOD", (void *)e);
	snprintf(want, sizeof(want), "%s", v == NULL ? "GET" : v);
	if (memchr(r->method, '\0', sizeof(r->method)) == NULL ||
	    strcmp(r->method, want) != 0)
		die("method differs from REQUEST_METHOD", v);
	if (r->path == NULL || r->query == NULL)
		die("no path or query", NULL);
	if ((v = getparam("REQUEST_URI", (void *)e)) != NULL && *v != '\0') {
		q = strchr(v, '?');
		if (strncmp(r->path, v, q == NULL ? strlen(v) :
		    (size_t)(q - v)) != 0 || strlen(r->path) !=
		    (q == NULL ? strlen(v) : (size_t)(q - v)))
			die("path differs from REQUEST_URI", v);
	}
	v = getparam("QUERY_STRING", (void *)e);
	if (strcmp(r->query, v == NULL ? "" : v) != 0)
		die("query differs from QUERY_STRING", v);
	if (!same(r->content_type, getparam("CONTENT_TYPE", (void *)e)) ||
	    !same(r->authorization, getparam("HTTP_AUTHORIZATION",
	    (void *)e)) ||
	    !same(r->request_id, getparam("HTTP_X_REQUEST_ID", (void *)e)) ||
	    !same(r->db_path, getparam("LOYALTY_DB", (void *)e)))
		die("a header differs from its variable", NULL);
	/* REDIRECT_STATUS: three digits, else none. */
	v = getparam("REDIRECT_STATUS", (void *)e);
	if (r->redirect_status != (v != NULL && strlen(v) == 3 &&
	    strspn(v, "0123456789") == 3 ? atoi(v) : 0))
		die("redirect_status differs from REDIRECT_STATUS", v);
}

static void
check_body(const struct lc_req *r, const struct env *e,
    const struct reader *rd)
{
	long long clen = content_length(getparam("CONTENT_LENGTH", (void *)e));

	if (clen > LC_BODY_MAX) {
		if (!r->too_large || r->body != NULL)
			die("a length over the limit was not refused", NULL);
		/* Drained, so a plain CGI web server is not left writing. */
		if (rd->pos != ((unsigned long long)clen < rd->total ?
		    (size_t)clen : rd->total))
			die("a body over the limit was not drained", NULL);
		return;
	}
	if (r->body == NULL) {
		if (r->bodylen != 0 || r->too_large)
			die("no body but a length or too_large", NULL);
		return;
	}
	if (r->body[r->bodylen] != '\0')
		die("body not NUL-terminated", NULL);
	if (r->bodylen > rd->pos || r->bodylen > (size_t)LC_BODY_MAX + 1)
		die("body longer than what was read", NULL);
	if (!r->too_large && r->bodylen > LC_BODY_MAX)
		die("body over the limit not flagged", NULL);
	if (r->too_large && r->bodylen <= LC_BODY_MAX)
		die("body within the limit flagged too large", NULL);
	if (served(rd, 0, r->body, r->bodylen, 1) != 0)
		die("body differs from what was served", NULL);
	if (clen >= 0 && r->bodylen != ((unsigned long long)clen < rd->total ?
	    (size_t)clen : rd->total))
		die("body length is not CONTENT_LENGTH or all there was", NULL);
}

static void
check_query(const char *query)
{
	static const char *const names[] = { "page", "page_size", "from",
	    "to", "type", "q", "status", "" };
	char out[64];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		rc = lc_query_get(query, names[i], out, sizeof(out));
		if (rc < -1 || rc > 1)
			die("lc_query_get answered out of range", names[i]);
		if (rc == 1 && memchr(out, '\0', sizeof(out)) == NULL)
			die("lc_query_get value not terminated", names[i]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int chunks[] = { 0, 1, 2, 3, 7, 64, 1000, 4096 };
	struct lc_req r;
	struct reader rd;
	struct env e;
	char *copy;
	int rc;

	if (size < 1)
		return 0;
	if ((copy = malloc(size)) == NULL)
		die("out of memory", NULL);
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	memset(&rd, 0, sizeof(rd));
	split(copy, size - 1, &e, &rd.body, &rd.bodylen);
	rd.total = rd.bodylen;
	if ((data[0] & 0x70) == 0x70)
		rd.total = (size_t)LC_BODY_MAX + (data[0] >> 7);
	rd.chunk = chunks[data[0] & 7];
	/* A megabyte a byte at a time is slow and finds nothing more. */
	if (rd.total != rd.bodylen && rd.chunk > 0 && rd.chunk < 1000)
		rd.chunk = 4096;
	rd.fail = (data[0] & 8) != 0;

	rc = lc_req_read(&r, getparam, &e, readfn, &rd);
	if (rc != 0)
		die("lc_req_read failed", NULL);
	check_fields(&r, &e);
	check_body(&r, &e, &rd);
	check_query(r.query);
	lc_req_free(&r);
	if (r.path != NULL || r.body != NULL || r.bodylen != 0)
		die("lc_req_free left fields set", NULL);
	free(copy);
	return 0;
}
