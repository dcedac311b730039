/*
 * Storage on PostgreSQL: the lists of the back office and the tills (the
 * card search, a card's history, reports, the merchant's transactions,
 * the audit trail). Each function is db_sqlite.c's sq_ function of the
 * same name, on the same statements translated (lc_sqlite.h): the same
 * columns in the same order, decoded alike.
 */
#include <stdio.h>
#include <string.h>

#include "lc_core.h"
#include "lc_pg.h"

/* $1 merchant, $2 the search text (NULL: all), $3 and $4 its LIKE
 * patterns (a name's start, a later word's start), $5 program, $6 status.
 * A parameter only tested for NULL has no type of its own: ::text. */
#define CARD_SEARCH "WHERE c.merchant_id = $1 AND ($2::text IS NULL " \
	"OR c.id = $2 OR c.barcode = $2 " \
	"OR lc_fold(c.customer_name) LIKE lc_fold($3::text) ESCAPE '\\' " \
	"OR lc_fold(c.customer_name) LIKE lc_fold($4::text) ESCAPE '\\') " \
	"AND ($5::text IS NULL OR c.program_id = $5) " \
	"AND ($6::text IS NULL OR c.status = $6) "

/* sum() of bigint is numeric here: ::bigint gives the integer's text. */
#define REPORT_SUMS "sum(purchases)::bigint, sum(sales_amount)::bigint, " \
	"sum(punches)::bigint, sum(rewards_earned)::bigint, " \
	"sum(rewards_claimed)::bigint, sum(cashback_earned)::bigint, " \
	"sum(cashback_redeemed)::bigint, sum(discounts_given)::bigint, " \
	"sum(cashback_expired)::bigint, sum(punches_removed)::bigint "
#define REPORT_SUMS_AS "sum(purchases) AS purchases, " \
	"sum(sales_amount) AS sales_amount, sum(punches) AS punches, " \
	"sum(rewards_earned) AS rewards_earned, " \
	"sum(rewards_claimed) AS rewards_claimed, " \
	"sum(cashback_earned) AS cashback_earned, " \
	"sum(cashback_redeemed) AS cashback_redeemed, " \
	"sum(discounts_given) AS discounts_given, " \
	"sum(cashback_expired) AS cashback_expired, " \
	"sum(punches_removed) AS punches_removed "

/* The columns hist_row reads, then txn_rows' six. */
#define HISTORY_COLS "SELECT t.id, t.type, t.purchase_amount, " \
	"t.punches_added, t.created_at, l.name, " \
	"coalesce(nullif(u.display_name, ''), u.email), t.cashback_earned, " \
	"t.discount_amount, t.redeemed_amount, r.title, t.pos_reference_id, " \
	"t.pos_terminal_id, t.transaction_notes, t.client_timestamp, " \
	"t.voided_transaction_id, (SELECT v.id FROM transactions v " \
	"WHERE v.voided_transaction_id = t.id), t.reason, t.expired_amount "
#define HISTORY_NCOLS 19
#define TXN_ROW_COLS HISTORY_COLS ", t.card_id, c.customer_name, " \
	"pr.type, t.location_id, t.staff_user_id, pr.title "
/* The page's rowids come from the index alone; only the page is joined. */
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

/* The audit trail's filters: $1 merchant, $2 and $3 the period, then each
 * NULL for none: $4 user, $5 action, $6 object type, $7 object id, $8
 * location; $9 and $10 the page's limit and offset. */
#define AUDIT_COUNT "SELECT count(*) FROM audit_log WHERE merchant_id = $1 " \
	"AND "
#define AUDIT_WHERE "at BETWEEN $2 AND $3 " \
	"AND ($4::text IS NULL OR user_id = $4) " \
	"AND ($5::text IS NULL OR action = $5) " \
	"AND ($6::text IS NULL OR object_type = $6) " \
	"AND ($7::text IS NULL OR object_id = $7) " \
	"AND ($8::text IS NULL OR location_id = $8) "
#define AUDIT_PAGE(where) "SELECT a.seq, a.at, a.merchant_id, " \
	"a.actor_type, a.user_id, a.location_id, a.terminal_id, " \
	"a.request_id, a.action, a.object_type, a.object_id, a.before, " \
	"a.after, coalesce(nullif(u.display_name, ''), u.email), l.name " \
	"FROM (SELECT seq AS k FROM audit_log WHERE merchant_id = $1 AND " \
	where "ORDER BY at DESC, seq DESC LIMIT $9 OFFSET $10) p " \
	"JOIN audit_log a ON a.seq = p.k " \
	"LEFT JOIN users u ON u.id = a.user_id " \
	"LEFT JOIN locations l ON l.id = a.location_id " \
	"ORDER BY a.at DESC, a.seq DESC"

#define SQL(X) \
	X(CARDS_COUNT, "SELECT count(*) FROM cards c " CARD_SEARCH) \
	X(CARDS_PAGE, LC_CARD_COLS CARD_SEARCH \
	    "ORDER BY c.created_at DESC, c.rowid DESC LIMIT $7 OFFSET $8") \
	X(HISTORY_COUNT, "SELECT count(*) FROM transactions " \
	    "WHERE card_id = $1 AND created_at BETWEEN $2 AND $3") \
	X(HISTORY_COUNT_TYPE, "SELECT count(*) FROM transactions WHERE " \
	    "card_id = $1 AND type = $2 AND created_at BETWEEN $3 AND $4") \
	X(HISTORY_TOTAL, "SELECT coalesce(sum(n), 0)::bigint FROM txn_counts " \
	    "WHERE card_id = $1") \
	X(HISTORY_TOTAL_TYPE, "SELECT coalesce(sum(n), 0)::bigint " \
	    "FROM txn_counts WHERE card_id = $1 AND type = $2") \
	X(HISTORY_PAGE, HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = $1 AND created_at BETWEEN $2 AND $3 " \
	    "ORDER BY created_at DESC, rowid DESC LIMIT $4 OFFSET $5)" \
	    HISTORY_JOIN) \
	X(HISTORY_PAGE_TYPE, HISTORY_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE card_id = $1 AND type = $2 AND created_at " \
	    "BETWEEN $3 AND $4 ORDER BY created_at DESC, rowid DESC " \
	    "LIMIT $5 OFFSET $6)" HISTORY_JOIN) \
	/* By day: the quarter hours summed, then those few rows by day. */ \
	X(REPORT_DAY, "SELECT (bucket * 900000 + $4::bigint) / 86400000 AS d, " \
	    "NULL, " REPORT_SUMS "FROM (SELECT bucket, " REPORT_SUMS_AS \
	    "FROM report_buckets WHERE merchant_id = $1 " \
	    "AND bucket BETWEEN $2 AND $3 GROUP BY bucket) AS q " \
	    "GROUP BY d ORDER BY d") \
	/* By location or staff: SQLite's CROSS JOIN ... ON (which fixes its \
	 * join order) is an inner join; the group is the primary key, on \
	 * which the name and rowid depend. */ \
	X(REPORT_LOCATION, "SELECT l.id, l.name, " REPORT_SUMS \
	    "FROM locations l JOIN report_buckets b " \
	    "ON b.merchant_id = l.merchant_id AND b.location_id = l.id " \
	    "AND b.bucket BETWEEN $2 AND $3 WHERE l.merchant_id = $1 " \
	    "GROUP BY l.id ORDER BY l.rowid") \
	X(REPORT_STAFF, "SELECT u.id, " \
	    "coalesce(nullif(u.display_name, ''), u.email), " REPORT_SUMS \
	    "FROM users u JOIN report_buckets b " \
	    "ON b.merchant_id = u.merchant_id AND b.staff_user_id = u.id " \
	    "AND b.bucket BETWEEN $2 AND $3 WHERE u.merchant_id = $1 " \
	    "GROUP BY u.id ORDER BY u.rowid") \
	X(OUTSTANDING, "SELECT coalesce(sum(cashback_earned - " \
	    "cashback_redeemed - cashback_expired), 0)::bigint " \
	    "FROM report_buckets WHERE merchant_id = $1 AND bucket <= $2") \
	X(TXNS_COUNT, "SELECT count(*) FROM transactions " \
	    "WHERE merchant_id = $1 AND created_at BETWEEN $2 AND $3") \
	X(TXNS_PAGE, TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions WHERE merchant_id = $1 AND created_at BETWEEN $2 " \
	    "AND $3 ORDER BY created_at DESC, rowid DESC LIMIT $4 OFFSET $5)" \
	    TXN_ROW_JOIN) \
	/* What a person may still void at a till: as SQLite's TXNS_MINE. */ \
	X(TXNS_MINE, TXN_ROW_COLS "FROM (SELECT rowid AS k FROM " \
	    "transactions x WHERE merchant_id = $1 AND created_at >= $4 " \
	    "AND staff_user_id = $2 AND location_id = $3 AND type IN " \
	    "('punch', 'cashback', 'discount', 'reward_claim', " \
	    "'cashback_redeem') AND parent_transaction_id IS NULL " \
	    "AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id) " \
	    "AND NOT EXISTS (SELECT 1 FROM rewards r JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE x.type = 'reward_claim' AND r.id = x.reward_id) " \
	    "ORDER BY created_at DESC, rowid DESC LIMIT $5)" TXN_ROW_JOIN) \
	/* One count and one page per filter that leads: its index is named \
	 * in the WHERE, so the planner reads that range alone. */ \
	X(AUDIT_COUNT, AUDIT_COUNT AUDIT_WHERE) \
	X(AUDIT_COUNT_USER, AUDIT_COUNT "user_id = $4 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_ACTION, AUDIT_COUNT "action = $5 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_OBJECT, AUDIT_COUNT "object_type = $6 AND " AUDIT_WHERE) \
	X(AUDIT_COUNT_LOCATION, AUDIT_COUNT "location_id = $8 AND " \
	    AUDIT_WHERE) \
	X(AUDIT_PAGE, AUDIT_PAGE(AUDIT_WHERE)) \
	X(AUDIT_PAGE_USER, AUDIT_PAGE("user_id = $4 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_ACTION, AUDIT_PAGE("action = $5 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_OBJECT, AUDIT_PAGE("object_type = $6 AND " AUDIT_WHERE)) \
	X(AUDIT_PAGE_LOCATION, AUDIT_PAGE("location_id = $8 AND " AUDIT_WHERE))

enum { SQL(LC_PG_Q_ENUM) Q__N };
static const char *const q_sql[Q__N] = { SQL(LC_PG_Q_TEXT) };
_Static_assert(LC_PG_LISTS + Q__N <= LC_PG__MAX,
    "db_pg_lists.c has more statements than its slots");
#define RUN(db, name, ...) lc_pg_run((db), LC_PG_LISTS + Q_##name, \
    q_sql[Q_##name], __VA_ARGS__)
/* A slot's statement, chosen at run time. */
#define RUN_Q(db, q, ...) lc_pg_run((db), LC_PG_LISTS + (q), q_sql[(q)], \
    __VA_ARGS__)

/*
 * Limits and offsets go as 'o': below 0 is NULL, which PostgreSQL takes as
 * no limit (or offset 0), as SQLite takes a negative one; PostgreSQL
 * refuses a negative LIMIT or OFFSET.
 */

/* Column 0 of a one-row result into *v, clearing r: 0 or -1. */
static int
one_int(PGresult *r, int64_t *v)
{
	if (lc_pg_row(r) != 1)
		return -1;
	*v = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return 0;
}

/* The card search. */

static PGresult *
cards_run(struct lc_db *db, int page, const struct lc_card_query *q,
    char *start, char *word, size_t sz)
{
	if (q->q != NULL && lc_db_like_patterns(q->q, start, word, sz) == -1)
		return NULL;
	/* The count takes the filters only; the page its limit too. */
	if (!page)
		return RUN(db, CARDS_COUNT, "ssssss", q->merchant_id, q->q,
		    q->q ? start : NULL, q->q ? word : NULL, q->program_id,
		    q->status);
	return RUN(db, CARDS_PAGE, "ssssssoo", q->merchant_id, q->q,
	    q->q ? start : NULL, q->q ? word : NULL, q->program_id, q->status,
	    q->limit, q->offset);
}

int
lc_pg_cards_count(struct lc_db *db, const struct lc_card_query *q,
    int64_t *total)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];

	return one_int(cards_run(db, 0, q, start, word, sizeof(start)), total);
}

int
lc_pg_cards(struct lc_db *db, const struct lc_card_query *q,
    int (*each)(void *, const struct lc_card *), void *arg)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];
	PGresult *r = cards_run(db, 1, q, start, word, sizeof(start));
	struct lc_card c;
	int i, n, rc = 0;

	if (r == NULL)
		return -1;
	/* The whole page is in r: loading tiers between its rows is fine. */
	for (i = 0, n = PQntuples(r); i < n && rc == 0; i++) {
		lc_pg_card_row(r, i, &c);
		if ((lc_cardtype_cols(c.program.type) & LC_CT_TIERS) &&
		    lc_pg_tiers_get(db, &c.program) == -1) {
			rc = -1;
			break;
		}
		rc = each(arg, &c);
	}
	PQclear(r);
	return rc;
}

/* History. */

int
lc_pg_history_count(struct lc_db *db, const struct lc_hist_query *q,
    int64_t *total)
{
	PGresult *r;

	if (q->from == INT64_MIN && q->to == INT64_MAX)
		/* No date range: the trigger-kept counts answer at once. */
		r = q->type != NULL ? RUN(db, HISTORY_TOTAL_TYPE, "ss",
		    q->card_id, q->type) : RUN(db, HISTORY_TOTAL, "s",
		    q->card_id);
	else
		r = q->type != NULL ? RUN(db, HISTORY_COUNT_TYPE, "ssii",
		    q->card_id, q->type, q->from, q->to) :
		    RUN(db, HISTORY_COUNT, "sii", q->card_id, q->from, q->to);
	return one_int(r, total);
}

/* The history columns of row i of r (HISTORY_COLS). NULL amounts are none:
 * -1, or LC_TXN_NONE for a void's or an adjustment's signed ones. */
static void
hist_row(const PGresult *r, int i, struct lc_hist_item *it)
{
	it->id = lc_pg_text(r, i, 0);
	it->type = lc_pg_text(r, i, 1);
	it->purchase_amount = lc_pg_int(r, i, 2, 0);
	it->punches_added = lc_pg_int(r, i, 3, -1);
	it->created_at = lc_pg_int(r, i, 4, 0);
	it->location_name = lc_pg_text(r, i, 5);
	it->staff_name = lc_pg_text(r, i, 6);
	it->cashback_earned = lc_pg_int(r, i, 7, -1);
	it->discount_amount = lc_pg_int(r, i, 8, -1);
	it->redeemed_amount = lc_pg_int(r, i, 9, -1);
	it->reward_name = lc_pg_text(r, i, 10);
	it->pos_ref = lc_pg_text(r, i, 11);
	it->pos_term = lc_pg_text(r, i, 12);
	it->notes = lc_pg_text(r, i, 13);
	it->client_ts = lc_pg_text(r, i, 14);
	it->voided_id = lc_pg_text(r, i, 15);
	it->voided_by = lc_pg_text(r, i, 16);
	it->reason = lc_pg_text(r, i, 17);
	it->punches_change = it->cashback_change = LC_TXN_NONE;
	it->redeemed_change = it->discount_change = LC_TXN_NONE;
	if (it->voided_id != NULL || (it->type != NULL &&
	    strcmp(it->type, "adjustment") == 0)) {
		/* Signed: kept apart, so no reader takes them for a
		 * purchase's. */
		it->punches_change = lc_pg_int(r, i, 3, LC_TXN_NONE);
		it->cashback_change = lc_pg_int(r, i, 7, LC_TXN_NONE);
		it->discount_change = lc_pg_int(r, i, 8, LC_TXN_NONE);
		it->redeemed_change = lc_pg_int(r, i, 9, LC_TXN_NONE);
		it->punches_added = it->cashback_earned = -1;
		it->discount_amount = it->redeemed_amount = -1;
	}
	it->expired_amount = lc_pg_int(r, i, 18, -1);
}

int
lc_pg_history_page(struct lc_db *db, const struct lc_hist_query *q,
    int (*each)(void *, const struct lc_hist_item *), void *arg)
{
	struct lc_hist_item it;
	PGresult *r;
	int i, n, stop = 0;

	r = q->type != NULL ? RUN(db, HISTORY_PAGE_TYPE, "ssiioo", q->card_id,
	    q->type, q->from, q->to, q->limit, q->offset) :
	    RUN(db, HISTORY_PAGE, "siioo", q->card_id, q->from, q->to,
	    q->limit, q->offset);
	if (r == NULL)
		return -1;
	for (i = 0, n = PQntuples(r); i < n && stop == 0; i++) {
		hist_row(r, i, &it);
		stop = each(arg, &it);
	}
	PQclear(r);
	return stop;
}

/* The owner's back office. */

int
lc_pg_report(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group group,
    int (*each)(void *, const struct lc_report_row *), void *arg)
{
	static const int which[] = { Q_REPORT_DAY, Q_REPORT_LOCATION,
	    Q_REPORT_STAFF };
	struct lc_report_row row;
	PGresult *r;
	int i, n, stop = 0;

	r = group == LC_GROUP_DAY ? RUN_Q(db, which[group], "siii",
	    merchant_id, from, to, offset_ms) : RUN_Q(db, which[group], "sii",
	    merchant_id, from, to);
	if (r == NULL)
		return -1;
	for (i = 0, n = PQntuples(r); i < n && stop == 0; i++) {
		memset(&row, 0, sizeof(row));
		if (group == LC_GROUP_DAY)
			row.day = lc_pg_int(r, i, 0, 0);
		else
			LC_PG_COL(r, i, 0, row.key);
		row.label = lc_pg_text(r, i, 1);
		row.purchases = lc_pg_int(r, i, 2, 0);
		row.sales_amount = lc_pg_int(r, i, 3, 0);
		row.punches = lc_pg_int(r, i, 4, 0);
		row.rewards_earned = lc_pg_int(r, i, 5, 0);
		row.rewards_claimed = lc_pg_int(r, i, 6, 0);
		row.cashback_earned = lc_pg_int(r, i, 7, 0);
		row.cashback_redeemed = lc_pg_int(r, i, 8, 0);
		row.discounts_given = lc_pg_int(r, i, 9, 0);
		row.cashback_expired = lc_pg_int(r, i, 10, 0);
		row.punches_removed = lc_pg_int(r, i, 11, 0);
		stop = each(arg, &row);
	}
	PQclear(r);
	return stop;
}

int
lc_pg_outstanding(struct lc_db *db, const char *merchant_id, int64_t to,
    int64_t *cents)
{
	return one_int(RUN(db, OUTSTANDING, "si", merchant_id, to), cents);
}

int
lc_pg_txns_count(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total)
{
	return one_int(RUN(db, TXNS_COUNT, "sii", merchant_id, from, to),
	    total);
}

/* The rows of r (TXN_ROW_COLS) to each; clears r. */
static int
txn_rows(PGresult *r, int (*each)(void *, const struct lc_txn_row *),
    void *arg)
{
	struct lc_txn_row t;
	int i, n, stop = 0;

	if (r == NULL)
		return -1;
	for (i = 0, n = PQntuples(r); i < n && stop == 0; i++) {
		hist_row(r, i, &t.it);
		t.card_id = lc_pg_text(r, i, HISTORY_NCOLS);
		t.customer_name = lc_pg_text(r, i, HISTORY_NCOLS + 1);
		t.card_type = lc_pg_text(r, i, HISTORY_NCOLS + 2);
		t.location_id = lc_pg_text(r, i, HISTORY_NCOLS + 3);
		t.staff_user_id = lc_pg_text(r, i, HISTORY_NCOLS + 4);
		t.card_title = lc_pg_text(r, i, HISTORY_NCOLS + 5);
		stop = each(arg, &t);
	}
	PQclear(r);
	return stop;
}

int
lc_pg_txns(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return txn_rows(RUN(db, TXNS_PAGE, "siioo", merchant_id, from, to,
	    limit, offset), each, arg);
}

int
lc_pg_txns_mine(struct lc_db *db, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return txn_rows(RUN(db, TXNS_MINE, "sssio", merchant_id, staff_user_id,
	    location_id, since, limit), each, arg);
}

/* The audit trail. */

/* The statement of the filter that leads (the most selective given),
 * run with them all. */
static PGresult *
audit_run(struct lc_db *db, const struct lc_audit_query *q, int page)
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
	return page ? RUN_Q(db, s, "siisssssoo", q->merchant_id, q->from,
	    q->to, q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id, q->limit, q->offset) :
	    RUN_Q(db, s, "siisssss", q->merchant_id, q->from, q->to,
	    q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id);
}

int
lc_pg_audit_count(struct lc_db *db, const struct lc_audit_query *q,
    int64_t *total)
{
	return one_int(audit_run(db, q, 0), total);
}

int
lc_pg_audit(struct lc_db *db, const struct lc_audit_query *q,
    int (*each)(void *, const struct lc_audit_row *), void *arg)
{
	PGresult *r = audit_run(db, q, 1);
	struct lc_audit_row a;
	int i, n, stop = 0;

	if (r == NULL)
		return -1;
	for (i = 0, n = PQntuples(r); i < n && stop == 0; i++) {
		a.seq = lc_pg_int(r, i, 0, 0);
		a.at = lc_pg_int(r, i, 1, 0);
		a.merchant_id = lc_pg_text(r, i, 2);
		a.actor_type = lc_pg_text(r, i, 3);
		a.user_id = lc_pg_text(r, i, 4);
		a.location_id = lc_pg_text(r, i, 5);
		a.terminal_id = lc_pg_text(r, i, 6);
		a.request_id = lc_pg_text(r, i, 7);
		a.action = lc_pg_text(r, i, 8);
		a.object_type = lc_pg_text(r, i, 9);
		a.object_id = lc_pg_text(r, i, 10);
		a.before = lc_pg_text(r, i, 11);
		a.after = lc_pg_text(r, i, 12);
		a.user_name = lc_pg_text(r, i, 13);
		a.location_name = lc_pg_text(r, i, 14);
		stop = each(arg, &a);
	}
	PQclear(r);
	return stop;
}
