/*
 * The storage interface: every read and write of the service's data, as
 * typed structs. One backend implements it (db_sqlite.c); nothing here
 * names SQLite, so another backend can sit behind the same functions.
 *
 * Conventions: a getter returns 1 found (struct filled), 0 not found, -1
 * on a storage failure (logged). A write returns 0, or -1 on failure, or
 * LC_DB_CONFLICT where it says so (a unique value taken). A change of one
 * row by id returns 1 changed, 0 no such row, -1 on failure. Lists are
 * handed to a callback row by row; its pointers are valid during the call
 * only, and a non-zero return stops the list (and is returned).
 */
#ifndef LC_STORE_H
#define LC_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "lc_limits.h"

#define LC_DB_CONFLICT (-2)
#define LC_DIGEST_LEN 32	/* a stored token digest */
#define LC_HASH_MAX 255		/* a stored password hash (MCF text) */

struct lc_db;

/* Connection. */
/* Opens (creating when create is set) and upgrades the database named by
 * path. NULL on failure, *errmsg (static text) says why. */
struct lc_db *lc_db_open(const char *path, int create, const char **errmsg);
void lc_db_close(struct lc_db *);
int lc_db_version(struct lc_db *);	/* schema version, or -1 */
/* The database path: explicit, else LOYALTY_DB, else the build default. */
const char *lc_db_default_path(const char *explicit_path);

/* Transactions: only the write path (write.c) calls these. A write
 * transaction takes the write lock at once, so a read-then-write inside
 * it never fails half-way for a lock. */
int lc_db_begin(struct lc_db *, int write);	/* 0 or -1 */
int lc_db_commit(struct lc_db *);		/* 0, or -1 (rolled back) */
void lc_db_rollback(struct lc_db *);		/* none open: nothing */

/* Settings. */
int lc_db_setting_get(struct lc_db *, const char *key, char *out, size_t outsz);
int lc_db_setting_set(struct lc_db *, const char *key, const char *value);

/* Merchants and locations. */
struct lc_location {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char name[LC_BYTES(LC_NAME_MAX)];
};
int lc_db_merchant_add(struct lc_db *, const char *id, const char *name,
    int64_t at);
int lc_db_merchant_exists(struct lc_db *, const char *id);
int lc_db_location_add(struct lc_db *, const struct lc_location *, int64_t at);
int lc_db_location_get(struct lc_db *, const char *id, struct lc_location *);
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
};
/* By e-mail, compared without case. */
int lc_db_user_by_email(struct lc_db *, const char *email, struct lc_user *);
int lc_db_user_get(struct lc_db *, const char *id, struct lc_user *);
/* LC_DB_CONFLICT when the e-mail is taken. */
int lc_db_user_add(struct lc_db *, const struct lc_user *, int64_t at);
int lc_db_user_set_disabled(struct lc_db *, const char *id, int disabled);
int lc_db_user_set_password(struct lc_db *, const char *id, const char *hash);

/* Login attempts: a check in flight is pending until settled. */
struct lc_attempts {
	int64_t failures;	/* settled failures in the window, and pending
				 * checks gone stale */
	int64_t pending;	/* checks in flight */
	int64_t oldest;		/* time of the oldest failure counted */
};
int lc_db_attempts(struct lc_db *, const char *email, int64_t since,
    int64_t stale_before, struct lc_attempts *);
/* A pending check at time at; *id names it for lc_db_attempt_settle. */
int lc_db_attempt_add(struct lc_db *, const char *email, int64_t at,
    int64_t *id);
/* failed: keep it as a failure at time at; else forget it. */
int lc_db_attempt_settle(struct lc_db *, int64_t id, int failed, int64_t at);
int lc_db_attempts_clear(struct lc_db *, const char *email);
int lc_db_attempts_prune(struct lc_db *, int64_t before);

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
	char type[16];		/* "punch", "cashback", "discount" */
	char title[LC_BYTES(LC_NAME_MAX)];
	/* Punch programs. */
	int64_t punch_requirement, reward_amount, cooldown_seconds;
	char reward_title[LC_BYTES(LC_NAME_MAX)];
	char reward_description[LC_BYTES(LC_DESC_MAX)];
	/* Cashback and discount programs, by increasing min_spend. */
	struct lc_tier tiers[LC_TIERS_MAX];
	int ntiers;
};
/* With its tiers. */
int lc_db_program_add(struct lc_db *, const struct lc_program *, int64_t at);
/* Without its tiers. */
int lc_db_program_get(struct lc_db *, const char *id, struct lc_program *);

struct lc_cardtype;

struct lc_card {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char merchant_name[LC_BYTES(LC_NAME_MAX)];
	char customer_name[LC_BYTES(LC_NAME_MAX)];
	char barcode[LC_REF_MAX + 1];
	char qr[LC_QR_MAX + 1];
	char status[16];	/* "active", "inactive" */
	int64_t current_punches, pending_rewards, lifetime_punches;
	int64_t cashback_balance, lifetime_cashback, lifetime_spend;
	struct lc_program program;	/* with tiers */
	const struct lc_cardtype *ops;	/* set by lc_card_get, not storage */
};
enum lc_cardkey { LC_CARDKEY_ID, LC_CARDKEY_QR, LC_CARDKEY_BARCODE };
/* The merchant's card by id, QR payload or barcode, with its program. */
int lc_db_card_get(struct lc_db *, enum lc_cardkey, const char *merchant_id,
    const char *value, struct lc_card *);
/* LC_DB_CONFLICT when the barcode or QR payload is taken. */
int lc_db_card_add(struct lc_db *, const struct lc_card *, int64_t at);
/* Writes the counters back; -1 unless exactly that card changed. */
int lc_db_card_save(struct lc_db *, const struct lc_card *);
int lc_db_card_set_status(struct lc_db *, const char *id, const char *status);

/* Transactions. An int64 field below 0 is stored as none (NULL). */
struct lc_txn {
	char id[LC_ID_LEN + 1];
	const char *merchant_id, *card_id, *location_id, *staff_user_id, *type;
	int64_t purchase_amount, punches_added, rate_bp;
	int64_t cashback_earned, discount_amount, redeemed_amount;
	const char *reward_id, *notes, *pos_ref, *pos_term, *client_ts;
	int64_t created_at;
};
int lc_db_txn_add(struct lc_db *, const struct lc_txn *);
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

/* The cashback ledger: one earning per cashback purchase. */
struct lc_earning {
	char txn_id[LC_ID_LEN + 1];
	int64_t amount, remaining, earned_at;
};
int lc_db_earning_add(struct lc_db *, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at);
/* The card's oldest earning with something remaining. */
int lc_db_earning_oldest(struct lc_db *, const char *card_id, struct lc_earning *);
/* Takes use from the earning: 1, or 0 when less than use remains. */
int lc_db_earning_use(struct lc_db *, const char *txn_id, int64_t use);
int lc_db_entry_add(struct lc_db *, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount);

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
};
int lc_db_history_count(struct lc_db *, const struct lc_hist_query *,
    int64_t *total);
int lc_db_history_page(struct lc_db *, const struct lc_hist_query *,
    int (*each)(void *, const struct lc_hist_item *), void *arg);

#endif /* LC_STORE_H */
