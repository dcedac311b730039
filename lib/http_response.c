/*
 * The answer: status line, headers, and the body: the success envelope
 * (or a bare body for the endpoints that have one) or the error body,
 * the same shape on every endpoint.
 */
#include <string.h>

#include "lc_http.h"

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 201: return "Created";
	case 207: return "Multi-Status";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 410: return "Gone";
	case 413: return "Payload Too Large";
	case 414: return "URI Too Long";
	case 415: return "Unsupported Media Type";
	case 422: return "Unprocessable Entity";
	case 429: return "Too Many Requests";
	case 431: return "Request Header Fields Too Large";
	case 503: return "Service Unavailable";
	default: return "Internal Server Error";
	}
}

/*
 * A body that is not JSON (an image, a sheet, CSV, a backup), streamed
 * from its file. Such answers are the owner's: never cached (but what the
 * handler allows, a customer's card image in their own browser), never
 * sniffed as another type, and a page among them runs no script.
 */
static void
raw_write(struct lc_ctx *ctx, const struct lc_endpoint *ep,
    void (*writefn)(void *, const char *, size_t), void *wr)
{
	char head[1024], buf[65536];
	long len;
	size_t n;
	int h;

	if (fflush(ctx->raw) != 0 || fseek(ctx->raw, 0, SEEK_END) != 0 ||
	    (len = ftell(ctx->raw)) < 0 || fseek(ctx->raw, 0, SEEK_SET) != 0) {
		lc_log("request %s: cannot read the answer's file",
		    ctx->request_id);
		len = 0;
	}
	h = snprintf(head, sizeof(head),
	    "Status: 200 OK\r\n"
	    "Content-Type: %s\r\n"
	    "X-Request-Id: %s\r\n"
	    "Content-Length: %ld\r\n"
	    "Cache-Control: %s\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "Content-Security-Policy: default-src 'none'; "
	    "style-src 'unsafe-inline'; img-src data:\r\n",
	    ctx->raw_type, ctx->request_id, len,
	    ctx->raw_cache != NULL ? ctx->raw_cache : "no-store");
	if (ep != NULL && (ep->flags & LC_EP_NOINDEX))
		h += snprintf(head + h, sizeof(head) - (size_t)h,
		    "X-Robots-Tag: noindex\r\n");
	if (ctx->raw_name[0] != '\0')
		h += snprintf(head + h, sizeof(head) - (size_t)h,
		    "Content-Disposition: attachment; filename=\"%s\"\r\n",
		    ctx->raw_name);
	snprintf(head + h, sizeof(head) - (size_t)h, "\r\n");
	writefn(wr, head, strlen(head));
	while (len > 0 && (n = fread(buf, 1, sizeof(buf), ctx->raw)) > 0) {
		writefn(wr, buf, n);
		len -= (long)n;
	}
}

void
lc_resp_write(struct lc_ctx *ctx, const struct lc_endpoint *ep,
    void (*writefn)(void *, const char *, size_t), void *wr)
{
	const struct lc_error *err = &ctx->dom.err;
	json_object *body;
	char head[1024];
	const char *text;
	int status, n;

	if (err->code == LC_OK && ctx->raw != NULL) {
		raw_write(ctx, ep, writefn, wr);
		return;
	}
	if (err->code != LC_OK) {
		status = lc_err_info(err->code)->status;
		body = lc_fmt_error(err, ctx->request_id, ctx->dom.now_ms);
	} else if (ctx->out == NULL) {
		lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
		status = 500;
		body = lc_fmt_error(err, ctx->request_id, ctx->dom.now_ms);
	} else if (ep != NULL && (ep->flags & LC_EP_BARE)) {
		status = ctx->status ? ctx->status : 200;
		body = json_object_get(ctx->out);
	} else {
		status = ctx->status ? ctx->status : 200;
		body = lc_fmt_envelope(ctx->out, ctx->request_id,
		    ctx->dom.now_ms);
	}
	text = lc_json_text(body);
	n = snprintf(head, sizeof(head),
	    "Status: %d %s\r\n"
	    "Content-Type: application/json; charset=utf-8\r\n"
	    "X-Request-Id: %s\r\n"
	    "Content-Length: %zu\r\n",
	    status, reason(status), ctx->request_id, strlen(text));
	if (ep != NULL && (ep->flags & LC_EP_NOSTORE))
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "Cache-Control: no-store\r\n");
	/* A customer's page: for its holder, never for search engines. */
	if (ep != NULL && (ep->flags & LC_EP_NOINDEX))
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "X-Robots-Tag: noindex\r\n");
	if (err->code != LC_OK && err->retry_after > 0)
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "Retry-After: %ld\r\n", err->retry_after);
	if (err->code == LC_E_METHOD_NOT_ALLOWED && ctx->allow[0] != '\0')
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "Allow: %s\r\n", ctx->allow);
	/* Every 401, a failed login included, names the scheme. */
	if (status == 401)
		n += snprintf(head + n, sizeof(head) - (size_t)n,
		    "WWW-Authenticate: Bearer%s\r\n", ctx->auth_had_token ?
		    " error=\"invalid_token\"" : "");
	snprintf(head + n, sizeof(head) - (size_t)n, "\r\n");
	writefn(wr, head, strlen(head));
	writefn(wr, text, strlen(text));
	json_object_put(body);
}
