/*
 * The request: copied out of the CGI or FastCGI environment, its body
 * read within the limit, and its query parameters.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lc_http.h"

#define LC_DRAIN_MAX (64LL * 1024 * 1024)

static char *
dupparam(const char *(*getparam)(const char *, void *), void *envp,
    const char *name)
{
	const char *v = getparam(name, envp);

	return v == NULL ? NULL : strdup(v);
}

int
lc_req_read(struct lc_req *r, const char *(*getparam)(const char *, void *),
    void *envp, int (*readfn)(void *, char *, int), void *rd)
{
	const char *v, *q;
	char *end;
	long long clen = -1;
	size_t cap, want;
	int n;

	memset(r, 0, sizeof(*r));
	v = getparam("REQUEST_METHOD", envp);
	snprintf(r->method, sizeof(r->method), "%s", v == NULL ? "GET" : v);

	/* The URI the client asked for: rewrite rules leave it intact. */
	if ((v = getparam("REQUEST_URI", envp)) != NULL && *v != '\0') {
		q = strchr(v, '?');
		r->path = strndup(v, q == NULL ? strlen(v) : (size_t)(q - v));
	} else {
		const char *sn = getparam("SCRIPT_NAME", envp);
		const char *pi = getparam("PATH_INFO", envp);
		size_t len = (sn ? strlen(sn) : 0) + (pi ? strlen(pi) : 0) + 1;

		if ((r->path = malloc(len)) != NULL)
			snprintf(r->path, len, "%s%s", sn ? sn : "", pi ? pi : "");
	}
	v = getparam("QUERY_STRING", envp);
	r->query = strdup(v == NULL ? "" : v);
	r->content_type = dupparam(getparam, envp, "CONTENT_TYPE");
	r->authorization = dupparam(getparam, envp, "HTTP_AUTHORIZATION");
	r->request_id = dupparam(getparam, envp, "HTTP_X_REQUEST_ID");
	r->terminal_id = dupparam(getparam, envp, "HTTP_X_TERMINAL_ID");
	r->db_path = dupparam(getparam, envp, "LOYALTY_DB");
	r->host = dupparam(getparam, envp, "HTTP_HOST");
	r->remote_addr = dupparam(getparam, envp, "REMOTE_ADDR");
	/* Apache and lighttpd set HTTPS=on; behind a proxy that ends TLS,
	 * the scheme it names. Only used to write links, never to trust. */
	r->https = ((v = getparam("HTTPS", envp)) != NULL &&
	    strcasecmp(v, "on") == 0) ||
	    ((v = getparam("REQUEST_SCHEME", envp)) != NULL &&
	    strcasecmp(v, "https") == 0) ||
	    ((v = getparam("HTTP_X_FORWARDED_PROTO", envp)) != NULL &&
	    strcasecmp(v, "https") == 0);
	/* Set when the web server runs a responder as its error page. */
	if ((v = getparam("REDIRECT_STATUS", envp)) != NULL &&
	    strlen(v) == 3 && strspn(v, "0123456789") == 3)
		r->redirect_status = atoi(v);
	if (r->path == NULL || r->query == NULL)
		return -1;

	if ((v = getparam("CONTENT_LENGTH", envp)) != NULL && *v != '\0') {
		errno = 0;
		clen = strtoll(v, &end, 10);
		if (errno == ERANGE && clen > 0)
			clen = LC_BODY_MAX + 1LL;	/* too large, certainly */
		else if (errno != 0 || *end != '\0' || end == v || clen < 0)
			clen = -1;
		if (clen > LC_BODY_MAX) {
			/* Refused unparsed (413). It is still read, up
			 * to a bound, and thrown away: a plain CGI responder
			 * that exits with its body unread makes the web server
			 * fail writing it, and the answer can be lost. */
			char sink[65536];
			long long left = clen < LC_DRAIN_MAX ? clen : LC_DRAIN_MAX;

			r->too_large = 1;
			while (left > 0 && (n = readfn(rd, sink, (int)(left <
			    (long long)sizeof(sink) ? left : (long long)sizeof(sink)))) > 0)
				left -= n;
			return 0;
		}
	}
	if (clen == 0 || (clen < 0 && strcmp(r->method, "POST") != 0 &&
	    strcmp(r->method, "PUT") != 0 && strcmp(r->method, "PATCH") != 0))
		return 0;
	/* Unknown length: read to EOF, one byte past the limit at most. */
	want = clen >= 0 ? (size_t)clen : (size_t)LC_BODY_MAX + 1;
	cap = clen >= 0 ? (size_t)clen + 1 : 65536;
	if ((r->body = malloc(cap)) == NULL)
		return -1;
	while (r->bodylen < want) {
		if (r->bodylen + 1 >= cap) {
			char *nb;

			cap = cap * 2 > want + 1 ? want + 1 : cap * 2;
			if ((nb = realloc(r->body, cap)) == NULL)
				return -1;
			r->body = nb;
		}
		n = readfn(rd, r->body + r->bodylen,
		    (int)(cap - 1 - r->bodylen));
		if (n <= 0)
			break;
		r->bodylen += (size_t)n;
	}
	r->body[r->bodylen] = '\0';
	if (r->bodylen > LC_BODY_MAX)
		r->too_large = 1;
	return 0;
}

void
lc_req_free(struct lc_req *r)
{
	free(r->path);
	free(r->query);
	free(r->content_type);
	free(r->authorization);
	free(r->request_id);
	free(r->terminal_id);
	free(r->db_path);
	free(r->host);
	free(r->remote_addr);
	free(r->body);
	memset(r, 0, sizeof(*r));
}

static int
unhex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Percent-decodes [s, s+len) into out. -1 on bad encoding, NUL or overflow. */
static int
urldecode(const char *s, size_t len, char *out, size_t outsz)
{
	size_t i, o = 0;
	int hi, lo, c;

	/* No room even for the terminator (found by tests/fuzz). */
	if (outsz == 0)
		return -1;
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c == '+')
			c = ' ';
		else if (c == '%') {
			if (i + 2 >= len || (hi = unhex(s[i + 1])) < 0 ||
			    (lo = unhex(s[i + 2])) < 0)
				return -1;
			c = hi * 16 + lo;
			i += 2;
		}
		if (c == 0 || o + 1 >= outsz)
			return -1;
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

int
lc_query_get(const char *query, const char *name, char *out, size_t outsz)
{
	const char *p = query, *amp, *eq;
	size_t nlen = strlen(name);

	while (p != NULL && *p != '\0') {
		amp = strchr(p, '&');
		eq = memchr(p, '=', amp ? (size_t)(amp - p) : strlen(p));
		if (eq != NULL && (size_t)(eq - p) == nlen &&
		    strncmp(p, name, nlen) == 0) {
			size_t vlen = amp ? (size_t)(amp - eq - 1) : strlen(eq + 1);

			return urldecode(eq + 1, vlen, out, outsz) == -1 ? -1 : 1;
		}
		if (eq == NULL && (amp ? (size_t)(amp - p) : strlen(p)) == nlen &&
		    strncmp(p, name, nlen) == 0) {
			/* "name" alone: an empty value. */
			if (outsz == 0)
				return -1;
			out[0] = '\0';
			return 1;
		}
		p = amp ? amp + 1 : NULL;
	}
	return 0;
}

/* A query parameter: 1 present (copied), 0 absent, -1 after lc_fail. */
int
lc_q_str(struct lc_ctx *ctx, const char *name, char *out, size_t outsz)
{
	int rc = lc_query_get(ctx->req.query, name, out, outsz);

	if (rc == -1 || (rc == 1 && out[0] == '\0'))
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must not be empty or malformed", name);
	return rc;
}

int
lc_q_csv_form(struct lc_ctx *ctx, const struct lc_tz *tz,
    struct lc_csv_form *form)
{
	char h[8];
	int rc;

	memset(form, 0, sizeof(*form));
	if ((rc = lc_q_str(ctx, "header", h, sizeof(h))) == -1)
		return -1;
	if (rc == 1 && strcmp(h, "keys") != 0 && strcmp(h, "names") != 0)
		return lc_fail(ctx, LC_E_VALIDATION, "header",
		    "header must be names or keys");
	/* keys unless asked: v1's scripts read the form they always had. */
	form->keys = !(rc == 1 && strcmp(h, "names") == 0);
	form->tz = *tz;
	form->exp = lc_currency_exp(&ctx->dom.cur);
	/* A zone's offset changes within a file: the header names the
	 * zone, each time is by the offset of its instant. */
	if (tz->name[0] != '\0')
		snprintf(form->zone, sizeof(form->zone), "%s", tz->name);
	else
		lc_tz_offset_text(tz->fixed_ms, form->zone);
	return 0;
}

int
lc_q_int(struct lc_ctx *ctx, const char *name, int64_t min, int64_t max,
    int64_t *v)
{
	char buf[32];
	int rc, i;
	int64_t n = 0;

	if ((rc = lc_q_str(ctx, name, buf, sizeof(buf))) <= 0)
		return rc;
	for (i = 0; buf[i] != '\0'; i++) {
		if (buf[i] < '0' || buf[i] > '9' || i >= 15)
			return lc_fail(ctx, LC_E_VALIDATION, name,
			    "%s must be an integer from %lld to %lld", name,
			    (long long)min, (long long)max);
		n = n * 10 + (buf[i] - '0');
	}
	if (n < min || n > max)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be an integer from %lld to %lld", name,
		    (long long)min, (long long)max);
	*v = n;
	return 1;
}

/* A date or date-time; a date-only end covers its whole (UTC) day. */
int
lc_q_date(struct lc_ctx *ctx, const char *name, int end, int64_t *v)
{
	char buf[64], *sp;
	int rc, date_only;

	if ((rc = lc_q_str(ctx, name, buf, sizeof(buf))) <= 0)
		return rc;
	/* A '+' of an offset sent unencoded arrives as a space, which no
	 * date holds: read it back as the '+' it was. */
	while ((sp = strchr(buf, ' ')) != NULL)
		*sp = '+';
	if (lc_time_parse(buf, v, &date_only) == -1)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be a date (2026-11-01) or an ISO 8601 date-time",
		    name);
	if (date_only && end)
		*v += 86400000LL - 1;
	return 1;
}
