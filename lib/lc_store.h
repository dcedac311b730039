/*
 * The storage interface: every read and write of the service's data, as
 * typed structs. Its functions are written once, in the topic files
 * db_people.c, db_cards.c and db_lists.c, over the runner and column
 * reader (lc_backend.h) of two backends: SQLite (db_sqlite.c) and, when
 * built with it, PostgreSQL (db_pg.c); the database's name chooses one
 * when it opens (db.c).
 *
 * Conventions: a getter returns 1 found (struct filled), 0 not found, -1
 * on a storage failure (logged); a count or sum, always there, returns 0
 * or -1. A write returns 0, or -1 on failure, or
 * LC_DB_CONFLICT where it says so (a unique value taken). A change of one
 * row by id returns 1 changed, 0 no such row, -1 on failure. Lists are
 * handed to a callback row by row; its pointers are valid during the call
 * only, and a non-zero return stops the list (and is returned).
 */
#ifndef LC_STORE_H
#define LC_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "lc_card.h"
#include "lc_limits.h"

#define LC_DB_CONFLICT (-2)
#define LC_DIGEST_LEN 32	/* a stored token digest */
#define LC_HASH_MAX 255		/* a stored password hash (MCF text) */

struct lc_db;

/* Connection. */
/* Opens (creating when create is set) and upgrades the database named by
 * path. NULL on failure, *errmsg (static text) says why. */
struct lc_db *lc_db_open(const char *path, int create, const char **errmsg);
/* The same; on failure *misconfigured is 1 when the database cannot be
 * opened or written as set up (a file or folder this user may not read
 * or write, no file, not a database: retrying will not help), 0 when it
 * is busy or failed. */
struct lc_db *lc_db_open_ex(const char *path, int create,
    const char **errmsg, int *misconfigured);
void lc_db_close(struct lc_db *);
/* 1 when the database this connection has open is no longer the one at
 * its name (its file was deleted, or replaced by another): the process
 * then opens the name again. 0 otherwise, and always on PostgreSQL. */
int lc_db_replaced(struct lc_db *);
int lc_db_version(struct lc_db *);	/* schema version, or -1 */
/* The database path: explicit, else LOYALTY_DB, else the build default. */
const char *lc_db_default_path(const char *explicit_path);
/* 1 when a database name is PostgreSQL's (a postgresql:// or postgres://
 * URI, or "postgres:" or "postgresql:" then a conninfo), 0 when it is a
 * SQLite file. */
int lc_db_name_is_pg(const char *name);
/* Why a name is neither (a mistyped PostgreSQL name, another scheme's
 * URI), or NULL when it is one of them. */
const char *lc_db_name_problem(const char *name);
/* A database name fit for a log or a message: a password in it replaced
 * by "***". Returns out. */
const char *lc_db_name_shown(const char *name, char *out, size_t outsz);
/* The backend of an open connection: "sqlite" or "postgresql". */
const char *lc_db_backend(struct lc_db *);

/*
 * Transactions: only the write path (write.c) calls these. A write
 * transaction excludes every other write transaction from its begin to its
 * end (SQLite: BEGIN IMMEDIATE takes the one write lock): the rules read
 * and then write (a card's counters, a key, the failures of a login)
 * relying on it, so a backend must give the same (PostgreSQL: a lock
 * taken at begin, or SERIALIZABLE with the write retried). A read
 * transaction is one consistent snapshot and takes no lock. Each request
 * runs in one read transaction (http_serve.c); a read begun inside an
 * open read is that read, and a write begun inside one ends it first.
 */
int lc_db_begin(struct lc_db *, int write);	/* 0 or -1 */
/* write: a write no one waits for at the counter (a sync batch's item),
 * which lets the others go first for a moment (db_queue.c). */
#define LC_DB_WRITE_LATER 2
/* Ends a request: a transaction left open by a bug is rolled back (and
 * logged), so no process holds the write lock between requests. 1 when
 * that was a write's (what it wrote is gone), else 0. */
int lc_db_idle(struct lc_db *);
/* 1 when a statement, a begin or a commit failed since the request
 * began (the last lc_db_idle):
 * a rule that fails after storage did needs to say nothing more; the
 * write path and the server answer DATABASE_ERROR for it. */
int lc_db_failed(struct lc_db *);
/* 0 (committed and durable), or -1: rolled back, or committed but its
 * sync failed (logged; answer an error, a retry with the key is safe). */
int lc_db_commit(struct lc_db *);
/* Between requests, never inside one: upkeep of the log (a checkpoint
 * when it has grown), which no write should wait for. */
void lc_db_tidy(struct lc_db *);
/* Frees the connection's cache of pages (read again when needed): after
 * a big request, so its process can give the memory back. */
void lc_db_shrink(struct lc_db *);
void lc_db_rollback(struct lc_db *);		/* none open: nothing */

/* Settings. */
int lc_db_setting_get(struct lc_db *, const char *key, char *out, size_t outsz);
int lc_db_setting_set(struct lc_db *, const char *key, const char *value);
/* A shop's own settings (shop_settings): 1 read, 0 none, -1 error. */
int lc_db_shop_setting_get(struct lc_db *, const char *merchant_id,
    const char *key, char *out, size_t outsz);
int lc_db_shop_setting_set(struct lc_db *, const char *merchant_id,
    const char *key, const char *value);
/* Whether the shop has any transaction: its money has moved. */
int lc_db_merchant_money_moved(struct lc_db *, const char *merchant_id,
    int *moved);

/* Merchants and locations. */
struct lc_location {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char name[LC_BYTES(LC_NAME_MAX)];
	int64_t created_at;
};
int lc_db_merchant_name(struct lc_db *, const char *id, char *out, size_t outsz);
int lc_db_merchant_add(struct lc_db *, const char *id, const char *name,
    int64_t at);
int lc_db_merchant_exists(struct lc_db *, const char *id);
int lc_db_merchant_count(struct lc_db *, int64_t *n);
int lc_db_merchant_first(struct lc_db *, char *out, size_t outsz);
int lc_db_location_add(struct lc_db *, const struct lc_location *, int64_t at);
int lc_db_location_get(struct lc_db *, const char *id, struct lc_location *);
int lc_db_location_rename(struct lc_db *, const char *id, const char *name);
/* The merchant's locations, oldest first. */
int lc_db_locations(struct lc_db *, const char *merchant_id,
    int (*each)(void *, const struct lc_location *), void *arg);

/* Users. */
struct lc_user {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];	/* "" for an owner */
	char email[LC_EMAIL_MAX + 1];
	char display_name[LC_BYTES(LC_NAME_MAX)];	/* "" when none */
	char password_hash[LC_HASH_MAX + 1];
	int is_owner;
	int disabled;
	int64_t created_at;
};
/* By e-mail, compared without case. */
int lc_db_user_by_email(struct lc_db *, const char *email, struct lc_user *);
int lc_db_user_get(struct lc_db *, const char *id, struct lc_user *);
/* LC_DB_CONFLICT when the e-mail is taken. */
int lc_db_user_add(struct lc_db *, const struct lc_user *, int64_t at);
int lc_db_user_set_disabled(struct lc_db *, const char *id, int disabled);
int lc_db_user_set_password(struct lc_db *, const char *id, const char *hash);
/* name "" stores none. */
int lc_db_user_set_name(struct lc_db *, const char *id, const char *name);
int lc_db_user_set_location(struct lc_db *, const char *id,
    const char *location_id);
/* The merchant's users, oldest first. */
int lc_db_users(struct lc_db *, const char *merchant_id,
    int (*each)(void *, const struct lc_user *), void *arg);
/* 1 when the installation has an owner. */
int lc_db_owner_exists(struct lc_db *);

/* Login attempts: a check in flight is pending until settled. */
struct lc_attempts {
	int64_t failures;	/* settled failures in the window, and pending
				 * checks gone stale */
	int64_t pending;	/* checks in flight (not stale) */
	int64_t oldest;		/* time of the oldest failure counted */
	int64_t oldest_pending;	/* time of the oldest check in flight */
};
/* Of a key (email: the guard's key), the checks made from the client
 * address addr, or with addr NULL the checks counted in the key's shared
 * limit (from any address). */
int lc_db_attempts(struct lc_db *, const char *email, const char *addr,
    int64_t since, int64_t stale_before, struct lc_attempts *);
/* A pending check from addr at time at, shared: counted in the key's
 * shared limit; *id names it for lc_db_attempt_settle. */
int lc_db_attempt_add(struct lc_db *, const char *email, const char *addr,
    int shared, int64_t at, int64_t *id);
/* failed: keep it as a failure at time at; else forget it. */
int lc_db_attempt_settle(struct lc_db *, int64_t id, int failed, int64_t at);
/* Forgets the settled failures and the stale checks of a key made from
 * addr. */
int lc_db_attempts_clear(struct lc_db *, const char *email, const char *addr,
    int64_t stale_before);
/* Forgets what is older than before, but a check in flight. */
int lc_db_attempts_prune(struct lc_db *, int64_t before, int64_t stale_before);
/* Addresses known to a key (a login to it from there): 1 when addr had a
 * success after since, 0 not, -1. */
int lc_db_known(struct lc_db *, const char *email, const char *addr,
    int64_t since);
/* addr had a success at time at. */
int lc_db_known_add(struct lc_db *, const char *email, const char *addr,
    int64_t at);
/* Forgets the successes at before and older. */
int lc_db_known_prune(struct lc_db *, int64_t before);

/* Tokens, stored as digests only. */
struct lc_token {
	char kind[8];			/* "access" or "refresh" */
	char user_id[LC_ID_LEN + 1];
	char family[LC_ID_LEN + 1];	/* the login it descends from */
	int64_t expires_at;
	int rotated, revoked;
	/* Its user's. */
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];
	int is_owner;
};
/* A token of a disabled user is not found. */
int lc_db_token_get(struct lc_db *, const unsigned char digest[LC_DIGEST_LEN],
    struct lc_token *);
int lc_db_token_add(struct lc_db *, const unsigned char digest[LC_DIGEST_LEN],
    const char *kind, const char *user_id, const char *family,
    int64_t expires_at, int64_t at);
/* Marks a refresh token used: 1, or 0 when it was already. */
int lc_db_token_rotate(struct lc_db *, const unsigned char digest[LC_DIGEST_LEN],
    int64_t at);
int lc_db_tokens_revoke_family(struct lc_db *, const char *family);
int lc_db_tokens_revoke_user(struct lc_db *, const char *user_id);
int lc_db_tokens_prune(struct lc_db *, int64_t now);

/* Programs, their tiers, and cards. */
struct lc_tier {
	char name[LC_BYTES(LC_TIER_NAME_MAX)];
	int64_t min_spend;	/* cents of lifetime spend */
	int64_t rate_bp;
};

struct lc_program {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	enum lc_ctype type;	/* its behaviour: lc_cardtype(type) */
	char title[LC_BYTES(LC_NAME_MAX)];
	/* Punch programs. */
	int64_t punch_requirement, reward_amount, cooldown_seconds;
	int64_t max_punches;	/* per purchase; 0: up to LC_PUNCH_COUNT_MAX */
	char reward_title[LC_BYTES(LC_NAME_MAX)];
	char reward_description[LC_BYTES(LC_DESC_MAX)];
	/* Cashback and discount programs, by increasing min_spend. */
	struct lc_tier tiers[LC_TIERS_MAX];
	int ntiers;
	/* Cashback programs: the days an earning lasts; 0 forever. */
	int64_t expiry_days;
};
/* With its tiers. */
int lc_db_program_add(struct lc_db *, const struct lc_program *, int64_t at);
/* With its tiers. */
int lc_db_program_get(struct lc_db *, const char *id, struct lc_program *);
/* Titles, reward and cooldown; and the tiers, replaced when ntiers > 0. */
int lc_db_program_update(struct lc_db *, const struct lc_program *);
/* The merchant's programs, oldest first, with tiers and their count of
 * cards. */
int lc_db_programs(struct lc_db *, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t cards), void *arg);

struct lc_cardtype;

struct lc_card {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char merchant_name[LC_BYTES(LC_NAME_MAX)];
	char customer_name[LC_BYTES(LC_NAME_MAX)];
	char barcode[LC_REF_MAX + 1];
	char qr[LC_QR_MAX + 1];
	char status[16];	/* "active", "inactive" */
	char share_token[LC_SHARE_LEN + 1];	/* its public page's name */
	/* The secret of its time-based codes (card_code.c), hex; "" none.
	 * Never shown: only the codes made of it leave the service. */
	char code_secret[LC_CODE_SECRET_LEN + 1];
	int64_t code_step_used;	/* the step of the last code taken; 0 none */
	int64_t current_punches, pending_rewards, lifetime_punches;
	int64_t cashback_balance, lifetime_cashback, lifetime_spend;
	int64_t created_at;
	struct lc_program program;	/* with tiers */
	const struct lc_cardtype *ops;	/* set by lc_card_get, not storage */
	/* The soonest expiry of its cashback and the amount then: 0 none,
	 * -1 not asked; set by lc_expiry_fresh, not storage. */
	int64_t next_expiry_at, next_expiry_amount;
};
/* The merchant's card by id, QR payload or barcode, with its program. */
int lc_db_card_get(struct lc_db *, enum lc_cardkey, const char *merchant_id,
    const char *value, struct lc_card *);
/* LC_DB_CONFLICT when the barcode, QR payload or share token is taken.
 * issued_by, issued_location: who issued it at the counter, where (NULL
 * for none). */
int lc_db_card_add(struct lc_db *, const struct lc_card *,
    const char *issued_by, const char *issued_location, int64_t at);
/* Any merchant's card by its share token, with its program. */
int lc_db_card_by_share(struct lc_db *, const char *token, struct lc_card *);
/* The time of the card's latest transaction, else its issue: 0 or -1. */
int lc_db_card_updated(struct lc_db *, const struct lc_card *, int64_t *at);
/* Writes the counters back; -1 unless exactly that card changed. */
int lc_db_card_save(struct lc_db *, const struct lc_card *);
int lc_db_card_set_status(struct lc_db *, const char *id, const char *status);
int lc_db_card_set_name(struct lc_db *, const char *id, const char *name);
/* A new share token and code secret: the old link names no card, the old
 * secret makes no code, from the commit on. A token another card has
 * fails (-1): at 128 random bits, never. */
int lc_db_card_set_share(struct lc_db *, const char *id, const char *token,
    const char *secret);
/* Takes the card's code of time step step: 1, or 0 when a code of that
 * step or a later one was taken already (a replay). */
int lc_db_card_code_use(struct lc_db *, const char *id, int64_t step);
/* The merchant's cards matching a search, newest first. */
struct lc_card_query {
	const char *merchant_id;
	const char *q;		/* a word's start of the name, a whole barcode
				 * or card id; NULL for all */
	const char *program_id;	/* NULL for all */
	const char *status;	/* NULL for all */
	int64_t limit, offset;
};
int lc_db_cards_count(struct lc_db *, const struct lc_card_query *,
    int64_t *total);
int lc_db_cards(struct lc_db *, const struct lc_card_query *,
    int (*each)(void *, const struct lc_card *), void *arg);

/* Transactions. An int64 field below 0 is stored as none (NULL); but on
 * a void or an adjustment, whose amounts are signed, LC_TXN_NONE is. */
#define LC_TXN_NONE INT64_MIN
struct lc_txn {
	char id[LC_ID_LEN + 1];
	const char *merchant_id, *card_id, *location_id, *staff_user_id, *type;
	int64_t purchase_amount, punches_added, rate_bp;
	int64_t cashback_earned, discount_amount, redeemed_amount;
	const char *reward_id, *notes, *pos_ref, *pos_term, *client_ts;
	int64_t created_at;
	/* NULL: none. A void's original; an earn-on-remainder purchase's
	 * redemption; why a void or an adjustment was made. */
	const char *voided_id, *parent_id, *reason;
};
int lc_db_txn_add(struct lc_db *, const struct lc_txn *);
/* A transaction of the merchant, as a void reads it. Empty text: none. */
struct lc_txn_info {
	char id[LC_ID_LEN + 1];
	char card_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];
	char staff_user_id[LC_ID_LEN + 1];
	char type[16];
	char reward_id[LC_ID_LEN + 1];
	char parent_id[LC_ID_LEN + 1];	/* its redemption (earn part) */
	char voided_by[LC_ID_LEN + 1];	/* the void that undid it */
	int64_t purchase_amount, created_at;
	/* Below 0: none. */
	int64_t punches_added, cashback_earned, discount_amount, redeemed_amount;
};
int lc_db_txn_get(struct lc_db *, const char *merchant_id, const char *id,
    struct lc_txn_info *);
/* The earn-on-remainder purchase of redemption id: 1 (into out), 0 none. */
int lc_db_txn_child(struct lc_db *, const char *id, char out[LC_ID_LEN + 1]);
/* The latest punch of card in (after, before), exclusive: 1 with *at. */
int lc_db_punch_near(struct lc_db *, const char *card_id, int64_t after,
    int64_t before, int64_t *at);

/* Punch rewards. */
struct lc_reward {
	char id[LC_ID_LEN + 1];
	char card_id[LC_ID_LEN + 1];
	char earned_txn_id[LC_ID_LEN + 1];
	char title[LC_BYTES(LC_NAME_MAX)];
	char description[LC_BYTES(LC_DESC_MAX)];
	int64_t amount, earned_at;
};
int lc_db_reward_add(struct lc_db *, const struct lc_reward *);
/* The card's oldest pending reward. */
int lc_db_reward_oldest(struct lc_db *, const char *card_id, struct lc_reward *);
/* Pending to claimed: 1, or 0 when it was not pending. */
int lc_db_reward_claim(struct lc_db *, const char *id, int64_t at,
    const char *claim_txn_id);
/* A pending reward of card_id, the one transaction txn_id earned first,
 * else the newest: 1 (into r), 0 none. */
int lc_db_reward_pending_of(struct lc_db *, const char *txn_id,
    const char *card_id, struct lc_reward *r);
/* Deletes a pending reward (a void withdraws it): 1, or 0 when it was not
 * pending. */
int lc_db_reward_withdraw(struct lc_db *, const char *id);
/* Claimed by claim_txn_id back to pending: 1, or 0 when it was not. */
/* 1 when the purchase that earned reward id was voided, 0 not, -1. */
int lc_db_reward_earning_voided(struct lc_db *, const char *id);
int lc_db_reward_unclaim(struct lc_db *, const char *id,
    const char *claim_txn_id);

/* The cashback ledger: one earning per cashback purchase. */
struct lc_earning {
	char txn_id[LC_ID_LEN + 1];
	int64_t amount, remaining, earned_at;
	int64_t expires_at;	/* below 0: never */
};
int lc_db_earning_add(struct lc_db *, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at);
/* The same, expiring at expires_at (below 0: never, as above). */
int lc_db_earning_add_until(struct lc_db *, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at);
/* The card's earning with something remaining that expires soonest (the
 * oldest first among equal terms; one that never expires last). */
int lc_db_earning_oldest(struct lc_db *, const char *card_id, struct lc_earning *);
/* The card's soonest expiry among earnings with something remaining, and
 * all that remains of those expiring at that instant: 1, 0 none. */
int lc_db_expiry_next(struct lc_db *, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance);
/* The card's earning with something remaining that expired at or before
 * now, soonest first: 1, 0 none. */
int lc_db_earning_due(struct lc_db *, const char *card_id, int64_t now,
    struct lc_earning *e);
/* Empties earning e (only if e->remaining is still what remains: 1, else
 * 0) and records its expiry txn_id, dated at its expiry, at the location
 * and staff of the sale that earned it. */
int lc_db_earning_expire(struct lc_db *, const struct lc_earning *e,
    const char *txn_id);
/* A card of merchant with an earning due at now into card_id: 1, 0 none. */
int lc_db_expiry_due_card(struct lc_db *, const char *merchant_id,
    int64_t now, char card_id[LC_ID_LEN + 1]);
/* Takes use from the earning: 1, or 0 when less than use remains. */
int lc_db_earning_use(struct lc_db *, const char *txn_id, int64_t use);
int lc_db_entry_add(struct lc_db *, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount);
/* The earning of txn_id: 1 (into e), 0 none. */
int lc_db_earning_get(struct lc_db *, const char *txn_id, struct lc_earning *);
/* Gives back amount to the earning: 1, or 0 when it would pass its amount. */
int lc_db_earning_return(struct lc_db *, const char *txn_id, int64_t amount);
/* What redemption (or adjustment) txn_id took from each earning, in the
 * order taken; voided: that earning's purchase has been voided since. */
struct lc_entry {
	char earning_txn_id[LC_ID_LEN + 1];
	int64_t amount;
	int voided;
};
/* *out malloc'd (the caller frees it), *n entries: 0 or -1. */
int lc_db_entries(struct lc_db *, const char *txn_id, struct lc_entry **out,
    size_t *n);

/* Idempotency keys, one namespace per merchant. */
struct lc_idem {
	char kind[16];
	char txn_id[LC_ID_LEN + 1];
	char *answer;		/* malloc'd JSON text: the caller frees it */
};
int lc_db_idem_get(struct lc_db *, const char *merchant_id, const char *key,
    struct lc_idem *);
int lc_db_idem_add(struct lc_db *, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at);

/* A card's history, newest first. */
struct lc_hist_query {
	const char *card_id;
	const char *type;	/* NULL for every type */
	int64_t from, to;	/* inclusive, ms; INT64_MIN/MAX for no bound */
	int64_t limit, offset;
};
struct lc_hist_item {
	const char *id, *type;
	int64_t purchase_amount, punches_added, created_at;
	const char *location_name, *staff_name;
	/* Below 0: none. */
	int64_t cashback_earned, discount_amount, redeemed_amount;
	/* NULL: none. */
	const char *reward_name, *pos_ref, *pos_term, *notes, *client_ts;
	/* NULL: none. A void's original, the void that undid this one, the
	 * reason of a void or an adjustment. */
	const char *voided_id, *voided_by, *reason;
	int64_t expired_amount;	/* an expiry's; below 0: none */
	/* A void's or an adjustment's signed changes (LC_TXN_NONE: none);
	 * its amount fields above are then none. */
	int64_t punches_change, cashback_change, redeemed_change;
	int64_t discount_change;
};
int lc_db_history_count(struct lc_db *, const struct lc_hist_query *,
    int64_t *total);
int lc_db_history_page(struct lc_db *, const struct lc_hist_query *,
    int (*each)(void *, const struct lc_hist_item *), void *arg);

/* Reports, from the figures kept per quarter hour (report_buckets). */
enum lc_report_group { LC_GROUP_DAY, LC_GROUP_LOCATION, LC_GROUP_STAFF };
struct lc_report_row {
	char key[LC_ID_LEN + 1];	/* day number, location or user id */
	int64_t day;			/* LC_GROUP_DAY: days since 1970 */
	const char *label;		/* location or staff name, NULL by day */
	int64_t purchases, sales_amount, punches, rewards_earned;
	int64_t rewards_claimed, cashback_earned, cashback_redeemed;
	int64_t discounts_given;
	int64_t cashback_expired;
	int64_t punches_removed;	/* by owners' adjustments */
};
/* Rows of quarter hours [from, to], days cut at offset_ms after UTC. */
int lc_db_report(struct lc_db *, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group,
    int (*each)(void *, const struct lc_report_row *), void *arg);
/* Cashback earned less redeemed and expired up to quarter hour to,
 * included. */
int lc_db_outstanding(struct lc_db *, const char *merchant_id, int64_t to,
    int64_t *cents);
/* The merchant's transactions in [from, to] ms, newest first. */
struct lc_txn_row {
	struct lc_hist_item it;
	const char *card_id, *customer_name, *card_type;
	const char *location_id, *staff_user_id, *card_title;
	const char *card_barcode;
};
int lc_db_txns_count(struct lc_db *, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total);
int lc_db_txns(struct lc_db *, const char *merchant_id, int64_t from,
    int64_t to, int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg);
/* What staff_user_id may still void at location_id: their purchases,
 * claims and redemptions since since ms, not voided, newest first. */
int lc_db_txns_mine(struct lc_db *, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg);

/* The audit trail: appended to, never changed (the schema refuses). */
struct lc_audit_row {
	int64_t seq, at;
	/* NULL: none. */
	const char *merchant_id, *actor_type, *user_id, *location_id;
	const char *terminal_id, *request_id, *action, *object_type;
	const char *object_id, *before, *after;	/* before, after: JSON */
	const char *user_name, *location_name;	/* read: theirs now */
};
int lc_db_audit_add(struct lc_db *, const struct lc_audit_row *);
/* The merchant's rows in [from, to] ms, newest first; a filter NULL is
 * none. limit below 0: all. */
struct lc_audit_query {
	const char *merchant_id;
	int64_t from, to;
	const char *user_id, *action, *object_type, *object_id, *location_id;
	int64_t limit, offset;
};
int lc_db_audit_count(struct lc_db *, const struct lc_audit_query *,
    int64_t *total);
int lc_db_audit(struct lc_db *, const struct lc_audit_query *,
    int (*each)(void *, const struct lc_audit_row *), void *arg);
/* Any merchant's card by id, with its program (the admin tool's view). */
int lc_db_card_any(struct lc_db *, const char *id, struct lc_card *);

/* A consistent copy of the live database into a new file at path, made
 * while others keep writing; with merchant_id, that merchant's shop only
 * (no other merchant's rows, no sign-in tokens). */
int lc_db_backup(struct lc_db *, const char *path, const char *merchant_id);

/* The outbox (db_events.c). */
/* An event of the running write (seq the table's next): 0 or -1. */
int lc_db_event_add(struct lc_db *, const char *merchant_id, const char *type,
    int64_t created_at, const char *data);

/* ------------------------------------------------------------------ */

/* The feed and integration tokens (db_feed.c). */

/* One event as stored: data is the event's data object, as JSON text.
 * The texts are valid while the callback runs. */
struct lc_event_row {
	int64_t seq, created_at;
	const char *merchant_id, *type, *data;
};
/* The merchant's events after seq after (exclusive), oldest first, at
 * most limit; types NULL for every type, else the types wanted (at most
 * LC_FEED_TYPES_MAX, NULL-terminated). each returns 0 to go on. 0,
 * each's non-zero, or -1. */
#define LC_FEED_TYPES_MAX 16
int lc_db_feed(struct lc_db *, const char *merchant_id, int64_t after,
    const char *const *types, int64_t limit,
    int (*each)(void *, const struct lc_event_row *), void *arg);
/* The newest seq pruned of the merchant's events: 1 (*through), 0 none
 * pruned yet, -1. */
int lc_db_feed_pruned(struct lc_db *, const char *merchant_id,
    int64_t *through);
/* The seq of the merchant's oldest event kept: 1 (*seq), 0 none, -1. */
int lc_db_feed_oldest(struct lc_db *, const char *merchant_id, int64_t *seq);

/* An integration token (api_tokens). Times in ms; none is -1. */
struct lc_apitoken {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char name[LC_BYTES(LC_NAME_MAX)];
	int scopes;				/* LC_SCOPE_* (lc_apitoken.h) */
	char prefix[LC_APITOKEN_PREFIX_LEN + 1];
	int64_t created_at, last_used_at, revoked_at;
};
/* digest: the token's SHA-256 in hex; scopes as their names, space
 * separated; created_by the owner's user id. 0 or -1. */
int lc_db_apitoken_add(struct lc_db *, const struct lc_apitoken *,
    const char *scopes, const char *digest, const char *created_by);
/* The merchant's token id: 1, 0 none (or another merchant's), -1. */
int lc_db_apitoken_get(struct lc_db *, const char *merchant_id,
    const char *id, struct lc_apitoken *);
/* The token of a digest (any merchant's), and its stored digest into
 * digest_out (65 bytes): 1, 0 none, -1. */
int lc_db_apitoken_by_digest(struct lc_db *, const char *digest,
    struct lc_apitoken *, char *digest_out);
/* The merchant's tokens, newest first: 0, each's non-zero, or -1. */
int lc_db_apitokens(struct lc_db *, const char *merchant_id,
    int (*each)(void *, const struct lc_apitoken *), void *arg);
/* How many of the merchant's tokens are not revoked: 0 or -1. */
int lc_db_apitokens_live(struct lc_db *, const char *merchant_id,
    int64_t *n);
/* Revokes token id at at unless it is already: 1 revoked, 0 not, -1. */
int lc_db_apitoken_revoke(struct lc_db *, const char *id, int64_t at);
/* Its last use at at, unless one at or after since is written: 1, 0, -1. */
int lc_db_apitoken_touch(struct lc_db *, const char *id, int64_t at,
    int64_t since);

/* ------------------------------------------------------------------ */

/* Webhook endpoints, their jobs and delivery log (db_hooks.c). */
struct lc_webhook;
struct lc_webhook_job;
/* An endpoint by id, of merchant_id (NULL: any merchant's); its pending
 * count not read. */
int lc_db_hook_get(struct lc_db *, const char *merchant_id, const char *id,
    struct lc_webhook *);
/* The merchant's endpoints, oldest first. */
int lc_db_hooks(struct lc_db *, const char *merchant_id,
    int (*each)(void *, const struct lc_webhook *), void *arg);
int lc_db_hooks_count(struct lc_db *, const char *merchant_id, int64_t *n);
int lc_db_hook_add(struct lc_db *, const struct lc_webhook *);
/* What the owner sets: url, description, event types, enabled and
 * disabled_reason, updated_at; the row of its id and merchant_id only
 * (as the three below). 1, 0 no such row, -1. */
int lc_db_hook_set(struct lc_db *, const struct lc_webhook *);
/* Forgets the failures of the event at its head: attempts,
 * next_attempt_at, failing_since. 1, 0, -1. */
int lc_db_hook_clear_failures(struct lc_db *, const char *merchant_id,
    const char *id);
/* A new secret, the old one signing until old_until (ms). 1, 0, -1. */
int lc_db_hook_secret(struct lc_db *, const char *merchant_id,
    const char *id, const char *secret, const char *old_secret,
    int64_t old_until, int64_t now);
/* The endpoint with its jobs and delivery log. 1, 0, -1. */
int lc_db_hook_delete(struct lc_db *, const char *merchant_id,
    const char *id);
/* Events of its merchant after its cursor, of its types. */
int lc_db_hook_pending(struct lc_db *, const struct lc_webhook *, int64_t *n);
int lc_db_hook_job_add(struct lc_db *, const struct lc_webhook_job *);
/* The newest seq of the merchant's events (0 none). */
int lc_db_hook_last_seq(struct lc_db *, const char *merchant_id,
    int64_t *seq);
/* The type of the merchant's event seq, when kept: 1, 0, -1. */
int lc_db_hook_event_type(struct lc_db *, const char *merchant_id,
    int64_t seq, char *type, size_t typesz);
/* One attempt of the delivery log; NULL text, -1 number: none. */
struct lc_hook_delivery {
	const char *id, *event_id, *event_type, *outcome, *error, *response;
	int64_t attempt, at, status, duration_ms;
};
int lc_db_hook_deliveries_count(struct lc_db *, const char *webhook_id,
    int64_t *total);
/* Newest first. */
int lc_db_hook_deliveries(struct lc_db *, const char *webhook_id,
    int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_hook_delivery *), void *arg);
/* The deliverer's last run: 1 (*started, *ended; -1 none), 0 never. */
int lc_db_hook_deliverer(struct lc_db *, int64_t *started, int64_t *ended);

/* ------------------------------------------------------------------ */

/* The deliverer (db_deliver.c). */
/* The deliverer's row: a run's start (its end cleared) and its end. */
int lc_db_dlv_started(struct lc_db *, int64_t now);
int lc_db_dlv_ended(struct lc_db *, int64_t now);
/* The ids of the enabled endpoints with something to do at now (due,
 * not held, an event after their cursor), oldest first, to each (a
 * non-zero return stops the list and is returned). */
int lc_db_dlv_hook_ids(struct lc_db *, int64_t now,
    int (*each)(void *, const char *id), void *arg);
/* Takes endpoint id for owner until `until` when it is enabled, due
 * (next_attempt_at NULL or at most now) and no other run holds it: 1
 * taken, 0 not, -1. */
int lc_db_dlv_hook_claim(struct lc_db *, const char *id, const char *owner,
    int64_t now, int64_t until);
#define LC_DLV_URL_MAX 2048
#define LC_DLV_SECRET_MAX 128
struct lc_dlv_hook {
	char id[LC_ID_LEN + 1], merchant_id[LC_ID_LEN + 1];
	char url[LC_DLV_URL_MAX + 1];
	char secret[LC_DLV_SECRET_MAX + 1];
	char old_secret[LC_DLV_SECRET_MAX + 1];	/* "" none */
	int64_t old_secret_until;		/* 0 none */
	char event_types[1024];			/* "" every type */
	int64_t cursor_seq, attempts;
	int64_t failing_since;			/* -1 none */
	int enabled;
	int64_t updated_at;
};
int lc_db_dlv_hook_get(struct lc_db *, const char *id, struct lc_dlv_hook *);
/* An event as stored; data owned by whoever filled it unless said. */
struct lc_dlv_event {
	int64_t seq, created_at;
	char merchant_id[LC_ID_LEN + 1];
	char type[64];
	char *data;
};
/* The events after a cursor: the feed's lc_db_feed, every type. */
/* One event of the merchant (data malloc'd: the caller frees it). */
int lc_db_dlv_event_get(struct lc_db *, const char *merchant_id,
    int64_t seq, struct lc_dlv_event *);
/* The endpoint held by owner: its cursor moved to seq (events not of its
 * types) or kept (seq below 0), then let go; its head event delivered;
 * its head event failed (f). Each 1, or 0 when owner no longer holds
 * it (nothing changed), or -1. */
int lc_db_dlv_hook_release(struct lc_db *, const char *id,
    const char *owner, int64_t seq);
int lc_db_dlv_hook_done(struct lc_db *, const char *id, const char *owner,
    int64_t seq, int64_t now);
struct lc_dlv_fail {
	int64_t attempts, next_attempt_at, failing_since, now;
	int64_t updated_at;		/* the endpoint's, as the take saw it */
	const char *disabled_reason;	/* NULL: still enabled */
};
/* lc_db_dlv_hook_failed also answers 2: the owner changed the endpoint
 * since f->updated_at, so only the lease was let go. */
int lc_db_dlv_hook_failed(struct lc_db *, const char *id, const char *owner,
    const struct lc_dlv_fail *);
/* Disables an endpoint for reason (a job's 410): 1, 0 none, -1. */
int lc_db_dlv_hook_disable(struct lc_db *, const char *id,
    const char *reason, int64_t now);
/* One attempt in the log. status, duration_ms below 0: none; job_id,
 * error, response NULL: none. */
struct lc_dlv_delivery {
	const char *id, *webhook_id, *event_id, *event_type, *job_id;
	int64_t attempt, at, status, duration_ms;
	const char *outcome, *error, *response;
};
int lc_db_dlv_delivery_add(struct lc_db *, const struct lc_dlv_delivery *);
/* The jobs due at now of enabled endpoints, oldest first (at most 100),
 * to each as lc_db_dlv_hook_ids. */
int lc_db_dlv_job_ids(struct lc_db *, int64_t now,
    int (*each)(void *, const char *id), void *arg);
/* Takes a due job as lc_db_dlv_hook_claim takes an endpoint. */
int lc_db_dlv_job_claim(struct lc_db *, const char *id, const char *owner,
    int64_t now, int64_t until);
struct lc_dlv_job {
	char id[LC_ID_LEN + 1], webhook_id[LC_ID_LEN + 1];
	char kind[8];		/* "test", "resend" */
	int64_t event_seq;	/* resend: the event; else 0 */
	char *payload;		/* test: the body (malloc'd, caller frees) */
	int64_t attempts, created_at;
};
int lc_db_dlv_job_get(struct lc_db *, const char *id, struct lc_dlv_job *);
/* The job held by owner after an attempt: its attempts, next try and
 * done_at (below 0: not done), let go. 1, 0 not held, -1. */
int lc_db_dlv_job_after(struct lc_db *, const char *id, const char *owner,
    int64_t attempts, int64_t next_attempt_at, int64_t done_at);
/* Pruning after the retention, a step a transaction, never the whole
 * table in one. Whether this run prunes: sets pruned_at to now when it
 * was at most since (or never): 1 it does, 0 another run did lately,
 * -1. */
int lc_db_dlv_prune_claim(struct lc_db *, int64_t now, int64_t since);
/* In a read: to each merchant that has events, its oldest seq and the
 * seq through which its events are older than before (the one before
 * its first newer event, or its newest), as lc_db_dlv_hook_ids. */
int lc_db_dlv_prune_heads(struct lc_db *, int64_t before,
    int (*each)(void *, const char *merchant_id, int64_t oldest,
    int64_t through), void *arg);
/* Raises the merchant's events_pruned.through_seq to through: 0 or -1. */
int lc_db_dlv_prune_mark(struct lc_db *, const char *merchant_id,
    int64_t through);
/* Deletes at most limit of the merchant's events through seq `through`:
 * how many, or -1. */
int64_t lc_db_dlv_prune_events(struct lc_db *, const char *merchant_id,
    int64_t through, int64_t limit);
/* Deletes at most limit delivery log rows older than before, and at most
 * limit jobs done before it or of a disabled endpoint made before it:
 * the larger count, or -1. */
int64_t lc_db_dlv_prune_log(struct lc_db *, int64_t before, int64_t limit);

/* ------------------------------------------------------------------ */

#endif /* LC_STORE_H */
