/*
 * SQLite storage: connection setup, migrations and the statement table.
 * Every statement is static text with bound parameters, prepared once per
 * connection and reused across requests.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lc_int.h"

struct lc_db {
	sqlite3 *h;
	sqlite3_stmt *stmts[LC_SQL__MAX];
};

static const char *const lc_sql[LC_SQL__MAX] = {
#define X(name, sql) [LC_SQL_##name] = sql,
	LC_SQL_LIST
#undef X
};

/* Long enough to ride out another process's write transaction, short
 * enough that a till gets DATABASE_ERROR rather than hanging. */
#define LC_BUSY_TIMEOUT_MS 5000

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
		if ((st = lc_db_prep(db, LC_SQL_MIGRATION_ADD, "isi",
		    (int64_t)lc_migrations[i].version, lc_migrations[i].name,
		    lc_now_ms())) == NULL || lc_db_exec(db, st) == -1)
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

sqlite3 *
lc_db_handle(struct lc_db *db)
{
	return db->h;
}

int
lc_db_version(struct lc_db *db)
{
	return applied_version(db->h);
}

const char *
lc_db_errmsg(struct lc_db *db)
{
	return sqlite3_errmsg(db->h);
}

sqlite3_stmt *
lc_db_prep(struct lc_db *db, enum lc_sql which, const char *fmt, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc = SQLITE_OK;
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
lc_db_step(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		lc_log("step: %s (%d)", sqlite3_errmsg(db->h), rc);
	return rc;
}

int
lc_db_exec(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = lc_db_step(db, st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
}

void
lc_db_reset(sqlite3_stmt *st)
{
	if (st != NULL)
		sqlite3_reset(st);
}

void
lc_db_reset_all(struct lc_db *db)
{
	int i;

	for (i = 0; i < LC_SQL__MAX; i++)
		if (db->stmts[i] != NULL)
			sqlite3_reset(db->stmts[i]);
}

int
lc_db_begin(struct lc_db *db)
{
	/* IMMEDIATE: a deferred read-then-write can fail with SQLITE_BUSY
	 * that no busy timeout cures. */
	return exec(db->h, "BEGIN IMMEDIATE");
}

int
lc_db_read_begin(struct lc_db *db)
{
	/* Deferred: takes no write lock, only a consistent WAL snapshot. */
	return exec(db->h, "BEGIN");
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

void
lc_db_col(sqlite3_stmt *st, int i, char *out, size_t outsz)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	snprintf(out, outsz, "%s", t == NULL ? "" : (const char *)t);
}
