/*
 * The one table of endpoints. A responder in cgi-bin/ names its row; the
 * rewrite rules (htdocs/.htaccess, tools/lib.sh for lighttpd) and the
 * build lists (Makefile.am) must list the same names and paths, which
 * tests/unit_endpoints checks.
 */
#include <stdio.h>
#include <string.h>

#include "lc_http.h"

#define V1 "/api/v1"

const struct lc_endpoint lc_endpoints[] = {
	{ "login", V1 "/auth/login", "POST",
	    LC_EP_BARE | LC_EP_NOSTORE | LC_EP_JSON, lc_h_login },
	{ "me", V1 "/auth/me", "GET",
	    LC_EP_BARE | LC_EP_NOSTORE | LC_EP_AUTH, lc_h_me },
	{ "refresh", V1 "/auth/refresh", "POST",
	    LC_EP_BARE | LC_EP_NOSTORE | LC_EP_JSON, lc_h_refresh },
	/* Takes the bearer token itself: an expired one is no error here. */
	{ "logout", V1 "/auth/logout", "POST", LC_EP_NOSTORE | LC_EP_JSON,
	    lc_h_logout },
	{ "lookup", V1 "/cards/lookup", "POST", LC_EP_AUTH | LC_EP_JSON,
	    lc_h_lookup },
	{ "record", V1 "/transactions/record", "POST", LC_EP_AUTH | LC_EP_JSON,
	    lc_h_record },
	{ "history", V1 "/transactions/history", "GET", LC_EP_AUTH,
	    lc_h_history },
	{ "sync", V1 "/transactions/sync", "POST", LC_EP_AUTH | LC_EP_JSON,
	    lc_h_sync },
	{ "claim", V1 "/rewards/claim", "POST",
	    LC_EP_BARE | LC_EP_AUTH | LC_EP_JSON, lc_h_claim },
	{ "redeem", V1 "/cashback/redeem", "POST",
	    LC_EP_BARE | LC_EP_AUTH | LC_EP_JSON, lc_h_redeem },
	/* Undoes a transaction: the owner's any, staff their own recent;
	 * GET lists what the caller may still void at a till. */
	{ "void", V1 "/transactions/void", "GET POST", LC_EP_AUTH | LC_EP_JSON,
	    lc_h_void },
	/* Its answer holds the customer's secret link: kept from caches. */
	{ "enrol", V1 "/cards/enrol", "GET POST",
	    LC_EP_AUTH | LC_EP_NOSTORE | LC_EP_JSON, lc_h_enrol },
	/* A customer's own card, by the unguessable link they hold. */
	/* POST only below it, /TOKEN/redraw, with no body: JSON (or none)
	 * all the same, so no other site's form can send it. */
	{ "mycard", V1 "/mycard", "GET POST",
	    LC_EP_NOSTORE | LC_EP_NOINDEX | LC_EP_TREE | LC_EP_JSON,
	    lc_h_mycard },
	/* First run: while the shop has no owner. */
	{ "setup", V1 "/setup", "GET POST", LC_EP_NOSTORE | LC_EP_JSON,
	    lc_h_setup },
	/* The owner's back office (docs/admin-api.md). */
	{ "admin_locations", V1 "/admin/locations", "GET POST PATCH",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_JSON | LC_EP_TREE,
	    lc_h_admin_locations },
	{ "admin_users", V1 "/admin/users", "GET POST PATCH",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_JSON | LC_EP_TREE,
	    lc_h_admin_users },
	{ "admin_programs", V1 "/admin/programs", "GET POST PATCH",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_JSON | LC_EP_TREE,
	    lc_h_admin_programs },
	{ "admin_cards", V1 "/admin/cards", "GET POST PATCH",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_JSON | LC_EP_TREE,
	    lc_h_admin_cards },
	{ "admin_reports", V1 "/admin/reports", "GET",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_TREE, lc_h_admin_reports },
	{ "admin_backup", V1 "/admin/backup", "GET",
	    LC_EP_OWNER | LC_EP_NOSTORE, lc_h_admin_backup },
	{ "admin_settings", V1 "/admin/settings", "GET PATCH",
	    LC_EP_OWNER | LC_EP_NOSTORE | LC_EP_JSON, lc_h_admin_settings },
	{ "admin_audit", V1 "/admin/audit", "GET",
	    LC_EP_OWNER | LC_EP_NOSTORE, lc_h_admin_audit },
	/* Anything else under /api/: 404 in JSON. */
	/* Also the web server's error handler, for any path (a customer's
	 * card link among them): never stored, never indexed. */
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
