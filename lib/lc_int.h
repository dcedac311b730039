/*
 * liblcard private interface: utilities, JSON, and the HTTP side (the
 * request, the handler context, the handlers and the answer shapes).
 */
#ifndef LC_INT_H
#define LC_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "lcard.h"
#include "lc_limits.h"
#include "lc_rules.h"

/* lc_schema.c, generated from the migrations in schema/ */
struct lc_migration {
	int version;
	const char *name;
	const char *sql;
};
extern const struct lc_migration lc_migrations[];

/* admin_migrate.c (built with PostgreSQL): loyalty-admin migrate-to, the
 * SQLite shop src into the empty PostgreSQL database dst: 0, or -1 after
 * saying why on stderr. */
struct lc_db;
int lc_admin_migrate_to(struct lc_db *src, struct lc_db *dst);

/* util.c */
int lc_random(void *buf, size_t len);			/* 0 or -1 */
/* nhex random lowercase hex characters (an even number, at most 128) and
 * a NUL into out: 0, or -1. */
int lc_random_hex(char *out, size_t nhex);
int lc_uuid(char out[LC_ID_LEN + 1]);			/* 0 or -1 */
/* A version 4 UUID's text of 16 bytes (its version and variant set). */
void lc_uuid_text(unsigned char b[16], char out[LC_ID_LEN + 1]);
int lc_uuid_at(char out[LC_ID_LEN + 1], int64_t at);
int64_t lc_now_ms(void);
int64_t lc_mono_ms(void);	/* a monotonic clock, for lengths of time */
/* Test builds only (configure --enable-test-clock): the clock of the
 * requests that follow, milliseconds since 1970 as decimal digits, or
 * NULL (or anything else) for the real one. */
void lc_test_clock_set(const char *ms);
void lc_time_fmt(int64_t ms, char out[32]);		/* YYYY-MM-DDTHH:MM:SS.mmmZ */
/* ISO 8601 date or date-time. 0 or -1. *date_only set when only a date
 * was given. */
int lc_time_parse(const char *s, int64_t *ms, int *date_only);
/* Base64 (url: URL-safe alphabet, no padding). Returns length written. */
size_t lc_b64_encode(const unsigned char *in, size_t len, char *out, int url);
/* Strict standard base64 decode; returns decoded length or -1. */
long lc_b64_decode(const char *in, unsigned char *out, size_t outsz);
/*
 * Exact decimal text to a scaled integer: "12.5" with scale 2 gives 1250.
 * Accepts an optional exponent. -1 when not a plain non-negative number,
 * more decimals than scale allows, or above max.
 */
int lc_decimal_parse(const char *s, int scale, int64_t max, int64_t *out);
/* Scaled integer to the shortest exact decimal text ("0.05", "12.50" with
 * keep_scale). out must hold 32 bytes. */
void lc_decimal_fmt(int64_t v, int scale, int keep_scale, char out[32]);
int lc_is_printable_ascii(const char *s);
/* Logs to stderr (the server's error log). */
void lc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* json.c */
/* 1 when s is well-formed UTF-8 (shortest forms, no surrogates). */
int lc_utf8_valid(const char *s);
size_t lc_utf8_chars(const char *s);
/* Strict RFC 8259 check of a whole buffer holding one value. 0 or -1. */
int lc_json_check(const char *buf, size_t len);
/* Parses one strict JSON value; NULL on any error. Caller owns result. */
json_object *lc_json_parse(const char *buf, size_t len);
/* The same; on a failure e says why (VALIDATION_ERROR: malformed, over a
 * limit of values or nesting, or the member holding a number out of
 * range). */
json_object *lc_json_parse_ex(const char *buf, size_t len, struct lc_error *e);
/* Compact text of o, owned by o. */
const char *lc_json_text(json_object *o);
/* Typed readers: on a wrong or missing field they set e to
 * VALIDATION_ERROR with the field and return -1. A field that is absent
 * and not required leaves *present 0 (present may be NULL). */
int lc_in_str(struct lc_error *, json_object *obj, const char *name,
    int required, size_t maxlen, const char **out);
int lc_in_int(struct lc_error *, json_object *obj, const char *name,
    int required, int64_t min, int64_t max, int64_t *out, int *present);
int lc_in_money(struct lc_error *, json_object *obj, const char *name,
    int required, int64_t *cents, int *present);
int lc_in_bool(struct lc_error *, json_object *obj, const char *name,
    int required, int *out, int *present);
/* A rate as a fraction (0.05) into basis points. */
int lc_in_rate(struct lc_error *, json_object *obj, const char *name,
    int required, int64_t *bp, int *present);
/* The optional card_code of a claim or a redemption: NULL when absent,
 * else LC_CODE_DIGITS digits (VALIDATION_ERROR otherwise). 0 or -1. */
int lc_in_card_code(struct lc_error *, json_object *obj, const char **code);
/* An idempotency_key: 1 to LC_KEY_MAX printable ASCII. */
int lc_in_key(struct lc_error *, json_object *obj, int required,
    const char **key);
/* Exact JSON numbers: cents as "12.50", basis points as "0.05". */
json_object *lc_json_money(int64_t cents);
json_object *lc_json_rate(int64_t bp);
json_object *lc_json_time(int64_t ms);
json_object *lc_json_str_or_null(const char *s);
/* A card type's fields (struct lc_fields) added to o as its members:
 * lc_json_fields(&j, o) returns the fields to hand to the type. */
#define LC_JSON_FIELDS_DEPTH 4
struct lc_json_fields {
	struct lc_fields f;	/* first: the type writes to it */
	json_object *stack[LC_JSON_FIELDS_DEPTH];
	int depth;
};
struct lc_fields *lc_json_fields(struct lc_json_fields *, json_object *o);

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
/* Adds "idempotent" to a write's answer: rc of lc_write. */
void lc_idempotent(struct lc_ctx *, int rc);
/* Sets the request's error; returns -1. */
#define lc_fail(ctx, ...) lc_error_set(&(ctx)->dom.err, __VA_ARGS__)

/* http_response.c: status line, headers and body through writefn. */
void lc_resp_write(struct lc_ctx *, const struct lc_endpoint *,
    void (*writefn)(void *, const char *, size_t), void *wr);

/* http_serve.c: the bearer token of the request into ctx->dom.caller. */
int lc_auth_bearer(struct lc_ctx *);
/* The request's bearer token into *out (NULL: no Authorization header,
 * when not required): 0, or -1 (401) for a header of another kind. */
int lc_bearer(struct lc_ctx *, int required, const char **out);

/* api_shapes.c: the one place results become wire JSON. */
json_object *lc_fmt_card(const struct lc_card *);	/* lookup */
json_object *lc_fmt_purchase(const struct lc_purchase_result *);
json_object *lc_fmt_claim(const struct lc_claim_result *);
json_object *lc_fmt_redeem(const struct lc_redeem_result *);
json_object *lc_fmt_void(const struct lc_void_result *);
json_object *lc_fmt_adjust(const struct lc_adjust_result *);
/* A card's balance fields by type, into o (as lookup shows them). */
void lc_fmt_balance(const struct lc_card *, json_object *o);
/* The additions of void and adjustment to a history item: the link
 * each way and the reason, the signed changes of a void or adjustment. */
void lc_fmt_hist_extra(json_object *o, const struct lc_hist_item *);
void lc_fmt_txn_row(json_object *a, const struct lc_txn_row *);
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
/* The owner's objects (docs/admin-api.md). */
json_object *lc_fmt_location(const struct lc_location *);
json_object *lc_fmt_staff(const struct lc_user *);
json_object *lc_fmt_program(const struct lc_program *, int64_t cards);
json_object *lc_fmt_owner_card(const struct lc_card *);
json_object *lc_fmt_pagination(int64_t page, int64_t size, int64_t total);
json_object *lc_fmt_one(const char *key, json_object *v);
/* A card just issued: the line the admin tool prints. */
json_object *lc_fmt_issued(const struct lc_card *);
/* Enrolment at the counter: a card issued, a program to choose. */
json_object *lc_fmt_enrolled(const struct lc_card *);
json_object *lc_fmt_enrol_program(const struct lc_program *);
/* The customer's own page of a card. */
/* qr_changes_at: when its QR code's time-based code changes (ms), 0 when
 * the shop asks for none (its QR code is then the printed card's). */
json_object *lc_fmt_mycard(const struct lc_card *, const char *currency,
    int64_t updated_at, int64_t qr_changes_at);
/* A link drawn anew: the token, the page relative to the till's folder,
 * and the whole address (link NULL: none known). */
json_object *lc_fmt_redrawn(const struct lc_card *, const char *link);
/* A sync item's result: from a purchase answer, or from an error. */
json_object *lc_fmt_sync_ok(json_object *answer, int idempotent);
json_object *lc_fmt_sync_error(const struct lc_error *);

/* csv.c: one field, then "," or (last) the line's end. Money below 0 is
 * an empty field. */
void lc_csv_text(FILE *, const char *s, int last);
void lc_csv_money(FILE *, int64_t cents, int last);
void lc_csv_int(FILE *, int64_t v, int last);
/* A signed amount of cents as a plain number ("-2.50"); nothing for
 * LC_TXN_NONE. A number, so no formula guard: a spreadsheet sums it. */
void lc_csv_signed(FILE *, int64_t cents, int last);

/* card_image.c: a card to scan, as SVG (QR code by libqrencode, EAN-13
 * barcode with its digits), and a printable A4 sheet of cards as HTML.
 * 0, or -1 (logged) on a code that cannot be drawn or a write error. */
int lc_qr_svg(FILE *, const char *text);
int lc_barcode_svg(FILE *, const char *digits);
/* base: the public_url setting; when not "", each card carries the link
 * to its own page. */
int lc_card_svg(FILE *, const char *shop, const struct lc_card *,
    const char *base);
int lc_card_sheet(FILE *, const char *shop, const struct lc_card *, size_t n,
    const char *base);

/* api_record.c: reads a purchase from obj (record body or sync item). */
int lc_purchase_read(struct lc_error *, json_object *obj, int64_t now,
    struct lc_purchase *);
/* Records p through the write path (an item of a sync batch when sync
 * is set, for the audit trail): *answer is the purchase answer; returns
 * 0 fresh, 1 replayed, -1 with dom->err. */
int lc_purchase_write(struct lc_dom *, const struct lc_purchase *, int sync,
    json_object **answer);

/* Endpoint handlers, one file each (api_*.c). */
int lc_h_login(struct lc_ctx *);
int lc_h_me(struct lc_ctx *);
int lc_h_refresh(struct lc_ctx *);
int lc_h_logout(struct lc_ctx *);
int lc_h_notfound(struct lc_ctx *);
int lc_h_lookup(struct lc_ctx *);
int lc_h_record(struct lc_ctx *);
int lc_h_history(struct lc_ctx *);
int lc_h_sync(struct lc_ctx *);
int lc_h_claim(struct lc_ctx *);
int lc_h_redeem(struct lc_ctx *);
int lc_h_setup(struct lc_ctx *);
int lc_h_admin_locations(struct lc_ctx *);
int lc_h_admin_users(struct lc_ctx *);
int lc_h_admin_programs(struct lc_ctx *);
int lc_h_admin_cards(struct lc_ctx *);
int lc_h_admin_reports(struct lc_ctx *);
int lc_h_admin_backup(struct lc_ctx *);
int lc_h_admin_settings(struct lc_ctx *);
int lc_h_admin_audit(struct lc_ctx *);
int lc_h_enrol(struct lc_ctx *);
int lc_h_mycard(struct lc_ctx *);
int lc_h_void(struct lc_ctx *);
/* api_void.c: a void's or an adjustment's reason, 1 to LC_NOTES_MAX
 * characters of text, not only blanks: 0, or -1 (VALIDATION_ERROR). */
int lc_reason_check(struct lc_error *, const char *reason);

#endif /* LC_INT_H */
