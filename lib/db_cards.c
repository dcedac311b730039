/*
 * Storage, both backends: programs, cards, transactions, rewards, the
 * cashback ledger and idempotency keys. Each statement is written once
 * for SQLite and PostgreSQL (lc_backend.h says in which words: CAST
 * where PostgreSQL cannot infer a parameter's type, or to read a boolean
 * or a sum of bigint as an integer); SQL_PG holds the few PostgreSQL
 * must read otherwise, each with why.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_backend.h"

/* Column lists, each decoded by one function below. */
#define REWARD_COLS "SELECT id, card_id, earned_transaction_id, title, " \
	"description, amount, earned_at FROM rewards "
#define EARNING_COLS "SELECT transaction_id, amount, remaining, " \
	"earned_at, coalesce(expires_at, -1) FROM cashback_earnings "
/* The void of transaction t, from the unique index: "" none. */
#define VOIDED_BY "coalesce((SELECT v.id FROM transactions v " \
	"WHERE v.voided_transaction_id = t.id), '')"

#define SQL(X) \
	X(PROGRAM_ADD, "INSERT INTO programs(id, merchant_id, type, title, " \
	    "punch_requirement, reward_title, reward_description, " \
	    "reward_amount, cooldown_seconds, created_at, max_punches, " \
	    "expiry_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(PROGRAM_GET, "SELECT " LC_PROGRAM_COLS " FROM programs p " \
	    "WHERE p.id = ?") \
	X(PROGRAM_UPDATE, "UPDATE programs SET title = ?, " \
	    "reward_title = CASE type WHEN 'punch' THEN CAST(? AS text) " \
	    "ELSE reward_title END, " \
	    "reward_description = ?, reward_amount = ?, cooldown_seconds = ?, " \
	    "max_punches = ?, expiry_days = ? WHERE id = ?") \
	X(PROGRAMS_OF_MERCHANT, "SELECT " LC_PROGRAM_COLS ", (SELECT count(*) " \
	    "FROM cards c WHERE c.program_id = p.id) FROM programs p " \
	    "WHERE p.merchant_id = ? ORDER BY p.rowid") \
	X(TIER_ADD, "INSERT INTO tiers(program_id, name, min_spend, rate_bp) " \
	    "VALUES (?, ?, ?, ?)") \
	X(TIERS_DELETE, "DELETE FROM tiers WHERE program_id = ?") \
	X(TIERS_OF_PROGRAM, "SELECT name, min_spend, rate_bp FROM tiers " \
	    "WHERE program_id = ? ORDER BY min_spend") \
	/* A taken id or code inserts nothing (LC_DB_CONFLICT): on \
	 * PostgreSQL an error would fail the whole transaction. */ \
	X(CARD_ADD, "INSERT INTO cards(id, merchant_id, program_id, " \
	    "customer_name, barcode, qr_code, share_token, issued_by, " \
	    "issued_location_id, created_at, code_secret) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING") \
	X(CARD_BY_ID, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.id = ?") \
	X(CARD_BY_QR, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.qr_code = ?") \
	X(CARD_BY_BARCODE, LC_CARD_COLS "WHERE c.merchant_id = ? AND c.barcode = ?") \
	/* The customer's page: by its token alone, whatever the merchant. */ \
	X(CARD_BY_SHARE, LC_CARD_COLS "WHERE c.share_token = ?") \
	/* The admin tool's card, whatever its merchant. */ \
	X(CARD_ANY, LC_CARD_COLS "WHERE c.id = ?") \
	X(CARD_UPDATED, "SELECT coalesce(max(created_at), CAST(? AS bigint)) " \
	    "FROM transactions WHERE card_id = ?") \
	X(CARD_SAVE, "UPDATE cards SET current_punches = ?, pending_rewards = ?, " \
	    "lifetime_punches = ?, cashback_balance = ?, lifetime_cashback = ?, " \
	    "lifetime_spend = ? WHERE id = ?") \
	X(CARD_SET_STATUS, "UPDATE cards SET status = ? WHERE id = ?") \
	X(CARD_SET_NAME, "UPDATE cards SET customer_name = ? WHERE id = ?") \
	X(CARD_SET_SHARE, "UPDATE cards SET share_token = ?, code_secret = ? " \
	    "WHERE id = ?") \
	X(CARD_CODE_USE, "UPDATE cards SET code_step_used = ?1 " \
	    "WHERE id = ?2 AND code_step_used < ?1") \
	X(TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, purchase_amount, punches_added, " \
	    "rate_bp, cashback_earned, discount_amount, redeemed_amount, " \
	    "reward_id, transaction_notes, pos_reference_id, pos_terminal_id, " \
	    "client_timestamp, created_at, voided_transaction_id, " \
	    "parent_transaction_id, reason) VALUES (?, ?, ?, ?, ?, ?, ?, " \
	    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)") \
	X(TXN_GET, "SELECT t.id, t.card_id, t.location_id, t.staff_user_id, " \
	    "t.type, coalesce(t.reward_id, ''), " \
	    "coalesce(t.parent_transaction_id, ''), " VOIDED_BY ", " \
	    "t.purchase_amount, t.created_at, t.punches_added, " \
	    "t.cashback_earned, t.discount_amount, t.redeemed_amount " \
	    "FROM transactions t WHERE t.merchant_id = ? AND t.id = ?") \
	/* The first (one there should be), in the index's own order. */ \
	X(TXN_CHILD, "SELECT id FROM transactions " \
	    "WHERE parent_transaction_id = ? ORDER BY rowid LIMIT 1") \
	/* A voided punch never started a cooldown: a cashier who voids a \
	 * sale keyed on the wrong card records it again at once. */ \
	X(PUNCH_NEAR, "SELECT max(created_at) FROM transactions x WHERE " \
	    "card_id = ? AND type = 'punch' AND created_at > ? AND created_at < ? " \
	    "AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id)") \
	X(REWARD_ADD, "INSERT INTO rewards(id, card_id, earned_transaction_id, " \
	    "title, description, amount, earned_at) VALUES (?, ?, ?, ?, ?, ?, ?)") \
	X(REWARD_OLDEST, REWARD_COLS "WHERE card_id = ? " \
	    "AND status = 'pending_claim' ORDER BY earned_at, rowid LIMIT 1") \
	/* earned_transaction_id is NOT NULL: the comparison sorts true \
	 * first in both. */ \
	X(REWARD_PENDING_OF, REWARD_COLS "WHERE card_id = ?2 " \
	    "AND status = 'pending_claim' " \
	    "ORDER BY earned_transaction_id = ?1 DESC, rowid DESC LIMIT 1") \
	X(REWARD_CLAIM, "UPDATE rewards SET status = 'claimed', claimed_at = ?, " \
	    "claim_transaction_id = ? WHERE id = ? AND status = 'pending_claim'") \
	X(REWARD_WITHDRAW, "DELETE FROM rewards WHERE id = ? " \
	    "AND status = 'pending_claim'") \
	X(REWARD_EARNING_VOIDED, "SELECT 1 FROM rewards r JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE r.id = ?") \
	X(REWARD_UNCLAIM, "UPDATE rewards SET status = 'pending_claim', " \
	    "claimed_at = NULL, claim_transaction_id = NULL WHERE id = ? " \
	    "AND status = 'claimed' AND claim_transaction_id = ?") \
	X(EARNING_ADD, "INSERT INTO cashback_earnings(transaction_id, card_id, " \
	    "amount, remaining, earned_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)") \
	/* Soonest expiring first: FIFO when every earning has one term; one \
	 * that never expires (NULL) after all that do. */ \
	X(EARNING_OLDEST, EARNING_COLS "WHERE card_id = ? AND remaining > 0 " \
	    "ORDER BY expires_at IS NULL, expires_at, earned_at, rowid LIMIT 1") \
	/* One range of the cashback_expiring index: the first instant's \
	 * earnings only. */ \
	/* The soonest expiry, and all that expires within a day of it: \
	 * two sales a minute apart expire the same day, and a customer \
	 * told "1.00 expires on the 22nd" should hear of both. */ \
	X(EXPIRY_NEXT, "SELECT min(expires_at), CAST(sum(remaining) AS bigint), " \
	    "(SELECT cashback_balance FROM cards WHERE id = ?1) " \
	    "FROM cashback_earnings " \
	    "WHERE card_id = ?1 AND remaining > 0 AND expires_at IS NOT NULL " \
	    "AND expires_at < (SELECT min(expires_at) FROM cashback_earnings " \
	    "WHERE card_id = ?1 AND remaining > 0 AND expires_at IS NOT NULL) " \
	    "+ 86400000") \
	X(EARNING_DUE, EARNING_COLS "WHERE card_id = ? AND remaining > 0 " \
	    "AND expires_at IS NOT NULL AND expires_at <= ? " \
	    "ORDER BY expires_at, rowid LIMIT 1") \
	X(EARNING_EXPIRE, "UPDATE cashback_earnings SET remaining = 0 " \
	    "WHERE transaction_id = ? AND remaining = ?") \
	/* The expiry of an earning, where and by whom it was earned. */ \
	X(EXPIRY_TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, expired_amount, created_at) " \
	    "SELECT CAST(?1 AS text), t.merchant_id, t.card_id, " \
	    "t.location_id, t.staff_user_id, 'expiry', CAST(?2 AS bigint), " \
	    "CAST(?3 AS bigint) FROM transactions t WHERE t.id = ?4") \
	/* From the cashback_due index, not the merchant's every card: the \
	 * earnings due and not yet recorded, whatever the merchant, are \
	 * few (CROSS JOIN keeps that order). */ \
	X(EXPIRY_DUE_CARD, "SELECT e.card_id FROM cashback_earnings e " \
	    "CROSS JOIN cards c ON c.id = e.card_id WHERE e.remaining > 0 " \
	    "AND e.expires_at IS NOT NULL AND e.expires_at <= ?2 " \
	    "AND c.merchant_id = ?1 LIMIT 1") \
	X(EARNING_USE, "UPDATE cashback_earnings " \
	    "SET remaining = remaining - CAST(? AS bigint) " \
	    "WHERE transaction_id = ? AND remaining >= CAST(? AS bigint)") \
	X(ENTRY_ADD, "INSERT INTO redemption_entries(redeem_transaction_id, " \
	    "earning_transaction_id, amount_used) VALUES (?, ?, ?)") \
	X(EARNING_GET, "SELECT transaction_id, amount, remaining, earned_at " \
	    "FROM cashback_earnings WHERE transaction_id = ?") \
	X(EARNING_RETURN, "UPDATE cashback_earnings SET remaining = " \
	    "remaining + CAST(?1 AS bigint) WHERE transaction_id = ?2 " \
	    "AND remaining + CAST(?1 AS bigint) <= amount") \
	X(ENTRIES_OF, "SELECT r.earning_transaction_id, r.amount_used, " \
	    "CAST(EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = r.earning_transaction_id) " \
	    "AS integer) " \
	    "FROM redemption_entries r JOIN cashback_earnings e " \
	    "ON e.transaction_id = r.earning_transaction_id " \
	    "WHERE r.redeem_transaction_id = ? ORDER BY e.earned_at, e.rowid") \
	X(IDEM_GET, "SELECT kind, transaction_id, response FROM idempotency_keys " \
	    "WHERE merchant_id = ? AND key = ?") \
	/* A key taken is an error (the write is rolled back): a replay is \
	 * found by IDEM_GET first, in the same write turn. */ \
	X(IDEM_ADD, "INSERT INTO idempotency_keys(merchant_id, key, kind, " \
	    "transaction_id, response, created_at) VALUES (?, ?, ?, ?, ?, ?)")

#define SQL_PG(X) \
	/* PostgreSQL has no CROSS JOIN ... ON, and no order of its own \
	 * to rely on under a LIMIT 1: soonest first, as SQLite reads its \
	 * cashback_due index. */ \
	X(EXPIRY_DUE_CARD, "SELECT e.card_id FROM cashback_earnings e " \
	    "JOIN cards c ON c.id = e.card_id WHERE e.remaining > 0 " \
	    "AND e.expires_at IS NOT NULL AND e.expires_at <= ?2 " \
	    "AND c.merchant_id = ?1 ORDER BY e.expires_at, e.rowid LIMIT 1")

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_CARDS + Q__N <= LC_Q_LISTS,
    "db_cards.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUNQ(r, db, q, ...) lc_st_run((r), (db), LC_Q_CARDS + (q), \
	q_sql[(q)], q_pg[(q)], __VA_ARGS__)
#define RUN(r, db, name, ...) RUNQ((r), (db), Q_##name, __VA_ARGS__)

/* Programs and cards. */

static int tiers_put(struct lc_db *, const struct lc_program *);

int
lc_db_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	struct lc_row r;
	unsigned cols = lc_cardtype_cols(p->type);
	int punch = (cols & LC_CT_REWARD) != 0;
	int cashback = (cols & LC_CT_EXPIRES) != 0;

	/* Only a punch program has a requirement and a reward; only a
	 * cashback one a term for its earnings. */
	if (lc_st_put(RUN(&r, db, PROGRAM_ADD, "ssssossiiioo", p->id,
	    p->merchant_id, lc_cardtype_name(p->type), p->title,
	    punch ? p->punch_requirement : (int64_t)-1,
	    punch ? p->reward_title : NULL,
	    punch ? p->reward_description : "", punch ? p->reward_amount : 0,
	    punch ? p->cooldown_seconds : 0, at,
	    punch && p->max_punches > 0 ? p->max_punches : (int64_t)-1,
	    cashback && p->expiry_days > 0 ? p->expiry_days :
	    (int64_t)-1)) == -1)
		return -1;
	return tiers_put(db, p);
}

/* The LC_PROGRAM_COLS at column 0 of the row. */
static void
program_row(struct lc_row *r, struct lc_program *p)
{
	char type[16];

	LC_ST_COL(r, 0, p->id);
	LC_ST_COL(r, 1, p->merchant_id);
	LC_ST_COL(r, 2, type);
	p->type = lc_cardtype_id(type);
	LC_ST_COL(r, 3, p->title);
	p->punch_requirement = lc_st_int(r, 4);
	p->reward_amount = lc_st_int(r, 5);
	p->cooldown_seconds = lc_st_int(r, 6);
	LC_ST_COL(r, 7, p->reward_title);
	LC_ST_COL(r, 8, p->reward_description);
	p->max_punches = lc_st_int(r, 9);
	p->expiry_days = lc_st_int(r, 10);
	p->ntiers = 0;
}

int
lc_db_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, PROGRAM_GET, "s", id))) != 1)
		return rc;
	program_row(&r, p);
	lc_st_done(&r);
	return lc_st_tiers_get(db, p) == -1 ? -1 : 1;
}

static int
tiers_put(struct lc_db *db, const struct lc_program *p)
{
	struct lc_row r;
	int i;

	for (i = 0; i < p->ntiers; i++)
		if (lc_st_put(RUN(&r, db, TIER_ADD, "ssii", p->id,
		    p->tiers[i].name, p->tiers[i].min_spend,
		    p->tiers[i].rate_bp)) == -1)
			return -1;
	return 0;
}

int
lc_db_program_update(struct lc_db *db, const struct lc_program *p)
{
	struct lc_row r;

	if (lc_st_change(RUN(&r, db, PROGRAM_UPDATE, "sssiioos",
	    p->title, p->reward_title, p->reward_description, p->reward_amount,
	    p->cooldown_seconds, p->max_punches > 0 ? p->max_punches :
	    (int64_t)-1, p->expiry_days > 0 ? p->expiry_days : (int64_t)-1,
	    p->id)) != 1)
		return -1;
	if (p->ntiers == 0)
		return 0;
	return lc_st_put(RUN(&r, db, TIERS_DELETE, "s", p->id)) == -1 ?
	    -1 : tiers_put(db, p);
}

int
lc_db_programs(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t), void *arg)
{
	struct lc_row r;
	struct lc_program *ps = NULL, *n;
	int64_t *counts = NULL, *nc;
	size_t np = 0, i;
	int rc = -1, stop = 0;

	/* Read the list first: loading tiers runs another statement. */
	if (RUN(&r, db, PROGRAMS_OF_MERCHANT, "s", merchant_id) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1) {
		if ((n = realloc(ps, (np + 1) * sizeof(*ps))) == NULL ||
		    (ps = n, (nc = realloc(counts, (np + 1) *
		    sizeof(*counts))) == NULL)) {
			rc = -1;
			break;
		}
		counts = nc;
		program_row(&r, &ps[np]);
		counts[np++] = lc_st_int(&r, LC_PROGRAM_NCOLS);
	}
	lc_st_done(&r);
	if (rc != 0) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < np && stop == 0; i++) {
		if (lc_st_tiers_get(db, &ps[i]) == -1) {
			rc = -1;
			goto out;
		}
		stop = each(arg, &ps[i], counts[i]);
	}
	if (stop != 0)
		rc = stop;
out:
	free(ps);
	free(counts);
	return rc;
}

int
lc_st_tiers_get(struct lc_db *db, struct lc_program *p)
{
	struct lc_row r;
	struct lc_tier *t;
	int rc;

	p->ntiers = 0;
	if (RUN(&r, db, TIERS_OF_PROGRAM, "s", p->id) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1 && p->ntiers < LC_TIERS_MAX) {
		t = &p->tiers[p->ntiers++];
		LC_ST_COL(&r, 0, t->name);
		t->min_spend = lc_st_int(&r, 1);
		t->rate_bp = lc_st_int(&r, 2);
	}
	lc_st_done(&r);
	return rc == -1 ? -1 : 0;
}

void
lc_st_card_row(struct lc_row *r, struct lc_card *c)
{
	const int n = LC_PROGRAM_NCOLS;

	memset(c, 0, sizeof(*c));
	program_row(r, &c->program);
	LC_ST_COL(r, n, c->id);
	LC_ST_COL(r, n + 1, c->merchant_id);
	LC_ST_COL(r, n + 2, c->merchant_name);
	LC_ST_COL(r, n + 3, c->customer_name);
	LC_ST_COL(r, n + 4, c->barcode);
	LC_ST_COL(r, n + 5, c->qr);
	LC_ST_COL(r, n + 6, c->status);
	c->current_punches = lc_st_int(r, n + 7);
	c->pending_rewards = lc_st_int(r, n + 8);
	c->lifetime_punches = lc_st_int(r, n + 9);
	c->cashback_balance = lc_st_int(r, n + 10);
	c->lifetime_cashback = lc_st_int(r, n + 11);
	c->lifetime_spend = lc_st_int(r, n + 12);
	c->created_at = lc_st_int(r, n + 13);
	LC_ST_COL(r, n + 14, c->share_token);
	LC_ST_COL(r, n + 15, c->code_secret);
	c->code_step_used = lc_st_int(r, n + 16);
	/* Not storage's: unknown until lc_expiry_fresh asks. */
	c->next_expiry_at = c->next_expiry_amount = -1;
}

/* The card of a run LC_CARD_COLS statement, with its tiers. */
static int
card_get(struct lc_db *db, struct lc_row *r, struct lc_card *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = lc_st_row(r)) != 1)
		return rc;
	lc_st_card_row(r, c);
	lc_st_done(r);
	if ((lc_cardtype_cols(c->program.type) & LC_CT_TIERS) &&
	    lc_st_tiers_get(db, &c->program) == -1)
		return -1;
	return 1;
}

int
lc_db_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	static const int which[] = { Q_CARD_BY_ID, Q_CARD_BY_QR,
	    Q_CARD_BY_BARCODE };
	struct lc_row r;

	return card_get(db, RUNQ(&r, db, which[key], "ss", merchant_id, value),
	    c);
}

int
lc_db_card_add(struct lc_db *db, const struct lc_card *c,
    const char *issued_by, const char *issued_location, int64_t at)
{
	struct lc_row r;

	return lc_st_put_unique(RUN(&r, db, CARD_ADD, "sssssssssis", c->id,
	    c->merchant_id, c->program.id, c->customer_name, c->barcode, c->qr,
	    c->share_token, issued_by, issued_location, at,
	    c->code_secret[0] != '\0' ? c->code_secret : NULL));
}

int
lc_db_card_by_share(struct lc_db *db, const char *token, struct lc_card *c)
{
	struct lc_row r;

	return card_get(db, RUN(&r, db, CARD_BY_SHARE, "s", token), c);
}

int
lc_db_card_any(struct lc_db *db, const char *id, struct lc_card *c)
{
	struct lc_row r;

	return card_get(db, RUN(&r, db, CARD_ANY, "s", id), c);
}

int
lc_db_card_updated(struct lc_db *db, const struct lc_card *c, int64_t *at)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, CARD_UPDATED, "is", c->created_at,
	    c->id), 0, at) == 1 ? 0 : -1;
}

int
lc_db_card_save(struct lc_db *db, const struct lc_card *c)
{
	struct lc_row r;

	/* Exactly one row: that card. */
	return lc_st_count(RUN(&r, db, CARD_SAVE, "iiiiiis",
	    c->current_punches, c->pending_rewards, c->lifetime_punches,
	    c->cashback_balance, c->lifetime_cashback, c->lifetime_spend,
	    c->id)) == 1 ? 0 : -1;
}

int
lc_db_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, CARD_SET_STATUS, "ss", status, id));
}

int
lc_db_card_set_name(struct lc_db *db, const char *id, const char *name)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, CARD_SET_NAME, "ss", name, id));
}

int
lc_db_card_set_share(struct lc_db *db, const char *id, const char *token,
    const char *secret)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, CARD_SET_SHARE, "sss", token, secret,
	    id));
}

int
lc_db_card_code_use(struct lc_db *db, const char *id, int64_t step)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, CARD_CODE_USE, "is", step, id));
}

/* Transactions, rewards, the ledger. */

int
lc_db_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	struct lc_row r;
	/* A void's and an adjustment's amounts are signed: bound as
	 * they are, NULL only for none. */
	int sig = t->voided_id != NULL || strcmp(t->type, "adjustment") == 0;

	return lc_st_put(RUN(&r, db, TXN_ADD, sig ?
	    "ssssssinnnnnsssssisss" : "ssssssiooooosssssisss",
	    t->id, t->merchant_id, t->card_id, t->location_id,
	    t->staff_user_id, t->type, t->purchase_amount, t->punches_added,
	    t->rate_bp, t->cashback_earned, t->discount_amount,
	    t->redeemed_amount, t->reward_id, t->notes, t->pos_ref,
	    t->pos_term, t->client_ts, t->created_at, t->voided_id,
	    t->parent_id, t->reason));
}

int
lc_db_txn_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_txn_info *t)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, TXN_GET, "ss", merchant_id, id))) != 1)
		return rc;
	LC_ST_COL(&r, 0, t->id);
	LC_ST_COL(&r, 1, t->card_id);
	LC_ST_COL(&r, 2, t->location_id);
	LC_ST_COL(&r, 3, t->staff_user_id);
	LC_ST_COL(&r, 4, t->type);
	LC_ST_COL(&r, 5, t->reward_id);
	LC_ST_COL(&r, 6, t->parent_id);
	LC_ST_COL(&r, 7, t->voided_by);
	t->purchase_amount = lc_st_int(&r, 8);
	t->created_at = lc_st_int(&r, 9);
	t->punches_added = lc_st_int_or(&r, 10, -1);
	t->cashback_earned = lc_st_int_or(&r, 11, -1);
	t->discount_amount = lc_st_int_or(&r, 12, -1);
	t->redeemed_amount = lc_st_int_or(&r, 13, -1);
	lc_st_done(&r);
	return 1;
}

int
lc_db_txn_child(struct lc_db *db, const char *id, char out[LC_ID_LEN + 1])
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, TXN_CHILD, "s", id))) == 1) {
		lc_st_col(&r, 0, out, LC_ID_LEN + 1);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_punch_near(struct lc_db *db, const char *card_id, int64_t after,
    int64_t before, int64_t *at)
{
	struct lc_row r;
	int found;

	/* An aggregate: always one row, NULL when there is none. */
	if (lc_st_row(RUN(&r, db, PUNCH_NEAR, "sii", card_id, after,
	    before)) != 1)
		return -1;
	if ((found = !lc_st_null(&r, 0)))
		*at = lc_st_int(&r, 0);
	lc_st_done(&r);
	return found;
}

int
lc_db_reward_add(struct lc_db *db, const struct lc_reward *w)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, REWARD_ADD, "sssssii", w->id, w->card_id,
	    w->earned_txn_id, w->title, w->description, w->amount,
	    w->earned_at));
}

/* The REWARD_COLS of a run: 1, else what lc_st_row says. */
static int
reward_get(struct lc_row *r, struct lc_reward *w)
{
	int rc;

	if ((rc = lc_st_row(r)) != 1)
		return rc;
	LC_ST_COL(r, 0, w->id);
	LC_ST_COL(r, 1, w->card_id);
	LC_ST_COL(r, 2, w->earned_txn_id);
	LC_ST_COL(r, 3, w->title);
	LC_ST_COL(r, 4, w->description);
	w->amount = lc_st_int(r, 5);
	w->earned_at = lc_st_int(r, 6);
	lc_st_done(r);
	return 1;
}

int
lc_db_reward_oldest(struct lc_db *db, const char *card_id,
    struct lc_reward *w)
{
	struct lc_row r;

	return reward_get(RUN(&r, db, REWARD_OLDEST, "s", card_id), w);
}

int
lc_db_reward_pending_of(struct lc_db *db, const char *txn_id,
    const char *card_id, struct lc_reward *w)
{
	struct lc_row r;

	return reward_get(RUN(&r, db, REWARD_PENDING_OF, "ss", txn_id,
	    card_id), w);
}

int
lc_db_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, REWARD_CLAIM, "iss", at, claim_txn_id,
	    id));
}

int
lc_db_reward_withdraw(struct lc_db *db, const char *id)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, REWARD_WITHDRAW, "s", id));
}

int
lc_db_reward_earning_voided(struct lc_db *db, const char *id)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, REWARD_EARNING_VOIDED, "s", id))) == 1)
		lc_st_done(&r);
	return rc;
}

int
lc_db_reward_unclaim(struct lc_db *db, const char *id,
    const char *claim_txn_id)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, REWARD_UNCLAIM, "ss", id,
	    claim_txn_id));
}

int
lc_db_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	return lc_db_earning_add_until(db, txn_id, card_id, amount, at, -1);
}

int
lc_db_earning_add_until(struct lc_db *db, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, EARNING_ADD, "ssiiio", txn_id, card_id,
	    amount, amount, at, expires_at));
}

/* The EARNING_COLS of a run: 1, else what lc_st_row says. */
static int
earning_row(struct lc_row *r, struct lc_earning *e)
{
	int rc;

	if ((rc = lc_st_row(r)) != 1)
		return rc;
	LC_ST_COL(r, 0, e->txn_id);
	e->amount = lc_st_int(r, 1);
	e->remaining = lc_st_int(r, 2);
	e->earned_at = lc_st_int(r, 3);
	e->expires_at = lc_st_int(r, 4);
	lc_st_done(r);
	return 1;
}

int
lc_db_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	struct lc_row r;

	return earning_row(RUN(&r, db, EARNING_OLDEST, "s", card_id), e);
}

int
lc_db_expiry_next(struct lc_db *db, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance)
{
	struct lc_row r;
	int found;

	/* An aggregate: always one row, NULL when there is none. */
	if (lc_st_row(RUN(&r, db, EXPIRY_NEXT, "s", card_id)) != 1)
		return -1;
	if ((found = !lc_st_null(&r, 0))) {
		*at = lc_st_int(&r, 0);
		*amount = lc_st_int(&r, 1);
	}
	/* The balance of the same snapshot as the next expiry. */
	*balance = lc_st_int(&r, 2);
	lc_st_done(&r);
	return found;
}

int
lc_db_earning_due(struct lc_db *db, const char *card_id, int64_t now,
    struct lc_earning *e)
{
	struct lc_row r;

	return earning_row(RUN(&r, db, EARNING_DUE, "si", card_id, now), e);
}

int
lc_db_earning_expire(struct lc_db *db, const struct lc_earning *e,
    const char *txn_id)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_change(RUN(&r, db, EARNING_EXPIRE, "si", e->txn_id,
	    e->remaining))) != 1)
		return rc;
	return lc_st_change(RUN(&r, db, EXPIRY_TXN_ADD, "siis", txn_id,
	    e->remaining, e->expires_at, e->txn_id)) == 1 ? 1 : -1;
}

int
lc_db_expiry_due_card(struct lc_db *db, const char *merchant_id,
    int64_t now, char card_id[LC_ID_LEN + 1])
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, EXPIRY_DUE_CARD, "si", merchant_id,
	    now))) != 1)
		return rc;
	lc_st_col(&r, 0, card_id, LC_ID_LEN + 1);
	lc_st_done(&r);
	return 1;
}

int
lc_db_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, EARNING_USE, "isi", use, txn_id, use));
}

int
lc_db_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, ENTRY_ADD, "ssi", redeem_txn_id,
	    earning_txn_id, amount));
}

int
lc_db_earning_get(struct lc_db *db, const char *txn_id, struct lc_earning *e)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, EARNING_GET, "s", txn_id))) != 1)
		return rc;
	LC_ST_COL(&r, 0, e->txn_id);
	e->amount = lc_st_int(&r, 1);
	e->remaining = lc_st_int(&r, 2);
	e->earned_at = lc_st_int(&r, 3);
	lc_st_done(&r);
	return 1;
}

int
lc_db_earning_return(struct lc_db *db, const char *txn_id, int64_t amount)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, EARNING_RETURN, "is", amount, txn_id));
}

int
lc_db_entries(struct lc_db *db, const char *txn_id, struct lc_entry **out,
    size_t *n)
{
	struct lc_row r;
	struct lc_entry *es = NULL, *ne;
	int rc;

	*out = NULL;
	*n = 0;
	if (RUN(&r, db, ENTRIES_OF, "s", txn_id) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1) {
		if ((ne = realloc(es, (*n + 1) * sizeof(*es))) == NULL) {
			rc = -1;
			break;
		}
		es = ne;
		LC_ST_COL(&r, 0, es[*n].earning_txn_id);
		es[*n].amount = lc_st_int(&r, 1);
		es[*n].voided = (int)lc_st_int(&r, 2);
		(*n)++;
	}
	lc_st_done(&r);
	if (rc != 0) {
		free(es);
		*n = 0;
		return -1;
	}
	*out = es;
	return 0;
}

/* Idempotency keys. */

int
lc_db_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
    struct lc_idem *k)
{
	struct lc_row r;
	const char *t;
	int rc;

	k->answer = NULL;
	if ((rc = lc_st_row(RUN(&r, db, IDEM_GET, "ss", merchant_id, key))) != 1)
		return rc;
	LC_ST_COL(&r, 0, k->kind);
	LC_ST_COL(&r, 1, k->txn_id);
	t = lc_st_text(&r, 2);
	k->answer = strdup(t == NULL ? "" : t);
	lc_st_done(&r);
	return k->answer == NULL ? -1 : 1;
}

int
lc_db_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, IDEM_ADD, "sssssi", merchant_id, key, kind,
	    txn_id, answer, at));
}
