/*
 * Inside the SQLite backend: its statement table and the helpers around
 * it. Only db_sqlite.c and the unit tests include this; the rest of the
 * library sees storage through lc_store.h alone.
 */
#ifndef LC_SQLITE_H
#define LC_SQLITE_H

#include <sqlite3.h>

#include "lc_backend.h"

/* Every statement of the service: static text, bound parameters,
 * prepared once per connection and kept. */
#define LC_SQL_LIST \
	X(BEGIN, "BEGIN") \
	X(BEGIN_WRITE, "BEGIN IMMEDIATE") \
	X(COMMIT, "COMMIT") \
	X(ROLLBACK, "ROLLBACK") \
	X(MIGRATION_ADD, "INSERT INTO schema_migrations(version, name, " \
	    "applied_at) VALUES (?, ?, ?)") \
	/* One count and one page per filter that leads: its index is named
	 * in the WHERE, so the planner reads that range alone. */ \
	X(AUDIT_COUNT, LC_AUDIT_COUNT LC_AUDIT_WHERE) \
	X(AUDIT_COUNT_USER, LC_AUDIT_COUNT "user_id = ?4 AND " LC_AUDIT_WHERE) \
	X(AUDIT_COUNT_ACTION, LC_AUDIT_COUNT "action = ?5 AND " LC_AUDIT_WHERE) \
	X(AUDIT_COUNT_OBJECT, LC_AUDIT_COUNT "object_type = ?6 AND " \
	    LC_AUDIT_WHERE) \
	X(AUDIT_COUNT_LOCATION, LC_AUDIT_COUNT "location_id = ?8 AND " \
	    LC_AUDIT_WHERE) \
	X(AUDIT_PAGE, LC_AUDIT_PAGE(LC_AUDIT_WHERE)) \
	X(AUDIT_PAGE_USER, LC_AUDIT_PAGE("user_id = ?4 AND " LC_AUDIT_WHERE)) \
	X(AUDIT_PAGE_ACTION, LC_AUDIT_PAGE("action = ?5 AND " LC_AUDIT_WHERE)) \
	X(AUDIT_PAGE_OBJECT, LC_AUDIT_PAGE("object_type = ?6 AND " \
	    LC_AUDIT_WHERE)) \
	X(AUDIT_PAGE_LOCATION, LC_AUDIT_PAGE("location_id = ?8 AND " \
	    LC_AUDIT_WHERE)) \
	/* The admin tool's card, whatever its merchant. */ \
	X(CARD_ANY, LC_CARD_COLS "WHERE c.id = ?") \
	X(PROGRAM_UPDATE, "UPDATE programs SET title = ?, " \
	    "reward_title = CASE type WHEN 'punch' THEN ? ELSE reward_title END, " \
	    "reward_description = ?, reward_amount = ?, cooldown_seconds = ?, " \
	    "max_punches = ?, expiry_days = ? WHERE id = ?") \
	X(TIERS_DELETE, "DELETE FROM tiers WHERE program_id = ?") \
	X(PROGRAMS_OF_MERCHANT, "SELECT " LC_PROGRAM_COLS ", (SELECT count(*) " \
	    "FROM cards c WHERE c.program_id = p.id) FROM programs p " \
	    "WHERE p.merchant_id = ? ORDER BY p.rowid") \
	X(CARD_SET_NAME, "UPDATE cards SET customer_name = ? WHERE id = ?") \
	X(CARD_SET_SHARE, "UPDATE cards SET share_token = ?, code_secret = ? " \
	    "WHERE id = ?") \
	X(CARD_CODE_USE, "UPDATE cards SET code_step_used = ? " \
	    "WHERE id = ? AND code_step_used < ?") \
	X(CARDS_COUNT, "SELECT count(*) FROM cards c " LC_CARD_SEARCH) \
	X(CARDS_PAGE, LC_CARD_COLS LC_CARD_SEARCH \
	    "ORDER BY c.created_at DESC, c.rowid DESC LIMIT ?7 OFFSET ?8") \
	/* By day: the quarter hours summed in key order (no sort), then
	 * those few rows by day. */ \
	X(REPORT_DAY, "SELECT (bucket * 900000 + ?4) / 86400000 AS d, NULL, " \
	    LC_REPORT_SUMS "FROM (SELECT bucket, " LC_REPORT_SUMS_AS \
	    "FROM report_buckets WHERE merchant_id = ?1 " \
	    "AND bucket BETWEEN ?2 AND ?3 GROUP BY bucket) GROUP BY d ORDER BY d") \
	/* By location or staff: one covering index range per location or
	 * person, in their order, with no sort and no lookup per row. */ \
	X(REPORT_LOCATION, "SELECT l.id, l.name, " LC_REPORT_SUMS \
	    "FROM locations l CROSS JOIN report_buckets b " \
	    "ON b.merchant_id = l.merchant_id AND b.location_id = l.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE l.merchant_id = ?1 " \
	    "GROUP BY l.rowid ORDER BY l.rowid") \
	X(REPORT_STAFF, "SELECT u.id, " \
	    "coalesce(nullif(u.display_name, ''), u.email), " LC_REPORT_SUMS \
	    "FROM users u CROSS JOIN report_buckets b " \
	    "ON b.merchant_id = u.merchant_id AND b.staff_user_id = u.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE u.merchant_id = ?1 " \
	    "GROUP BY u.rowid ORDER BY u.rowid") \
	X(OUTSTANDING, "SELECT coalesce(sum(cashback_earned - " \
	    "cashback_redeemed - cashback_expired), 0) FROM report_buckets " \
	    "WHERE merchant_id = ? " \
	    "AND bucket <= ?") \
	X(TXNS_COUNT, "SELECT count(*) FROM transactions WHERE merchant_id = ? " \
	    "AND created_at BETWEEN ? AND ?") \
	X(TXNS_PAGE, LC_TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE merchant_id = ? AND created_at BETWEEN ? AND ? " \
	    LC_HISTORY_PAGE ")" LC_TXN_ROW_JOIN) \
	/* What a person may still void at a till: their own purchases, \
	 * claims and redemptions at the location since ?4, not voided, \
	 * not a redemption's earn part, not a claim whose reward's purchase \
	 * was voided (rule_void.c refuses it). From the merchant's time index: a \
	 * window of minutes holds few rows. */ \
	X(TXNS_MINE, LC_TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions x WHERE merchant_id = ?1 AND created_at >= ?4 " \
	    "AND staff_user_id = ?2 AND location_id = ?3 AND type IN " \
	    "('punch', 'cashback', 'discount', 'reward_claim', " \
	    "'cashback_redeem') AND parent_transaction_id IS NULL " \
	    "AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id) " \
	    "AND NOT EXISTS (SELECT 1 FROM rewards r JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE x.type = 'reward_claim' AND r.id = x.reward_id) " \
	    "ORDER BY created_at DESC, rowid DESC LIMIT ?5)" LC_TXN_ROW_JOIN) \
	X(PROGRAM_ADD, "INSERT INTO programs(id, merchant_id, type, title, " \
	    "punch_requirement, reward_title, reward_description, " \
	    "reward_amount, cooldown_seconds, created_at, max_punches, " \
	    "expiry_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(PROGRAM_GET, "SELECT " LC_PROGRAM_COLS " FROM programs p " \
	    "WHERE p.id = ?") \
	X(TIER_ADD, "INSERT INTO tiers(program_id, name, min_spend, rate_bp) " \
	    "VALUES (?, ?, ?, ?)") \
	X(TIERS_OF_PROGRAM, "SELECT name, min_spend, rate_bp FROM tiers " \
	    "WHERE program_id = ? ORDER BY min_spend") \
	X(CARD_ADD, "INSERT INTO cards(id, merchant_id, program_id, " \
	    "customer_name, barcode, qr_code, share_token, issued_by, " \
	    "issued_location_id, created_at, code_secret) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(CARD_BY_ID, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.id = ?") \
	X(CARD_BY_QR, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.qr_code = ?") \
	X(CARD_BY_BARCODE, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.barcode = ?") \
	/* The customer's page: by its token alone, whatever the merchant. */ \
	X(CARD_BY_SHARE, LC_CARD_COLS "WHERE c.share_token = ?") \
	X(CARD_UPDATED, "SELECT coalesce(max(created_at), ?) FROM transactions " \
	    "WHERE card_id = ?") \
	X(CARD_SAVE, "UPDATE cards SET current_punches = ?, pending_rewards = ?, " \
	    "lifetime_punches = ?, cashback_balance = ?, lifetime_cashback = ?, " \
	    "lifetime_spend = ? WHERE id = ?") \
	X(CARD_SET_STATUS, "UPDATE cards SET status = ? WHERE id = ?") \
	X(TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, purchase_amount, punches_added, " \
	    "rate_bp, cashback_earned, discount_amount, redeemed_amount, " \
	    "reward_id, transaction_notes, pos_reference_id, pos_terminal_id, " \
	    "client_timestamp, created_at, voided_transaction_id, " \
	    "parent_transaction_id, reason) VALUES (?, ?, ?, ?, ?, ?, ?, " \
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(TXN_GET, "SELECT t.id, t.card_id, t.location_id, t.staff_user_id, " \
	    "t.type, coalesce(t.reward_id, ''), " \
	    "coalesce(t.parent_transaction_id, ''), " LC_VOIDED_BY ", " \
	    "t.purchase_amount, t.created_at, t.punches_added, " \
	    "t.cashback_earned, t.discount_amount, t.redeemed_amount " \
	    "FROM transactions t WHERE t.merchant_id = ? AND t.id = ?") \
	X(TXN_CHILD, "SELECT id FROM transactions " \
	    "WHERE parent_transaction_id = ?") \
	X(REWARD_PENDING_OF, "SELECT id, card_id, earned_transaction_id, " \
	    "title, description, amount, earned_at FROM rewards " \
	    "WHERE card_id = ?2 AND status = 'pending_claim' " \
	    "ORDER BY earned_transaction_id = ?1 DESC, rowid DESC LIMIT 1") \
	X(REWARD_EARNING_VOIDED, "SELECT 1 FROM rewards r JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE r.id = ?") \
	X(REWARD_WITHDRAW, "DELETE FROM rewards WHERE id = ? " \
	    "AND status = 'pending_claim'") \
	X(REWARD_UNCLAIM, "UPDATE rewards SET status = 'pending_claim', " \
	    "claimed_at = NULL, claim_transaction_id = NULL WHERE id = ? " \
	    "AND status = 'claimed' AND claim_transaction_id = ?") \
	X(EARNING_GET, "SELECT transaction_id, amount, remaining, earned_at " \
	    "FROM cashback_earnings WHERE transaction_id = ?") \
	X(EARNING_RETURN, "UPDATE cashback_earnings SET remaining = " \
	    "remaining + ?1 WHERE transaction_id = ?2 " \
	    "AND remaining + ?1 <= amount") \
	X(ENTRIES_OF, "SELECT r.earning_transaction_id, r.amount_used, " \
	    "EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = r.earning_transaction_id) " \
	    "FROM redemption_entries r JOIN cashback_earnings e " \
	    "ON e.transaction_id = r.earning_transaction_id " \
	    "WHERE r.redeem_transaction_id = ? ORDER BY e.earned_at, e.rowid") \
	/* A voided punch never started a cooldown: a cashier who voids a \
	 * sale keyed on the wrong card records it again at once. */ \
	X(PUNCH_NEAR, "SELECT max(created_at) FROM transactions x WHERE " \
	    "card_id = ? AND type = 'punch' AND created_at > ? AND created_at < ? " \
	    "AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id)") \
	X(REWARD_ADD, "INSERT INTO rewards(id, card_id, earned_transaction_id, " \
	    "title, description, amount, earned_at) VALUES (?, ?, ?, ?, ?, ?, ?)") \
	X(REWARD_OLDEST, "SELECT id, card_id, earned_transaction_id, title, " \
	    "description, amount, earned_at FROM rewards " \
	    "WHERE card_id = ? AND status = 'pending_claim' " \
	    "ORDER BY earned_at, rowid LIMIT 1") \
	X(REWARD_CLAIM, "UPDATE rewards SET status = 'claimed', claimed_at = ?, " \
	    "claim_transaction_id = ? WHERE id = ? AND status = 'pending_claim'") \
	X(EARNING_ADD, "INSERT INTO cashback_earnings(transaction_id, card_id, " \
	    "amount, remaining, earned_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)") \
	/* Soonest expiring first: FIFO when every earning has one term; one
	 * that never expires (NULL) after all that do. */ \
	X(EARNING_OLDEST, "SELECT " LC_EARNING_COLS "FROM cashback_earnings " \
	    "WHERE card_id = ? AND remaining > 0 " \
	    "ORDER BY expires_at IS NULL, expires_at, earned_at, rowid LIMIT 1") \
	/* One range of the cashback_expiring index: the first instant's
	 * earnings only. */ \
	/* The soonest expiry, and all that expires within a day of it: \
	 * two sales a minute apart expire the same day, and a customer \
	 * told "1.00 expires on the 22nd" should hear of both. */ \
	X(EXPIRY_NEXT, "SELECT min(expires_at), sum(remaining), " \
	    "(SELECT cashback_balance FROM cards WHERE id = ?1) " \
	    "FROM cashback_earnings " \
	    "WHERE card_id = ?1 AND remaining > 0 AND expires_at IS NOT NULL " \
	    "AND expires_at < (SELECT min(expires_at) FROM cashback_earnings " \
	    "WHERE card_id = ?1 AND remaining > 0 AND expires_at IS NOT NULL) " \
	    "+ 86400000") \
	X(EARNING_DUE, "SELECT " LC_EARNING_COLS "FROM cashback_earnings " \
	    "WHERE card_id = ? AND remaining > 0 AND expires_at IS NOT NULL " \
	    "AND expires_at <= ? ORDER BY expires_at, rowid LIMIT 1") \
	X(EARNING_EXPIRE, "UPDATE cashback_earnings SET remaining = 0 " \
	    "WHERE transaction_id = ? AND remaining = ?") \
	/* The expiry of an earning, where and by whom it was earned. */ \
	X(EXPIRY_TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, expired_amount, created_at) " \
	    "SELECT ?1, t.merchant_id, t.card_id, t.location_id, " \
	    "t.staff_user_id, 'expiry', ?2, ?3 FROM transactions t " \
	    "WHERE t.id = ?4") \
	/* From the cashback_due index, not the merchant's every card: the
	 * earnings due and not yet recorded, whatever the merchant, are
	 * few (CROSS JOIN keeps that order). */ \
	X(EXPIRY_DUE_CARD, "SELECT e.card_id FROM cashback_earnings e " \
	    "CROSS JOIN cards c ON c.id = e.card_id WHERE e.remaining > 0 " \
	    "AND e.expires_at IS NOT NULL AND e.expires_at <= ?2 " \
	    "AND c.merchant_id = ?1 LIMIT 1") \
	X(EARNING_USE, "UPDATE cashback_earnings SET remaining = remaining - ? " \
	    "WHERE transaction_id = ? AND remaining >= ?") \
	X(ENTRY_ADD, "INSERT INTO redemption_entries(redeem_transaction_id, " \
	    "earning_transaction_id, amount_used) VALUES (?, ?, ?)") \
	X(IDEM_GET, "SELECT kind, transaction_id, response FROM idempotency_keys " \
	    "WHERE merchant_id = ? AND key = ?") \
	X(IDEM_ADD, "INSERT INTO idempotency_keys(merchant_id, key, kind, " \
	    "transaction_id, response, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
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

/* The audit trail's filters: ?1 merchant, ?2 and ?3 the period, then each
 * NULL for none: ?4 user, ?5 action, ?6 object type, ?7 object id, ?8
 * location; ?9 and ?10 the page's limit and offset. */
#define LC_AUDIT_COUNT "SELECT count(*) FROM audit_log WHERE merchant_id = ?1 " \
	"AND "
#define LC_AUDIT_WHERE "at BETWEEN ?2 AND ?3 " \
	"AND (?4 IS NULL OR user_id = ?4) AND (?5 IS NULL OR action = ?5) " \
	"AND (?6 IS NULL OR object_type = ?6) " \
	"AND (?7 IS NULL OR object_id = ?7) " \
	"AND (?8 IS NULL OR location_id = ?8) "
#define LC_AUDIT_PAGE(where) "SELECT a.seq, a.at, a.merchant_id, " \
	"a.actor_type, a.user_id, a.location_id, a.terminal_id, " \
	"a.request_id, a.action, a.object_type, a.object_id, a.before, " \
	"a.after, coalesce(nullif(u.display_name, ''), u.email), l.name " \
	"FROM (SELECT seq AS k FROM audit_log WHERE merchant_id = ?1 AND " \
	where "ORDER BY at DESC, seq DESC LIMIT ?9 OFFSET ?10) p " \
	"JOIN audit_log a ON a.seq = p.k " \
	"LEFT JOIN users u ON u.id = a.user_id " \
	"LEFT JOIN locations l ON l.id = a.location_id " \
	"ORDER BY a.at DESC, a.seq DESC"

/* Column lists, each decoded by one function of db_sqlite.c. */
#define LC_EARNING_COLS "transaction_id, amount, remaining, earned_at, " \
	"coalesce(expires_at, -1) "
/* ?1 merchant, ?2 the search text (NULL: all), ?3 and ?4 its LIKE
 * patterns (a name's start, a later word's start), ?5 program, ?6 status. */
#define LC_CARD_SEARCH "WHERE c.merchant_id = ?1 AND (?2 IS NULL " \
	"OR c.id = ?2 OR c.barcode = ?2 " \
	"OR lc_fold(c.customer_name) LIKE lc_fold(?3) ESCAPE '\\' " \
	"OR lc_fold(c.customer_name) LIKE lc_fold(?4) ESCAPE '\\') " \
	"AND (?5 IS NULL OR c.program_id = ?5) " \
	"AND (?6 IS NULL OR c.status = ?6) "
#define LC_REPORT_SUMS "sum(purchases), sum(sales_amount), sum(punches), " \
	"sum(rewards_earned), sum(rewards_claimed), sum(cashback_earned), " \
	"sum(cashback_redeemed), sum(discounts_given), sum(cashback_expired), " \
	"sum(punches_removed) "
#define LC_REPORT_SUMS_AS "sum(purchases) AS purchases, " \
	"sum(sales_amount) AS sales_amount, sum(punches) AS punches, " \
	"sum(rewards_earned) AS rewards_earned, " \
	"sum(rewards_claimed) AS rewards_claimed, " \
	"sum(cashback_earned) AS cashback_earned, " \
	"sum(cashback_redeemed) AS cashback_redeemed, " \
	"sum(discounts_given) AS discounts_given, " \
	"sum(cashback_expired) AS cashback_expired, " \
	"sum(punches_removed) AS punches_removed "
#define LC_HISTORY_COLS "SELECT t.id, t.type, t.purchase_amount, " \
	"t.punches_added, t.created_at, l.name, " \
	"coalesce(nullif(u.display_name, ''), u.email), t.cashback_earned, " \
	"t.discount_amount, t.redeemed_amount, r.title, t.pos_reference_id, " \
	"t.pos_terminal_id, t.transaction_notes, t.client_timestamp, " \
	"t.voided_transaction_id, " LC_VOIDED_BY_NULL ", t.reason, " \
	"t.expired_amount "
#define LC_HISTORY_NCOLS 19
/* The void of transaction t, from the unique index: "" or NULL none. */
#define LC_VOIDED_BY "coalesce((SELECT v.id FROM transactions v " \
	"WHERE v.voided_transaction_id = t.id), '')"
#define LC_VOIDED_BY_NULL "(SELECT v.id FROM transactions v " \
	"WHERE v.voided_transaction_id = t.id)"
/* The page's rowids come from the covering index alone, so skipping to a
 * deep page never reads the rows it skips; only the page is joined. */
/* A transaction of the merchant's lists: a history row and its card. */
#define LC_TXN_ROW_COLS LC_HISTORY_COLS ", t.card_id, c.customer_name, " \
	"pr.type, t.location_id, t.staff_user_id, pr.title "
#define LC_TXN_ROW_JOIN " p JOIN transactions t ON t.rowid = p.k " \
	"JOIN cards c ON c.id = t.card_id " \
	"JOIN programs pr ON pr.id = c.program_id " \
	"JOIN locations l ON l.id = t.location_id " \
	"JOIN users u ON u.id = t.staff_user_id " \
	"LEFT JOIN rewards r ON r.id = t.reward_id " \
	"ORDER BY t.created_at DESC, t.rowid DESC"
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
 * The statement, reset and bound from fmt: 's' const char * (NULL binds
 * NULL), 'i' int64_t, 'o' int64_t stored as NULL when below 0, 'n' int64_t stored as NULL
 * when LC_TXN_NONE (a signed amount), 'b' const
 * void * then int length, 'N' NULL (no argument). NULL on failure. The
 * statement stays owned by db; reset it when done.
 */
sqlite3_stmt *lc_sq_prep(struct lc_db *, enum lc_sql, const char *fmt, ...);
/* sqlite3_step() whose errors other than ROW/DONE are logged. */
int lc_sq_step(struct lc_db *, sqlite3_stmt *);
/* Runs a bound statement that returns no rows and resets it: 0 or -1. */
int lc_sq_exec(struct lc_db *, sqlite3_stmt *);
/* Copies column i as text into out (truncating); "" for NULL. */
void lc_sq_col(sqlite3_stmt *, int i, char *out, size_t outsz);
/* The connection, for the tests' own queries. */
sqlite3 *lc_sq_handle(struct lc_db *);
/* The VFS that writes a commit's log frames in one call (db_walbuf.c),
 * registered on first use; NULL: SQLite's own (it could not be). */
const char *lc_walbuf_vfs(void);

#endif /* LC_SQLITE_H */
