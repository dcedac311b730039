/*
 * Storage on PostgreSQL: programs, cards, transactions, rewards, the
 * cashback ledger and idempotency keys. Each lc_pg_X is db_sqlite.c's
 * sq_X with its statements translated: the same columns in the same
 * order, read by one decoder per struct, and the same answers (1, 0, -1,
 * LC_DB_CONFLICT) from the same row counts.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"
#include "lc_pg.h"

/* Column lists, each decoded by one function below. */
#define REWARD_COLS "SELECT id, card_id, earned_transaction_id, title, " \
	"description, amount, earned_at FROM rewards "
#define EARNING_COLS "SELECT transaction_id, amount, remaining, " \
	"earned_at, coalesce(expires_at, -1) FROM cashback_earnings "

/*
 * Where the text differs from SQLite's: parameters whose type PostgreSQL
 * cannot infer (in a SELECT list, beside arithmetic) are cast; booleans
 * read as 0/1 are cast to int, sums of bigint back to bigint; inserts
 * that may meet a unique value say ON CONFLICT DO NOTHING (an error would
 * end the transaction); CROSS JOIN ... ON is JOIN ... ON; and an order
 * SQLite took from its index (a LIMIT 1 with no ORDER BY) is written out.
 */
#define SQL(X) \
	X(PROGRAM_ADD, "INSERT INTO programs(id, merchant_id, type, title, " \
	    "punch_requirement, reward_title, reward_description, " \
	    "reward_amount, cooldown_seconds, created_at, max_punches, " \
	    "expiry_days) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, " \
	    "$11, $12)") \
	X(PROGRAM_GET, "SELECT " LC_PROGRAM_COLS " FROM programs p " \
	    "WHERE p.id = $1") \
	X(PROGRAM_UPDATE, "UPDATE programs SET title = $1, " \
	    "reward_title = CASE type WHEN 'punch' THEN $2::text " \
	    "ELSE reward_title END, " \
	    "reward_description = $3, reward_amount = $4, " \
	    "cooldown_seconds = $5, max_punches = $6, expiry_days = $7 " \
	    "WHERE id = $8") \
	X(PROGRAMS_OF_MERCHANT, "SELECT " LC_PROGRAM_COLS ", (SELECT count(*) " \
	    "FROM cards c WHERE c.program_id = p.id) FROM programs p " \
	    "WHERE p.merchant_id = $1 ORDER BY p.rowid") \
	X(TIER_ADD, "INSERT INTO tiers(program_id, name, min_spend, rate_bp) " \
	    "VALUES ($1, $2, $3, $4)") \
	X(TIERS_DELETE, "DELETE FROM tiers WHERE program_id = $1") \
	X(TIERS_OF_PROGRAM, "SELECT name, min_spend, rate_bp FROM tiers " \
	    "WHERE program_id = $1 ORDER BY min_spend") \
	X(CARD_ADD, "INSERT INTO cards(id, merchant_id, program_id, " \
	    "customer_name, barcode, qr_code, share_token, issued_by, " \
	    "issued_location_id, created_at, code_secret) " \
	    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) " \
	    "ON CONFLICT DO NOTHING") \
	X(CARD_BY_ID, LC_CARD_COLS "WHERE c.merchant_id = $1 AND c.id = $2") \
	X(CARD_BY_QR, LC_CARD_COLS "WHERE c.merchant_id = $1 AND c.qr_code = $2") \
	X(CARD_BY_BARCODE, LC_CARD_COLS "WHERE c.merchant_id = $1 " \
	    "AND c.barcode = $2") \
	X(CARD_BY_SHARE, LC_CARD_COLS "WHERE c.share_token = $1") \
	X(CARD_ANY, LC_CARD_COLS "WHERE c.id = $1") \
	X(CARD_UPDATED, "SELECT coalesce(max(created_at), $1::bigint) " \
	    "FROM transactions WHERE card_id = $2") \
	X(CARD_SAVE, "UPDATE cards SET current_punches = $1, " \
	    "pending_rewards = $2, lifetime_punches = $3, " \
	    "cashback_balance = $4, lifetime_cashback = $5, " \
	    "lifetime_spend = $6 WHERE id = $7") \
	X(CARD_SET_STATUS, "UPDATE cards SET status = $1 WHERE id = $2") \
	X(CARD_SET_NAME, "UPDATE cards SET customer_name = $1 WHERE id = $2") \
	X(CARD_SET_SHARE, "UPDATE cards SET share_token = $1, " \
	    "code_secret = $2 WHERE id = $3") \
	X(CARD_CODE_USE, "UPDATE cards SET code_step_used = $1 " \
	    "WHERE id = $2 AND code_step_used < $1") \
	X(TXN_ADD, "INSERT INTO transactions(id, merchant_id, card_id, " \
	    "location_id, staff_user_id, type, purchase_amount, punches_added, " \
	    "rate_bp, cashback_earned, discount_amount, redeemed_amount, " \
	    "reward_id, transaction_notes, pos_reference_id, pos_terminal_id, " \
	    "client_timestamp, created_at, voided_transaction_id, " \
	    "parent_transaction_id, reason) VALUES ($1, $2, $3, $4, $5, $6, " \
	    "$7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, " \
	    "$20, $21)") \
	X(TXN_GET, "SELECT t.id, t.card_id, t.location_id, t.staff_user_id, " \
	    "t.type, coalesce(t.reward_id, ''), " \
	    "coalesce(t.parent_transaction_id, ''), " \
	    "coalesce((SELECT v.id FROM transactions v " \
	    "WHERE v.voided_transaction_id = t.id), ''), " \
	    "t.purchase_amount, t.created_at, t.punches_added, " \
	    "t.cashback_earned, t.discount_amount, t.redeemed_amount " \
	    "FROM transactions t WHERE t.merchant_id = $1 AND t.id = $2") \
	/* The first, as SQLite's index gives it (one there should be). */ \
	X(TXN_CHILD, "SELECT id FROM transactions " \
	    "WHERE parent_transaction_id = $1 ORDER BY rowid LIMIT 1") \
	/* A voided punch never started a cooldown (as in SQLite's). */ \
	X(PUNCH_NEAR, "SELECT max(created_at) FROM transactions x WHERE " \
	    "card_id = $1 AND type = 'punch' AND created_at > $2 " \
	    "AND created_at < $3 AND NOT EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = x.id)") \
	X(REWARD_ADD, "INSERT INTO rewards(id, card_id, " \
	    "earned_transaction_id, title, description, amount, earned_at) " \
	    "VALUES ($1, $2, $3, $4, $5, $6, $7)") \
	X(REWARD_OLDEST, REWARD_COLS "WHERE card_id = $1 " \
	    "AND status = 'pending_claim' ORDER BY earned_at, rowid LIMIT 1") \
	/* earned_transaction_id is NOT NULL: the boolean sorts as SQLite's \
	 * 0/1, true first. */ \
	X(REWARD_PENDING_OF, REWARD_COLS "WHERE card_id = $2 " \
	    "AND status = 'pending_claim' " \
	    "ORDER BY earned_transaction_id = $1 DESC, rowid DESC LIMIT 1") \
	X(REWARD_CLAIM, "UPDATE rewards SET status = 'claimed', " \
	    "claimed_at = $1, claim_transaction_id = $2 WHERE id = $3 " \
	    "AND status = 'pending_claim'") \
	X(REWARD_WITHDRAW, "DELETE FROM rewards WHERE id = $1 " \
	    "AND status = 'pending_claim'") \
	X(REWARD_EARNING_VOIDED, "SELECT 1 FROM rewards r " \
	    "JOIN transactions v " \
	    "ON v.voided_transaction_id = r.earned_transaction_id " \
	    "WHERE r.id = $1") \
	X(REWARD_UNCLAIM, "UPDATE rewards SET status = 'pending_claim', " \
	    "claimed_at = NULL, claim_transaction_id = NULL WHERE id = $1 " \
	    "AND status = 'claimed' AND claim_transaction_id = $2") \
	X(EARNING_ADD, "INSERT INTO cashback_earnings(transaction_id, " \
	    "card_id, amount, remaining, earned_at, expires_at) " \
	    "VALUES ($1, $2, $3, $4, $5, $6)") \
	/* Soonest expiring first; one that never expires (NULL) last. */ \
	X(EARNING_OLDEST, EARNING_COLS "WHERE card_id = $1 AND remaining > 0 " \
	    "ORDER BY expires_at IS NULL, expires_at, earned_at, rowid " \
	    "LIMIT 1") \
	/* The soonest expiry, and all that expires within a day of it. */ \
	X(EXPIRY_NEXT, "SELECT min(expires_at), sum(remaining)::bigint, " \
	    "(SELECT cashback_balance FROM cards WHERE id = $1) " \
	    "FROM cashback_earnings " \
	    "WHERE card_id = $1 AND remaining > 0 AND expires_at IS NOT NULL " \
	    "AND expires_at < (SELECT min(expires_at) FROM cashback_earnings " \
	    "WHERE card_id = $1 AND remaining > 0 " \
	    "AND expires_at IS NOT NULL) + 86400000") \
	X(EARNING_DUE, EARNING_COLS "WHERE card_id = $1 AND remaining > 0 " \
	    "AND expires_at IS NOT NULL AND expires_at <= $2 " \
	    "ORDER BY expires_at, rowid LIMIT 1") \
	X(EARNING_EXPIRE, "UPDATE cashback_earnings SET remaining = 0 " \
	    "WHERE transaction_id = $1 AND remaining = $2") \
	/* The expiry of an earning, where and by whom it was earned. */ \
	X(EXPIRY_TXN_ADD, "INSERT INTO transactions(id, merchant_id, " \
	    "card_id, location_id, staff_user_id, type, expired_amount, " \
	    "created_at) SELECT $1::text, t.merchant_id, t.card_id, " \
	    "t.location_id, t.staff_user_id, 'expiry', $2::bigint, " \
	    "$3::bigint FROM transactions t WHERE t.id = $4") \
	/* From the cashback_due index, soonest first, as SQLite reads it. */ \
	X(EXPIRY_DUE_CARD, "SELECT e.card_id FROM cashback_earnings e " \
	    "JOIN cards c ON c.id = e.card_id WHERE e.remaining > 0 " \
	    "AND e.expires_at IS NOT NULL AND e.expires_at <= $2 " \
	    "AND c.merchant_id = $1 ORDER BY e.expires_at, e.rowid LIMIT 1") \
	X(EARNING_USE, "UPDATE cashback_earnings " \
	    "SET remaining = remaining - $1::bigint " \
	    "WHERE transaction_id = $2 AND remaining >= $3::bigint") \
	X(ENTRY_ADD, "INSERT INTO redemption_entries(redeem_transaction_id, " \
	    "earning_transaction_id, amount_used) VALUES ($1, $2, $3)") \
	X(EARNING_GET, "SELECT transaction_id, amount, remaining, earned_at " \
	    "FROM cashback_earnings WHERE transaction_id = $1") \
	X(EARNING_RETURN, "UPDATE cashback_earnings SET remaining = " \
	    "remaining + $1::bigint WHERE transaction_id = $2 " \
	    "AND remaining + $1::bigint <= amount") \
	X(ENTRIES_OF, "SELECT r.earning_transaction_id, r.amount_used, " \
	    "(EXISTS (SELECT 1 FROM transactions v " \
	    "WHERE v.voided_transaction_id = r.earning_transaction_id))::int " \
	    "FROM redemption_entries r JOIN cashback_earnings e " \
	    "ON e.transaction_id = r.earning_transaction_id " \
	    "WHERE r.redeem_transaction_id = $1 ORDER BY e.earned_at, e.rowid") \
	X(IDEM_GET, "SELECT kind, transaction_id, response " \
	    "FROM idempotency_keys WHERE merchant_id = $1 AND key = $2") \
	/* A key taken is an error, as in SQLite (the write is rolled back): \
	 * a replay is found by IDEM_GET first, in the same write turn. */ \
	X(IDEM_ADD, "INSERT INTO idempotency_keys(merchant_id, key, kind, " \
	    "transaction_id, response, created_at) " \
	    "VALUES ($1, $2, $3, $4, $5, $6)")

enum { SQL(LC_PG_Q_ENUM) Q__N };
_Static_assert(Q__N <= LC_PG_LISTS - LC_PG_CARDS,
    "db_pg_cards.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_PG_Q_TEXT) };

#define RUNQ(db, q, ...) lc_pg_run((db), LC_PG_CARDS + (q), q_sql[(q)], \
	__VA_ARGS__)
#define RUN(db, name, ...) RUNQ((db), Q_##name, __VA_ARGS__)

/* Programs and cards. */

static int tiers_put(struct lc_db *, const struct lc_program *);

int
lc_pg_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	unsigned cols = lc_cardtype_cols(p->type);
	int punch = (cols & LC_CT_REWARD) != 0;
	int cashback = (cols & LC_CT_EXPIRES) != 0;

	/* Only a punch program has a requirement and a reward; only a
	 * cashback one a term for its earnings. */
	if (lc_pg_put(RUN(db, PROGRAM_ADD, "ssssossiiioo", p->id,
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

/* The LC_PROGRAM_COLS at column 0 of row i. */
static void
program_row(const PGresult *r, int i, struct lc_program *p)
{
	char type[16];

	LC_PG_COL(r, i, 0, p->id);
	LC_PG_COL(r, i, 1, p->merchant_id);
	LC_PG_COL(r, i, 2, type);
	p->type = lc_cardtype_id(type);
	LC_PG_COL(r, i, 3, p->title);
	p->punch_requirement = lc_pg_int(r, i, 4, 0);
	p->reward_amount = lc_pg_int(r, i, 5, 0);
	p->cooldown_seconds = lc_pg_int(r, i, 6, 0);
	LC_PG_COL(r, i, 7, p->reward_title);
	LC_PG_COL(r, i, 8, p->reward_description);
	p->max_punches = lc_pg_int(r, i, 9, 0);
	p->expiry_days = lc_pg_int(r, i, 10, 0);
	p->ntiers = 0;
}

int
lc_pg_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	PGresult *r = RUN(db, PROGRAM_GET, "s", id);
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	program_row(r, 0, p);
	PQclear(r);
	return lc_pg_tiers_get(db, p) == -1 ? -1 : 1;
}

static int
tiers_put(struct lc_db *db, const struct lc_program *p)
{
	int i;

	for (i = 0; i < p->ntiers; i++)
		if (lc_pg_put(RUN(db, TIER_ADD, "ssii", p->id,
		    p->tiers[i].name, p->tiers[i].min_spend,
		    p->tiers[i].rate_bp)) == -1)
			return -1;
	return 0;
}

int
lc_pg_program_update(struct lc_db *db, const struct lc_program *p)
{
	if (lc_pg_change(RUN(db, PROGRAM_UPDATE, "sssiioos",
	    p->title, p->reward_title, p->reward_description, p->reward_amount,
	    p->cooldown_seconds, p->max_punches > 0 ? p->max_punches :
	    (int64_t)-1, p->expiry_days > 0 ? p->expiry_days : (int64_t)-1,
	    p->id)) != 1)
		return -1;
	if (p->ntiers == 0)
		return 0;
	return lc_pg_put(RUN(db, TIERS_DELETE, "s", p->id)) == -1 ?
	    -1 : tiers_put(db, p);
}

int
lc_pg_programs(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t), void *arg)
{
	PGresult *r = RUN(db, PROGRAMS_OF_MERCHANT, "s", merchant_id);
	struct lc_program p;
	int i, rc = -1, stop = 0;

	/* The whole list is in r: its tiers can be read row by row. */
	if (r == NULL)
		return -1;
	for (i = 0; i < PQntuples(r) && stop == 0; i++) {
		program_row(r, i, &p);
		if (lc_pg_tiers_get(db, &p) == -1)
			goto out;
		stop = each(arg, &p, lc_pg_int(r, i, LC_PROGRAM_NCOLS, 0));
	}
	rc = stop;
out:
	PQclear(r);
	return rc;
}

/* Reads the tiers of p, in min_spend order, as many as it holds. */
int
lc_pg_tiers_get(struct lc_db *db, struct lc_program *p)
{
	PGresult *r = RUN(db, TIERS_OF_PROGRAM, "s", p->id);
	struct lc_tier *t;
	int i;

	p->ntiers = 0;
	if (r == NULL)
		return -1;
	for (i = 0; i < PQntuples(r) && p->ntiers < LC_TIERS_MAX; i++) {
		t = &p->tiers[p->ntiers++];
		LC_PG_COL(r, i, 0, t->name);
		t->min_spend = lc_pg_int(r, i, 1, 0);
		t->rate_bp = lc_pg_int(r, i, 2, 0);
	}
	PQclear(r);
	return 0;
}

/* The LC_CARD_COLS of row i (not the tiers); db_pg_lists.c's card search
 * reads its pages with it too. */
void
lc_pg_card_row(const PGresult *r, int i, struct lc_card *c)
{
	const int n = LC_PROGRAM_NCOLS;

	memset(c, 0, sizeof(*c));
	program_row(r, i, &c->program);
	LC_PG_COL(r, i, n, c->id);
	LC_PG_COL(r, i, n + 1, c->merchant_id);
	LC_PG_COL(r, i, n + 2, c->merchant_name);
	LC_PG_COL(r, i, n + 3, c->customer_name);
	LC_PG_COL(r, i, n + 4, c->barcode);
	LC_PG_COL(r, i, n + 5, c->qr);
	LC_PG_COL(r, i, n + 6, c->status);
	c->current_punches = lc_pg_int(r, i, n + 7, 0);
	c->pending_rewards = lc_pg_int(r, i, n + 8, 0);
	c->lifetime_punches = lc_pg_int(r, i, n + 9, 0);
	c->cashback_balance = lc_pg_int(r, i, n + 10, 0);
	c->lifetime_cashback = lc_pg_int(r, i, n + 11, 0);
	c->lifetime_spend = lc_pg_int(r, i, n + 12, 0);
	c->created_at = lc_pg_int(r, i, n + 13, 0);
	LC_PG_COL(r, i, n + 14, c->share_token);
	LC_PG_COL(r, i, n + 15, c->code_secret);
	c->code_step_used = lc_pg_int(r, i, n + 16, 0);
	/* Not storage's: unknown until lc_expiry_fresh asks. */
	c->next_expiry_at = c->next_expiry_amount = -1;
}

/* The card of a LC_CARD_COLS result, with its tiers. */
static int
card_get(struct lc_db *db, PGresult *r, struct lc_card *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	lc_pg_card_row(r, 0, c);
	PQclear(r);
	if ((lc_cardtype_cols(c->program.type) & LC_CT_TIERS) &&
	    lc_pg_tiers_get(db, &c->program) == -1)
		return -1;
	return 1;
}

int
lc_pg_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	static const int which[] = { Q_CARD_BY_ID, Q_CARD_BY_QR,
	    Q_CARD_BY_BARCODE };

	return card_get(db, RUNQ(db, which[key], "ss", merchant_id, value), c);
}

int
lc_pg_card_add(struct lc_db *db, const struct lc_card *c,
    const char *issued_by, const char *issued_location, int64_t at)
{
	return lc_pg_put_unique(RUN(db, CARD_ADD, "sssssssssis", c->id,
	    c->merchant_id, c->program.id, c->customer_name, c->barcode,
	    c->qr, c->share_token, issued_by, issued_location, at,
	    c->code_secret[0] != '\0' ? c->code_secret : NULL));
}

int
lc_pg_card_by_share(struct lc_db *db, const char *token, struct lc_card *c)
{
	return card_get(db, RUN(db, CARD_BY_SHARE, "s", token), c);
}

int
lc_pg_card_any(struct lc_db *db, const char *id, struct lc_card *c)
{
	return card_get(db, RUN(db, CARD_ANY, "s", id), c);
}

int
lc_pg_card_updated(struct lc_db *db, const struct lc_card *c, int64_t *at)
{
	PGresult *r = RUN(db, CARD_UPDATED, "is", c->created_at, c->id);

	if (lc_pg_row(r) != 1)
		return -1;
	*at = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return 0;
}

int
lc_pg_card_save(struct lc_db *db, const struct lc_card *c)
{
	PGresult *r = RUN(db, CARD_SAVE, "iiiiiis", c->current_punches,
	    c->pending_rewards, c->lifetime_punches, c->cashback_balance,
	    c->lifetime_cashback, c->lifetime_spend, c->id);
	int rc;

	/* Exactly one row: that card. */
	if (r == NULL)
		return -1;
	rc = strcmp(PQcmdTuples(r), "1") == 0 ? 0 : -1;
	PQclear(r);
	return rc;
}

int
lc_pg_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	return lc_pg_change(RUN(db, CARD_SET_STATUS, "ss", status, id));
}

int
lc_pg_card_set_name(struct lc_db *db, const char *id, const char *name)
{
	return lc_pg_change(RUN(db, CARD_SET_NAME, "ss", name, id));
}

int
lc_pg_card_set_share(struct lc_db *db, const char *id, const char *token,
    const char *secret)
{
	return lc_pg_change(RUN(db, CARD_SET_SHARE, "sss", token, secret, id));
}

int
lc_pg_card_code_use(struct lc_db *db, const char *id, int64_t step)
{
	return lc_pg_change(RUN(db, CARD_CODE_USE, "is", step, id));
}

/* Transactions, rewards, the ledger. */

int
lc_pg_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	/* A void's and an adjustment's amounts are signed: bound as
	 * they are, NULL only for none. */
	int sig = t->voided_id != NULL || strcmp(t->type, "adjustment") == 0;

	return lc_pg_put(RUN(db, TXN_ADD, sig ?
	    "ssssssinnnnnsssssisss" : "ssssssiooooosssssisss",
	    t->id, t->merchant_id, t->card_id, t->location_id,
	    t->staff_user_id, t->type, t->purchase_amount, t->punches_added,
	    t->rate_bp, t->cashback_earned, t->discount_amount,
	    t->redeemed_amount, t->reward_id, t->notes, t->pos_ref,
	    t->pos_term, t->client_ts, t->created_at, t->voided_id,
	    t->parent_id, t->reason));
}

int
lc_pg_txn_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_txn_info *t)
{
	PGresult *r = RUN(db, TXN_GET, "ss", merchant_id, id);
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, t->id);
	LC_PG_COL(r, 0, 1, t->card_id);
	LC_PG_COL(r, 0, 2, t->location_id);
	LC_PG_COL(r, 0, 3, t->staff_user_id);
	LC_PG_COL(r, 0, 4, t->type);
	LC_PG_COL(r, 0, 5, t->reward_id);
	LC_PG_COL(r, 0, 6, t->parent_id);
	LC_PG_COL(r, 0, 7, t->voided_by);
	t->purchase_amount = lc_pg_int(r, 0, 8, 0);
	t->created_at = lc_pg_int(r, 0, 9, 0);
	t->punches_added = lc_pg_int(r, 0, 10, -1);
	t->cashback_earned = lc_pg_int(r, 0, 11, -1);
	t->discount_amount = lc_pg_int(r, 0, 12, -1);
	t->redeemed_amount = lc_pg_int(r, 0, 13, -1);
	PQclear(r);
	return 1;
}

int
lc_pg_txn_child(struct lc_db *db, const char *id, char out[LC_ID_LEN + 1])
{
	PGresult *r = RUN(db, TXN_CHILD, "s", id);
	int rc;

	if ((rc = lc_pg_row(r)) == 1) {
		lc_pg_col(r, 0, 0, out, LC_ID_LEN + 1);
		PQclear(r);
	}
	return rc;
}

int
lc_pg_punch_near(struct lc_db *db, const char *card_id, int64_t after,
    int64_t before, int64_t *at)
{
	PGresult *r = RUN(db, PUNCH_NEAR, "sii", card_id, after, before);
	int found;

	/* An aggregate: always one row, NULL when there is none. */
	if (lc_pg_row(r) != 1)
		return -1;
	if ((found = !PQgetisnull(r, 0, 0)))
		*at = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return found;
}

int
lc_pg_reward_add(struct lc_db *db, const struct lc_reward *w)
{
	return lc_pg_put(RUN(db, REWARD_ADD, "sssssii", w->id, w->card_id,
	    w->earned_txn_id, w->title, w->description, w->amount,
	    w->earned_at));
}

/* The REWARD_COLS of a result: 1, else what lc_pg_row says. */
static int
reward_get(PGresult *r, struct lc_reward *w)
{
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, w->id);
	LC_PG_COL(r, 0, 1, w->card_id);
	LC_PG_COL(r, 0, 2, w->earned_txn_id);
	LC_PG_COL(r, 0, 3, w->title);
	LC_PG_COL(r, 0, 4, w->description);
	w->amount = lc_pg_int(r, 0, 5, 0);
	w->earned_at = lc_pg_int(r, 0, 6, 0);
	PQclear(r);
	return 1;
}

int
lc_pg_reward_oldest(struct lc_db *db, const char *card_id,
    struct lc_reward *w)
{
	return reward_get(RUN(db, REWARD_OLDEST, "s", card_id), w);
}

int
lc_pg_reward_pending_of(struct lc_db *db, const char *txn_id,
    const char *card_id, struct lc_reward *w)
{
	return reward_get(RUN(db, REWARD_PENDING_OF, "ss", txn_id, card_id),
	    w);
}

int
lc_pg_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	return lc_pg_change(RUN(db, REWARD_CLAIM, "iss", at, claim_txn_id,
	    id));
}

int
lc_pg_reward_withdraw(struct lc_db *db, const char *id)
{
	return lc_pg_change(RUN(db, REWARD_WITHDRAW, "s", id));
}

int
lc_pg_reward_earning_voided(struct lc_db *db, const char *id)
{
	PGresult *r = RUN(db, REWARD_EARNING_VOIDED, "s", id);
	int rc = lc_pg_row(r);

	if (rc == 1)
		PQclear(r);
	return rc;
}

int
lc_pg_reward_unclaim(struct lc_db *db, const char *id,
    const char *claim_txn_id)
{
	return lc_pg_change(RUN(db, REWARD_UNCLAIM, "ss", id, claim_txn_id));
}

int
lc_pg_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	return lc_pg_earning_add_until(db, txn_id, card_id, amount, at, -1);
}

int
lc_pg_earning_add_until(struct lc_db *db, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at)
{
	return lc_pg_put(RUN(db, EARNING_ADD, "ssiiio", txn_id, card_id,
	    amount, amount, at, expires_at));
}

/* The EARNING_COLS of a result: 1, else what lc_pg_row says. */
static int
earning_row(PGresult *r, struct lc_earning *e)
{
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, e->txn_id);
	e->amount = lc_pg_int(r, 0, 1, 0);
	e->remaining = lc_pg_int(r, 0, 2, 0);
	e->earned_at = lc_pg_int(r, 0, 3, 0);
	e->expires_at = lc_pg_int(r, 0, 4, 0);
	PQclear(r);
	return 1;
}

int
lc_pg_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	return earning_row(RUN(db, EARNING_OLDEST, "s", card_id), e);
}

int
lc_pg_expiry_next(struct lc_db *db, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance)
{
	PGresult *r = RUN(db, EXPIRY_NEXT, "s", card_id);
	int found;

	/* An aggregate: always one row, NULL when there is none. */
	if (lc_pg_row(r) != 1)
		return -1;
	if ((found = !PQgetisnull(r, 0, 0))) {
		*at = lc_pg_int(r, 0, 0, 0);
		*amount = lc_pg_int(r, 0, 1, 0);
	}
	/* The balance of the same snapshot as the next expiry. */
	*balance = lc_pg_int(r, 0, 2, 0);
	PQclear(r);
	return found;
}

int
lc_pg_earning_due(struct lc_db *db, const char *card_id, int64_t now,
    struct lc_earning *e)
{
	return earning_row(RUN(db, EARNING_DUE, "si", card_id, now), e);
}

int
lc_pg_earning_expire(struct lc_db *db, const struct lc_earning *e,
    const char *txn_id)
{
	int rc;

	if ((rc = lc_pg_change(RUN(db, EARNING_EXPIRE, "si", e->txn_id,
	    e->remaining))) != 1)
		return rc;
	return lc_pg_change(RUN(db, EXPIRY_TXN_ADD, "siis", txn_id,
	    e->remaining, e->expires_at, e->txn_id)) == 1 ? 1 : -1;
}

int
lc_pg_expiry_due_card(struct lc_db *db, const char *merchant_id,
    int64_t now, char card_id[LC_ID_LEN + 1])
{
	PGresult *r = RUN(db, EXPIRY_DUE_CARD, "si", merchant_id, now);
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	lc_pg_col(r, 0, 0, card_id, LC_ID_LEN + 1);
	PQclear(r);
	return 1;
}

int
lc_pg_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	return lc_pg_change(RUN(db, EARNING_USE, "isi", use, txn_id, use));
}

int
lc_pg_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	return lc_pg_put(RUN(db, ENTRY_ADD, "ssi", redeem_txn_id,
	    earning_txn_id, amount));
}

int
lc_pg_earning_get(struct lc_db *db, const char *txn_id, struct lc_earning *e)
{
	PGresult *r = RUN(db, EARNING_GET, "s", txn_id);
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, e->txn_id);
	e->amount = lc_pg_int(r, 0, 1, 0);
	e->remaining = lc_pg_int(r, 0, 2, 0);
	e->earned_at = lc_pg_int(r, 0, 3, 0);
	PQclear(r);
	return 1;
}

int
lc_pg_earning_return(struct lc_db *db, const char *txn_id, int64_t amount)
{
	return lc_pg_change(RUN(db, EARNING_RETURN, "is", amount, txn_id));
}

int
lc_pg_entries(struct lc_db *db, const char *txn_id, struct lc_entry **out,
    size_t *n)
{
	PGresult *r = RUN(db, ENTRIES_OF, "s", txn_id);
	struct lc_entry *es = NULL;
	int i, nt;

	*out = NULL;
	*n = 0;
	if (r == NULL)
		return -1;
	/* One allocation for all: nothing to free on a later failure. */
	if ((nt = PQntuples(r)) > 0 &&
	    (es = calloc((size_t)nt, sizeof(*es))) == NULL) {
		PQclear(r);
		return -1;
	}
	for (i = 0; i < nt; i++) {
		LC_PG_COL(r, i, 0, es[i].earning_txn_id);
		es[i].amount = lc_pg_int(r, i, 1, 0);
		es[i].voided = (int)lc_pg_int(r, i, 2, 0);
	}
	PQclear(r);
	*out = es;
	*n = (size_t)nt;
	return 0;
}

/* Idempotency keys. */

int
lc_pg_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
    struct lc_idem *k)
{
	PGresult *r = RUN(db, IDEM_GET, "ss", merchant_id, key);
	const char *t;
	int rc;

	k->answer = NULL;
	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, k->kind);
	LC_PG_COL(r, 0, 1, k->txn_id);
	t = lc_pg_text(r, 0, 2);
	k->answer = strdup(t == NULL ? "" : t);
	PQclear(r);
	return k->answer == NULL ? -1 : 1;
}

int
lc_pg_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	return lc_pg_put(RUN(db, IDEM_ADD, "sssssi", merchant_id, key, kind,
	    txn_id, answer, at));
}
