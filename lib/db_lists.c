/*
 * Storage, both backends: the lists of the back office and the tills (the
 * card search, a card's history, reports, the merchant's transactions,
 * the audit trail). Each statement is written once for SQLite and
 * PostgreSQL (lc_backend.h says in which words: a parameter only tested
 * for NULL has no type of its own on PostgreSQL, so it is CAST; so are
 * sums, whose type there is numeric); SQL_PG holds the few PostgreSQL must
 * read otherwise, each with why. Limits and offsets go as 'l'.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_backend.h"

/* ?1 merchant, ?2 the search text (NULL: all), ?3 and ?4 its LIKE
 * patterns (a name's start, a later word's start), ?5 program, ?6 status. */
#define CARD_SEARCH "WHERE c.merchant_id = ?1 AND (CAST(?2 AS text) IS NULL " \
	"OR c.id = ?2 OR c.barcode = ?2 " \
	"OR lc_fold(c.customer_name) LIKE lc_fold(CAST(?3 AS text)) " \
	"ESCAPE '\\' " \
	"OR lc_fold(c.customer_name) LIKE lc_fold(CAST(?4 AS text)) " \
	"ESCAPE '\\') " \
	"AND (CAST(?5 AS text) IS NULL OR c.program_id = ?5) " \
	"AND (CAST(?6 AS text) IS NULL OR c.status = ?6) "

#define REPORT_SUMS "CAST(sum(purchases) AS bigint), " \
	"CAST(sum(sales_amount) AS bigint), CAST(sum(punches) AS bigint), " \
	"CAST(sum(rewards_earned) AS bigint), " \
	"CAST(sum(rewards_claimed) AS bigint), " \
	"CAST(sum(cashback_earned) AS bigint), " \
	"CAST(sum(cashback_redeemed) AS bigint), " \
	"CAST(sum(discounts_given) AS bigint), " \
	"CAST(sum(cashback_expired) AS bigint), " \
	"CAST(sum(punches_removed) AS bigint) "
#define REPORT_SUMS_AS "sum(purchases) AS purchases, " \
	"sum(sales_amount) AS sales_amount, sum(punches) AS punches, " \
	"sum(rewards_earned) AS rewards_earned, " \
	"sum(rewards_claimed) AS rewards_claimed, " \
	"sum(cashback_earned) AS cashback_earned, " \
	"sum(cashback_redeemed) AS cashback_redeemed, " \
	"sum(discounts_given) AS discounts_given, " \
	"sum(cashback_expired) AS cashback_expired, " \
	"sum(punches_removed) AS punches_removed "

/* The columns hist_row reads, then txn_rows' seven. */
#define HISTORY_COLS "SELECT t.id, t.type, t.purchase_amount, " \
	"t.punches_added, t.created_at, l.name, " \
	"coalesce(nullif(u.display_name, ''), u.email), t.cashback_earned, " \
	"t.discount_amount, t.redeemed_amount, r.title, t.pos_reference_id, " \
	"t.pos_terminal_id, t.transaction_notes, t.client_timestamp, " \
	"t.voided_transaction_id, (SELECT v.id FROM transactions v " \
	"WHERE v.voided_transaction_id = t.id), t.reason, t.expired_amount "
#define HISTORY_NCOLS 19
#define TXN_ROW_COLS HISTORY_COLS ", t.card_id, c.customer_name, " \
	"pr.type, t.location_id, t.staff_user_id, pr.title, c.barcode "
/* The page's rowids come from the covering index alone, so skipping to a
 * deep page never reads the rows it skips; only the page is joined. */
#define HISTORY_PAGE "ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?"
#define TXN_ROW_JOIN " p JOIN transactions t ON t.rowid = p.k " \
	"JOIN cards c ON c.id = t.card_id " \
	"JOIN programs pr ON pr.id = c.program_id " \
	"JOIN locations l ON l.id = t.location_id " \
	"JOIN users u ON u.id = t.staff_user_id " \
	"LEFT JOIN rewards r ON r.id = t.reward_id " \
	"ORDER BY t.created_at DESC, t.rowid DESC"
#define HISTORY_JOIN " p JOIN transactions t ON t.rowid = p.k " \
	"JOIN locations l ON l.id = t.location_id " \
	"JOIN users u ON u.id = t.staff_user_id " \
	"LEFT JOIN rewards r ON r.id = t.reward_id " \
	"ORDER BY t.created_at DESC, t.rowid DESC"

/* The audit trail's filters: ?1 merchant, ?2 and ?3 the period, then each
 * NULL for none: ?4 user, ?5 action, ?6 object type, ?7 object id, ?8
 * location; ?9 and ?10 the page's limit and offset. */
#define AUDIT_COUNT "SELECT count(*) FROM audit_log WHERE merchant_id = ?1 " \
	"AND "
#define AUDIT_WHERE "at BETWEEN ?2 AND ?3 " \
	"AND (CAST(?4 AS text) IS NULL OR user_id = ?4) " \
	"AND (CAST(?5 AS text) IS NULL OR action = ?5) " \
	"AND (CAST(?6 AS text) IS NULL OR object_type = ?6) " \
	"AND (CAST(?7 AS text) IS NULL OR object_id = ?7) " \
	"AND (CAST(?8 AS text) IS NULL OR location_id = ?8) "
#define AUDIT_PAGE(where) "SELECT a.seq, a.at, a.merchant_id, " \
	"a.actor_type, a.user_id, a.location_id, a.terminal_id, " \
	"a.request_id, a.action, a.object_type, a.object_id, a.before, " \
	"a.after, coalesce(nullif(u.display_name, ''), u.email), l.name " \
	"FROM (SELECT seq AS k FROM audit_log WHERE merchant_id = ?1 AND " \
	where "ORDER BY at DESC, seq DESC LIMIT ?9 OFFSET ?10) p " \
	"JOIN audit_log a ON a.seq = p.k " \
	"LEFT JOIN users u ON u.id = a.user_id " \
	"LEFT JOIN locations l ON l.id = a.location_id " \
	"ORDER BY a.at DESC, a.seq DESC"

#define SQL(X) \
	X(CARDS_COUNT, "SELECT count(*) FROM cards c " CARD_SEARCH) \
	X(CARDS_PAGE, LC_CARD_COLS CARD_SEARCH \
	    "ORDER BY c.created_at DESC, c.rowid DESC LIMIT ?7 OFFSET ?8") \
	X(HISTORY_COUNT, "SELECT count(*) FROM transactions WHERE card_id = ? " \
	    "AND created_at BETWEEN ? AND ?") \
	X(HISTORY_COUNT_TYPE, "SELECT count(*) FROM transactions WHERE " \
	    "card_id = ? AND type = ? AND created_at BETWEEN ? AND ?") \
	X(HISTORY_TOTAL, "SELECT CAST(coalesce(sum(n), 0) AS bigint) " \
	    "FROM txn_counts WHERE card_id = ?") \
	X(HISTORY_TOTAL_TYPE, "SELECT CAST(coalesce(sum(n), 0) AS bigint) " \
	    "FROM txn_counts WHERE card_id = ? AND type = ?") \
	X(HISTORY_PAGE, HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = ? AND created_at BETWEEN ? AND ? " \
	    HISTORY_PAGE ")" HISTORY_JOIN) \
	X(HISTORY_PAGE_TYPE, HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = ? AND type = ? AND created_at " \
	    "BETWEEN ? AND ? " HISTORY_PAGE ")" HISTORY_JOIN) \
	/* By day: the quarter hours summed in key order (no sort), then \
	 * those few rows by day. */ \
	X(REPORT_DAY, "SELECT (bucket * 900000 + CAST(?4 AS bigint)) / " \
	    "86400000 AS d, NULL, " REPORT_SUMS "FROM (SELECT bucket, " \
	    REPORT_SUMS_AS "FROM report_buckets WHERE merchant_id = ?1 " \
	    "AND bucket BETWEEN ?2 AND ?3 GROUP BY bucket) AS q " \
	    "GROUP BY d ORDER BY d") \
	/* By location or staff: one covering index range per location or \
	 * person, in their order, with no sort and no lookup per row. */ \
	X(REPORT_LOCATION, "SELECT l.id, l.name, " REPORT_SUMS \
	    "FROM locations l CROSS JOIN report_buckets b " \
	    "ON b.merchant_id = l.merchant_id AND b.location_id = l.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE l.merchant_id = ?1 " \
	    "GROUP BY l.rowid ORDER BY l.rowid") \
	X(REPORT_STAFF, "SELECT u.id, " \
	    "coalesce(nullif(u.display_name, ''), u.email), " REPORT_SUMS \
	    "FROM users u CROSS JOIN report_buckets b " \
	    "ON b.merchant_id = u.merchant_id AND b.staff_user_id = u.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE u.merchant_id = ?1 " \
	    "GROUP BY u.rowid ORDER BY u.rowid") \
	X(OUTSTANDING, "SELECT CAST(coalesce(sum(cashback_earned - " \
	    "cashback_redeemed - cashback_expired), 0) AS bigint) " \
	    "FROM report_buckets WHERE merchant_id = ? AND bucket <= ?") \
	X(TXNS_COUNT, "SELECT count(*) FROM transactions WHERE merchant_id = ? " \
	    "AND created_at BETWEEN ? AND ?") \
	X(TXNS_PAGE, TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE merchant_id = ? AND created_at BETWEEN ? AND ? " \
	    HISTORY_PAGE ")" TXN_ROW_JOIN) \
	/* What a person may still void at a till: their own purchases, \
	 * claims and redemptions at the location since ?4, not voided, \
	 * not a redemption's earn part, not a claim whose reward's purchase \
	 * was voided (rule_void.c refuses it). From the merchant's time \
	 * index: a window of minutes holds few rows. */ \
	X(TXNS_MINE, TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions x WHERE merchant_id = ?1 AND created_at >= ?4 " \
	    "AND staff_user_id = ?2 AND location_id = ?3 AND type IN " \
	    "('punch', 'cashback', 'discount', 'reward_claim', " \
	    "'cashback_redeem') AND parent_transaction_id IS NULL " \
	    "AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id) " \
	    "AND NOT EXISTS (SELECT 1 FROM rewards r JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE x.type = 'reward_claim' AND r.id = x.reward_id) " \
	    "ORDER BY created_at DESC, rowid DESC LIMIT ?5)" TXN_ROW_JOIN) \
	/* One count and one page per filter that leads: its index is named \
	 * in the WHERE, so the planner reads that range alone. */ \
	X(AUDIT_COUNT, AUDIT_COUNT AUDIT_WHERE) \
	X(AUDIT_COUNT_USER, AUDIT_COUNT "user_id = ?4 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_ACTION, AUDIT_COUNT "action = ?5 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_OBJECT, AUDIT_COUNT "object_type = ?6 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_LOCATION, AUDIT_COUNT "location_id = ?8 AND " \
	    AUDIT_WHERE) \
	X(AUDIT_PAGE, AUDIT_PAGE(AUDIT_WHERE)) \
	X(AUDIT_PAGE_USER, AUDIT_PAGE("user_id = ?4 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_ACTION, AUDIT_PAGE("action = ?5 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_OBJECT, AUDIT_PAGE("object_type = ?6 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_LOCATION, AUDIT_PAGE("location_id = ?8 AND " AUDIT_WHERE))

#define SQL_PG(X) \
	/* SQLite's CROSS JOIN ... ON (which fixes its join order) is an \
	 * inner join here, where CROSS JOIN takes no ON; the group is the \
	 * primary key, on which the name and rowid depend (PostgreSQL \
	 * wants the grouped-by key to be one). */ \
	X(REPORT_LOCATION, "SELECT l.id, l.name, " REPORT_SUMS \
	    "FROM locations l JOIN report_buckets b " \
	    "ON b.merchant_id = l.merchant_id AND b.location_id = l.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE l.merchant_id = ?1 " \
	    "GROUP BY l.id ORDER BY l.rowid") \
	X(REPORT_STAFF, "SELECT u.id, " \
	    "coalesce(nullif(u.display_name, ''), u.email), " REPORT_SUMS \
	    "FROM users u JOIN report_buckets b " \
	    "ON b.merchant_id = u.merchant_id AND b.staff_user_id = u.id " \
	    "AND b.bucket BETWEEN ?2 AND ?3 WHERE u.merchant_id = ?1 " \
	    "GROUP BY u.id ORDER BY u.rowid")

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_LISTS + Q__N <= LC_Q_TESTS,
    "db_lists.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

const char *
lc_st_lists_sql(const char *name)
{
#define Q_NAME(name, sql) #name,
	static const char *const names[Q__N] = { SQL(Q_NAME) };
#undef Q_NAME
	int i;

	for (i = 0; i < Q__N; i++)
		if (strcmp(names[i], name) == 0)
			return q_sql[i];
	return NULL;
}

/* A slot's statement, chosen at run time (RUNQ) or by name. */
#define RUNQ(r, db, q, ...) lc_st_run((r), (db), LC_Q_LISTS + (q), \
	q_sql[(q)], q_pg[(q)], __VA_ARGS__)
#define RUN(r, db, name, ...) RUNQ((r), (db), Q_##name, __VA_ARGS__)

/* The one integer of a run into *v: 0 or -1. */
static int
one_int(struct lc_row *r, int64_t *v)
{
	return lc_st_int1(r, 0, v) == 1 ? 0 : -1;
}

/* The card search. */

static struct lc_row *
cards_run(struct lc_row *r, struct lc_db *db, int page,
    const struct lc_card_query *q, char *start, char *word, size_t sz)
{
	if (q->q != NULL && lc_db_like_patterns(q->q, start, word, sz) == -1)
		return NULL;
	/* The count takes the filters only; the page its limit too. */
	if (!page)
		return RUN(r, db, CARDS_COUNT, "ssssss", q->merchant_id, q->q,
		    q->q ? start : NULL, q->q ? word : NULL, q->program_id,
		    q->status);
	return RUN(r, db, CARDS_PAGE, "ssssssll", q->merchant_id, q->q,
	    q->q ? start : NULL, q->q ? word : NULL, q->program_id, q->status,
	    q->limit, q->offset);
}

int
lc_db_cards_count(struct lc_db *db, const struct lc_card_query *q,
    int64_t *total)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];
	struct lc_row r;

	return one_int(cards_run(&r, db, 0, q, start, word, sizeof(start)),
	    total);
}

int
lc_db_cards(struct lc_db *db, const struct lc_card_query *q,
    int (*each)(void *, const struct lc_card *), void *arg)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];
	struct lc_row r;
	struct lc_card *cs = NULL, *n;
	size_t nc = 0, i;
	int rc = -1, stop = 0;

	/* The page first: loading tiers runs another statement. */
	if (cards_run(&r, db, 1, q, start, word, sizeof(start)) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1) {
		if ((n = realloc(cs, (nc + 1) * sizeof(*cs))) == NULL) {
			rc = -1;
			break;
		}
		cs = n;
		lc_st_card_row(&r, &cs[nc++]);
	}
	lc_st_done(&r);
	if (rc != 0) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < nc && stop == 0; i++) {
		if ((lc_cardtype_cols(cs[i].program.type) & LC_CT_TIERS) &&
		    lc_st_tiers_get(db, &cs[i].program) == -1) {
			rc = -1;
			goto out;
		}
		stop = each(arg, &cs[i]);
	}
	if (stop != 0)
		rc = stop;
out:
	free(cs);
	return rc;
}

/* History. */

int
lc_db_history_count(struct lc_db *db, const struct lc_hist_query *q,
    int64_t *total)
{
	struct lc_row r, *run;

	if (q->from == INT64_MIN && q->to == INT64_MAX)
		/* No date range: the trigger-kept counts answer at once. */
		run = q->type != NULL ? RUN(&r, db, HISTORY_TOTAL_TYPE, "ss",
		    q->card_id, q->type) : RUN(&r, db, HISTORY_TOTAL, "s",
		    q->card_id);
	else
		run = q->type != NULL ? RUN(&r, db, HISTORY_COUNT_TYPE, "ssii",
		    q->card_id, q->type, q->from, q->to) :
		    RUN(&r, db, HISTORY_COUNT, "sii", q->card_id, q->from,
		    q->to);
	return one_int(run, total);
}

/* The HISTORY_COLS of the row. NULL amounts are none: -1, or LC_TXN_NONE
 * for a void's or an adjustment's signed ones. */
static void
hist_row(struct lc_row *r, struct lc_hist_item *it)
{
	it->id = lc_st_text(r, 0);
	it->type = lc_st_text(r, 1);
	it->purchase_amount = lc_st_int(r, 2);
	it->punches_added = lc_st_int_or(r, 3, -1);
	it->created_at = lc_st_int(r, 4);
	it->location_name = lc_st_text(r, 5);
	it->staff_name = lc_st_text(r, 6);
	it->cashback_earned = lc_st_int_or(r, 7, -1);
	it->discount_amount = lc_st_int_or(r, 8, -1);
	it->redeemed_amount = lc_st_int_or(r, 9, -1);
	it->reward_name = lc_st_text(r, 10);
	it->pos_ref = lc_st_text(r, 11);
	it->pos_term = lc_st_text(r, 12);
	it->notes = lc_st_text(r, 13);
	it->client_ts = lc_st_text(r, 14);
	it->voided_id = lc_st_text(r, 15);
	it->voided_by = lc_st_text(r, 16);
	it->reason = lc_st_text(r, 17);
	it->punches_change = it->cashback_change = LC_TXN_NONE;
	it->redeemed_change = it->discount_change = LC_TXN_NONE;
	if (it->voided_id != NULL || (it->type != NULL &&
	    strcmp(it->type, "adjustment") == 0)) {
		/* Signed: kept apart, so no reader takes them for a
		 * purchase's. */
		it->punches_change = lc_st_int_or(r, 3, LC_TXN_NONE);
		it->cashback_change = lc_st_int_or(r, 7, LC_TXN_NONE);
		it->discount_change = lc_st_int_or(r, 8, LC_TXN_NONE);
		it->redeemed_change = lc_st_int_or(r, 9, LC_TXN_NONE);
		it->punches_added = it->cashback_earned = -1;
		it->discount_amount = it->redeemed_amount = -1;
	}
	it->expired_amount = lc_st_int_or(r, 18, -1);
}

int
lc_db_history_page(struct lc_db *db, const struct lc_hist_query *q,
    int (*each)(void *, const struct lc_hist_item *), void *arg)
{
	struct lc_hist_item it;
	struct lc_row r, *run;
	int rc = 0, stop = 0;

	run = q->type != NULL ? RUN(&r, db, HISTORY_PAGE_TYPE, "ssiill",
	    q->card_id, q->type, q->from, q->to, q->limit, q->offset) :
	    RUN(&r, db, HISTORY_PAGE, "siill", q->card_id, q->from, q->to,
	    q->limit, q->offset);
	if (run == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		hist_row(&r, &it);
		stop = each(arg, &it);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

/* The owner's back office. */

int
lc_db_report(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group group,
    int (*each)(void *, const struct lc_report_row *), void *arg)
{
	static const int which[] = { Q_REPORT_DAY, Q_REPORT_LOCATION,
	    Q_REPORT_STAFF };
	struct lc_report_row row;
	struct lc_row r, *run;
	int rc = 0, stop = 0;

	run = group == LC_GROUP_DAY ? RUNQ(&r, db, which[group], "siii",
	    merchant_id, from, to, offset_ms) : RUNQ(&r, db, which[group],
	    "sii", merchant_id, from, to);
	if (run == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		memset(&row, 0, sizeof(row));
		if (group == LC_GROUP_DAY)
			row.day = lc_st_int(&r, 0);
		else
			LC_ST_COL(&r, 0, row.key);
		row.label = lc_st_text(&r, 1);
		row.purchases = lc_st_int(&r, 2);
		row.sales_amount = lc_st_int(&r, 3);
		row.punches = lc_st_int(&r, 4);
		row.rewards_earned = lc_st_int(&r, 5);
		row.rewards_claimed = lc_st_int(&r, 6);
		row.cashback_earned = lc_st_int(&r, 7);
		row.cashback_redeemed = lc_st_int(&r, 8);
		row.discounts_given = lc_st_int(&r, 9);
		row.cashback_expired = lc_st_int(&r, 10);
		row.punches_removed = lc_st_int(&r, 11);
		stop = each(arg, &row);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

int
lc_db_outstanding(struct lc_db *db, const char *merchant_id, int64_t to,
    int64_t *cents)
{
	struct lc_row r;

	return one_int(RUN(&r, db, OUTSTANDING, "si", merchant_id, to), cents);
}

int
lc_db_txns_count(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total)
{
	struct lc_row r;

	return one_int(RUN(&r, db, TXNS_COUNT, "sii", merchant_id, from, to),
	    total);
}

/* The rows of a run (TXN_ROW_COLS) to each. */
static int
txn_rows(struct lc_row *r, int (*each)(void *, const struct lc_txn_row *),
    void *arg)
{
	struct lc_txn_row t;
	int rc = 0, stop = 0;

	if (r == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(r)) == 1) {
		hist_row(r, &t.it);
		t.card_id = lc_st_text(r, HISTORY_NCOLS);
		t.customer_name = lc_st_text(r, HISTORY_NCOLS + 1);
		t.card_type = lc_st_text(r, HISTORY_NCOLS + 2);
		t.location_id = lc_st_text(r, HISTORY_NCOLS + 3);
		t.staff_user_id = lc_st_text(r, HISTORY_NCOLS + 4);
		t.card_title = lc_st_text(r, HISTORY_NCOLS + 5);
		t.card_barcode = lc_st_text(r, HISTORY_NCOLS + 6);
		stop = each(arg, &t);
	}
	lc_st_done(r);
	return stop != 0 ? stop : rc;
}

int
lc_db_txns(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	struct lc_row r;

	return txn_rows(RUN(&r, db, TXNS_PAGE, "siill", merchant_id, from, to,
	    limit, offset), each, arg);
}

int
lc_db_txns_mine(struct lc_db *db, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	struct lc_row r;

	return txn_rows(RUN(&r, db, TXNS_MINE, "sssil", merchant_id,
	    staff_user_id, location_id, since, limit), each, arg);
}

/* The audit trail. */

/* The statement of the filter that leads (the most selective given), run
 * with them all. */
static struct lc_row *
audit_run(struct lc_row *r, struct lc_db *db, const struct lc_audit_query *q,
    int page)
{
	int s;

	if (q->object_type != NULL)
		s = page ? Q_AUDIT_PAGE_OBJECT : Q_AUDIT_COUNT_OBJECT;
	else if (q->user_id != NULL)
		s = page ? Q_AUDIT_PAGE_USER : Q_AUDIT_COUNT_USER;
	else if (q->action != NULL)
		s = page ? Q_AUDIT_PAGE_ACTION : Q_AUDIT_COUNT_ACTION;
	else if (q->location_id != NULL)
		s = page ? Q_AUDIT_PAGE_LOCATION : Q_AUDIT_COUNT_LOCATION;
	else
		s = page ? Q_AUDIT_PAGE : Q_AUDIT_COUNT;
	return page ? RUNQ(r, db, s, "siisssssll", q->merchant_id, q->from,
	    q->to, q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id, q->limit, q->offset) :
	    RUNQ(r, db, s, "siisssss", q->merchant_id, q->from, q->to,
	    q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id);
}

int
lc_db_audit_count(struct lc_db *db, const struct lc_audit_query *q,
    int64_t *total)
{
	struct lc_row r;

	return one_int(audit_run(&r, db, q, 0), total);
}

int
lc_db_audit(struct lc_db *db, const struct lc_audit_query *q,
    int (*each)(void *, const struct lc_audit_row *), void *arg)
{
	struct lc_row r;
	struct lc_audit_row a;
	int rc = 0, stop = 0;

	if (audit_run(&r, db, q, 1) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		a.seq = lc_st_int(&r, 0);
		a.at = lc_st_int(&r, 1);
		a.merchant_id = lc_st_text(&r, 2);
		a.actor_type = lc_st_text(&r, 3);
		a.user_id = lc_st_text(&r, 4);
		a.location_id = lc_st_text(&r, 5);
		a.terminal_id = lc_st_text(&r, 6);
		a.request_id = lc_st_text(&r, 7);
		a.action = lc_st_text(&r, 8);
		a.object_type = lc_st_text(&r, 9);
		a.object_id = lc_st_text(&r, 10);
		a.before = lc_st_text(&r, 11);
		a.after = lc_st_text(&r, 12);
		a.user_name = lc_st_text(&r, 13);
		a.location_name = lc_st_text(&r, 14);
		stop = each(arg, &a);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}
