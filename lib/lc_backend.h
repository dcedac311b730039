/*
 * Inside storage: what a backend gives the library. Each backend (SQLite
 * in db_sqlite.c, PostgreSQL in db_pg*.c when built) fills one table of
 * these functions; db.c chooses the backend from the database name and
 * sends every lc_db_ call of lc_store.h to the table of the connection.
 * A backend's connection struct begins with its table's pointer.
 */
#ifndef LC_BACKEND_H
#define LC_BACKEND_H

#include "lc_store.h"

/* Every function of lc_store.h but opening: X(return type, name, params).
 * Kept in the order of lc_store.h. */
#define LC_DB_OPS(X) \
	X(void, close, (struct lc_db *)) \
	X(int, replaced, (struct lc_db *)) \
	X(int, version, (struct lc_db *)) \
	X(int, begin, (struct lc_db *, int write)) \
	X(int, idle, (struct lc_db *)) \
	X(int, commit, (struct lc_db *)) \
	X(void, tidy, (struct lc_db *)) \
	X(void, shrink, (struct lc_db *)) \
	X(void, rollback, (struct lc_db *)) \
	X(int, setting_get, (struct lc_db *, const char *key, char *out, \
	    size_t outsz)) \
	X(int, setting_set, (struct lc_db *, const char *key, \
	    const char *value)) \
	X(int, merchant_name, (struct lc_db *, const char *id, char *out, \
	    size_t outsz)) \
	X(int, merchant_add, (struct lc_db *, const char *id, const char *name, \
	    int64_t at)) \
	X(int, merchant_exists, (struct lc_db *, const char *id)) \
	X(int, merchant_count, (struct lc_db *, int64_t *n)) \
	X(int, location_add, (struct lc_db *, const struct lc_location *, \
	    int64_t at)) \
	X(int, location_get, (struct lc_db *, const char *id, \
	    struct lc_location *)) \
	X(int, location_rename, (struct lc_db *, const char *id, \
	    const char *name)) \
	X(int, locations, (struct lc_db *, const char *merchant_id, \
	    int (*each)(void *, const struct lc_location *), void *arg)) \
	X(int, user_by_email, (struct lc_db *, const char *email, \
	    struct lc_user *)) \
	X(int, user_get, (struct lc_db *, const char *id, struct lc_user *)) \
	X(int, user_add, (struct lc_db *, const struct lc_user *, int64_t at)) \
	X(int, user_set_disabled, (struct lc_db *, const char *id, \
	    int disabled)) \
	X(int, user_set_password, (struct lc_db *, const char *id, \
	    const char *hash)) \
	X(int, user_set_name, (struct lc_db *, const char *id, \
	    const char *name)) \
	X(int, user_set_location, (struct lc_db *, const char *id, \
	    const char *location_id)) \
	X(int, users, (struct lc_db *, const char *merchant_id, \
	    int (*each)(void *, const struct lc_user *), void *arg)) \
	X(int, owner_exists, (struct lc_db *)) \
	X(int, attempts, (struct lc_db *, const char *email, const char *addr, \
	    int64_t since, int64_t stale_before, struct lc_attempts *)) \
	X(int, attempt_add, (struct lc_db *, const char *email, \
	    const char *addr, int shared, int64_t at, int64_t *id)) \
	X(int, attempt_settle, (struct lc_db *, int64_t id, int failed, \
	    int64_t at)) \
	X(int, attempts_clear, (struct lc_db *, const char *email, \
	    const char *addr, int64_t stale_before)) \
	X(int, attempts_prune, (struct lc_db *, int64_t before, \
	    int64_t stale_before)) \
	X(int, known, (struct lc_db *, const char *email, const char *addr, \
	    int64_t since)) \
	X(int, known_add, (struct lc_db *, const char *email, \
	    const char *addr, int64_t at)) \
	X(int, known_prune, (struct lc_db *, int64_t before)) \
	X(int, token_get, (struct lc_db *, \
	    const unsigned char digest[LC_DIGEST_LEN], struct lc_token *)) \
	X(int, token_add, (struct lc_db *, \
	    const unsigned char digest[LC_DIGEST_LEN], const char *kind, \
	    const char *user_id, const char *family, int64_t expires_at, \
	    int64_t at)) \
	X(int, token_rotate, (struct lc_db *, \
	    const unsigned char digest[LC_DIGEST_LEN], int64_t at)) \
	X(int, tokens_revoke_family, (struct lc_db *, const char *family)) \
	X(int, tokens_revoke_user, (struct lc_db *, const char *user_id)) \
	X(int, tokens_prune, (struct lc_db *, int64_t now)) \
	X(int, program_add, (struct lc_db *, const struct lc_program *, \
	    int64_t at)) \
	X(int, program_get, (struct lc_db *, const char *id, \
	    struct lc_program *)) \
	X(int, program_update, (struct lc_db *, const struct lc_program *)) \
	X(int, programs, (struct lc_db *, const char *merchant_id, \
	    int (*each)(void *, const struct lc_program *, int64_t cards), \
	    void *arg)) \
	X(int, card_get, (struct lc_db *, enum lc_cardkey, \
	    const char *merchant_id, const char *value, struct lc_card *)) \
	X(int, card_add, (struct lc_db *, const struct lc_card *, \
	    const char *issued_by, const char *issued_location, int64_t at)) \
	X(int, card_by_share, (struct lc_db *, const char *token, \
	    struct lc_card *)) \
	X(int, card_updated, (struct lc_db *, const struct lc_card *, \
	    int64_t *at)) \
	X(int, card_save, (struct lc_db *, const struct lc_card *)) \
	X(int, card_set_status, (struct lc_db *, const char *id, \
	    const char *status)) \
	X(int, card_set_name, (struct lc_db *, const char *id, \
	    const char *name)) \
	X(int, card_set_share, (struct lc_db *, const char *id, \
	    const char *token, const char *secret)) \
	X(int, card_code_use, (struct lc_db *, const char *id, int64_t step)) \
	X(int, cards_count, (struct lc_db *, const struct lc_card_query *, \
	    int64_t *total)) \
	X(int, cards, (struct lc_db *, const struct lc_card_query *, \
	    int (*each)(void *, const struct lc_card *), void *arg)) \
	X(int, txn_add, (struct lc_db *, const struct lc_txn *)) \
	X(int, txn_get, (struct lc_db *, const char *merchant_id, \
	    const char *id, struct lc_txn_info *)) \
	X(int, txn_child, (struct lc_db *, const char *id, \
	    char out[LC_ID_LEN + 1])) \
	X(int, punch_near, (struct lc_db *, const char *card_id, int64_t after, \
	    int64_t before, int64_t *at)) \
	X(int, reward_add, (struct lc_db *, const struct lc_reward *)) \
	X(int, reward_oldest, (struct lc_db *, const char *card_id, \
	    struct lc_reward *)) \
	X(int, reward_claim, (struct lc_db *, const char *id, int64_t at, \
	    const char *claim_txn_id)) \
	X(int, reward_pending_of, (struct lc_db *, const char *txn_id, \
	    const char *card_id, struct lc_reward *r)) \
	X(int, reward_withdraw, (struct lc_db *, const char *id)) \
	X(int, reward_earning_voided, (struct lc_db *, const char *id)) \
	X(int, reward_unclaim, (struct lc_db *, const char *id, \
	    const char *claim_txn_id)) \
	X(int, earning_add, (struct lc_db *, const char *txn_id, \
	    const char *card_id, int64_t amount, int64_t at)) \
	X(int, earning_add_until, (struct lc_db *, const char *txn_id, \
	    const char *card_id, int64_t amount, int64_t at, \
	    int64_t expires_at)) \
	X(int, earning_oldest, (struct lc_db *, const char *card_id, \
	    struct lc_earning *)) \
	X(int, expiry_next, (struct lc_db *, const char *card_id, int64_t *at, \
	    int64_t *amount, int64_t *balance)) \
	X(int, earning_due, (struct lc_db *, const char *card_id, int64_t now, \
	    struct lc_earning *e)) \
	X(int, earning_expire, (struct lc_db *, const struct lc_earning *e, \
	    const char *txn_id)) \
	X(int, expiry_due_card, (struct lc_db *, const char *merchant_id, \
	    int64_t now, char card_id[LC_ID_LEN + 1])) \
	X(int, earning_use, (struct lc_db *, const char *txn_id, int64_t use)) \
	X(int, entry_add, (struct lc_db *, const char *redeem_txn_id, \
	    const char *earning_txn_id, int64_t amount)) \
	X(int, earning_get, (struct lc_db *, const char *txn_id, \
	    struct lc_earning *)) \
	X(int, earning_return, (struct lc_db *, const char *txn_id, \
	    int64_t amount)) \
	X(int, entries, (struct lc_db *, const char *txn_id, \
	    struct lc_entry **out, size_t *n)) \
	X(int, idem_get, (struct lc_db *, const char *merchant_id, \
	    const char *key, struct lc_idem *)) \
	X(int, idem_add, (struct lc_db *, const char *merchant_id, \
	    const char *key, const char *kind, const char *txn_id, \
	    const char *answer, int64_t at)) \
	X(int, history_count, (struct lc_db *, const struct lc_hist_query *, \
	    int64_t *total)) \
	X(int, history_page, (struct lc_db *, const struct lc_hist_query *, \
	    int (*each)(void *, const struct lc_hist_item *), void *arg)) \
	X(int, report, (struct lc_db *, const char *merchant_id, int64_t from, \
	    int64_t to, int64_t offset_ms, enum lc_report_group, \
	    int (*each)(void *, const struct lc_report_row *), void *arg)) \
	X(int, outstanding, (struct lc_db *, const char *merchant_id, \
	    int64_t to, int64_t *cents)) \
	X(int, txns_count, (struct lc_db *, const char *merchant_id, \
	    int64_t from, int64_t to, int64_t *total)) \
	X(int, txns, (struct lc_db *, const char *merchant_id, int64_t from, \
	    int64_t to, int64_t limit, int64_t offset, \
	    int (*each)(void *, const struct lc_txn_row *), void *arg)) \
	X(int, txns_mine, (struct lc_db *, const char *merchant_id, \
	    const char *staff_user_id, const char *location_id, int64_t since, \
	    int64_t limit, int (*each)(void *, const struct lc_txn_row *), \
	    void *arg)) \
	X(int, audit_add, (struct lc_db *, const struct lc_audit_row *)) \
	X(int, audit_count, (struct lc_db *, const struct lc_audit_query *, \
	    int64_t *total)) \
	X(int, audit, (struct lc_db *, const struct lc_audit_query *, \
	    int (*each)(void *, const struct lc_audit_row *), void *arg)) \
	X(int, card_any, (struct lc_db *, const char *id, struct lc_card *)) \
	X(int, backup, (struct lc_db *, const char *path, \
	    const char *merchant_id))

struct lc_db_ops {
	const char *name;	/* "sqlite", "postgresql": for messages */
#define LC_OP_MEMBER(ret, name, params) ret (*name) params;
	LC_DB_OPS(LC_OP_MEMBER)
#undef LC_OP_MEMBER
};

/* The head every backend's connection struct begins with. */
struct lc_db_head {
	const struct lc_db_ops *ops;
};

/* The LIKE patterns of a card search for q (db.c), both backends': its
 * text escaped with \, then "%" after it (start of the name) or "% "
 * before too (start of a later word). 0, or -1 when sz is too small. */
int lc_db_like_patterns(const char *q, char *start, char *word, size_t sz);

/* The columns of a card with its program, in the order each backend's
 * one decoder reads them (card_row, lc_pg_card_row); plain SQL both
 * understand. */
#define LC_PROGRAM_COLS "p.id, p.merchant_id, p.type, p.title, " \
	"coalesce(p.punch_requirement, 0), p.reward_amount, " \
	"p.cooldown_seconds, coalesce(p.reward_title, ''), " \
	"p.reward_description, coalesce(p.max_punches, 0), " \
	"coalesce(p.expiry_days, 0)"
#define LC_PROGRAM_NCOLS 11
#define LC_CARD_COLS "SELECT " LC_PROGRAM_COLS ", c.id, c.merchant_id, " \
	"m.name, c.customer_name, c.barcode, c.qr_code, c.status, " \
	"c.current_punches, c.pending_rewards, c.lifetime_punches, " \
	"c.cashback_balance, c.lifetime_cashback, c.lifetime_spend, " \
	"c.created_at, coalesce(c.share_token, ''), " \
	"coalesce(c.code_secret, ''), c.code_step_used FROM cards c " \
	"JOIN programs p ON p.id = c.program_id " \
	"JOIN merchants m ON m.id = c.merchant_id "

/* Opening, as lc_db_open_ex; each backend's own (name: a path for SQLite,
 * the URI or conninfo for PostgreSQL, its "postgres:" prefix taken off). */
struct lc_db *lc_sq_open(const char *path, int create, const char **errmsg,
    int *misconfigured);
/* Built with --with-postgresql only; declared always, so no header
 * depends on config.h. */
struct lc_db *lc_pg_open(const char *conninfo, int create,
    const char **errmsg, int *misconfigured);

#endif /* LC_BACKEND_H */
