/*
 * liblcard: the loyalty-card POS service library. Public interface for the
 * responders in cgi-bin/, the admin tool and the tests.
 */
#ifndef LCARD_H
#define LCARD_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>
#include <sqlite3.h>

/* Every failure the API can report: one row each in lc_err.c. */
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
	LC_E_UNSUPPORTED_MEDIA_TYPE,
	LC_E_INSUFFICIENT_BALANCE,
	LC_E_WRONG_CARD_TYPE,
	LC_E_COOLDOWN_ACTIVE,
	LC_E_RATE_LIMITED,
	LC_E_INTERNAL,
	LC_E_DATABASE,
	LC_E__MAX
};

struct lc_errinfo {
	const char *code;	/* wire code, e.g. "CARD_NOT_FOUND" */
	int status;		/* HTTP status */
	const char *message;	/* default human-readable message */
};

/* Never NULL: an out-of-range value maps to INTERNAL_ERROR. */
const struct lc_errinfo *lc_err_info(enum lc_err);

#define LC_ID_LEN 36		/* a UUID in text form */
#define LC_BODY_MAX (1024 * 1024)
#define LC_MONEY_MAX 100000000LL	/* 1,000,000.00 in cents */

/* The request, copied out of the CGI/FastCGI environment. All owned. */
struct lc_req {
	char method[16];
	char *path;		/* URI path without the query string */
	char *query;		/* raw query string, "" when none */
	char *content_type;	/* NULL when absent */
	char *authorization;	/* NULL when absent */
	char *request_id;	/* client's X-Request-Id, NULL when absent */
	char *db_path;		/* LOYALTY_DB parameter, NULL when absent */
	char *body;		/* NUL-terminated, NULL when none */
	size_t bodylen;
	int too_large;		/* body over LC_BODY_MAX: not read */
};

/* Who is calling: set by authentication. */
struct lc_caller {
	char user_id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];	/* system_user's location; "" for owner */
	char family[LC_ID_LEN + 1];		/* the login the token descends from */
	int is_owner;
};

struct lc_db;

/* Per-request state, handed to every handler. */
struct lc_ctx {
	struct lc_req req;
	struct lc_db *db;		/* borrowed: the process's connection */
	char request_id[65];
	int64_t now_ms;
	json_object *in;		/* owned: parsed JSON body, NULL for none */
	struct lc_caller caller;

	/* The response. */
	int status;			/* 0 means 200 */
	json_object *out;		/* owned: success body (data when enveloped) */
	enum lc_err err;
	char err_msg[256];
	char err_field[64];
	long retry_after;		/* seconds; 0 for no header */
	const char *allow;		/* Allow header on 405 */
	int auth_had_token;		/* 401: a non-empty bearer token was sent */
};

/* Endpoint flags. */
#define LC_EP_BARE	0x01	/* success body not enveloped */
#define LC_EP_AUTH	0x02	/* needs a valid bearer access token */
#define LC_EP_NOSTORE	0x04	/* Cache-Control: no-store */
#define LC_EP_JSON	0x08	/* expects a JSON object body */

struct lc_endpoint {
	const char *path;	/* suffix under /api/v1, NULL: matches nothing */
	const char *method;
	int flags;
	/* Returns 0 with ctx->out set, or -1 after lc_fail(). */
	int (*handler)(struct lc_ctx *);
};

/*
 * Serves requests for one endpoint: FastCGI when started by a FastCGI
 * server, else one plain CGI request from the environment and stdin.
 * Returns the process exit status.
 */
int lc_serve(const struct lc_endpoint *);

/*
 * Records a failure in ctx: code, optional offending field (NULL for none)
 * and a printf-style message (NULL for the code's default). Returns -1 so a
 * handler can "return lc_fail(...)".
 */
int lc_fail(struct lc_ctx *, enum lc_err, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Endpoint handlers (one per responder). */
int lc_h_login(struct lc_ctx *);
int lc_h_me(struct lc_ctx *);
int lc_h_refresh(struct lc_ctx *);
int lc_h_notfound(struct lc_ctx *);
int lc_h_lookup(struct lc_ctx *);
int lc_h_record(struct lc_ctx *);
int lc_h_history(struct lc_ctx *);
int lc_h_sync(struct lc_ctx *);
int lc_h_claim(struct lc_ctx *);
int lc_h_redeem(struct lc_ctx *);

/* Database. */

/*
 * Opens (creating when create is set) and upgrades the database at path.
 * Returns NULL and prints nothing on failure; *errmsg (static text) says why.
 */
struct lc_db *lc_db_open(const char *path, int create, const char **errmsg);
void lc_db_close(struct lc_db *);
sqlite3 *lc_db_handle(struct lc_db *);
/* Schema version after migrations, or -1. */
int lc_db_version(struct lc_db *);

/* The database path: explicit, else LOYALTY_DB, else the build default. */
const char *lc_db_default_path(const char *explicit_path);

/* Admin operations (tools/loyalty-admin). Each prints errors to stderr and
 * returns non-zero on failure, leaving nothing half-made. */
int lc_admin_main(int argc, char *argv[]);

#endif /* LCARD_H */
