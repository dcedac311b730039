/*
 * Storage on SQLite: the connection, migrations, the statement table, and
 * every function of lc_store.h. This is the only file of the library that
 * steps a statement or reads a column; everything above it sees structs.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lc_int.h"
#include "lc_sqlite.h"

struct lc_db {
	sqlite3 *h;
	sqlite3_stmt *stmts[LC_SQL__MAX];
};

static const char *const lc_sql[LC_SQL__MAX] = {
#define X(name, sql) [LC_SQL_##name] = sql,
	LC_SQL_LIST
#undef X
};

const char *
lc_db_default_path(const char *explicit_path)
{
	const char *env;

	if (explicit_path != NULL && *explicit_path != '\0')
		return explicit_path;
	if ((env = getenv("LOYALTY_DB")) != NULL && *env != '\0')
		return env;
	return LC_DEFAULT_DB;
}

static int
exec(sqlite3 *h, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK) {
		lc_log("sql: %s", err ? err : sqlite3_errmsg(h));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* The highest applied migration, 0 for a new database, -1 on error. */
static int
applied_version(sqlite3 *h)
{
	sqlite3_stmt *st = NULL;
	int v = -1, rc;

	rc = sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table' AND name = 'schema_migrations'", -1, &st, NULL);
	if (rc != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
		goto out;
	if (sqlite3_column_int(st, 0) == 0) {
		v = 0;
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	if (sqlite3_prepare_v2(h, "SELECT coalesce(max(version), 0) FROM "
	    "schema_migrations", -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW)
		goto out;
	v = sqlite3_column_int(st, 0);
out:
	sqlite3_finalize(st);
	return v;
}

static int
latest_version(void)
{
	int i, v = 0;

	for (i = 0; lc_migrations[i].sql != NULL; i++)
		v = lc_migrations[i].version;
	return v;
}

/* Applies the missing migrations in one write transaction, so concurrent
 * processes starting on an old database upgrade it exactly once. */
static int
migrate(struct lc_db *db)
{
	sqlite3_stmt *st;
	int i, have, rc = -1;

	if ((have = applied_version(db->h)) == -1)
		return -1;
	if (have >= latest_version())
		return 0;
	if (exec(db->h, "BEGIN IMMEDIATE") == -1)
		return -1;
	if (exec(db->h, "CREATE TABLE IF NOT EXISTS schema_migrations ("
	    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
	    "applied_at INTEGER NOT NULL)") == -1)
		goto out;
	if ((have = applied_version(db->h)) == -1)
		goto out;
	for (i = 0; lc_migrations[i].sql != NULL; i++) {
		if (lc_migrations[i].version <= have)
			continue;
		if (exec(db->h, lc_migrations[i].sql) == -1)
			goto out;
		if ((st = lc_sq_prep(db, LC_SQL_MIGRATION_ADD, "isi",
		    (int64_t)lc_migrations[i].version, lc_migrations[i].name,
		    lc_now_ms())) == NULL || lc_sq_exec(db, st) == -1)
			goto out;
	}
	rc = exec(db->h, "COMMIT");
out:
	if (rc == -1)
		(void)exec(db->h, "ROLLBACK");
	return rc;
}

struct lc_db *
lc_db_open(const char *path, int create, const char **errmsg)
{
	struct lc_db *db;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*errmsg = NULL;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if ((db = calloc(1, sizeof(*db))) == NULL) {
		*errmsg = "out of memory";
		return NULL;
	}
	if (sqlite3_open_v2(path, &db->h, flags, NULL) != SQLITE_OK) {
		*errmsg = "cannot open the database file";
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	sqlite3_busy_timeout(db->h, LC_BUSY_TIMEOUT_MS);
	/* WAL lets lookups read while a purchase writes; FULL syncs each
	 * commit so an acknowledged purchase survives a power cut. */
	if (exec(db->h, "PRAGMA journal_mode = WAL") == -1 ||
	    exec(db->h, "PRAGMA synchronous = FULL") == -1 ||
	    exec(db->h, "PRAGMA foreign_keys = ON") == -1) {
		*errmsg = "cannot configure the database";
		goto fail;
	}
	if (migrate(db) == -1) {
		*errmsg = "cannot upgrade the database schema";
		goto fail;
	}
	return db;
fail:
	lc_db_close(db);
	return NULL;
}

void
lc_db_close(struct lc_db *db)
{
	int i;

	if (db == NULL)
		return;
	for (i = 0; i < LC_SQL__MAX; i++)
		sqlite3_finalize(db->stmts[i]);
	sqlite3_close(db->h);
	free(db);
}

int
lc_db_version(struct lc_db *db)
{
	return applied_version(db->h);
}

sqlite3 *
lc_sq_handle(struct lc_db *db)
{
	return db->h;
}

sqlite3_stmt *
lc_sq_prep(struct lc_db *db, enum lc_sql which, const char *fmt, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc = SQLITE_OK;
	int64_t v;
	const char *s;
	const void *b;

	if ((st = db->stmts[which]) == NULL) {
		if (sqlite3_prepare_v3(db->h, lc_sql[which], -1,
		    SQLITE_PREPARE_PERSISTENT, &db->stmts[which], NULL) !=
		    SQLITE_OK) {
			lc_log("prepare %d: %s", (int)which, sqlite3_errmsg(db->h));
			return NULL;
		}
		st = db->stmts[which];
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	va_start(ap, fmt);
	for (i = 0; fmt[i] != '\0' && rc == SQLITE_OK; i++) {
		switch (fmt[i]) {
		case 's':
			s = va_arg(ap, const char *);
			rc = s == NULL ? sqlite3_bind_null(st, i + 1) :
			    sqlite3_bind_text(st, i + 1, s, -1, SQLITE_TRANSIENT);
			break;
		case 'N':
			rc = sqlite3_bind_null(st, i + 1);
			break;
		case 'i':
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
			break;
		case 'o':
			v = va_arg(ap, int64_t);
			rc = v < 0 ? sqlite3_bind_null(st, i + 1) :
			    sqlite3_bind_int64(st, i + 1, v);
			break;
		case 'b':
			b = va_arg(ap, const void *);
			rc = sqlite3_bind_blob(st, i + 1, b, va_arg(ap, int),
			    SQLITE_TRANSIENT);
			break;
		default:
			lc_log("statement %d: bad bind format '%c'", (int)which,
			    fmt[i]);
			rc = SQLITE_MISUSE;
		}
	}
	va_end(ap);
	if (rc != SQLITE_OK) {
		lc_log("bind %d: %s", (int)which, sqlite3_errmsg(db->h));
		return NULL;
	}
	return st;
}

int
lc_sq_step(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		lc_log("step: %s (%d)", sqlite3_errmsg(db->h), rc);
	return rc;
}

int
lc_sq_exec(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = lc_sq_step(db, st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

void
lc_sq_col(sqlite3_stmt *st, int i, char *out, size_t outsz)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(out, outsz, "%s", t == NULL ? "" : (const char *)t);
}

#define COL(st, i, field) lc_sq_col((st), (i), (field), sizeof(field))

/* Runs a write of no rows: 0 or -1. */
static int
put(struct lc_db *db, sqlite3_stmt *st)
{
	return st == NULL || lc_sq_exec(db, st) == -1 ? -1 : 0;
}

/* A write that may hit a unique value: 0, LC_DB_CONFLICT or -1. */
static int
put_unique(struct lc_db *db, sqlite3_stmt *st)
{
	int rc;

	if (st == NULL)
		return -1;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc == SQLITE_CONSTRAINT_UNIQUE || rc == SQLITE_CONSTRAINT_PRIMARYKEY)
		return LC_DB_CONFLICT;
	lc_log("step: %s (%d)", sqlite3_errmsg(db->h), rc);
	return -1;
}

/* A change of rows by id: 1 changed, 0 none, -1 on failure. */
static int
change(struct lc_db *db, sqlite3_stmt *st)
{
	if (st == NULL || lc_sq_exec(db, st) == -1)
		return -1;
	return sqlite3_changes(db->h) > 0;
}

/* Steps a statement expected to give one row: 1 row (left for the caller
 * to read and reset), 0 none (reset), -1 failure (reset). */
static int
row(struct lc_db *db, sqlite3_stmt *st)
{
	int rc;

	if (st == NULL)
		return -1;
	if ((rc = lc_sq_step(db, st)) == SQLITE_ROW)
		return 1;
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Transactions. */

int
lc_db_begin(struct lc_db *db, int write)
{
	/* IMMEDIATE: a deferred read-then-write can fail with SQLITE_BUSY
	 * that no busy timeout cures. A read takes no lock, only a
	 * consistent WAL snapshot. */
	return exec(db->h, write ? "BEGIN IMMEDIATE" : "BEGIN");
}

int
lc_db_commit(struct lc_db *db)
{
	if (exec(db->h, "COMMIT") == 0)
		return 0;
	lc_db_rollback(db);
	return -1;
}

void
lc_db_rollback(struct lc_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		(void)exec(db->h, "ROLLBACK");
}

/* Settings. */

int
lc_db_setting_get(struct lc_db *db, const char *key, char *out, size_t outsz)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_SETTING_GET, "s", key);
	int rc;

	if ((rc = row(db, st)) == 1) {
		lc_sq_col(st, 0, out, outsz);
		sqlite3_reset(st);
	}
	return rc;
}

int
lc_db_setting_set(struct lc_db *db, const char *key, const char *value)
{
	return put(db, lc_sq_prep(db, LC_SQL_SETTING_SET, "ss", key, value));
}

/* Merchants and locations. */

int
lc_db_merchant_add(struct lc_db *db, const char *id, const char *name,
    int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_MERCHANT_ADD, "ssi", id, name, at));
}

int
lc_db_merchant_exists(struct lc_db *db, const char *id)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_MERCHANT_EXISTS, "s", id);
	int rc;

	if ((rc = row(db, st)) == 1)
		sqlite3_reset(st);
	return rc;
}

int
lc_db_location_add(struct lc_db *db, const struct lc_location *l, int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_LOCATION_ADD, "sssi", l->id,
	    l->merchant_id, l->name, at));
}

static void
location_row(sqlite3_stmt *st, struct lc_location *l)
{
	COL(st, 0, l->id);
	COL(st, 1, l->merchant_id);
	COL(st, 2, l->name);
}

int
lc_db_location_get(struct lc_db *db, const char *id, struct lc_location *l)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_LOCATION_GET, "s", id);
	int rc;

	if ((rc = row(db, st)) == 1) {
		location_row(st, l);
		sqlite3_reset(st);
	}
	return rc;
}

int
lc_db_locations(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_location *), void *arg)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_LOCATIONS_OF_MERCHANT, "s",
	    merchant_id);
	struct lc_location l;
	int rc, stop = 0;

	if (st == NULL)
		return -1;
	while (stop == 0 && (rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		location_row(st, &l);
		stop = each(arg, &l);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Users. */

static void
user_row(sqlite3_stmt *st, struct lc_user *u)
{
	COL(st, 0, u->id);
	COL(st, 1, u->merchant_id);
	COL(st, 2, u->location_id);
	COL(st, 3, u->email);
	COL(st, 4, u->display_name);
	COL(st, 5, u->password_hash);
	u->is_owner = sqlite3_column_int(st, 6);
	u->disabled = sqlite3_column_int(st, 7);
}

static int
user_get(struct lc_db *db, sqlite3_stmt *st, struct lc_user *u)
{
	int rc;

	if ((rc = row(db, st)) == 1) {
		user_row(st, u);
		sqlite3_reset(st);
	}
	return rc;
}

int
lc_db_user_by_email(struct lc_db *db, const char *email, struct lc_user *u)
{
	return user_get(db, lc_sq_prep(db, LC_SQL_USER_BY_EMAIL, "s", email), u);
}

int
lc_db_user_get(struct lc_db *db, const char *id, struct lc_user *u)
{
	return user_get(db, lc_sq_prep(db, LC_SQL_USER_GET, "s", id), u);
}

int
lc_db_user_add(struct lc_db *db, const struct lc_user *u, int64_t at)
{
	return put_unique(db, lc_sq_prep(db, LC_SQL_USER_ADD, "sssssssi",
	    u->id, u->merchant_id, u->email,
	    u->display_name[0] ? u->display_name : NULL,
	    u->is_owner ? "owner" : "system_user",
	    u->is_owner ? NULL : u->location_id, u->password_hash, at));
}

int
lc_db_user_set_disabled(struct lc_db *db, const char *id, int disabled)
{
	return change(db, lc_sq_prep(db, LC_SQL_USER_SET_DISABLED, "is",
	    (int64_t)(disabled != 0), id));
}

int
lc_db_user_set_password(struct lc_db *db, const char *id, const char *hash)
{
	return change(db, lc_sq_prep(db, LC_SQL_USER_SET_PASSWORD, "ss", hash,
	    id));
}

/* Login attempts. */

int
lc_db_attempts(struct lc_db *db, const char *email, int64_t since,
    int64_t stale_before, struct lc_attempts *a)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_ATTEMPTS, "sii", email, since,
	    stale_before);
	int rc;

	if ((rc = row(db, st)) != 1)
		return -1;
	a->failures = sqlite3_column_int64(st, 0);
	a->pending = sqlite3_column_int64(st, 1);
	a->oldest = sqlite3_column_int64(st, 2);
	sqlite3_reset(st);
	return 0;
}

int
lc_db_attempt_add(struct lc_db *db, const char *email, int64_t at, int64_t *id)
{
	if (put(db, lc_sq_prep(db, LC_SQL_ATTEMPT_ADD, "si", email, at)) == -1)
		return -1;
	*id = sqlite3_last_insert_rowid(db->h);
	return 0;
}

int
lc_db_attempt_settle(struct lc_db *db, int64_t id, int failed, int64_t at)
{
	return failed ? change(db, lc_sq_prep(db, LC_SQL_ATTEMPT_FAIL, "ii", at,
	    id)) : change(db, lc_sq_prep(db, LC_SQL_ATTEMPT_FORGET, "i", id));
}

int
lc_db_attempts_clear(struct lc_db *db, const char *email)
{
	return put(db, lc_sq_prep(db, LC_SQL_ATTEMPTS_CLEAR, "s", email));
}

int
lc_db_attempts_prune(struct lc_db *db, int64_t before)
{
	return put(db, lc_sq_prep(db, LC_SQL_ATTEMPTS_PRUNE, "i", before));
}

/* Tokens. */

int
lc_db_token_get(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    struct lc_token *t)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_TOKEN_GET, "b", digest,
	    LC_DIGEST_LEN);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, t->kind);
	COL(st, 1, t->user_id);
	COL(st, 2, t->family);
	t->expires_at = sqlite3_column_int64(st, 3);
	t->rotated = sqlite3_column_int(st, 4);
	t->revoked = sqlite3_column_int(st, 5);
	COL(st, 6, t->merchant_id);
	t->is_owner = sqlite3_column_int(st, 7);
	COL(st, 8, t->location_id);
	sqlite3_reset(st);
	return 1;
}

int
lc_db_token_add(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    const char *kind, const char *user_id, const char *family,
    int64_t expires_at, int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_TOKEN_ADD, "bsssii", digest,
	    LC_DIGEST_LEN, kind, user_id, family, expires_at, at));
}

int
lc_db_token_rotate(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    int64_t at)
{
	return change(db, lc_sq_prep(db, LC_SQL_TOKEN_ROTATE, "ib", at, digest,
	    LC_DIGEST_LEN));
}

int
lc_db_tokens_revoke_family(struct lc_db *db, const char *family)
{
	return put(db, lc_sq_prep(db, LC_SQL_TOKENS_REVOKE_FAMILY, "s", family));
}

int
lc_db_tokens_revoke_user(struct lc_db *db, const char *user_id)
{
	return put(db, lc_sq_prep(db, LC_SQL_TOKENS_REVOKE_USER, "s", user_id));
}

int
lc_db_tokens_prune(struct lc_db *db, int64_t now)
{
	return put(db, lc_sq_prep(db, LC_SQL_TOKENS_PRUNE, "i", now));
}

/* Programs and cards. */

int
lc_db_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	int punch = strcmp(p->type, "punch") == 0, i;

	/* Only a punch program has a requirement and a reward. */
	if (put(db, lc_sq_prep(db, LC_SQL_PROGRAM_ADD, "ssssossiii", p->id,
	    p->merchant_id, p->type, p->title,
	    punch ? p->punch_requirement : (int64_t)-1,
	    punch ? p->reward_title : NULL,
	    punch ? p->reward_description : "", punch ? p->reward_amount : 0,
	    punch ? p->cooldown_seconds : 0, at)) == -1)
		return -1;
	for (i = 0; i < p->ntiers; i++)
		if (put(db, lc_sq_prep(db, LC_SQL_TIER_ADD, "ssii", p->id,
		    p->tiers[i].name, p->tiers[i].min_spend,
		    p->tiers[i].rate_bp)) == -1)
			return -1;
	return 0;
}

/* The LC_PROGRAM_COLS at column 0 of st. */
static void
program_row(sqlite3_stmt *st, struct lc_program *p)
{
	COL(st, 0, p->id);
	COL(st, 1, p->merchant_id);
	COL(st, 2, p->type);
	COL(st, 3, p->title);
	p->punch_requirement = sqlite3_column_int64(st, 4);
	p->reward_amount = sqlite3_column_int64(st, 5);
	p->cooldown_seconds = sqlite3_column_int64(st, 6);
	COL(st, 7, p->reward_title);
	COL(st, 8, p->reward_description);
	p->ntiers = 0;
}

int
lc_db_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_PROGRAM_GET, "s", id);
	int rc;

	if ((rc = row(db, st)) == 1) {
		program_row(st, p);
		sqlite3_reset(st);
	}
	return rc;
}

static int
tiers_get(struct lc_db *db, struct lc_program *p)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_TIERS_OF_PROGRAM, "s", p->id);
	struct lc_tier *t;
	int rc;

	p->ntiers = 0;
	if (st == NULL)
		return -1;
	while ((rc = lc_sq_step(db, st)) == SQLITE_ROW &&
	    p->ntiers < LC_TIERS_MAX) {
		t = &p->tiers[p->ntiers++];
		COL(st, 0, t->name);
		t->min_spend = sqlite3_column_int64(st, 1);
		t->rate_bp = sqlite3_column_int64(st, 2);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

int
lc_db_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	static const enum lc_sql which[] = { LC_SQL_CARD_BY_ID,
	    LC_SQL_CARD_BY_QR, LC_SQL_CARD_BY_BARCODE };
	sqlite3_stmt *st = lc_sq_prep(db, which[key], "ss", merchant_id, value);
	const int n = LC_PROGRAM_NCOLS;
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = row(db, st)) != 1)
		return rc;
	program_row(st, &c->program);
	COL(st, n, c->id);
	COL(st, n + 1, c->merchant_id);
	COL(st, n + 2, c->merchant_name);
	COL(st, n + 3, c->customer_name);
	COL(st, n + 4, c->barcode);
	COL(st, n + 5, c->qr);
	COL(st, n + 6, c->status);
	c->current_punches = sqlite3_column_int64(st, n + 7);
	c->pending_rewards = sqlite3_column_int64(st, n + 8);
	c->lifetime_punches = sqlite3_column_int64(st, n + 9);
	c->cashback_balance = sqlite3_column_int64(st, n + 10);
	c->lifetime_cashback = sqlite3_column_int64(st, n + 11);
	c->lifetime_spend = sqlite3_column_int64(st, n + 12);
	sqlite3_reset(st);
	if (strcmp(c->program.type, "punch") != 0 &&
	    tiers_get(db, &c->program) == -1)
		return -1;
	return 1;
}

int
lc_db_card_add(struct lc_db *db, const struct lc_card *c, int64_t at)
{
	return put_unique(db, lc_sq_prep(db, LC_SQL_CARD_ADD, "ssssssi", c->id,
	    c->merchant_id, c->program.id, c->customer_name, c->barcode, c->qr,
	    at));
}

int
lc_db_card_save(struct lc_db *db, const struct lc_card *c)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SAVE, "iiiiiis",
	    c->current_punches, c->pending_rewards, c->lifetime_punches,
	    c->cashback_balance, c->lifetime_cashback, c->lifetime_spend,
	    c->id)) == 1 && sqlite3_changes(db->h) == 1 ? 0 : -1;
}

int
lc_db_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SET_STATUS, "ss", status,
	    id));
}

/* Transactions, rewards, the ledger. */

int
lc_db_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	return put(db, lc_sq_prep(db, LC_SQL_TXN_ADD, "ssssssiooooosssssi",
	    t->id, t->merchant_id, t->card_id, t->location_id,
	    t->staff_user_id, t->type, t->purchase_amount, t->punches_added,
	    t->rate_bp, t->cashback_earned, t->discount_amount,
	    t->redeemed_amount, t->reward_id, t->notes, t->pos_ref,
	    t->pos_term, t->client_ts, t->created_at));
}

int
lc_db_punch_near(struct lc_db *db, const char *card_id, int64_t after,
    int64_t before, int64_t *at)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_PUNCH_NEAR, "sii", card_id,
	    after, before);
	int found;

	if (row(db, st) != 1)
		return -1;
	if ((found = sqlite3_column_type(st, 0) != SQLITE_NULL))
		*at = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return found;
}

int
lc_db_reward_add(struct lc_db *db, const struct lc_reward *r)
{
	return put(db, lc_sq_prep(db, LC_SQL_REWARD_ADD, "sssssii", r->id,
	    r->card_id, r->earned_txn_id, r->title, r->description, r->amount,
	    r->earned_at));
}

int
lc_db_reward_oldest(struct lc_db *db, const char *card_id, struct lc_reward *r)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_REWARD_OLDEST, "s", card_id);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, r->id);
	COL(st, 1, r->card_id);
	COL(st, 2, r->earned_txn_id);
	COL(st, 3, r->title);
	COL(st, 4, r->description);
	r->amount = sqlite3_column_int64(st, 5);
	r->earned_at = sqlite3_column_int64(st, 6);
	sqlite3_reset(st);
	return 1;
}

int
lc_db_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	return change(db, lc_sq_prep(db, LC_SQL_REWARD_CLAIM, "iss", at,
	    claim_txn_id, id));
}

int
lc_db_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_EARNING_ADD, "ssiii", txn_id,
	    card_id, amount, amount, at));
}

int
lc_db_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_EARNING_OLDEST, "s", card_id);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, e->txn_id);
	e->amount = sqlite3_column_int64(st, 1);
	e->remaining = sqlite3_column_int64(st, 2);
	e->earned_at = sqlite3_column_int64(st, 3);
	sqlite3_reset(st);
	return 1;
}

int
lc_db_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	return change(db, lc_sq_prep(db, LC_SQL_EARNING_USE, "isi", use, txn_id,
	    use));
}

int
lc_db_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	return put(db, lc_sq_prep(db, LC_SQL_ENTRY_ADD, "ssi", redeem_txn_id,
	    earning_txn_id, amount));
}

/* Idempotency keys. */

int
lc_db_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
    struct lc_idem *k)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_IDEM_GET, "ss", merchant_id,
	    key);
	const unsigned char *t;
	int rc;

	k->answer = NULL;
	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, k->kind);
	COL(st, 1, k->txn_id);
	t = sqlite3_column_text(st, 2);
	k->answer = strdup(t == NULL ? "" : (const char *)t);
	sqlite3_reset(st);
	return k->answer == NULL ? -1 : 1;
}

int
lc_db_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_IDEM_ADD, "sssssi", merchant_id,
	    key, kind, txn_id, answer, at));
}

/* History. */

int
lc_db_history_count(struct lc_db *db, const struct lc_hist_query *q,
    int64_t *total)
{
	sqlite3_stmt *st;

	if (q->from == INT64_MIN && q->to == INT64_MAX)
		/* No date range: the trigger-kept counts answer at once. */
		st = q->type != NULL ? lc_sq_prep(db, LC_SQL_HISTORY_TOTAL_TYPE,
		    "ss", q->card_id, q->type) : lc_sq_prep(db,
		    LC_SQL_HISTORY_TOTAL, "s", q->card_id);
	else
		st = q->type != NULL ? lc_sq_prep(db, LC_SQL_HISTORY_COUNT_TYPE,
		    "ssii", q->card_id, q->type, q->from, q->to) :
		    lc_sq_prep(db, LC_SQL_HISTORY_COUNT, "sii", q->card_id,
		    q->from, q->to);
	if (row(db, st) != 1)
		return -1;
	*total = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static const char *
text_or_null(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int64_t
int_or_none(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 :
	    sqlite3_column_int64(st, i);
}

int
lc_db_history_page(struct lc_db *db, const struct lc_hist_query *q,
    int (*each)(void *, const struct lc_hist_item *), void *arg)
{
	struct lc_hist_item it;
	sqlite3_stmt *st;
	int rc, stop = 0;

	st = q->type != NULL ? lc_sq_prep(db, LC_SQL_HISTORY_PAGE_TYPE, "ssiiii",
	    q->card_id, q->type, q->from, q->to, q->limit, q->offset) :
	    lc_sq_prep(db, LC_SQL_HISTORY_PAGE, "siiii", q->card_id, q->from,
	    q->to, q->limit, q->offset);
	if (st == NULL)
		return -1;
	while (stop == 0 && (rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		it.id = text_or_null(st, 0);
		it.type = text_or_null(st, 1);
		it.purchase_amount = sqlite3_column_int64(st, 2);
		it.punches_added = int_or_none(st, 3);
		it.created_at = sqlite3_column_int64(st, 4);
		it.location_name = text_or_null(st, 5);
		it.staff_name = text_or_null(st, 6);
		it.cashback_earned = int_or_none(st, 7);
		it.discount_amount = int_or_none(st, 8);
		it.redeemed_amount = int_or_none(st, 9);
		it.reward_name = text_or_null(st, 10);
		it.pos_ref = text_or_null(st, 11);
		it.pos_term = text_or_null(st, 12);
		it.notes = text_or_null(st, 13);
		it.client_ts = text_or_null(st, 14);
		stop = each(arg, &it);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}
