/*
 * The HTTP side of the library: the request, the handler context, the
 * handlers, the answer shapes and the server's loop. The rules, the
 * cards, the write path and storage (the core, built with -DLC_CORE:
 * lib/liblccore.a) never see it, and the compiler keeps it so.
 */
#ifndef LC_HTTP_H
#define LC_HTTP_H

#ifdef LC_CORE
#error "lc_http.h: the core (rules, cards, the write path, storage) never sees HTTP"
#endif

#include <stdarg.h>
#include <stdio.h>

#include "lc_core.h"

/* http_request.c: the request, copied out of the CGI/FastCGI environment.
 * All owned. */
struct lc_req {
	char method[16];
	char *path;		/* URI path without the query string */
	char *query;		/* raw query string, "" when none */
	char *content_type;	/* NULL when absent */
	char *authorization;	/* NULL when absent */
	char *request_id;	/* client's X-Request-Id, NULL when absent */
	char *terminal_id;	/* client's X-Terminal-Id, NULL when absent */
	char *db_path;		/* LOYALTY_DB parameter, NULL when absent */
	char *host;		/* Host header, NULL when absent */
	/* REMOTE_ADDR, the client's address as the web server saw it
	 * (what a proxy in front says is not taken), NULL when absent. */
	char *remote_addr;
	int https;		/* the client came over https */
	int redirect_status;	/* an error the web server hands over, else 0 */
	char *body;		/* NUL-terminated, NULL when none */
	size_t bodylen;
	int too_large;		/* body over LC_BODY_MAX: not read */
};
int lc_req_read(struct lc_req *, const char *(*getparam)(const char *, void *),
    void *envp, int (*readfn)(void *, char *, int), void *rd);
void lc_req_free(struct lc_req *);
/* Query parameter by name: 1 found (decoded into out), 0 absent, -1 bad. */
int lc_query_get(const char *query, const char *name, char *out, size_t outsz);

struct lc_ctx;
/* Query parameters of the request, checked: 1 present (into out or *v),
 * 0 absent, -1 after lc_fail (VALIDATION_ERROR naming it). A date is a
 * date (2026-11-01) or an ISO 8601 date-time; a date as an end covers its
 * whole (UTC) day. */
int lc_q_str(struct lc_ctx *, const char *name, char *out, size_t outsz);
int lc_q_int(struct lc_ctx *, const char *name, int64_t min, int64_t max,
    int64_t *v);
int lc_q_date(struct lc_ctx *, const char *name, int end, int64_t *v);
/* An export's form (struct lc_csv_form, csv.c's) from ?header=, in the
 * shop's time zone (lc_tz_of, which the caller has read): 0, or -1
 * (VALIDATION_ERROR on header). */
struct lc_csv_form;
int lc_q_csv_form(struct lc_ctx *, const struct lc_tz *, struct lc_csv_form *);

/* Per-request state, handed to every handler. */
struct lc_ctx {
	struct lc_req req;
	struct lc_dom dom;		/* storage, caller, clock, the error */
	char request_id[LC_REQUEST_ID_MAX + 1];
	json_object *in;		/* owned: parsed JSON body, NULL none */
	const char *db_path;		/* the database's file */
	const char *prog_dir;		/* the responder's folder, "" unknown */
	const char *subpath;		/* below a tree endpoint's path: "" or
					 * "/..." (in req.path) */
	/* The answer. */
	int status;			/* 0 means 200 */
	json_object *out;		/* owned: success body (data) */
	FILE *raw;			/* owned: else a body of raw_type */
	const char *raw_type;
	char raw_name[96];		/* as an attachment of this name */
	const char *raw_cache;		/* its Cache-Control, NULL no-store */
	char allow[64];			/* Allow header on 405 */
	int auth_had_token;		/* 401: a bearer token was sent */
};
/* A raw answer of type: its file to write into, or NULL after lc_fail. */
FILE *lc_raw(struct lc_ctx *, const char *type);
/* The "/{id}" right below a tree endpoint's path into id, and what comes
 * after it in *rest ("" or "/..."): 0, or -1 (404) for none or a bad id. */
int lc_path_id(struct lc_ctx *, char id[LC_ID_LEN + 1], const char **rest);
/* 1 when the request's method is m. */
int lc_method_is(const struct lc_ctx *, const char *m);
/* The JSON object body, parsed now if not yet (a tree endpoint's
 * handler calls it once the path takes the method): 0, or -1 (400). */
int lc_body(struct lc_ctx *);
/* 405 for a path below a tree endpoint that takes other methods. */
int lc_not_allowed(struct lc_ctx *, const char *allow);
/* Sets the request's error; returns -1. */
#define lc_fail(ctx, ...) lc_error_set(&(ctx)->dom.err, __VA_ARGS__)

/* http_response.c: status line, headers and body through writefn. */
void lc_resp_write(struct lc_ctx *, const struct lc_endpoint *,
    void (*writefn)(void *, const char *, size_t), void *wr);

/* http_serve.c: the bearer token of the request into ctx->dom.caller,
 * for an endpoint of flags (LC_EP_*): a login's access token, or an
 * integration token where flags take its scope (LC_EP_EVENTS,
 * LC_EP_HOOKS; FORBIDDEN elsewhere). 0, or -1 after lc_fail. */
int lc_serve_auth(struct lc_ctx *, int flags);
/* The request's bearer token into *out (NULL: no Authorization header,
 * when not required): 0, or -1 (401) for a header of another kind. */
int lc_serve_bearer(struct lc_ctx *, int required, const char **out);
/* One request's ends: its CGI parameters, its body's reader and its
 * answer's writer; and a connection of the caller's (a test's, with its
 * path) to use instead of the responder's own, or NULL. */
struct lc_serve_io {
	const char *(*getparam)(const char *name, void *envp);
	void *envp;
	int (*readfn)(void *rd, char *buf, int n);
	void *rd;
	void (*writefn)(void *wr, const char *buf, size_t n);
	void *wr;
	struct lc_db *db;
	const char *db_path;
};
/* Serves one request of endpoint ep, as every responder does: the
 * request's REDIRECT_STATUS (0 none). */
int lc_serve_one(const struct lc_endpoint *, const struct lc_serve_io *);

/* api_shapes.c: the one place results become wire JSON. Amounts are
 * written in the currency cur, the shop's (dom->cur; NULL: the unnamed
 * one, two decimals). */
json_object *lc_fmt_card(const struct lc_card *,	/* lookup */
    const struct lc_currency *cur);
json_object *lc_fmt_purchase(const struct lc_purchase_result *,
    const struct lc_currency *cur);
json_object *lc_fmt_claim(const struct lc_claim_result *,
    const struct lc_currency *cur);
json_object *lc_fmt_redeem(const struct lc_redeem_result *,
    const struct lc_currency *cur);
json_object *lc_fmt_void(const struct lc_void_result *,
    const struct lc_currency *cur);
json_object *lc_fmt_adjust(const struct lc_adjust_result *,
    const struct lc_currency *cur);
/* A card's balance fields by type, into o (as lookup shows them). */
void lc_fmt_balance(const struct lc_card *, json_object *o,
    const struct lc_currency *cur);
/* The additions of void and adjustment to a history item: the link
 * each way and the reason, the signed changes of a void or adjustment. */
void lc_fmt_hist_extra(json_object *o, const struct lc_hist_item *,
    const struct lc_currency *cur);
void lc_fmt_txn_row(json_object *a, const struct lc_txn_row *,
    const struct lc_currency *cur);
json_object *lc_fmt_tokens(const struct lc_tokens *);
json_object *lc_fmt_user(const struct lc_profile *);
/* What the host's layout lets others reach: {"warnings": [names]}, an
 * empty list where nothing (lc_conf_hosting's flags, by name). */
json_object *lc_fmt_hosting(int flags);
/* The success envelope around data, and the error body. */
json_object *lc_fmt_envelope(json_object *data, const char *request_id,
    int64_t now);
json_object *lc_fmt_error(const struct lc_error *, const char *request_id,
    int64_t now);
/* The owner's objects (docs/admin-api.md); lc_view.h has those the
 * audit trail shares. */
json_object *lc_fmt_owner_card(const struct lc_card *,
    const struct lc_currency *cur);
json_object *lc_fmt_pagination(int64_t page, int64_t size, int64_t total);
/* A card just issued: the line the admin tool prints. */
json_object *lc_fmt_issued(const struct lc_card *);
/* Enrolment at the counter: a card issued, a program to choose. */
json_object *lc_fmt_enrolled(const struct lc_card *);
json_object *lc_fmt_enrol_program(const struct lc_program *);
/* The customer's own page of a card, its amounts in its shop's currency
 * cur, symbol the shop's currency_symbol. qr_changes_at: when its QR
 * code's time-based code changes (ms), 0 when the shop asks for none
 * (its QR code is then the printed card's). */
json_object *lc_fmt_mycard(const struct lc_card *,
    const struct lc_currency *cur, const char *symbol, int64_t updated_at,
    int64_t qr_changes_at);
/* A link drawn anew: the token, the page relative to the till's folder,
 * and the whole address (link NULL: none known). */
json_object *lc_fmt_redrawn(const struct lc_card *, const char *link);
/* A sync item's result: from a purchase answer, or from an error. */
json_object *lc_fmt_sync_ok(json_object *answer, int idempotent);
json_object *lc_fmt_sync_error(const struct lc_error *);
/* Adds "idempotent" to a write's answer: rc of lc_write. */
void lc_fmt_idempotent(struct lc_ctx *, int rc);

/* csv.c: one field, then "," or (last) the line's end. Money below 0 is
 * an empty field. */
void lc_csv_text(FILE *, const char *s, int last);
void lc_csv_money(FILE *, int64_t minor, int exp, int last);
void lc_csv_int(FILE *, int64_t v, int last);
/* A signed amount in minor units as a plain number with the currency's
 * decimals ("-2.50", "-250"); nothing for
 * LC_TXN_NONE. A number, so no formula guard: a spreadsheet sums it. */
void lc_csv_signed(FILE *, int64_t minor, int exp, int last);
/* The two forms of an export, by ?header= (lc_q_csv_form): "keys" (the
 * default) the scripts', unchanged since v1: the fields' keys, UTC times
 * in ISO 8601; "names" (asked for) the spreadsheet's, as the back office
 * writes it: words for headers, a date and a time in the shop's time
 * (named in the Time column's header). */
struct lc_csv_form {
	int keys;
	struct lc_tz tz;		/* the shop's zone */
	char zone[64];			/* "Europe/Berlin", "UTC+01:00" */
	int exp;			/* the shop's currency's decimals */
};
/* The spreadsheet form begins with UTF-8's byte order mark: without it
 * Excel reads the file in the system's code page and garbles names. */
#define LC_CSV_BOM "\xEF\xBB\xBF"
/* A header row of names (NULL-terminated), after LC_CSV_BOM; "Time" is
 * written with the shop's time zone, "Time (Europe/Berlin)", or its
 * fixed offset, "Time (UTC+01:00)". */
void lc_csv_head(FILE *, const struct lc_csv_form *, const char *const *names);
/* ms as two cells, the shop's date (YYYY-MM-DD) and time (HH:MM:SS),
 * by the zone's offset at that instant. */
void lc_csv_when(FILE *, const struct lc_csv_form *, int64_t ms, int last);

/* api_record.c: reads a purchase from obj (record body or sync item),
 * its amount in the shop's currency cur. */
int lc_purchase_read(struct lc_error *, const struct lc_currency *cur,
    json_object *obj, int64_t now, struct lc_purchase *);
/* Records p through the write path (an item of a sync batch when sync
 * is set, for the audit trail): *answer is the purchase answer; returns
 * 0 fresh, 1 replayed, -1 with dom->err. */
int lc_purchase_write(struct lc_dom *, const struct lc_purchase *, int sync,
    json_object **answer);

/* Endpoint handlers, one file each (api_*.c): lc_h_NAME of each row of
 * endpoints.def; notfound's is endpoints.c's. */
#define LC_EP(name, path, methods, flags) int lc_h_##name(struct lc_ctx *);
#include "endpoints.def"
#undef LC_EP
int lc_h_notfound(struct lc_ctx *);

#endif /* LC_HTTP_H */
