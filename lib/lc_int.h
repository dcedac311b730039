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
/* 1 when s is well-formed UTF-8 (shortest forms, no surrogates). */
int lc_utf8_valid(const char *s);
/* Strict RFC 8259 check of a whole buffer holding one value. 0 or -1. */
int lc_json_check(const char *buf, size_t len);
/* Parses one strict JSON value; NULL on any error. Caller owns result. */
json_object *lc_json_parse(const char *buf, size_t len);
/* The same; on a number out of range, field names the top-level member
 * holding it ("" when the failure is elsewhere). */
json_object *lc_json_parse_ex(const char *buf, size_t len, char *field,
    size_t fieldsz);
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
	X(USER_BY_EMAIL, "SELECT id, password_hash FROM users WHERE email = ? " \
	    "AND disabled = 0") \
	X(USER_BY_ID, "SELECT u.id, u.email, u.user_type, u.merchant_id, " \
	    "u.location_id, u.display_name FROM users u WHERE u.id = ?") \
	X(LOCATIONS_OF_MERCHANT, "SELECT id, name FROM locations " \
	    "WHERE merchant_id = ? ORDER BY rowid") \
	X(LOCATION_BY_ID, "SELECT id, name, merchant_id FROM locations WHERE id = ?") \
	X(ATTEMPTS_COUNT, "SELECT count(*), min(at) FROM login_attempts " \
	    "WHERE email = ? AND at > ?") \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, at) VALUES (?, ?)") \
	X(ATTEMPTS_CLEAR, "DELETE FROM login_attempts WHERE email = ?") \
	X(ATTEMPTS_PRUNE, "DELETE FROM login_attempts WHERE at <= ?") \
	X(TOKEN_ADD, "INSERT INTO tokens(digest, kind, user_id, family, " \
	    "expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
	X(TOKEN_GET, "SELECT t.kind, t.user_id, t.family, t.expires_at, " \
	    "t.rotated_at, t.revoked, u.merchant_id, u.user_type, " \
	    "coalesce(u.location_id, '') FROM tokens t JOIN users u " \
	    "ON u.id = t.user_id WHERE t.digest = ? AND u.disabled = 0") \
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
	X(CARD_SET_STATUS, "UPDATE cards SET status = ? WHERE id = ?") \
	X(USER_SET_DISABLED, "UPDATE users SET disabled = ? WHERE id = ?") \
	X(USER_SET_PASSWORD, "UPDATE users SET password_hash = ? WHERE id = ?") \
	X(TOKENS_REVOKE_USER, "UPDATE tokens SET revoked = 1 WHERE user_id = ?") \
	X(CARD_BY_ID, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.id = ?") \
	X(CARD_BY_QR, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.qr_code = ?") \
	X(CARD_BY_BARCODE, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.barcode = ?") \
	X(TIERS_OF_PROGRAM, "SELECT name, min_spend, rate_bp FROM tiers " \
	    "WHERE program_id = ? ORDER BY min_spend") \
	X(CARD_SAVE, "UPDATE cards SET current_punches = ?, pending_rewards = ?, " \
	    "lifetime_punches = ?, cashback_balance = ?, lifetime_cashback = ?, " \
	    "lifetime_spend = ? WHERE id = ?") \
	X(TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, purchase_amount, punches_added, " \
	    "rate_bp, cashback_earned, discount_amount, redeemed_amount, " \
	    "reward_id, transaction_notes, pos_reference_id, pos_terminal_id, " \
	    "client_timestamp, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, " \
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(PUNCH_NEAR, "SELECT max(created_at) FROM transactions WHERE " \
	    "card_id = ? AND type = 'punch' AND created_at > ? AND created_at < ?") \
	X(REWARD_ADD, "INSERT INTO rewards(id, card_id, earned_transaction_id, " \
	    "title, description, amount, earned_at) VALUES (?, ?, ?, ?, ?, ?, ?)") \
	X(EARNING_ADD, "INSERT INTO cashback_earnings(transaction_id, card_id, " \
	    "amount, remaining, earned_at) VALUES (?, ?, ?, ?, ?)") \
	X(IDEM_GET, "SELECT kind, response FROM idempotency_keys " \
	    "WHERE merchant_id = ? AND key = ?") \
	X(IDEM_ADD, "INSERT INTO idempotency_keys(merchant_id, key, kind, " \
	    "transaction_id, response, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
	X(USER_MERCHANT, "SELECT merchant_id FROM users WHERE id = ?") \
	X(REWARD_OLDEST, "SELECT id, title, amount, earned_at FROM rewards " \
	    "WHERE card_id = ? AND status = 'pending_claim' " \
	    "ORDER BY earned_at, rowid LIMIT 1") \
	X(REWARD_CLAIM, "UPDATE rewards SET status = 'claimed', claimed_at = ?, " \
	    "claim_transaction_id = ? WHERE id = ? AND status = 'pending_claim'") \
	X(EARNING_OLDEST, "SELECT transaction_id, remaining, earned_at " \
	    "FROM cashback_earnings WHERE card_id = ? AND remaining > 0 " \
	    "ORDER BY earned_at, rowid LIMIT 1") \
	X(EARNING_USE, "UPDATE cashback_earnings SET remaining = remaining - ? " \
	    "WHERE transaction_id = ? AND remaining >= ?") \
	X(ENTRY_ADD, "INSERT INTO redemption_entries(redeem_transaction_id, " \
	    "earning_transaction_id, amount_used) VALUES (?, ?, ?)") \
	X(HISTORY_COUNT, "SELECT count(*) FROM transactions WHERE card_id = ? " \
	    "AND created_at BETWEEN ? AND ?") \
	X(HISTORY_COUNT_TYPE, "SELECT count(*) FROM transactions WHERE " \
	    "card_id = ? AND type = ? AND created_at BETWEEN ? AND ?") \
	X(HISTORY_TOTAL, "SELECT coalesce(sum(n), 0) FROM txn_counts " \
	    "WHERE card_id = ?") \
	X(HISTORY_TOTAL_TYPE, "SELECT coalesce(sum(n), 0) FROM txn_counts " \
	    "WHERE card_id = ? AND type = ?") \
	X(HISTORY_PAGE, LC_HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = ? AND created_at BETWEEN ? AND ? " \
	    LC_HISTORY_PAGE ")" LC_HISTORY_JOIN) \
	X(HISTORY_PAGE_TYPE, LC_HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = ? AND type = ? AND created_at " \
	    "BETWEEN ? AND ? " LC_HISTORY_PAGE ")" LC_HISTORY_JOIN)

/* Shared column lists of the card and history statements. */
#define LC_CARD_COLS "SELECT c.id, c.merchant_id, c.program_id, p.type, " \
	"p.title, m.name, c.customer_name, c.status, c.current_punches, " \
	"c.pending_rewards, c.lifetime_punches, c.cashback_balance, " \
	"c.lifetime_cashback, c.lifetime_spend, coalesce(p.punch_requirement, 0), " \
	"coalesce(p.reward_title, ''), p.reward_description, p.reward_amount, " \
	"p.cooldown_seconds FROM cards c JOIN programs p ON p.id = c.program_id " \
	"JOIN merchants m ON m.id = c.merchant_id "
#define LC_HISTORY_COLS "SELECT t.id, t.type, t.purchase_amount, " \
	"t.punches_added, t.created_at, l.name, " \
	"coalesce(nullif(u.display_name, ''), u.email), t.cashback_earned, " \
	"t.discount_amount, t.redeemed_amount, r.title, t.pos_reference_id, " \
	"t.pos_terminal_id, t.transaction_notes, t.client_timestamp "
/* The page's rowids come from the covering index alone, so skipping to a
 * deep page never reads the rows it skips; only the page is joined. */
#define LC_HISTORY_PAGE "ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?"
#define LC_HISTORY_JOIN " p JOIN transactions t ON t.rowid = p.k " \
	"JOIN locations l ON l.id = t.location_id " \
	"JOIN users u ON u.id = t.staff_user_id " \
	"LEFT JOIN rewards r ON r.id = t.reward_id " \
	"ORDER BY t.created_at DESC, t.rowid DESC"

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
int lc_db_read_begin(struct lc_db *);	/* BEGIN (a read snapshot): 0 or -1 */
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

/* Longest id or code accepted; a longer one names nothing (it then gets
 * the error of an unknown one: FORBIDDEN, CARD_NOT_FOUND). */
#define LC_REF_MAX 255
/* Longest POS reference and terminal id (issue: up to 64). */
#define LC_POSREF_MAX 64
#define LC_NOTES_MAX 500

/* lc_card.c: cards, their programs and tiers. */
#define LC_TEXT_MAX 801		/* 200 characters of UTF-8 */
#define LC_TIERS_MAX 16

struct lc_tier {
	char name[LC_TEXT_MAX];
	int64_t min_spend;	/* cents of lifetime spend */
	int64_t rate_bp;
};

struct lc_card {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char program_id[LC_ID_LEN + 1];
	char type[16];
	char title[LC_TEXT_MAX];
	char merchant_name[LC_TEXT_MAX];
	char customer_name[LC_TEXT_MAX];
	char status[16];
	int64_t current_punches, pending_rewards, lifetime_punches;
	int64_t cashback_balance, lifetime_cashback, lifetime_spend;
	/* The program's punch rules (punch cards). */
	int64_t punch_requirement, reward_amount, cooldown_seconds;
	char reward_title[LC_TEXT_MAX];
	char reward_description[LC_TEXT_MAX];
	/* The program's tiers (cashback and discount cards). */
	struct lc_tier tiers[LC_TIERS_MAX];
	int ntiers;
	const struct lc_cardtype *ops;
};

struct lc_txn;

/* Which column identifies a card. */
enum lc_cardkey { LC_CARDKEY_ID, LC_CARDKEY_QR, LC_CARDKEY_BARCODE };

/*
 * Loads the caller's merchant's card by id, QR payload or barcode into
 * card. Returns 1 found, 0 not found (nothing reported), -1 after lc_fail.
 */
int lc_card_load(struct lc_ctx *, enum lc_cardkey, const char *value,
    struct lc_card *card);
/* Writes the card's counters back. 0, or -1 after lc_fail. */
int lc_card_save(struct lc_ctx *, const struct lc_card *);
/* Index of the tier a lifetime spend falls in (0 when no tiers). */
int lc_card_tier(const struct lc_card *, int64_t spend);
/* The rate and name of the tier the card is in now (0 and "" untiered). */
int64_t lc_card_rate(const struct lc_card *);
const char *lc_card_tier_name(const struct lc_card *);
/* A purchase on a tiered card: returns the rate of the tier the card is in
 * before it, then adds amount to lifetime spend; *changed says whether
 * that moved the card into another tier (decisions §5). */
int64_t lc_card_tiered_purchase(struct lc_card *, int64_t amount, int *changed);
/* A new record result holding transaction_id and card_type. */
json_object *lc_txn_result(const struct lc_txn *, const char *card_type);
/* Rounds v * bp / 10000 half away from zero (v >= 0). */
int64_t lc_apply_rate(int64_t v, int64_t bp);

/* One purchase, as record or one sync item gives it (lc_purchase.c). */
struct lc_purchase {
	const char *qr, *card_id, *barcode;	/* identifiers, NULL when absent */
	const char *location_id, *staff_user_id;
	int64_t amount;				/* cents */
	int64_t punch_count;			/* 1 when not given */
	const char *notes, *key, *pos_ref, *pos_term, *client_ts;
	int64_t client_ms;			/* client_ts parsed, when given */
	int64_t at_ms;				/* the transaction's created_at */
};

/* A transactions row; int64 fields below 0 are stored as NULL. */
struct lc_txn {
	char id[LC_ID_LEN + 1];
	const char *card_id, *location_id, *staff_user_id, *type;
	int64_t purchase_amount, punches_added, rate_bp;
	int64_t cashback_earned, discount_amount, redeemed_amount;
	const char *reward_id, *notes, *pos_ref, *pos_term, *client_ts;
	int64_t created_at;
};
/* Inserts t (its id must be set). 0, or -1 after lc_fail. */
int lc_txn_insert(struct lc_ctx *, const struct lc_txn *);

/* A card type's rules: one file each (lc_punch.c, lc_cashback.c, ...). */
struct lc_cardtype {
	const char *name;
	/* Adds the type's balance fields to obj. */
	void (*balance)(const struct lc_card *, json_object *obj);
	/* Records purchase p on card inside the open write transaction:
	 * inserts the transaction txn (id set), updates card and the
	 * database, and sets *data to the record result. 0, or -1 after
	 * lc_fail. */
	int (*purchase)(struct lc_ctx *, struct lc_card *,
	    const struct lc_purchase *p, struct lc_txn *txn, json_object **data);
};
extern const struct lc_cardtype lc_cardtype_punch;
extern const struct lc_cardtype lc_cardtype_cashback;
extern const struct lc_cardtype lc_cardtype_discount;

/* lc_purchase.c */
/* Reads and validates a purchase from obj (record body or sync item). */
int lc_purchase_parse(struct lc_ctx *, json_object *obj, struct lc_purchase *);
/* Records p in its own write transaction (scope, replay, card state,
 * type rules). Sets *data; *idempotent is 1 for a replay. 0 or -1. */
int lc_purchase_run(struct lc_ctx *, struct lc_purchase *,
    json_object **data, int *idempotent);
/* Resolves a write's card from up to three identifiers (record rules):
 * 0 with card filled, or -1 after lc_fail. */
int lc_card_resolve(struct lc_ctx *, const char *card_id, const char *qr,
    const char *barcode, struct lc_card *card);

/* Shared by claim and redeem (lc_reward.c): opens the write transaction,
 * answers a replay of key, and loads the card by id checking it is active
 * and of type want. Returns 1 with card loaded and a transaction open, 0
 * when *replay was set (no transaction open), -1 after lc_fail. */
int lc_card_write_begin(struct lc_ctx *, const char *card_id,
    const char *key, const char *kind, const char *want,
    struct lc_card *card, json_object **replay);
/* Sets a new transaction row for card from the caller's request. */
int lc_txn_init(struct lc_ctx *, struct lc_txn *, const struct lc_card *,
    const char *location_id, const char *staff_user_id, const char *type,
    int64_t created_at);
/* Commits, storing response under key when given. 0 or -1 (rolled back). */
int lc_card_write_end(struct lc_ctx *, const char *key, const char *kind,
    const char *txn_id, json_object *response);

/* lc_idem.c: idempotency keys, one namespace per merchant. */
/* 1 with *replay set (a copy of the stored response) when key is known for
 * kind, 0 when unknown, -1 after lc_fail (VALIDATION_ERROR when the key
 * belongs to another kind of operation). */
int lc_idem_get(struct lc_ctx *, const char *key, const char *kind,
    json_object **replay);
/* Stores response under key. 0, or -1 after lc_fail. */
int lc_idem_put(struct lc_ctx *, const char *key, const char *kind,
    const char *txn_id, json_object *response);
/* Validates an idempotency_key field: 1 to 255 printable ASCII. */
int lc_in_key(struct lc_ctx *, json_object *obj, int required, const char **key);

/* lc_auth.c: write scope of decisions §4. 0, or -1 after lc_fail
 * (FORBIDDEN with the offending field). */
int lc_auth_scope(struct lc_ctx *, const char *location_id,
    const char *staff_user_id);

/* Logs to stderr (the server's error log) with the request id. */
void lc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* LC_INT_H */
