/*
 * The one table of endpoints, from endpoints.def (which says what else
 * is made from it), and notfound, the responder of every other path.
 */
#include <stdio.h>
#include <string.h>

#include "lc_http.h"

const struct lc_endpoint lc_endpoints[] = {
#define LC_EP(name, path, methods, flags) \
	{ #name, "/api/v1/" path, methods, flags, lc_h_##name },
#include "endpoints.def"
#undef LC_EP
	/* Anything else under /api/: 404 in JSON. */
	/* Also the web server's error handler, for any path (a customer's
	 * card link among them): never stored, never indexed. Its path
	 * is no row's: the rewrite rules send it what they send no row. */
	{ "notfound", NULL, "GET", LC_EP_NOSTORE | LC_EP_NOINDEX,
	    lc_h_notfound },
	{ NULL, NULL, NULL, 0, NULL }
};

const struct lc_endpoint *
lc_endpoint_named(const char *name)
{
	const struct lc_endpoint *ep;

	for (ep = lc_endpoints; ep->name != NULL; ep++)
		if (strcmp(ep->name, name) == 0)
			return ep;
	return NULL;
}

/*
 * Anything else under /api/, and the web server's own errors: lighttpd
 * runs this responder as its error handler (REDIRECT_STATUS set), so a
 * request it refused, a body too large for it or a responder that died
 * still answers JSON in the service's shape. A request the server
 * refused is the client's to mend: a 4xx, never retried, never logged;
 * Retry-After only where a retry helps.
 */
int
lc_h_notfound(struct lc_ctx *ctx)
{
	int st = ctx->req.redirect_status;

	switch (st) {
	case 0:
	case 200:
	case 404:
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	case 401:
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL, NULL);
	case 403:
		return lc_fail(ctx, LC_E_FORBIDDEN, NULL, "This is not served.");
	case 405:
		/* The web server's own 405 is for its files: they are read. */
		snprintf(ctx->allow, sizeof(ctx->allow), "GET, HEAD");
		return lc_fail(ctx, LC_E_METHOD_NOT_ALLOWED, NULL, NULL);
	case 413:
		return lc_fail(ctx, LC_E_PAYLOAD_TOO_LARGE, NULL, NULL);
	case 414:
		return lc_fail(ctx, LC_E_URI_TOO_LONG, NULL, NULL);
	case 431:
		return lc_fail(ctx, LC_E_HEADERS_TOO_LARGE, NULL, NULL);
	/* 501 (a Transfer-Encoding or a method it does not take) and 505
	 * (an HTTP version it does not speak): the request's to mend. */
	case 501:
	case 505:
		return lc_fail(ctx, LC_E_VALIDATION, NULL, "The web server "
		    "refused the request (HTTP %d): check its method, "
		    "headers and HTTP version.", st);
	case 429:
		ctx->dom.err.retry_after = 1;
		return lc_fail(ctx, LC_E_RATE_LIMITED, NULL, "The web server "
		    "takes no more requests from here for now; try again "
		    "shortly.");
	/* The request did not arrive whole in time (a slow link, a loaded
	 * machine): nothing was done, and sent again it may well arrive. */
	case 408:
	case 502:
	case 503:
	case 504:
		ctx->dom.err.retry_after = 1;
		return lc_fail(ctx, LC_E_UNAVAILABLE, NULL, NULL);
	default:
		/* A malformed request line, URL or header (400), a body
		 * without its length (411) and the like. */
		if (st >= 400 && st < 500)
			return lc_fail(ctx, LC_E_VALIDATION, NULL, "The web "
			    "server refused the request as malformed (HTTP "
			    "%d): check its URL and headers.", st);
		ctx->dom.err.retry_after = 1;
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	}
}
