/*
 * Unit tests of the SQLite storage (lib/db.c, db_sqlite.c and the topic files db_people.c, db_cards.c, db_lists.c) and the settings
 * (lib/settings.c) on databases in a temporary folder, plus password
 * hashing (lib/rule_auth.c).
 * One behaviour per test point, named after the case.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <unistd.h>

#include <libscrypt.h>

#include "lc_http.h"
#include "lc_backend.h"
#include "lc_sqlite.h"
#include "tap.h"

/* Sets a setting as the admin tool does, in a write; *err says why not. */
static int
setting_set(struct lc_db *db, const char *key, const char *value,
    const char **err)
{
	static struct lc_dom dom;

	memset(&dom, 0, sizeof(dom));
	dom.db = db;
	if (lc_db_begin(db, 1) == -1)
		return -1;
	if (lc_setting_set(&dom, key, value) == -1) {
		lc_db_rollback(db);
		*err = dom.err.msg;
		return -1;
	}
	return lc_db_commit(db);
}

static char tmpdir[] = "/tmp/lcard-unit-db.XXXXXX";

static void
path_of(char *out, size_t outsz, const char *name)
{
	snprintf(out, outsz, "%s/%s", tmpdir, name);
}

static int
exists(const char *path)
{
	return access(path, F_OK) == 0;
}

static void
cleanup(void)
{
	DIR *d;
	struct dirent *e;
	char p[512];

	if ((d = opendir(tmpdir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		path_of(p, sizeof(p), e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* First column of the first row of sql as text into out ("" for none). */
static const char *
q1(sqlite3 *h, const char *sql, char *out, size_t outsz)
{
	sqlite3_stmt *st = NULL;

	out[0] = '\0';
	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) != NULL)
		snprintf(out, outsz, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return out;
}

static long long
q1i(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st = NULL;
	long long v = -999;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int
latest(void)
{
	int i, v = 0;

	for (i = 0; lc_migrations[i].sql != NULL; i++)
		v = lc_migrations[i].version;
	return v;
}

static int
nmigrations(void)
{
	int i;

	for (i = 0; lc_migrations[i].sql != NULL; i++)
		;
	return i;
}

static struct lc_db *
open_or_bail(const char *path, int create)
{
	const char *err = NULL;
	struct lc_db *db = lc_db_open(path, create, &err);

	if (db == NULL)
		bail("lc_db_open %s: %s", path, err ? err : "?");
	return db;
}

/* Makes a plain SQLite file holding sql, without the library. */
static void
raw_db(const char *path, const char *sql)
{
	sqlite3 *h = NULL;

	if (sqlite3_open(path, &h) != SQLITE_OK ||
	    sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		bail("raw_db %s: %s", path, h ? sqlite3_errmsg(h) : "?");
	sqlite3_close(h);
}

static void
integrity_ok(struct lc_db *db, const char *when)
{
	char buf[256];

	is_string(q1(lc_sq_handle(db), "PRAGMA integrity_check", buf,
	    sizeof(buf)), "ok", "db: integrity_check is ok %s", when);
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM pragma_foreign_key_check"),
	    0, "db: foreign_key_check finds nothing %s", when);
}

/* ---- open, create, migrate ---- */

static void
test_open(void)
{
	char path[512], buf[64];
	const char *err = NULL;
	struct lc_db *db;

	path_of(path, sizeof(path), "missing.db");
	db = lc_db_open(path, 0, &err);
	ok(db == NULL, "open: a missing file without create fails");
	ok(err != NULL && *err != '\0', "open: the failure says why");
	ok(!exists(path), "open: a missing file without create is not created");
	lc_db_close(db);

	path_of(path, sizeof(path), "main.db");
	err = "unset";
	db = lc_db_open(path, 1, &err);
	ok(db != NULL, "open: create makes a new database");
	ok(err == NULL, "open: success leaves errmsg NULL");
	ok(exists(path), "open: the new file exists");
	if (db == NULL)
		bail("cannot go on without a database");
	is_int(lc_db_version(db), latest(),
	    "open: a new database is at the latest version");
	is_int(latest() >= 1, 1, "open: there is at least one migration");
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM schema_migrations"),
	    nmigrations(), "open: schema_migrations has one row per migration");
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM schema_migrations "
	    "WHERE version = 1 AND name <> '' AND applied_at > 0"), 1,
	    "open: schema_migrations records version 1 with name and time");
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM sqlite_master "
	    "WHERE type = 'table' AND name IN ('settings', 'merchants', "
	    "'locations', 'users', 'programs', 'cards', 'transactions', "
	    "'tokens', 'login_attempts')"), 9,
	    "open: the first migration made its tables");
	is_string(q1(lc_sq_handle(db), "PRAGMA journal_mode", buf, sizeof(buf)),
	    "wal", "open: journal_mode is wal");
	is_int(q1i(lc_sq_handle(db), "PRAGMA foreign_keys"), 1,
	    "open: foreign_keys is on");
	is_int(q1i(lc_sq_handle(db), "PRAGMA synchronous"), 2,
	    "open: synchronous is 2 (FULL)");
	is_int(q1i(lc_sq_handle(db), "PRAGMA cache_size"), -256,
	    "open: the page cache is 256 KiB");
	/* SQLite builds a temporary b-tree for an IN list of more than two
	 * constants each time a trigger runs it (migration 013). */
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM (SELECT "
	    "replace(replace(replace(sql, char(10), ' '), char(9), ' '), "
	    "'(', ' (') AS s FROM sqlite_master WHERE type = 'trigger') "
	    "WHERE s LIKE '% IN  (%' OR s LIKE '% IN (%'"), 0,
	    "open: no trigger tests a list with IN (...)");
	integrity_ok(db, "after create");
	lc_db_close(db);

	db = lc_db_open(path, 0, &err);
	ok(db != NULL, "open: an existing database opens without create");
	if (db == NULL)
		bail("reopen: %s", err);
	is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM schema_migrations"),
	    nmigrations(), "open: reopening applies no migration twice");
	is_int(lc_db_version(db), latest(), "open: reopened at the latest version");
	is_int(q1i(lc_sq_handle(db), "PRAGMA foreign_keys"), 1,
	    "open: foreign_keys is on for a reopened database too");
	is_int(q1i(lc_sq_handle(db), "PRAGMA synchronous"), 2,
	    "open: synchronous is FULL for a reopened database too");
	lc_db_close(db);

	db = lc_db_open(path, 1, &err);
	ok(db != NULL && q1i(lc_sq_handle(db),
	    "SELECT count(*) FROM schema_migrations") == nmigrations(),
	    "open: create on an existing database keeps it as it is");
	lc_db_close(db);
}

static void
test_upgrade(void)
{
	char path[512];
	const char *err = NULL;
	struct lc_db *db;
	FILE *f;

	/* A SQLite file with data but no schema_migrations table. */
	path_of(path, sizeof(path), "old-none.db");
	raw_db(path, "CREATE TABLE keep(x); INSERT INTO keep VALUES (42);");
	db = lc_db_open(path, 0, &err);
	ok(db != NULL, "upgrade: a database without schema_migrations opens");
	if (db != NULL) {
		is_int(lc_db_version(db), latest(),
		    "upgrade: a database without schema_migrations is migrated");
		is_int(q1i(lc_sq_handle(db), "SELECT count(*) FROM merchants"), 0,
		    "upgrade: its new tables exist");
		is_int(q1i(lc_sq_handle(db), "SELECT x FROM keep"), 42,
		    "upgrade: its existing data is kept");
		integrity_ok(db, "after an upgrade");
		lc_db_close(db);
	}

	/* schema_migrations present but empty: version 0. */
	path_of(path, sizeof(path), "old-empty.db");
	raw_db(path, "CREATE TABLE schema_migrations (version INTEGER PRIMARY "
	    "KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL);");
	db = lc_db_open(path, 0, &err);
	ok(db != NULL, "upgrade: a database at version 0 opens");
	if (db != NULL) {
		is_int(lc_db_version(db), latest(),
		    "upgrade: a database at version 0 is migrated");
		is_int(q1i(lc_sq_handle(db),
		    "SELECT count(*) FROM schema_migrations"), nmigrations(),
		    "upgrade: version 0 gets one row per migration");
		lc_db_close(db);
	}

	/* A zero-length file is an empty SQLite database. */
	path_of(path, sizeof(path), "zero.db");
	if ((f = fopen(path, "w")) == NULL)
		bail("cannot create %s", path);
	fclose(f);
	db = lc_db_open(path, 0, &err);
	ok(db != NULL && lc_db_version(db) == latest(),
	    "upgrade: a zero-length file is migrated in place");
	lc_db_close(db);

	/* Not a database at all. */
	path_of(path, sizeof(path), "garbage.db");
	if ((f = fopen(path, "w")) == NULL)
		bail("cannot create %s", path);
	fputs("this is not a SQLite database, not even close to one.........."
	    "................................................................",
	    f);
	fclose(f);
	err = NULL;
	db = lc_db_open(path, 1, &err);
	ok(db == NULL && err != NULL, "open: a file that is not a database fails");
	lc_db_close(db);
}

/* ---- statements ---- */

/* The tests' own statements, run by storage's one runner (lc_st_run) as
 * the topic files run theirs, in the slots kept for tests. */
#define TSQL(X) \
	X(SETTING_GET, "SELECT value FROM settings WHERE key = ?") \
	X(SETTING_SET, "INSERT INTO settings(key, value) VALUES (?, ?) " \
	    "ON CONFLICT(key) DO UPDATE SET value = excluded.value") \
	X(SETTING_ALL, "SELECT key, value FROM settings ORDER BY key") \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, addr, shared, at, " \
	    "pending) VALUES (?, ?, ?, ?, 1)") \
	X(ATTEMPTS, "SELECT count(*), 0, max(at) FROM login_attempts " \
	    "WHERE email = ?1 AND at > ?2 AND at <= ?3 AND " \
	    "CASE WHEN ?4 IS NULL THEN shared = 1 ELSE addr = ?4 END") \
	X(MERCHANT_ADD, "INSERT INTO merchants(id, name, created_at) " \
	    "VALUES (?, ?, ?)") \
	X(USER_ADD, "INSERT INTO users(id, merchant_id, email, display_name, " \
	    "user_type, location_id, password_hash, created_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)") \
	X(TOKEN_ADD, "INSERT INTO tokens(digest, kind, user_id, family, " \
	    "expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
	X(TOKEN_GET, "SELECT kind, user_id, family, expires_at FROM tokens " \
	    "WHERE digest = ?")
#define T_ENUM(name, sql) T_##name,
#define T_TEXT(name, sql) sql,
enum { T__FIRST = LC_Q_TESTS - 1, TSQL(T_ENUM) T__END };
_Static_assert((int)T__END <= (int)LC_Q__MAX, "unit_db.c: too many statements");
static const char *const t_sql[] = { TSQL(T_TEXT) };
#define TRUN(r, db, q, ...) lc_st_run((r), (db), (q), t_sql[(q) - LC_Q_TESTS], \
	NULL, __VA_ARGS__)

static const unsigned char digest[32] = { 0x00, 0x01, 0xff, 0x00, 0x7f, 0x80,
	'a', 'b', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0x42 };

static void
test_prep(struct lc_db *db)
{
	sqlite3 *h = lc_sq_handle(db);
	struct lc_row r1, r2, *st, *st2;
	unsigned char other[32];
	char buf[128];

	st = TRUN(&r1, db, T_SETTING_GET, "s", "x");
	st2 = TRUN(&r2, db, T_SETTING_GET, "s", "y");
	ok(st != NULL && st2 != NULL && st->st == st2->st,
	    "prep: the same statement object is reused between calls");
	st2 = TRUN(&r2, db, T_SETTING_ALL, "");
	ok(st2 != NULL && st2->st != st->st,
	    "prep: another statement is another object");
	lc_st_done(st);
	lc_st_done(st2);

	/* 's' binds text. */
	st = TRUN(&r1, db, T_SETTING_SET, "ss", "unit_key", "h\xc3\xa9llo");
	is_int(st != NULL ? lc_st_put(st) : -1, 0, "prep: 'ss' insert runs");
	is_string(q1(h, "SELECT value FROM settings WHERE key = 'unit_key'", buf,
	    sizeof(buf)), "h\xc3\xa9llo", "prep: 's' binds text as given");
	is_string(q1(h, "SELECT typeof(value) FROM settings WHERE key = 'unit_key'",
	    buf, sizeof(buf)), "text", "prep: 's' binds a text value");
	st = TRUN(&r1, db, T_SETTING_GET, "s", "unit_key");
	ok(st != NULL && lc_st_next(st) == 1,
	    "prep: a statement bound with 's' finds its row");
	if (st != NULL) {
		lc_st_col(st, 0, buf, sizeof(buf));
		is_string(buf, "h\xc3\xa9llo", "col: copies a text column");
		lc_st_col(st, 0, buf, 3);
		is_string(buf, "h\xc3", "col: truncates to the out buffer");
	}
	if (st != NULL)
		lc_st_done(st);

	/* Bindings do not survive into the next call. */
	st = TRUN(&r1, db, T_SETTING_GET, "");
	ok(st != NULL && lc_st_next(st) == 0,
	    "prep: earlier bindings are cleared (unbound is NULL)");
	if (st != NULL)
		lc_st_done(st);

	/* A statement left mid-way is reset by the next prep. */
	st = TRUN(&r1, db, T_SETTING_SET, "ss", "unit_key2", "v");
	lc_st_put(st);
	st = TRUN(&r1, db, T_SETTING_ALL, "");
	lc_st_next(st);
	lc_st_col(st, 0, buf, sizeof(buf));
	st = TRUN(&r1, db, T_SETTING_ALL, "");
	ok(st != NULL && lc_st_next(st) == 1 &&
	    strcmp(lc_st_text(st, 0), buf) == 0,
	    "prep: a statement left mid-way starts again from its first row");
	if (st != NULL)
		lc_st_done(st);

	/* 'i' binds a 64-bit integer. */
	st = TRUN(&r1, db, T_ATTEMPT_ADD, "ssii", "a@example.com",
	    "192.0.2.1", (int64_t)1, (int64_t)1234567890123LL);
	is_int(st != NULL ? lc_st_put(st) : -1, 0, "prep: 'ssii' insert runs");
	is_int(q1i(h, "SELECT at FROM login_attempts WHERE email = 'a@example.com'"),
	    1234567890123LL, "prep: 'i' binds a 64-bit integer exactly");
	is_string(q1(h, "SELECT typeof(at) FROM login_attempts", buf, sizeof(buf)),
	    "integer", "prep: 'i' binds an integer value");
	st = TRUN(&r1, db, T_ATTEMPTS, "siis", "a@example.com",
	    (int64_t)0, INT64_MAX, NULL);
	ok(st != NULL && lc_st_next(st) == 1 &&
	    lc_st_int(st, 0) == 1 &&
	    lc_st_int(st, 2) == 1234567890123LL,
	    "prep: a statement bound with 'si' reads the row back");
	if (st != NULL)
		lc_st_done(st);

	/* 's' NULL and 'N' bind NULL; 'b' binds a blob. */
	st = TRUN(&r1, db, T_MERCHANT_ADD, "ssi", "m1", "Merchant",
	    (int64_t)1);
	is_int(st ? lc_st_put(st) : -1, 0, "prep: a merchant is added");
	ok(TRUN(&r1, db, T_SETTING_GET, "ss", "a", "b") == NULL,
	    "prep: a format with more letters than parameters fails");
	st = TRUN(&r1, db, T_USER_ADD, "sssssNsi", "u1", "m1",
	    "owner@example.com", (const char *)NULL, "owner", "hash", (int64_t)2);
	is_int(st ? lc_st_put(st) : -1, 0, "prep: 'sssssNsi' insert runs");
	is_string(q1(h, "SELECT typeof(display_name) FROM users WHERE id = 'u1'",
	    buf, sizeof(buf)), "null", "prep: 's' with NULL binds NULL");
	is_string(q1(h, "SELECT typeof(location_id) FROM users WHERE id = 'u1'",
	    buf, sizeof(buf)), "null", "prep: 'N' binds NULL");
	is_int(q1i(h, "SELECT created_at FROM users WHERE id = 'u1'"), 2,
	    "prep: 'i' after 'N' takes the next argument");

	st = TRUN(&r1, db, T_TOKEN_ADD, "bsssii", digest, (int)sizeof(digest),
	    "access", "u1", "fam", (int64_t)99, (int64_t)3);
	is_int(st ? lc_st_put(st) : -1, 0, "prep: 'bsssii' insert runs");
	is_string(q1(h, "SELECT typeof(digest) || ' ' || length(digest) FROM tokens",
	    buf, sizeof(buf)), "blob 32", "prep: 'b' binds a blob of its length");
	st = TRUN(&r1, db, T_TOKEN_GET, "b", digest, (int)sizeof(digest));
	ok(st != NULL && lc_st_next(st) == 1 &&
	    strcmp(lc_st_text(st, 0), "access") == 0 &&
	    strcmp(lc_st_text(st, 1), "u1") == 0 &&
	    lc_st_int(st, 3) == 99,
	    "prep: a blob with NUL bytes finds its row");
	if (st != NULL)
		lc_st_done(st);
	memcpy(other, digest, sizeof(other));
	other[31] ^= 1;
	st = TRUN(&r1, db, T_TOKEN_GET, "b", other, (int)sizeof(other));
	ok(st != NULL && lc_st_next(st) == 0,
	    "prep: a blob differing in its last byte finds nothing");
	if (st != NULL)
		lc_st_done(st);

	ok(TRUN(&r1, db, T_SETTING_GET, "x", "k") == NULL,
	    "prep: an unknown format letter fails");
	integrity_ok(db, "after statement tests");
}

/* ---- transactions ---- */

static void
test_tx(struct lc_db *db, const char *path)
{
	sqlite3 *h = lc_sq_handle(db);
	sqlite3_stmt *st;
	struct lc_row r;
	struct lc_db *db2;
	const char *err;
	struct timespec t0, t1;
	double secs;
	int rc;

	is_int(lc_db_begin(db, 1), 0, "tx: begin works");
	ok(!sqlite3_get_autocommit(h), "tx: begin opens a transaction");
	lc_db_merchant_add(db, "m-rollback", "R", 1);
	is_int(q1i(h, "SELECT count(*) FROM merchants WHERE id = 'm-rollback'"), 1,
	    "tx: an insert is visible inside its transaction");
	lc_db_rollback(db);
	ok(sqlite3_get_autocommit(h), "tx: rollback ends the transaction");
	is_int(q1i(h, "SELECT count(*) FROM merchants WHERE id = 'm-rollback'"), 0,
	    "tx: rollback undoes an insert");

	is_int(lc_db_begin(db, 1), 0, "tx: begin works again");
	lc_db_merchant_add(db, "m-commit", "C", 1);
	is_int(lc_db_commit(db), 0, "tx: commit works");
	ok(sqlite3_get_autocommit(h), "tx: commit ends the transaction");
	is_int(q1i(h, "SELECT count(*) FROM merchants WHERE id = 'm-commit'"), 1,
	    "tx: commit keeps an insert");

	lc_db_rollback(db);
	ok(sqlite3_get_autocommit(h), "tx: rollback outside a transaction is harmless");

	/* A COMMIT that fails (here a deferred foreign key) rolls back and
	 * gives the write turn back. */
	is_int(lc_db_begin(db, 1), 0, "tx: begin for a commit that fails");
	ok(sqlite3_exec(h, "PRAGMA defer_foreign_keys = ON", NULL, NULL,
	    NULL) == SQLITE_OK, "tx: foreign keys checked at commit");
	ok(sqlite3_exec(h, "INSERT INTO locations(id, merchant_id, name, "
	    "created_at) VALUES ('l-orphan', 'no-such-merchant', 'X', 1)",
	    NULL, NULL, NULL) == SQLITE_OK,
	    "tx: a row whose merchant does not exist goes in until commit");
	is_int(lc_db_commit(db), -1, "tx: its commit fails");
	ok(sqlite3_get_autocommit(h), "tx: the failed commit rolled back");
	is_int(q1i(h, "SELECT count(*) FROM locations WHERE id = 'l-orphan'"),
	    0, "tx: nothing of it stays");
	is_int(lc_db_begin(db, 1), 0,
	    "tx: the next write takes the turn at once");
	lc_db_rollback(db);

	/* The end of a request leaves no statement running: a running one
	 * would hold its read snapshot, and the log could not restart. */
	is_int(lc_db_begin(db, 0), 0, "tx: a read begins");
	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 3600, "tx: it reads");
	ok(TRUN(&r, db, T_SETTING_ALL, "") != NULL && lc_st_next(&r) == 1,
	    "tx: a statement is left mid-way");
	lc_db_idle(db);
	rc = 0;
	for (st = sqlite3_next_stmt(h, NULL); st != NULL;
	    st = sqlite3_next_stmt(h, st))
		rc += sqlite3_stmt_busy(st);
	is_int(rc, 0, "tx: after lc_db_idle no statement is running");
	ok(sqlite3_get_autocommit(h), "tx: and no transaction is open");

	/* Two connections. */
	err = NULL;
	db2 = lc_db_open(path, 0, &err);
	ok(db2 != NULL, "tx: a second connection opens");
	if (db2 == NULL)
		return;
	sqlite3_busy_timeout(lc_sq_handle(db2), 100);
	is_int(lc_db_begin(db, 1), 0, "tx: the first connection takes the write lock");
	lc_db_merchant_add(db, "m-two", "T", 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = lc_db_begin(db2, 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	is_int(rc, -1, "tx: a second BEGIN IMMEDIATE fails while the first holds it");
	/* It waits in the queue of writers (db_queue.c), which two
	 * connections of one process use as two processes do. */
	ok(secs >= LC_BUSY_TIMEOUT_MS / 1000.0 - 0.01 &&
	    secs < LC_BUSY_TIMEOUT_MS / 1000.0 + 1.0,
	    "tx: the second waits its turn for the busy timeout, no longer "
	    "(%.3f s)", secs);
	ok(sqlite3_get_autocommit(lc_sq_handle(db2)),
	    "tx: the failed begin leaves no transaction open");
	is_int(q1i(lc_sq_handle(db2), "SELECT count(*) FROM merchants "
	    "WHERE id = 'm-two'"), 0,
	    "tx: the second connection reads, without the uncommitted row (WAL)");
	is_int(lc_setting(db2, LC_SET_ACCESS_TTL), 3600,
	    "tx: settings read on the second connection during the write");
	is_int(lc_db_commit(db), 0, "tx: the first connection commits");
	is_int(lc_db_begin(db2, 1), 0, "tx: the second begins after the first commits");
	is_int(q1i(lc_sq_handle(db2), "SELECT count(*) FROM merchants "
	    "WHERE id = 'm-two'"), 1, "tx: the second sees the committed row");
	lc_db_rollback(db2);
	lc_db_close(db2);
}

/* ---- the log's writes held until the commit's last (db_walbuf.c) ---- */

/* Copies a file as a power cut leaves it to the recovery: what the
 * kernel holds of it, synced or not. */
static int
copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in, *out;
	size_t n;
	int rc = 0;

	if ((in = fopen(from, "rb")) == NULL)
		return errno == ENOENT ? 0 : -1;
	if ((out = fopen(to, "wb")) == NULL) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (ferror(in))
		rc = -1;
	fclose(in);
	if (fclose(out) != 0)
		rc = -1;
	return rc;
}

/* Rows of wb another process would find, from its own connection
 * through SQLite's own VFS; with crash, from a copy of the database and
 * its log made now, as recovery after a crash would find them. Every row
 * must hold the value its key gives it. */
static long long
wb_rows(const char *path, int crash)
{
	char copy[512], from[600], to[600];
	sqlite3 *h = NULL;
	long long n = -1;

	snprintf(copy, sizeof(copy), "%s", path);
	if (crash) {
		path_of(copy, sizeof(copy), "crash.db");
		snprintf(to, sizeof(to), "%s-wal", copy);
		(void)unlink(to);
		snprintf(to, sizeof(to), "%s-shm", copy);
		(void)unlink(to);
		snprintf(from, sizeof(from), "%s-wal", path);
		snprintf(to, sizeof(to), "%s-wal", copy);
		if (copy_file(path, copy) == -1 || copy_file(from, to) == -1)
			return -2;
	}
	if (sqlite3_open_v2(copy, &h, SQLITE_OPEN_READWRITE, NULL) ==
	    SQLITE_OK && q1i(h, "SELECT count(*) FROM wb WHERE v <> "
	    "CAST(printf('%03000d', k) AS BLOB)") == 0)
		n = q1i(h, "SELECT count(*) FROM wb");
	sqlite3_close(h);
	return n;
}

/* SIGXFSZ: the write past the file size limit fails, and the limit is
 * lifted for the ones after, as a disk full for one write. */
static struct rlimit xfsz_was;

static void
xfsz_lift(int sig)
{
	(void)sig;
	(void)setrlimit(RLIMIT_FSIZE, &xfsz_was);
}

/* Checkpoints the whole log and empties it, from a connection of its
 * own: the next frames go at its start. */
static void
log_empty(const char *path)
{
	sqlite3 *h = NULL;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK || sqlite3_wal_checkpoint_v2(h, "main",
	    SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) != SQLITE_OK)
		bail("walbuf: cannot empty the log: %s", sqlite3_errmsg(h));
	sqlite3_close(h);
}

static int
wb_exec(struct lc_db *db, const char *sql)
{
	return sqlite3_exec(lc_sq_handle(db), sql, NULL, NULL, NULL) ==
	    SQLITE_OK ? 0 : -1;
}

/* A write transaction of sql whose commit runs with the file size limit
 * at small (was after): the commit's result, or -1. */
static int
wb_commit_limited(struct lc_db *db, const char *sql,
    const struct rlimit *small, const struct rlimit *was)
{
	int rc;

	rc = lc_db_begin(db, 1) == 0 && wb_exec(db, sql) == 0 ? 0 : -1;
	if (rc == 0 && setrlimit(RLIMIT_FSIZE, small) == -1)
		bail("setrlimit: %s", strerror(errno));
	if (rc == 0)
		rc = lc_db_commit(db);
	if (setrlimit(RLIMIT_FSIZE, was) == -1)
		bail("setrlimit: %s", strerror(errno));
	return rc;
}

static void
test_walbuf(void)
{
	char path[512], wal[600];
	struct lc_db *db;
	sqlite3 *h = NULL;
	sqlite3_vfs *vfs = NULL;
	struct rlimit was, small;
	struct sigaction sa;
	char sql[256];
	int rc, i, bad;

	path_of(path, sizeof(path), "walbuf.db");
	snprintf(wal, sizeof(wal), "%s-wal", path);
	db = open_or_bail(path, 1);
	ok(sqlite3_file_control(lc_sq_handle(db), "main",
	    SQLITE_FCNTL_VFS_POINTER, &vfs) == SQLITE_OK && vfs != NULL &&
	    strcmp(vfs->zName, "lc-walbuf") == 0,
	    "walbuf: the service's connections use it (%s)",
	    vfs != NULL ? vfs->zName : "none");
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "CREATE TABLE wb(k INTEGER "
	    "PRIMARY KEY, v BLOB)") == 0 && lc_db_commit(db) == 0,
	    "walbuf: a table is made");

	/* 1.2 MB in a 256 KiB page cache: SQLite spills pages into the log
	 * before the commit, then writes some of them again in place and
	 * recomputes the frames' checksums at the commit. */
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "WITH RECURSIVE n(k) AS "
	    "(SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 400) "
	    "INSERT INTO wb SELECT k, zeroblob(3000) FROM n") == 0 &&
	    wb_exec(db, "UPDATE wb SET v = CAST(printf('%03000d', k) AS "
	    "BLOB)") == 0 && lc_db_commit(db) == 0,
	    "walbuf: a transaction larger than the page cache commits");
	is_int(wb_rows(path, 0), 400,
	    "walbuf: another connection reads all of it, exactly");
	is_int(wb_rows(path, 1), 400,
	    "walbuf: a crash just after the commit keeps all of it "
	    "(nothing was held back)");

	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "WITH RECURSIVE n(k) AS "
	    "(SELECT 401 UNION ALL SELECT k + 1 FROM n WHERE k < 800) "
	    "INSERT INTO wb SELECT k, CAST(printf('%03000d', k) AS BLOB) "
	    "FROM n") == 0, "walbuf: a second large write spills");
	lc_db_rollback(db);
	is_int(wb_rows(path, 0), 400, "walbuf: its rollback leaves nothing");
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "INSERT INTO wb VALUES "
	    "(401, CAST(printf('%03000d', 401) AS BLOB))") == 0 &&
	    lc_db_commit(db) == 0, "walbuf: the next write commits");
	is_int(wb_rows(path, 0), 401, "walbuf: it is read by another");
	is_int(wb_rows(path, 1), 401, "walbuf: and kept by a crash after");

	/* A rolled-back transaction that spilled frames into the log, then
	 * another writer committing at the same place in the log (emptied
	 * first): what the first held is never written over the commit.
	 * Spills of several sizes, so that some end with frames held. */
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		bail("walbuf: %s", sqlite3_errmsg(h));
	for (i = 0, bad = 0; i < 8; i++) {
		snprintf(sql, sizeof(sql), "WITH RECURSIVE n(k) AS (SELECT 2001 "
		    "UNION ALL SELECT k + 1 FROM n WHERE k < %d) INSERT INTO wb "
		    "SELECT k, zeroblob(3000) FROM n", 2150 + 7 * i);
		if (sqlite3_wal_checkpoint_v2(h, "main",
		    SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL) != SQLITE_OK ||
		    lc_db_begin(db, 1) != 0 || wb_exec(db, sql) != 0) {
			bad++;
			lc_db_rollback(db);
			continue;
		}
		lc_db_rollback(db);
		if (sqlite3_exec(h, "WITH RECURSIVE n(k) AS (SELECT 3001 "
		    "UNION ALL SELECT k + 1 FROM n WHERE k < 3300) INSERT INTO "
		    "wb SELECT k, CAST(printf('%03000d', k) AS BLOB) FROM n",
		    NULL, NULL, NULL) != SQLITE_OK ||
		    q1i(lc_sq_handle(db), "SELECT count(*) FROM wb") != 701 ||
		    wb_rows(path, 0) != 701 ||
		    sqlite3_exec(h, "DELETE FROM wb WHERE k > 3000", NULL, NULL,
		    NULL) != SQLITE_OK)
			bad++;
	}
	is_int(bad, 0, "walbuf: 8 rolled-back spills, each followed by "
	    "another's commit at the same place in the log: every row reads "
	    "as it was written");
	is_int(q1i(h, "SELECT count(*) FROM pragma_integrity_check "
	    "WHERE integrity_check <> 'ok'"), 0,
	    "walbuf: the database is intact after");
	sqlite3_close(h);
	h = NULL;

	/* A transaction's held frames that cannot be written when it reads
	 * them back: the whole transaction is rolled back (SQLite would
	 * roll back only the statement on a full disk, and commit the rest
	 * without them). */
	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &was) == -1)
		bail("getrlimit: %s", strerror(errno));
	xfsz_was = was;
	small = was;
	small.rlim_cur = 8192;
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "WITH RECURSIVE n(k) AS "
	    "(SELECT 4001 UNION ALL SELECT k + 1 FROM n WHERE k < 4400) "
	    "INSERT INTO wb SELECT k, CAST(printf('%03000d', k) AS BLOB) "
	    "FROM n") == 0, "walbuf: a write spills");
	if (setrlimit(RLIMIT_FSIZE, &small) == -1)
		bail("setrlimit: %s", strerror(errno));
	rc = wb_exec(db, "SELECT sum(length(v)) FROM wb");
	if (setrlimit(RLIMIT_FSIZE, &was) == -1)
		bail("setrlimit: %s", strerror(errno));
	is_int(rc, -1, "walbuf: its read fails when its frames cannot be "
	    "written");
	ok(sqlite3_get_autocommit(lc_sq_handle(db)) ||
	    lc_db_commit(db) == -1,
	    "walbuf: the transaction is over, or cannot commit");
	lc_db_rollback(db);
	is_int(wb_rows(path, 0), 401, "walbuf: nothing of it is kept");

	/* A commit whose held frames cannot be written fails as a write
	 * of SQLite's own would: the log is emptied first, then the
	 * process may write 8 KiB of any file (its header goes in,
	 * the frames held for the commit do not). Nothing is printed
	 * meanwhile. */
	log_empty(path);
	rc = wb_commit_limited(db, "INSERT INTO wb SELECT k + 1000, v FROM wb "
	    "WHERE k <= 5", &small, &was);
	is_int(rc, -1, "walbuf: a commit whose frames cannot be written fails");
	ok(sqlite3_get_autocommit(lc_sq_handle(db)),
	    "walbuf: and rolls back");
	is_int(wb_rows(path, 0), 401, "walbuf: nothing of it is read");
	is_int(wb_rows(path, 1), 401, "walbuf: nor kept by a crash");
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "INSERT INTO wb VALUES "
	    "(402, CAST(printf('%03000d', 402) AS BLOB))") == 0 &&
	    lc_db_commit(db) == 0, "walbuf: the next commit works");
	is_int(wb_rows(path, 1), 402,
	    "walbuf: and a crash after it keeps all that was committed");
	/* Straight through SQLite, with no sync of the log after (the
	 * connection writes at synchronous = NORMAL): the moment COMMIT
	 * returns, others may read its frames, so they are in the file. */
	ok(wb_exec(db, "INSERT INTO wb VALUES (403, CAST(printf('%03000d', "
	    "403) AS BLOB))") == 0, "walbuf: a commit of SQLite's alone");
	is_int(wb_rows(path, 0), 403, "walbuf: is read by another at once");
	is_int(wb_rows(path, 1), 403, "walbuf: and kept by a crash at once");

	/* A commit whose write fails once (a disk full for one write: the
	 * limit is lifted as the write fails): refused, and never written
	 * later, by the rollback's reads or anything after, where a crash's
	 * recovery would bring the refused purchase back. */
	log_empty(path);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = xfsz_lift;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGXFSZ, &sa, NULL) == -1)
		bail("SIGXFSZ: %s", strerror(errno));
	rc = wb_commit_limited(db, "WITH RECURSIVE n(k) AS (SELECT 5001 "
	    "UNION ALL SELECT k + 1 FROM n WHERE k < 5005) INSERT INTO wb "
	    "SELECT k, CAST(printf('%03000d', k) AS BLOB) FROM n", &small, &was);
	signal(SIGXFSZ, SIG_IGN);
	is_int(rc, -1, "walbuf: a commit whose write fails once is refused");
	is_int(wb_rows(path, 0), 403, "walbuf: nothing of it is read");
	is_int(wb_rows(path, 1), 403,
	    "walbuf: nor brought back by a crash's recovery");
	ok(lc_db_begin(db, 1) == 0 && wb_exec(db, "INSERT INTO wb VALUES "
	    "(404, CAST(printf('%03000d', 404) AS BLOB))") == 0 &&
	    lc_db_commit(db) == 0, "walbuf: the next commit works");
	is_int(wb_rows(path, 1), 404,
	    "walbuf: and a crash after it keeps exactly what was committed");
	lc_db_close(db);
}

/* ---- settings ---- */

static void
test_settings(struct lc_db *db)
{
	sqlite3 *h = lc_sq_handle(db);
	const char *err;
	static const struct {
		const char *key, *val, *why;
	} bad[] = {
		{ "access_token_ttl", "59", "below the minimum" },
		{ "access_token_ttl", "86401", "above the maximum" },
		{ "access_token_ttl", "0", "zero" },
		{ "access_token_ttl", "-3600", "a negative number" },
		{ "access_token_ttl", "", "an empty value" },
		{ "access_token_ttl", "abc", "letters" },
		{ "access_token_ttl", "3600s", "trailing letters" },
		{ "access_token_ttl", "1e3", "an exponent" },
		{ "access_token_ttl", "3600.5", "a fraction" },
		{ "access_token_ttl", "99999999999999999999", "an int64 overflow" },
		{ "refresh_token_ttl", "3599", "refresh below the minimum" },
		{ "refresh_token_ttl", "31536001", "refresh above the maximum" },
		{ "login_max_failures", "0", "max failures 0" },
		{ "login_max_failures", "1001", "max failures 1001" },
		{ "login_window_seconds", "0", "window 0" },
		{ "login_window_seconds", "86401", "window above a day" },
	};
	size_t i;

	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 3600,
	    "settings: access_token_ttl defaults to 3600");
	is_int(lc_setting(db, LC_SET_REFRESH_TTL), 2592000,
	    "settings: refresh_token_ttl defaults to 2592000");
	is_int(lc_setting(db, LC_SET_LOGIN_MAX_FAILURES), 5,
	    "settings: login_max_failures defaults to 5");
	is_int(lc_setting(db, LC_SET_LOGIN_WINDOW), 900,
	    "settings: login_window_seconds defaults to 900");

	for (i = 0; i < LC_SET__MAX; i++)
		is_int(lc_setting_lookup(lc_setting_name((enum lc_setting)i)),
		    (long long)i, "settings: lookup of name \"%s\" gives it back",
		    lc_setting_name((enum lc_setting)i));
	is_int(lc_setting_lookup("nope"), -1, "settings: lookup of an unknown name is -1");

	err = NULL;
	is_int(setting_set(db, "access_token_ttl", "7200", &err), 0,
	    "settings: set access_token_ttl 7200 works");
	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 7200,
	    "settings: get access_token_ttl gives 7200 after set");
	is_int(setting_set(db, "access_token_ttl", "1800", &err), 0,
	    "settings: set again overwrites");
	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 1800,
	    "settings: get gives the overwritten value");
	is_int(q1i(h, "SELECT count(*) FROM settings WHERE key = 'access_token_ttl'"),
	    1, "settings: a key set twice is stored once");
	is_int(setting_set(db, "access_token_ttl", "60", &err), 0,
	    "settings: the minimum 60 is accepted");
	is_int(setting_set(db, "access_token_ttl", "86400", &err), 0,
	    "settings: the maximum 86400 is accepted");
	is_int(setting_set(db, "refresh_token_ttl", "31536000", &err), 0,
	    "settings: refresh_token_ttl of 365 days is accepted");
	is_int(lc_setting(db, LC_SET_REFRESH_TTL), 31536000,
	    "settings: get refresh_token_ttl after set");
	is_int(setting_set(db, "login_max_failures", "1", &err), 0,
	    "settings: login_max_failures 1 is accepted");
	is_int(lc_setting(db, LC_SET_LOGIN_MAX_FAILURES), 1,
	    "settings: get login_max_failures after set");
	is_int(setting_set(db, "login_window_seconds", "60", &err), 0,
	    "settings: login_window_seconds 60 is accepted");
	is_int(lc_setting(db, LC_SET_LOGIN_WINDOW), 60,
	    "settings: get login_window_seconds after set");

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		ok(setting_set(db, bad[i].key, bad[i].val, &err) == -1 &&
		    err != NULL, "settings: %s %s is rejected (\"%s\")",
		    bad[i].key, bad[i].why, bad[i].val);
	}
	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 86400,
	    "settings: rejected values leave the stored one");

	err = NULL;
	ok(setting_set(db, "no_such_setting", "10", &err) == -1 && err != NULL,
	    "settings: an unknown key is rejected");
	ok(setting_set(db, "ACCESS_TOKEN_TTL", "3600", &err) == -1,
	    "settings: keys are case-sensitive");
	is_int(q1i(h, "SELECT count(*) FROM settings WHERE key IN "
	    "('no_such_setting', 'ACCESS_TOKEN_TTL')"), 0,
	    "settings: a rejected key is not stored");

	/* A value that went bad in storage falls back to the default. */
	sqlite3_exec(h, "UPDATE settings SET value = 'junk' "
	    "WHERE key = 'login_window_seconds'", NULL, NULL, NULL);
	is_int(lc_setting(db, LC_SET_LOGIN_WINDOW), 900,
	    "settings: an unreadable stored value gives the default");
	sqlite3_exec(h, "UPDATE settings SET value = '5' "
	    "WHERE key = 'access_token_ttl'", NULL, NULL, NULL);
	is_int(lc_setting(db, LC_SET_ACCESS_TTL), 3600,
	    "settings: an out-of-range stored value gives the default");
	integrity_ok(db, "after settings changes");
}

/* ---- foreign keys ---- */

static void
test_fk(struct lc_db *db)
{
	sqlite3 *h = lc_sq_handle(db);
	struct lc_location l = { "l-orphan", "no-such-merchant", "Shop", 0 };

	is_int(lc_db_location_add(db, &l, 1), -1,
	    "fk: a location of an unknown merchant is refused");
	is_int(sqlite3_extended_errcode(h), SQLITE_CONSTRAINT_FOREIGNKEY,
	    "fk: the refusal is a foreign key constraint");
	is_int(q1i(h, "SELECT count(*) FROM locations WHERE id = 'l-orphan'"), 0,
	    "fk: the refused location is not stored");
	snprintf(l.id, sizeof(l.id), "l-ok");
	snprintf(l.merchant_id, sizeof(l.merchant_id), "m1");
	is_int(lc_db_location_add(db, &l, 1), 0,
	    "fk: a location of a known merchant is stored");
	integrity_ok(db, "after foreign key tests");
}

/* ---- the audit trail ---- */

static void
test_audit(struct lc_db *db)
{
	sqlite3 *h = lc_sq_handle(db);
	struct lc_audit_row r;

	memset(&r, 0, sizeof(r));
	r.at = 1;
	r.merchant_id = "m1";
	r.actor_type = "loyalty-admin";
	r.action = "location.create";
	r.object_type = "location";
	r.after = "{\"name\":\"Shop\"}";
	is_int(lc_db_audit_add(db, &r), 0, "audit: a row is appended");
	is_int(sqlite3_exec(h, "UPDATE audit_log SET action = 'x'", NULL, NULL,
	    NULL) & 0xff, SQLITE_CONSTRAINT, "audit: an update of a row is refused");
	ok(strstr(sqlite3_errmsg(h), "append-only") != NULL,
	    "audit: the refusal says the trail is append-only (%s)",
	    sqlite3_errmsg(h));
	is_int(sqlite3_exec(h, "DELETE FROM audit_log", NULL, NULL,
	    NULL) & 0xff, SQLITE_CONSTRAINT, "audit: a delete of a row is refused");
	is_int(q1i(h, "SELECT count(*) FROM audit_log WHERE action = "
	    "'location.create' AND after = '{\"name\":\"Shop\"}'"), 1,
	    "audit: the row stays as it was written");
	r.actor_type = "someone";
	is_int(lc_db_audit_add(db, &r), -1, "audit: an unknown actor type is "
	    "refused");
	r.actor_type = "owner";
	r.action = "";
	is_int(lc_db_audit_add(db, &r), -1, "audit: an empty action is "
	    "refused");
}

/* ---- passwords ---- */

static void
test_password(void)
{
	char h1[SCRYPT_MCF_LEN + 1], h2[SCRYPT_MCF_LEN + 1], small[16];

	memset(h1, 0, sizeof(h1));
	is_int(lc_auth_hash_password("correct horse", h1, sizeof(h1)), 0,
	    "password: hashing works");
	ok(strncmp(h1, "$s1$", 4) == 0, "password: the hash is \"$s1$\" MCF (%s)", h1);
	ok(strncmp(h1, "$s1$0e0805$", 11) == 0,
	    "password: the hash has OWASP's N=2^14, r=8, p=5 (%s)", h1);
	is_int(lc_auth_hash_current(h1), 1,
	    "password: a new hash is of today's parameters");
	is_int(lc_auth_hash_current("$s1$0e0801$dEju2GLgmI1jzgdjWFFAxA==$q1XB"),
	    0, "password: a hash of p=1 is not (a login hashes it anew)");
	ok(strlen(h1) < SCRYPT_MCF_LEN, "password: the hash fits SCRYPT_MCF_LEN");
	ok(strstr(h1, "correct horse") == NULL,
	    "password: the hash does not hold the password");
	is_int(lc_auth_hash_password("correct horse", h2, sizeof(h2)), 0,
	    "password: hashing again works");
	ok(strcmp(h1, h2) != 0, "password: two hashes of one password differ (salt)");
	ok(libscrypt_check(h1, "correct horse") > 0,
	    "password: libscrypt_check accepts the right password");
	is_int(lc_auth_hash_password("correct horse", h2, sizeof(h2)), 0,
	    "password: hashing a third time works");
	ok(libscrypt_check(h2, "wrong horse") == 0,
	    "password: libscrypt_check refuses a wrong password");
	is_int(lc_auth_hash_password("x", small, sizeof(small)), -1,
	    "password: an out buffer below SCRYPT_MCF_LEN is refused");
}

/* ---- default path ---- */

static void
test_default_path(void)
{
	setenv("LOYALTY_DB", "/env/path.db", 1);
	is_string(lc_db_default_path("/explicit.db"), "/explicit.db",
	    "default_path: an explicit path wins");
	is_string(lc_db_default_path(NULL), "/env/path.db",
	    "default_path: LOYALTY_DB comes next");
	is_string(lc_db_default_path(""), "/env/path.db",
	    "default_path: an empty explicit path counts as none");
	setenv("LOYALTY_DB", "", 1);
	is_string(lc_db_default_path(NULL), LC_DEFAULT_DB,
	    "default_path: an empty LOYALTY_DB counts as none");
	unsetenv("LOYALTY_DB");
	is_string(lc_db_default_path(NULL), LC_DEFAULT_DB,
	    "default_path: the build default comes last");
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* 1 when some migration holds text. */
static int
schema_has(const char *text)
{
	int i;

	for (i = 0; lc_migrations[i].sql != NULL; i++)
		if (strstr(lc_migrations[i].sql, text) != NULL)
			return 1;
	return 0;
}

/* The schema's own checks agree with the block of limits. */
static void
test_limits(void)
{
	ok(schema_has("length(name) BETWEEN 1 AND " STR(LC_NAME_MAX)),
	    "limits: the schema bounds names at LC_NAME_MAX (%d)", LC_NAME_MAX);
	ok(schema_has("punch_requirement BETWEEN 1 AND " STR(LC_PUNCHES_MAX)),
	    "limits: the schema bounds punch requirements at LC_PUNCHES_MAX");
	ok(schema_has("rate_bp BETWEEN 0 AND " STR(LC_RATE_MAX)),
	    "limits: the schema bounds rates at LC_RATE_MAX");
	ok(LC_BYTES(LC_NAME_MAX) > LC_NAME_MAX * 4,
	    "limits: a name buffer holds LC_NAME_MAX characters of UTF-8");
}

int
main(void)
{
	char path[512];
	struct lc_db *db;

	if (mkdtemp(tmpdir) == NULL)
		bail("mkdtemp: %s", strerror(errno));
	test_open();
	test_upgrade();
	path_of(path, sizeof(path), "main.db");
	db = open_or_bail(path, 0);
	test_prep(db);
	test_tx(db, path);
	lc_db_close(db);

	path_of(path, sizeof(path), "settings.db");
	db = open_or_bail(path, 1);
	test_settings(db);
	lc_db_close(db);

	db = open_or_bail(path, 0);
	is_int(lc_setting(db, LC_SET_REFRESH_TTL), 31536000,
	    "settings: a stored value survives closing the database");
	lc_db_close(db);

	path_of(path, sizeof(path), "main.db");
	db = open_or_bail(path, 0);
	test_fk(db);
	test_audit(db);
	lc_db_close(db);

	test_walbuf();
	test_password();
	test_default_path();
	test_limits();
	cleanup();
	return done_testing();
}
