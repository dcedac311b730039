/*
 * liblcard: the loyalty-card POS service library. Public interface for the
 * responders in cgi-bin/, the admin tool and the tests.
 */
#ifndef LCARD_H
#define LCARD_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Every failure the API can report: one row each in err.c. */
enum lc_err {
	LC_OK = 0,
	LC_E_VALIDATION,
	LC_E_UNAUTHORIZED,
	LC_E_INVALID_CREDENTIALS,
	LC_E_FORBIDDEN,
	LC_E_NOT_FOUND,
	LC_E_CARD_NOT_FOUND,
	LC_E_METHOD_NOT_ALLOWED,
	LC_E_CARD_INACTIVE,
	LC_E_NO_PENDING_REWARDS,
	LC_E_PAYLOAD_TOO_LARGE,
	LC_E_URI_TOO_LONG,
	LC_E_HEADERS_TOO_LARGE,
	LC_E_UNSUPPORTED_MEDIA_TYPE,
	LC_E_INSUFFICIENT_BALANCE,
	LC_E_WRONG_CARD_TYPE,
	LC_E_CARD_CODE_REQUIRED,
	LC_E_CARD_CODE_INVALID,
	LC_E_COOLDOWN_ACTIVE,
	LC_E_RATE_LIMITED,
	LC_E_CONFLICT,
	LC_E_ALREADY_VOIDED,
	LC_E_NOT_VOIDABLE,
	LC_E_EVENTS_PRUNED,
	LC_E_INTERNAL,
	LC_E_DATABASE,
	LC_E_UNAVAILABLE,
	LC_E_CONFIG,
	LC_E__MAX
};

struct lc_errinfo {
	const char *code;	/* wire code, e.g. "CARD_NOT_FOUND" */
	int status;		/* HTTP status */
	const char *message;	/* default human-readable message */
};

/* Never NULL: an out-of-range value maps to INTERNAL_ERROR. */
const struct lc_errinfo *lc_err_info(enum lc_err);

struct lc_ctx;

/* Endpoint flags. */
#define LC_EP_BARE	0x01	/* success body not enveloped */
#define LC_EP_AUTH	0x02	/* needs a valid bearer access token */
#define LC_EP_NOSTORE	0x04	/* Cache-Control: no-store */
#define LC_EP_JSON	0x08	/* expects a JSON object body (not on GET) */
#define LC_EP_TREE	0x10	/* the path and every path below it */
#define LC_EP_OWNER	0x20	/* an owner's token (implies LC_EP_AUTH) */
#define LC_EP_NOINDEX	0x40	/* public: X-Robots-Tag: noindex */
/* With LC_EP_OWNER: an integration token of this scope is taken too. */
#define LC_EP_EVENTS	0x80	/* scope events:read */
#define LC_EP_HOOKS	0x100	/* scope webhooks:manage */

/*
 * The one table of endpoints (endpoints.c, from endpoints.def). The
 * responders in cgi-bin/, the rewrite rules of htdocs/.htaccess and of
 * the lighttpd configuration and the build lists are written from the
 * same rows by tools/gen-endpoints; tests/unit_endpoints checks that
 * they are current.
 */
struct lc_endpoint {
	const char *name;	/* responder: cgi-bin/NAME.fcgi */
	const char *path;	/* full path, NULL: matches nothing */
	const char *method;	/* one, or several: "GET POST" */
	int flags;
	/* 0 with the answer set, or -1 with the error set. */
	int (*handler)(struct lc_ctx *);
};
extern const struct lc_endpoint lc_endpoints[];	/* ends with a NULL name */
const struct lc_endpoint *lc_endpoint_named(const char *name);

/*
 * Serves requests for the endpoint called name: FastCGI when started by a
 * FastCGI server, else one plain CGI request from the environment and
 * stdin. Returns the process exit status.
 */
int lc_serve(const char *name);

/* The admin tool (tools/loyalty-admin). */
int lc_admin_main(int argc, char *argv[]);

#endif /* LCARD_H */
