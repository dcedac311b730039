/*
 * liblcard private interface: shared between the library's files only.
 */
#ifndef LC_INT_H
#define LC_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "lcard.h"

/* lc_schema.c, generated from the migrations in schema/ */
struct lc_migration {
	int version;
	const char *name;
	const char *sql;
};
extern const struct lc_migration lc_migrations[];

/* lc_util.c */
int lc_random(void *buf, size_t len);			/* 0 or -1 */
int lc_uuid(char out[LC_ID_LEN + 1]);			/* 0 or -1 */
int64_t lc_now_ms(void);
void lc_time_fmt(int64_t ms, char out[32]);		/* YYYY-MM-DDTHH:MM:SS.mmmZ */
/* ISO 8601 date or date-time (see decisions §5). 0 or -1. *date_only set
 * when only a date was given. */
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

/* lc_json.c */
/* Strict RFC 8259 check of a whole buffer holding one value. 0 or -1. */
int lc_json_check(const char *buf, size_t len);
/* Parses one strict JSON value; NULL on any error. Caller owns result. */
json_object *lc_json_parse(const char *buf, size_t len);
/* Typed readers that reply: on a wrong or missing field they call lc_fail
 * with VALIDATION_ERROR and details.field, and return -1. A field that is
 * absent and not required leaves *present 0 (present may be NULL). */
int lc_in_str(struct lc_ctx *, json_object *obj, const char *name,
    int required, size_t maxlen, const char **out);
int lc_in_int(struct lc_ctx *, json_object *obj, const char *name,
    int required, int64_t min, int64_t max, int64_t *out, int *present);
int lc_in_money(struct lc_ctx *, json_object *obj, const char *name,
    int required, int64_t *cents, int *present);
int lc_in_bool(struct lc_ctx *, json_object *obj, const char *name,
    int required, int *out, int *present);
/* Exact JSON numbers: cents as "12.50", basis points as "0.05". */
json_object *lc_json_money(int64_t cents);
json_object *lc_json_rate(int64_t bp);
json_object *lc_json_time(int64_t ms);
json_object *lc_json_str_or_null(const char *s);

/* lc_http.c */
int lc_req_read(struct lc_req *, const char *(*getparam)(const char *, void *),
    void *envp, int (*readfn)(void *, char *, int), void *rd);
void lc_req_free(struct lc_req *);
/* Query parameter by name: 1 found (decoded into out), 0 absent, -1 bad. */
int lc_query_get(const char *query, const char *name, char *out, size_t outsz);
/* Writes status line, headers and body through writefn. */
void lc_resp_write(struct lc_ctx *, const struct lc_endpoint *,
    void (*writefn)(void *, const char *, size_t), void *wr);

/* lc_db.c: every statement of the library, prepared once per connection. */
#define LC_SQL_LIST \
	X(SETTING_GET, "SELECT value FROM settings WHERE key = ?") \
	X(SETTING_SET, "INSERT INTO settings(key, value) VALUES (?, ?) " \
	    "ON CONFLICT(key) DO UPDATE SET value = excluded.value") \
	X(SETTING_ALL, "SELECT key, value FROM settings ORDER BY key") \
	X(USER_BY_EMAIL, "SELECT id, password_hash FROM users WHERE email = ?") \
	X(USER_BY_ID, "SELECT u.id, u.email, u.user_type, u.merchant_id, " \
	    "u.location_id FROM users u WHERE u.id = ?") \
	X(LOCATIONS_OF_MERCHANT, "SELECT id, name FROM locations " \
	    "WHERE merchant_id = ? ORDER BY rowid") \
	X(LOCATION_BY_ID, "SELECT id, name, merchant_id FROM locations WHERE id = ?") \
	X(ATTEMPTS_COUNT, "SELECT count(*), min(at) FROM login_attempts " \
	    "WHERE email = ? AND at > ?") \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, at) VALUES (?, ?)") \
	X(ATTEMPT_DEL_ONE, "DELETE FROM login_attempts WHERE rowid = ?") \
	X(ATTEMPTS_CLEAR, "DELETE FROM login_attempts WHERE email = ?") \
	X(ATTEMPTS_PRUNE, "DELETE FROM login_attempts WHERE at <= ?") \
	X(TOKEN_ADD, "INSERT INTO tokens(digest, kind, user_id, family, " \
	    "expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
	X(TOKEN_GET, "SELECT t.kind, t.user_id, t.family, t.expires_at, " \
	    "t.rotated_at, t.revoked, u.merchant_id, u.user_type, " \
	    "coalesce(u.location_id, '') FROM tokens t JOIN users u " \
	    "ON u.id = t.user_id WHERE t.digest = ?") \
	X(TOKEN_ROTATE, "UPDATE tokens SET rotated_at = ? WHERE digest = ? " \
	    "AND rotated_at IS NULL") \
	X(TOKEN_REVOKE_FAMILY, "UPDATE tokens SET revoked = 1 WHERE family = ?") \
	X(TOKENS_PRUNE, "DELETE FROM tokens WHERE expires_at < ?") \
	X(MIGRATION_ADD, "INSERT INTO schema_migrations(version, name, " \
	    "applied_at) VALUES (?, ?, ?)") \
	X(MERCHANT_ADD, "INSERT INTO merchants(id, name, created_at) " \
	    "VALUES (?, ?, ?)") \
	X(MERCHANT_EXISTS, "SELECT 1 FROM merchants WHERE id = ?") \
	X(LOCATION_ADD, "INSERT INTO locations(id, merchant_id, name, " \
	    "created_at) VALUES (?, ?, ?, ?)") \
	X(USER_ADD, "INSERT INTO users(id, merchant_id, email, display_name, " \
	    "user_type, location_id, password_hash, created_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)") \
	X(USER_EMAIL_EXISTS, "SELECT 1 FROM users WHERE email = ?") \
	X(PROGRAM_ADD, "INSERT INTO programs(id, merchant_id, type, title, " \
	    "punch_requirement, reward_title, reward_description, " \
	    "reward_amount, cooldown_seconds, created_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(PROGRAM_MERCHANT, "SELECT merchant_id FROM programs WHERE id = ?") \
	X(TIER_ADD, "INSERT INTO tiers(program_id, name, min_spend, rate_bp) " \
	    "VALUES (?, ?, ?, ?)") \
	X(CARD_ADD, "INSERT INTO cards(id, merchant_id, program_id, " \
	    "customer_name, barcode, qr_code, created_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?)") \
	X(CARD_SET_STATUS, "UPDATE cards SET status = ? WHERE id = ?")

enum lc_sql {
#define X(name, sql) LC_SQL_##name,
	LC_SQL_LIST
#undef X
	LC_SQL__MAX
};

/*
 * Returns the statement, reset and bound from fmt: 's' const char * (NULL
 * binds NULL), 'i' int64_t, 'b' const void * then int length, 'N' NULL (no argument). NULL on
 * failure. The statement stays owned by db; call lc_db_reset() when done.
 */
sqlite3_stmt *lc_db_prep(struct lc_db *, enum lc_sql, const char *fmt, ...);
/* sqlite3_step() whose errors other than ROW/DONE are logged. */
int lc_db_step(struct lc_db *, sqlite3_stmt *);
/* Runs a bound statement that returns no rows and resets it: 0 or -1. */
int lc_db_exec(struct lc_db *, sqlite3_stmt *);
void lc_db_reset(sqlite3_stmt *);
void lc_db_reset_all(struct lc_db *);
int lc_db_begin(struct lc_db *);	/* BEGIN IMMEDIATE: 0 or -1 */
int lc_db_commit(struct lc_db *);	/* 0 or -1 (rolled back) */
void lc_db_rollback(struct lc_db *);
/* Copies column i as text into out (truncating); "" for NULL. */
void lc_db_col(sqlite3_stmt *, int i, char *out, size_t outsz);
/* SQLite's last error, for logs only. */
const char *lc_db_errmsg(struct lc_db *);

/* lc_settings.c */
enum lc_setting {
	LC_SET_ACCESS_TTL,
	LC_SET_REFRESH_TTL,
	LC_SET_LOGIN_MAX_FAILURES,
	LC_SET_LOGIN_WINDOW,
	LC_SET__MAX
};
/* The setting's value, its default when unset or unreadable. */
int64_t lc_setting(struct lc_db *, enum lc_setting);
/* Validates and stores; -1 with *errmsg on a bad key or value. */
int lc_setting_set(struct lc_db *, const char *key, const char *value,
    const char **errmsg);
const char *lc_setting_name(enum lc_setting);
int lc_setting_lookup(const char *key);	/* enum value or -1 */

/* lc_auth.c */
/* Authenticates the bearer token of the request into ctx->caller: 0, or -1
 * after lc_fail(UNAUTHORIZED / DATABASE_ERROR). */
int lc_auth_bearer(struct lc_ctx *);
/* scrypt hash of a password for storage (MCF text, SCRYPT_MCF_LEN). 0/-1. */
int lc_auth_hash_password(const char *password, char *out, size_t outsz);

/* Logs to stderr (the server's error log) with the request id. */
void lc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* LC_INT_H */
