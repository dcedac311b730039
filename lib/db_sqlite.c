/*
 * Storage on SQLite: the connection, migrations, the statement table, and
 * every function of lc_store.h. This is the only file of the library that
 * steps a statement or reads a column; everything above it sees structs.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lc_backend.h"
#include "lc_int.h"
#include "lc_queue.h"
#include "lc_sqlite.h"

struct lc_db {
	const struct lc_bk *bk;		/* first: see lc_backend.h */
	const struct lc_db_ops *ops;
	sqlite3 *h;
	sqlite3_stmt *stmts[LC_SQL__MAX];	/* the backend's own */
	sqlite3_stmt *q[LC_Q__MAX];	/* the topic files' (lc_st_run) */
	struct timespec wait_start;	/* of the lock wait under way */
	struct lc_queue queue;		/* of writers (db_queue.c) */
	int writer;			/* set up to write (writer_setup) */
	int wal_frames;			/* in the log after our last commit */
	ino_t wal_ino, shm_ino;		/* its -wal and -shm (sq_replaced);
					 * 0 when not seen */
	int opened;			/* all set up (sq_replaced may ask) */
};

#define SQ_DECL(ret, name, params) static ret sq_##name params;
LC_DB_OPS(SQ_DECL)
#undef SQ_DECL
static const struct lc_db_ops sq_ops;
static const struct lc_bk sq_bk;
static void sq_close(struct lc_db *);
static int sq_replaced(struct lc_db *);
static int sq_version(struct lc_db *);
static int sq_begin(struct lc_db *, int);
static void sq_idle(struct lc_db *);
static int sq_commit(struct lc_db *);
static void sq_tidy(struct lc_db *);
static void sq_shrink(struct lc_db *);
static void sq_rollback(struct lc_db *);
static int sq_backup(struct lc_db *, const char *, const char *);

static const char *const lc_sql[LC_SQL__MAX] = {
#define X(name, sql) [LC_SQL_##name] = sql,
	LC_SQL_LIST
#undef X
};

/*
 * Waiting for a lock: a retry every millisecond, for every waiter alike.
 * SQLite's own busy handler sleeps 1, 2, 5 ... up to 100 ms between tries,
 * so a till that has waited long sleeps longest and keeps losing the lock
 * to newcomers: that made the slowest purchases wait half a second at
 * rush hour. Given up after LC_BUSY_TIMEOUT_MS (DATABASE_ERROR, retry).
 */
static int
busy(void *arg, int tries)
{
	struct lc_db *db = arg;
	struct timespec now, ms = { 0, 1000000L };
	int64_t waited;

	if (clock_gettime(CLOCK_MONOTONIC, &now) == -1)
		return 0;
	if (tries == 0)
		db->wait_start = now;
	waited = (int64_t)(now.tv_sec - db->wait_start.tv_sec) * 1000 +
	    (now.tv_nsec - db->wait_start.tv_nsec) / 1000000;
	if (waited >= LC_BUSY_TIMEOUT_MS)
		return 0;
	(void)nanosleep(&ms, NULL);
	return 1;
}

/*
 * lc_fold(text): text with letters in one case, for searching names in
 * any case. SQLite's own LIKE folds ASCII only, and "öz" must find
 * "Özlem": this folds the Latin-1, Latin Extended-A, Greek and Cyrillic
 * capitals too (what small shops' customers' names are written in).
 */
static uint32_t
fold_cp(uint32_t c)
{
	if ((c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7) ||
	    (c >= 0x391 && c <= 0x3ab && c != 0x3a2) ||
	    (c >= 0x410 && c <= 0x42f))
		return c + 0x20;
	if (c >= 0x400 && c <= 0x40f)
		return c + 0x50;
	if (c >= 0x100 && c <= 0x17f && c != 0x130 && c != 0x131 &&
	    c != 0x138 && c != 0x149 && c != 0x178 && c != 0x17f) {
		/* Pairs: capital even, small odd; but for 0x139-0x148 and
		 * 0x179-0x17e, where capital is odd. */
		if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17e))
			return c % 2 == 1 ? c + 1 : c;
		return c % 2 == 0 ? c + 1 : c;
	}
	return c;
}

static void
fold(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const unsigned char *s = sqlite3_value_text(argv[0]);
	unsigned char *out, *o;
	uint32_t c;
	int n, i, len;

	(void)argc;
	if (s == NULL) {
		sqlite3_result_null(cx);
		return;
	}
	len = sqlite3_value_bytes(argv[0]);
	/* Folding never lengthens a character's UTF-8 here. */
	if ((out = sqlite3_malloc(len + 1)) == NULL) {
		sqlite3_result_error_nomem(cx);
		return;
	}
	for (o = out, i = 0; i < len; i += n) {
		c = s[i];
		n = c < 0x80 ? 1 : c >= 0xc0 && c < 0xe0 ? 2 : c >= 0xe0 &&
		    c < 0xf0 ? 3 : 4;
		if (i + n > len)
			n = len - i;
		if (n == 2) {
			c = ((c & 0x1f) << 6) | (s[i + 1] & 0x3f);
			c = fold_cp(c);
			*o++ = (unsigned char)(0xc0 | (c >> 6));
			*o++ = (unsigned char)(0x80 | (c & 0x3f));
		} else if (n == 1) {
			*o++ = (unsigned char)fold_cp(c);
		} else {
			memcpy(o, s + i, (size_t)n);
			o += n;
		}
	}
	*o = '\0';
	sqlite3_result_text(cx, (const char *)out, (int)(o - out), sqlite3_free);
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

/*
 * Whether SQLite's failure to open, set up or upgrade the database is one
 * of the set-up (a file or folder this user may not read or write, no
 * file, not a database) rather than a busy or failing one: then *errmsg
 * is SQLite's own words for it.
 */
static int
unusable(sqlite3 *h, const char **errmsg)
{
	int rc;

	/* No handle at all: out of memory. */
	if (h == NULL)
		return 0;
	rc = sqlite3_extended_errcode(h);
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
		*errmsg = "the file is not a SQLite database";
		return 1;
	case SQLITE_READONLY:
	case SQLITE_CANTOPEN:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		*errmsg = sqlite3_errstr(rc);
		return 1;
	}
	return 0;
}

/* The inode of the file path+suffix, 0 when there is none. */
static ino_t
side_ino(const char *path, const char *suffix)
{
	char p[4200];
	struct stat st;

	if ((size_t)snprintf(p, sizeof(p), "%s%s", path, suffix) >= sizeof(p) ||
	    stat(p, &st) == -1)
		return 0;
	return st.st_ino;
}

struct lc_db *
lc_sq_open(const char *path, int create, const char **errmsg,
    int *misconfigured)
{
	struct lc_db *db;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*errmsg = NULL;
	if (misconfigured != NULL)
		*misconfigured = 0;
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if ((db = calloc(1, sizeof(*db))) == NULL) {
		*errmsg = "out of memory";
		return NULL;
	}
	db->bk = &sq_bk;
	db->ops = &sq_ops;
	if (sqlite3_open_v2(path, &db->h, flags, lc_walbuf_vfs()) !=
	    SQLITE_OK) {
		*errmsg = "cannot open the database file";
		goto fail;
	}
	/* SQLite falls back to reading a file it may not write; every
	 * request of the service writes (tokens, the audit trail). */
	if (sqlite3_db_readonly(db->h, "main") == 1) {
		*errmsg = "the file is read-only for this user";
		if (misconfigured != NULL)
			*misconfigured = 1;
		goto fail;
	}
	sqlite3_extended_result_codes(db->h, 1);
	if (sqlite3_create_function(db->h, "lc_fold", 1, SQLITE_UTF8 |
	    SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, fold, NULL,
	    NULL) != SQLITE_OK) {
		*errmsg = "cannot configure the database";
		goto fail;
	}
	sqlite3_busy_handler(db->h, busy, db);
	/* WAL lets lookups read while a purchase writes. FULL until the
	 * connection first writes; writer_setup then takes NORMAL, and
	 * lc_db_commit syncs the log itself, after the write turn and
	 * before any answer: an acknowledged write survives a power cut
	 * either way (the argument is at lc_db_commit). */
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
	/* Then a page cache of 256 KiB, not SQLite's 2 MiB (a migration
	 * rewriting a big table keeps the larger one): a write by any
	 * other process empties it (WAL), the kernel's page cache holds
	 * the file for every process at once, and a server runs up to
	 * four processes of each of 22 responders. The trees' hot upper
	 * pages fit; lookups ran no slower with it (tools/bench) and each
	 * process's own memory fell by about 1 MiB. */
	if (exec(db->h, "PRAGMA cache_size = -256") == -1) {
		*errmsg = "cannot configure the database";
		goto fail;
	}
	/* Its log and index, there now that it has been read (WAL): what
	 * sq_replaced compares their names with. No other connection's
	 * close deletes them while this one is open. */
	db->wal_ino = side_ino(path, "-wal");
	db->shm_ino = side_ino(path, "-shm");
	db->opened = 1;
	return db;
fail:
	if (misconfigured != NULL && *misconfigured == 0)
		*misconfigured = unusable(db->h, errmsg);
	sq_close(db);
	return NULL;
}

/*
 * A merchant who starts over deletes loyalty.db* over FTP, and a restore
 * may put another file in its place; a process of FastCGI keeps the
 * files it opened, and would go on in a database no one else sees (a
 * shop set up in a deleted file), or beside others on another -shm. The
 * database (SQLite's own check, of the file it has open) and its -wal
 * and -shm (as seen at the open): three stats a request.
 */
static int
sq_replaced(struct lc_db *db)
{
	const char *path;
	int moved = 0;

	if (!db->opened || (path = sqlite3_db_filename(db->h, "main")) == NULL ||
	    *path == '\0')
		return 0;
	if (sqlite3_file_control(db->h, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) == SQLITE_OK && moved)
		return 1;
	return (db->wal_ino != 0 && side_ino(path, "-wal") != db->wal_ino) ||
	    (db->shm_ino != 0 && side_ino(path, "-shm") != db->shm_ino);
}

static void
sq_close(struct lc_db *db)
{
	int one = 1, i;

	if (db == NULL)
		return;
	for (i = 0; i < LC_SQL__MAX; i++)
		sqlite3_finalize(db->stmts[i]);
	for (i = 0; i < LC_Q__MAX; i++)
		sqlite3_finalize(db->q[i]);
	/* The last connection's close copies the log into the file and
	 * deletes the -wal and -shm by name: of replaced files, those names
	 * may be the new database's now. (SQLite skips it itself when the
	 * main file moved, not when only the others did.) */
	if (db->h != NULL && sq_replaced(db)) {
		(void)sqlite3_db_config(db->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
		    1, NULL);
		(void)sqlite3_file_control(db->h, "main",
		    SQLITE_FCNTL_PERSIST_WAL, &one);
	}
	sqlite3_close(db->h);
	lc_queue_close(&db->queue);
	free(db);
}

static int
sq_version(struct lc_db *db)
{
	return applied_version(db->h);
}

sqlite3 *
lc_sq_handle(struct lc_db *db)
{
	return db->h;
}

/* Binds st's parameters from fmt (lc_st_run's letters): 0 or -1. */
static int
bind(struct lc_db *db, sqlite3_stmt *st, int which, const char *fmt,
    va_list ap)
{
	int i, rc = SQLITE_OK;
	int64_t v;
	const char *s;
	const void *b;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
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
		case 'l':	/* below 0: no limit, as SQLite takes it */
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
			break;
		case 'o':
			v = va_arg(ap, int64_t);
			rc = v < 0 ? sqlite3_bind_null(st, i + 1) :
			    sqlite3_bind_int64(st, i + 1, v);
			break;
		case 'n':
			v = va_arg(ap, int64_t);
			rc = v == LC_TXN_NONE ? sqlite3_bind_null(st, i + 1) :
			    sqlite3_bind_int64(st, i + 1, v);
			break;
		case 'b':
			b = va_arg(ap, const void *);
			rc = sqlite3_bind_blob(st, i + 1, b, va_arg(ap, int),
			    SQLITE_TRANSIENT);
			break;
		default:
			lc_log("statement %d: bad bind format '%c'", which,
			    fmt[i]);
			rc = SQLITE_MISUSE;
		}
	}
	if (rc != SQLITE_OK) {
		lc_log("bind %d: %s", which, sqlite3_errmsg(db->h));
		return -1;
	}
	return 0;
}

/* The statement of *slot with text sql, prepared on first use and kept
 * (PERSISTENT: it lives as long as the connection). */
static sqlite3_stmt *
prepared(struct lc_db *db, sqlite3_stmt **slot, int which, const char *sql)
{
	if (*slot == NULL && sqlite3_prepare_v3(db->h, sql, -1,
	    SQLITE_PREPARE_PERSISTENT, slot, NULL) != SQLITE_OK) {
		lc_log("prepare %d: %s", which, sqlite3_errmsg(db->h));
		*slot = NULL;
	}
	return *slot;
}

sqlite3_stmt *
lc_sq_prep(struct lc_db *db, enum lc_sql which, const char *fmt, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int rc;

	if ((st = prepared(db, &db->stmts[which], (int)which,
	    lc_sql[which])) == NULL)
		return NULL;
	va_start(ap, fmt);
	rc = bind(db, st, (int)which, fmt, ap);
	va_end(ap);
	return rc == -1 ? NULL : st;
}

/* The statement readers of lc_backend.h. */

static int
sq_run(struct lc_row *r, int slot, const char *sql, const char *pg,
    const char *fmt, va_list ap)
{
	struct lc_db *db = r->db;
	sqlite3_stmt *st;

	(void)pg;
	if (slot < 0 || slot >= LC_Q__MAX) {
		lc_log("statement %d: no such slot", slot);
		return -1;
	}
	if ((st = prepared(db, &db->q[slot], LC_SQL__MAX + slot, sql)) ==
	    NULL || bind(db, st, LC_SQL__MAX + slot, fmt, ap) == -1)
		return -1;
	r->st = st;
	return 0;
}

static int
sq_next(struct lc_row *r)
{
	int rc = lc_sq_step(r->db, r->st);

	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static void
sq_done(struct lc_row *r)
{
	sqlite3_reset(r->st);
}

static const char *
sq_text(struct lc_row *r, int col, size_t *len)
{
	const char *t = (const char *)sqlite3_column_text(r->st, col);

	*len = t == NULL ? 0 : (size_t)sqlite3_column_bytes(r->st, col);
	return t;
}

static int64_t
sq_int64(struct lc_row *r, int col)
{
	return sqlite3_column_int64(r->st, col);
}

static int
sq_null(struct lc_row *r, int col)
{
	return sqlite3_column_type(r->st, col) == SQLITE_NULL;
}

static int64_t
sq_changes(struct lc_row *r)
{
	return sqlite3_changes(r->db->h);
}

static int
sq_insert_id(struct lc_row *r, int64_t *id)
{
	if (sq_next(r) == -1)
		return -1;
	*id = sqlite3_last_insert_rowid(r->db->h);
	return 0;
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

/* A text column into out, cut to fit as snprintf would; copied by hand:
 * a row's many columns through snprintf showed in a lookup's profile. */
void
lc_sq_col(sqlite3_stmt *st, int i, char *out, size_t outsz)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	size_t n;

	if (outsz == 0)
		return;
	n = t == NULL ? 0 : (size_t)sqlite3_column_bytes(st, i);
	if (n >= outsz)
		n = outsz - 1;
	if (n > 0)
		memcpy(out, t, n);
	out[n] = '\0';
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

/* BEGIN, COMMIT and ROLLBACK run on every request: prepared once per
 * connection like every other statement instead of parsed each time
 * (the parse was a twentieth of a lookup's time). */
static int
txn(struct lc_db *db, enum lc_sql which)
{
	sqlite3_stmt *st = lc_sq_prep(db, which, "");

	return st == NULL ? -1 : lc_sq_exec(db, st);
}

/*
 * A commit is made durable after the write lock is let go, so commits
 * share their syncs instead of queueing for them.
 *
 * With synchronous = FULL SQLite syncs the log (the -wal file) inside
 * COMMIT, while it holds the one write lock: every writer waited for
 * every other writer's sync, one after the other. Here the connection
 * runs with synchronous = NORMAL, where COMMIT writes the transaction's
 * frames into the log without a sync, and lc_db_commit syncs the log
 * itself after COMMIT has returned and the write turn is given back,
 * before it returns to the write path, so before any answer is written.
 *
 * Why an answered write still survives a power cut: (1) the sync comes
 * after COMMIT wrote this transaction's frames into the log, and one
 * sync of the file makes everything written to it before durable, this
 * commit and every commit before it (their frames precede ours in the
 * log, as their writes preceded ours under the write lock). Recovery
 * after a crash replays the log up to its last whole commit, so a
 * durable commit comes back with every commit before it. (2) Nothing can
 * take the frames out of the log before they are durable elsewhere: a
 * checkpoint syncs the log before it copies frames into the database
 * and syncs the database before it records them as copied, and only
 * frames recorded as copied are ever overwritten (SQLite does both at
 * synchronous = NORMAL as at FULL). (3) An answer given from what another
 * writer committed is made durable the same way: a replayed idempotency
 * key commits its (empty) write transaction too, so its answer waits for
 * a sync of the log as the original's did (write.c).
 * Checkpoints are taken out of COMMIT too (lc_db_tidy): they run after
 * the answer is out, so no answer waits for one.
 */
static int
wal_hook(void *arg, sqlite3 *h, const char *name, int frames)
{
	(void)h;
	(void)name;
	((struct lc_db *)arg)->wal_frames = frames;
	return SQLITE_OK;
}

static int
writer_setup(struct lc_db *db)
{
	if (exec(db->h, "PRAGMA synchronous = NORMAL") == -1)
		return -1;
	/* Replaces SQLite's checkpoint at the end of a COMMIT. */
	sqlite3_wal_hook(db->h, wal_hook, db);
	db->writer = 1;
	return 0;
}

/* Syncs the log after a commit (see above): 0 or -1 (logged). */
static int
log_sync(struct lc_db *db)
{
	sqlite3_file *f = NULL;
	int rc;

	if (sqlite3_file_control(db->h, "main", SQLITE_FCNTL_JOURNAL_POINTER,
	    &f) != SQLITE_OK || f == NULL || f->pMethods == NULL) {
		lc_log("the log to sync after a commit cannot be found");
		return -1;
	}
	if ((rc = f->pMethods->xSync(f, SQLITE_SYNC_NORMAL)) != SQLITE_OK) {
		lc_log("sync of the log after a commit failed (%d)", rc);
		return -1;
	}
	return 0;
}

static void
sq_shrink(struct lc_db *db)
{
	if (db != NULL)
		(void)sqlite3_db_release_memory(db->h);
}

static void
sq_tidy(struct lc_db *db)
{
	/* SQLite's own threshold (wal_autocheckpoint): 1000 pages. A
	 * passive checkpoint waits for no one; another process's
	 * checkpoint under way makes this one a no-op. */
	if (db == NULL || db->wal_frames < 1000)
		return;
	db->wal_frames = 0;
	/* In the write turn, after the answer: no commit lands while it
	 * copies, so the log is copied whole and the next writer starts
	 * it over (one copied while others write only grows). Writers
	 * wait for it as they waited for SQLite's own inside COMMIT. */
	if (lc_queue_enter(&db->queue, sqlite3_db_filename(db->h, "main"), 0,
	    LC_BUSY_TIMEOUT_MS) == -1)
		return;
	(void)sqlite3_wal_checkpoint_v2(db->h, "main",
	    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	lc_queue_leave(&db->queue);
}

static int
sq_begin(struct lc_db *db, int write)
{
	/* IMMEDIATE: a deferred read-then-write can fail with SQLITE_BUSY
	 * that no busy timeout cures. A read takes no lock, only a
	 * consistent WAL snapshot. A writer first waits its turn in the
	 * queue of writers, asleep (db_queue.c). A read begun inside the
	 * request's read (http_serve.c) reads its snapshot; a write ends
	 * that read first: it must start from the newest snapshot. */
	if (!sqlite3_get_autocommit(db->h) &&
	    sqlite3_txn_state(db->h, NULL) != SQLITE_TXN_WRITE) {
		if (!write)
			return 0;
		(void)txn(db, LC_SQL_ROLLBACK);
	}
	if (!write)
		return txn(db, LC_SQL_BEGIN);
	if (!db->writer && writer_setup(db) == -1)
		return -1;
	if (lc_queue_enter(&db->queue, sqlite3_db_filename(db->h, "main"),
	    write == LC_DB_WRITE_LATER, LC_BUSY_TIMEOUT_MS) == -1)
		return -1;
	if (txn(db, LC_SQL_BEGIN_WRITE) == 0)
		return 0;
	lc_queue_leave(&db->queue);
	return -1;
}

static int
sq_commit(struct lc_db *db)
{
	if (txn(db, LC_SQL_COMMIT) == 0) {
		lc_queue_leave(&db->queue);
		return log_sync(db);
	}
	sq_rollback(db);
	return -1;
}

static void
sq_idle(struct lc_db *db)
{
	int i;

	/* The request's read transaction ends here; a write one left
	 * open is a bug. */
	if (!sqlite3_get_autocommit(db->h)) {
		if (sqlite3_txn_state(db->h, NULL) == SQLITE_TXN_WRITE)
			lc_log("a transaction was left open: rolled back");
		(void)txn(db, LC_SQL_ROLLBACK);
	}
	lc_queue_leave(&db->queue);
	for (i = 0; i < LC_SQL__MAX; i++)
		if (db->stmts[i] != NULL)
			sqlite3_reset(db->stmts[i]);
	for (i = 0; i < LC_Q__MAX; i++)
		if (db->q[i] != NULL)
			sqlite3_reset(db->q[i]);
}

static void
sq_rollback(struct lc_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		(void)txn(db, LC_SQL_ROLLBACK);
	lc_queue_leave(&db->queue);
}

/* Programs and cards. */

static int tiers_get(struct lc_db *, struct lc_program *);
static int tiers_put(struct lc_db *, const struct lc_program *);

static int
sq_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	int punch = strcmp(p->type, "punch") == 0;
	int cashback = strcmp(p->type, "cashback") == 0;

	/* Only a punch program has a requirement and a reward; only a
	 * cashback one a term for its earnings. */
	if (put(db, lc_sq_prep(db, LC_SQL_PROGRAM_ADD, "ssssossiiioo", p->id,
	    p->merchant_id, p->type, p->title,
	    punch ? p->punch_requirement : (int64_t)-1,
	    punch ? p->reward_title : NULL,
	    punch ? p->reward_description : "", punch ? p->reward_amount : 0,
	    punch ? p->cooldown_seconds : 0, at,
	    punch && p->max_punches > 0 ? p->max_punches : (int64_t)-1,
	    cashback && p->expiry_days > 0 ? p->expiry_days : (int64_t)-1)) == -1)
		return -1;
	return tiers_put(db, p);
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
	p->max_punches = sqlite3_column_int64(st, 9);
	p->expiry_days = sqlite3_column_int64(st, 10);
	p->ntiers = 0;
}

static int
sq_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_PROGRAM_GET, "s", id);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	program_row(st, p);
	sqlite3_reset(st);
	return tiers_get(db, p) == -1 ? -1 : 1;
}

static int
tiers_put(struct lc_db *db, const struct lc_program *p)
{
	int i;

	for (i = 0; i < p->ntiers; i++)
		if (put(db, lc_sq_prep(db, LC_SQL_TIER_ADD, "ssii", p->id,
		    p->tiers[i].name, p->tiers[i].min_spend,
		    p->tiers[i].rate_bp)) == -1)
			return -1;
	return 0;
}

static int
sq_program_update(struct lc_db *db, const struct lc_program *p)
{
	if (change(db, lc_sq_prep(db, LC_SQL_PROGRAM_UPDATE, "sssiioos",
	    p->title, p->reward_title, p->reward_description, p->reward_amount,
	    p->cooldown_seconds, p->max_punches > 0 ? p->max_punches :
	    (int64_t)-1, p->expiry_days > 0 ? p->expiry_days : (int64_t)-1,
	    p->id)) != 1)
		return -1;
	if (p->ntiers == 0)
		return 0;
	return put(db, lc_sq_prep(db, LC_SQL_TIERS_DELETE, "s", p->id)) == -1 ?
	    -1 : tiers_put(db, p);
}

static int
sq_programs(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t), void *arg)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_PROGRAMS_OF_MERCHANT, "s",
	    merchant_id);
	struct lc_program *ps = NULL, *n;
	int64_t *counts = NULL, *nc;
	size_t np = 0, i;
	int rc = -1, stop = 0;

	/* Read the list first: loading tiers steps another statement. */
	if (st == NULL)
		return -1;
	while ((rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		if ((n = realloc(ps, (np + 1) * sizeof(*ps))) == NULL ||
		    (ps = n, (nc = realloc(counts, (np + 1) *
		    sizeof(*counts))) == NULL)) {
			rc = SQLITE_NOMEM;
			break;
		}
		counts = nc;
		program_row(st, &ps[np]);
		counts[np++] = sqlite3_column_int64(st, LC_PROGRAM_NCOLS);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		rc = -1;
		goto out;
	}
	rc = 0;
	for (i = 0; i < np && stop == 0; i++) {
		if (tiers_get(db, &ps[i]) == -1) {
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

/* The LC_CARD_COLS of st (not the tiers). */
static void
card_row(sqlite3_stmt *st, struct lc_card *c)
{
	const int n = LC_PROGRAM_NCOLS;

	memset(c, 0, sizeof(*c));
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
	c->created_at = sqlite3_column_int64(st, n + 13);
	COL(st, n + 14, c->share_token);
	COL(st, n + 15, c->code_secret);
	c->code_step_used = sqlite3_column_int64(st, n + 16);
	/* Not storage's: unknown until lc_expiry_fresh asks. */
	c->next_expiry_at = c->next_expiry_amount = -1;
}

/* The card of a bound LC_CARD_COLS statement, with its tiers. */
static int
card_get(struct lc_db *db, sqlite3_stmt *st, struct lc_card *c)
{
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = row(db, st)) != 1)
		return rc;
	card_row(st, c);
	sqlite3_reset(st);
	if (strcmp(c->program.type, "punch") != 0 &&
	    tiers_get(db, &c->program) == -1)
		return -1;
	return 1;
}

static int
sq_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	static const enum lc_sql which[] = { LC_SQL_CARD_BY_ID,
	    LC_SQL_CARD_BY_QR, LC_SQL_CARD_BY_BARCODE };

	return card_get(db, lc_sq_prep(db, which[key], "ss", merchant_id,
	    value), c);
}

static int
sq_card_add(struct lc_db *db, const struct lc_card *c,
    const char *issued_by, const char *issued_location, int64_t at)
{
	return put_unique(db, lc_sq_prep(db, LC_SQL_CARD_ADD, "sssssssssis",
	    c->id, c->merchant_id, c->program.id, c->customer_name, c->barcode,
	    c->qr, c->share_token, issued_by, issued_location, at,
	    c->code_secret[0] != '\0' ? c->code_secret : NULL));
}

static int
sq_card_by_share(struct lc_db *db, const char *token, struct lc_card *c)
{
	return card_get(db, lc_sq_prep(db, LC_SQL_CARD_BY_SHARE, "s", token), c);
}

static int
sq_card_updated(struct lc_db *db, const struct lc_card *c, int64_t *at)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_CARD_UPDATED, "is",
	    c->created_at, c->id);

	if (row(db, st) != 1)
		return -1;
	*at = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static int
sq_card_save(struct lc_db *db, const struct lc_card *c)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SAVE, "iiiiiis",
	    c->current_punches, c->pending_rewards, c->lifetime_punches,
	    c->cashback_balance, c->lifetime_cashback, c->lifetime_spend,
	    c->id)) == 1 && sqlite3_changes(db->h) == 1 ? 0 : -1;
}

static int
sq_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SET_STATUS, "ss", status,
	    id));
}

/* Transactions, rewards, the ledger. */

static int
sq_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	/* A void's and an adjustment's amounts are signed: bound as
	 * they are, NULL only for none. */
	int sig = t->voided_id != NULL || strcmp(t->type, "adjustment") == 0;

	return put(db, lc_sq_prep(db, LC_SQL_TXN_ADD, sig ?
	    "ssssssinnnnnsssssisss" : "ssssssiooooosssssisss",
	    t->id, t->merchant_id, t->card_id, t->location_id,
	    t->staff_user_id, t->type, t->purchase_amount, t->punches_added,
	    t->rate_bp, t->cashback_earned, t->discount_amount,
	    t->redeemed_amount, t->reward_id, t->notes, t->pos_ref,
	    t->pos_term, t->client_ts, t->created_at, t->voided_id,
	    t->parent_id, t->reason));
}

static int64_t int_or_none(sqlite3_stmt *, int);

static int
sq_txn_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_txn_info *t)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_TXN_GET, "ss", merchant_id,
	    id);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, t->id);
	COL(st, 1, t->card_id);
	COL(st, 2, t->location_id);
	COL(st, 3, t->staff_user_id);
	COL(st, 4, t->type);
	COL(st, 5, t->reward_id);
	COL(st, 6, t->parent_id);
	COL(st, 7, t->voided_by);
	t->purchase_amount = sqlite3_column_int64(st, 8);
	t->created_at = sqlite3_column_int64(st, 9);
	t->punches_added = int_or_none(st, 10);
	t->cashback_earned = int_or_none(st, 11);
	t->discount_amount = int_or_none(st, 12);
	t->redeemed_amount = int_or_none(st, 13);
	sqlite3_reset(st);
	return 1;
}

static int
sq_txn_child(struct lc_db *db, const char *id, char out[LC_ID_LEN + 1])
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_TXN_CHILD, "s", id);
	int rc;

	if ((rc = row(db, st)) == 1) {
		lc_sq_col(st, 0, out, LC_ID_LEN + 1);
		sqlite3_reset(st);
	}
	return rc;
}

static int
sq_punch_near(struct lc_db *db, const char *card_id, int64_t after,
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

static int
sq_reward_add(struct lc_db *db, const struct lc_reward *r)
{
	return put(db, lc_sq_prep(db, LC_SQL_REWARD_ADD, "sssssii", r->id,
	    r->card_id, r->earned_txn_id, r->title, r->description, r->amount,
	    r->earned_at));
}

/* The columns of REWARD_OLDEST and REWARD_PENDING_OF. */
static int
reward_get(struct lc_db *db, sqlite3_stmt *st, struct lc_reward *r)
{
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

static int
sq_reward_oldest(struct lc_db *db, const char *card_id, struct lc_reward *r)
{
	return reward_get(db, lc_sq_prep(db, LC_SQL_REWARD_OLDEST, "s", card_id),
	    r);
}

static int
sq_reward_pending_of(struct lc_db *db, const char *txn_id,
    const char *card_id, struct lc_reward *r)
{
	return reward_get(db, lc_sq_prep(db, LC_SQL_REWARD_PENDING_OF, "ss",
	    txn_id, card_id), r);
}

static int
sq_reward_withdraw(struct lc_db *db, const char *id)
{
	return change(db, lc_sq_prep(db, LC_SQL_REWARD_WITHDRAW, "s", id));
}

static int
sq_reward_earning_voided(struct lc_db *db, const char *id)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_REWARD_EARNING_VOIDED, "s",
	    id);
	int rc = row(db, st);

	if (rc == 1)
		sqlite3_reset(st);
	return rc;
}

static int
sq_reward_unclaim(struct lc_db *db, const char *id,
    const char *claim_txn_id)
{
	return change(db, lc_sq_prep(db, LC_SQL_REWARD_UNCLAIM, "ss", id,
	    claim_txn_id));
}

static int
sq_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	return change(db, lc_sq_prep(db, LC_SQL_REWARD_CLAIM, "iss", at,
	    claim_txn_id, id));
}

static int
sq_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	return sq_earning_add_until(db, txn_id, card_id, amount, at, -1);
}

static int
sq_earning_add_until(struct lc_db *db, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at)
{
	return put(db, lc_sq_prep(db, LC_SQL_EARNING_ADD, "ssiiio", txn_id,
	    card_id, amount, amount, at, expires_at));
}

/* The LC_EARNING_COLS of a statement with a row: 1, else what row says. */
static int
earning_row(struct lc_db *db, sqlite3_stmt *st, struct lc_earning *e)
{
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	COL(st, 0, e->txn_id);
	e->amount = sqlite3_column_int64(st, 1);
	e->remaining = sqlite3_column_int64(st, 2);
	e->earned_at = sqlite3_column_int64(st, 3);
	e->expires_at = sqlite3_column_int64(st, 4);
	sqlite3_reset(st);
	return 1;
}

static int
sq_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	return earning_row(db, lc_sq_prep(db, LC_SQL_EARNING_OLDEST, "s",
	    card_id), e);
}

static int
sq_expiry_next(struct lc_db *db, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_EXPIRY_NEXT, "s", card_id);
	int found;

	/* An aggregate: always one row, NULL when there is none. */
	if (row(db, st) != 1)
		return -1;
	if ((found = sqlite3_column_type(st, 0) != SQLITE_NULL)) {
		*at = sqlite3_column_int64(st, 0);
		*amount = sqlite3_column_int64(st, 1);
	}
	/* The balance of the same snapshot as the next expiry. */
	*balance = sqlite3_column_int64(st, 2);
	sqlite3_reset(st);
	return found;
}

static int
sq_earning_due(struct lc_db *db, const char *card_id, int64_t now,
    struct lc_earning *e)
{
	return earning_row(db, lc_sq_prep(db, LC_SQL_EARNING_DUE, "si", card_id,
	    now), e);
}

static int
sq_earning_expire(struct lc_db *db, const struct lc_earning *e,
    const char *txn_id)
{
	int rc;

	if ((rc = change(db, lc_sq_prep(db, LC_SQL_EARNING_EXPIRE, "si",
	    e->txn_id, e->remaining))) != 1)
		return rc;
	return change(db, lc_sq_prep(db, LC_SQL_EXPIRY_TXN_ADD, "siis", txn_id,
	    e->remaining, e->expires_at, e->txn_id)) == 1 ? 1 : -1;
}

static int
sq_expiry_due_card(struct lc_db *db, const char *merchant_id, int64_t now,
    char card_id[LC_ID_LEN + 1])
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_EXPIRY_DUE_CARD, "si",
	    merchant_id, now);
	int rc;

	if ((rc = row(db, st)) != 1)
		return rc;
	lc_sq_col(st, 0, card_id, LC_ID_LEN + 1);
	sqlite3_reset(st);
	return 1;
}

static int
sq_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	return change(db, lc_sq_prep(db, LC_SQL_EARNING_USE, "isi", use, txn_id,
	    use));
}

static int
sq_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	return put(db, lc_sq_prep(db, LC_SQL_ENTRY_ADD, "ssi", redeem_txn_id,
	    earning_txn_id, amount));
}

static int
sq_earning_get(struct lc_db *db, const char *txn_id, struct lc_earning *e)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_EARNING_GET, "s", txn_id);
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

static int
sq_earning_return(struct lc_db *db, const char *txn_id, int64_t amount)
{
	return change(db, lc_sq_prep(db, LC_SQL_EARNING_RETURN, "is", amount,
	    txn_id));
}

static int
sq_entries(struct lc_db *db, const char *txn_id, struct lc_entry **out,
    size_t *n)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_ENTRIES_OF, "s", txn_id);
	struct lc_entry *es = NULL, *ne;
	int rc = SQLITE_ERROR;

	*out = NULL;
	*n = 0;
	if (st == NULL)
		return -1;
	while ((rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		if ((ne = realloc(es, (*n + 1) * sizeof(*es))) == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		es = ne;
		COL(st, 0, es[*n].earning_txn_id);
		es[*n].amount = sqlite3_column_int64(st, 1);
		es[*n].voided = sqlite3_column_int(st, 2);
		(*n)++;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		free(es);
		*n = 0;
		return -1;
	}
	*out = es;
	return 0;
}

/* Idempotency keys. */

static int
sq_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
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

static int
sq_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	return put(db, lc_sq_prep(db, LC_SQL_IDEM_ADD, "sssssi", merchant_id,
	    key, kind, txn_id, answer, at));
}

/* History. */

static int
sq_history_count(struct lc_db *db, const struct lc_hist_query *q,
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

static int64_t
signed_or_none(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? LC_TXN_NONE :
	    sqlite3_column_int64(st, i);
}

/* The LC_HISTORY_COLS of st. */
static void
hist_row(sqlite3_stmt *st, struct lc_hist_item *it)
{
	it->id = text_or_null(st, 0);
	it->type = text_or_null(st, 1);
	it->purchase_amount = sqlite3_column_int64(st, 2);
	it->punches_added = int_or_none(st, 3);
	it->created_at = sqlite3_column_int64(st, 4);
	it->location_name = text_or_null(st, 5);
	it->staff_name = text_or_null(st, 6);
	it->cashback_earned = int_or_none(st, 7);
	it->discount_amount = int_or_none(st, 8);
	it->redeemed_amount = int_or_none(st, 9);
	it->reward_name = text_or_null(st, 10);
	it->pos_ref = text_or_null(st, 11);
	it->pos_term = text_or_null(st, 12);
	it->notes = text_or_null(st, 13);
	it->client_ts = text_or_null(st, 14);
	it->voided_id = text_or_null(st, 15);
	it->voided_by = text_or_null(st, 16);
	it->reason = text_or_null(st, 17);
	it->punches_change = it->cashback_change = LC_TXN_NONE;
	it->redeemed_change = it->discount_change = LC_TXN_NONE;
	if (it->voided_id != NULL || (it->type != NULL &&
	    strcmp(it->type, "adjustment") == 0)) {
		/* Signed: kept apart, so no reader takes them for a
		 * purchase's. */
		it->punches_change = signed_or_none(st, 3);
		it->cashback_change = signed_or_none(st, 7);
		it->discount_change = signed_or_none(st, 8);
		it->redeemed_change = signed_or_none(st, 9);
		it->punches_added = it->cashback_earned = -1;
		it->discount_amount = it->redeemed_amount = -1;
	}
	it->expired_amount = int_or_none(st, 18);
}

static int
sq_history_page(struct lc_db *db, const struct lc_hist_query *q,
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
		hist_row(st, &it);
		stop = each(arg, &it);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
sq_card_set_name(struct lc_db *db, const char *id, const char *name)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SET_NAME, "ss", name, id));
}

static int
sq_card_set_share(struct lc_db *db, const char *id, const char *token,
    const char *secret)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_SET_SHARE, "sss", token,
	    secret, id));
}

static int
sq_card_code_use(struct lc_db *db, const char *id, int64_t step)
{
	return change(db, lc_sq_prep(db, LC_SQL_CARD_CODE_USE, "isi",
	    step, id, step));
}

static sqlite3_stmt *
cards_prep(struct lc_db *db, enum lc_sql which, const struct lc_card_query *q,
    char *start, char *word, size_t sz)
{
	if (q->q != NULL && lc_db_like_patterns(q->q, start, word, sz) == -1)
		return NULL;
	/* The count takes the filters only; the page its limit too. */
	return lc_sq_prep(db, which, which == LC_SQL_CARDS_COUNT ? "ssssss" :
	    "ssssssii", q->merchant_id, q->q, q->q ? start : NULL,
	    q->q ? word : NULL, q->program_id, q->status, q->limit, q->offset);
}

static int
sq_cards_count(struct lc_db *db, const struct lc_card_query *q,
    int64_t *total)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];
	sqlite3_stmt *st = cards_prep(db, LC_SQL_CARDS_COUNT, q, start, word,
	    sizeof(start));

	if (row(db, st) != 1)
		return -1;
	*total = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static int
sq_cards(struct lc_db *db, const struct lc_card_query *q,
    int (*each)(void *, const struct lc_card *), void *arg)
{
	char start[2 * LC_REF_MAX + 8], word[2 * LC_REF_MAX + 16];
	sqlite3_stmt *st = cards_prep(db, LC_SQL_CARDS_PAGE, q, start, word,
	    sizeof(start));
	struct lc_card *cs = NULL, *n;
	size_t nc = 0, i;
	int rc = -1, stop = 0;

	/* The page first: loading tiers steps another statement. */
	if (st == NULL)
		return -1;
	while ((rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		if ((n = realloc(cs, (nc + 1) * sizeof(*cs))) == NULL) {
			rc = SQLITE_NOMEM;
			break;
		}
		cs = n;
		card_row(st, &cs[nc++]);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		rc = -1;
		goto out;
	}
	rc = 0;
	for (i = 0; i < nc && stop == 0; i++) {
		if (strcmp(cs[i].program.type, "punch") != 0 &&
		    tiers_get(db, &cs[i].program) == -1) {
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

static int
sq_report(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group group,
    int (*each)(void *, const struct lc_report_row *), void *arg)
{
	static const enum lc_sql which[] = { LC_SQL_REPORT_DAY,
	    LC_SQL_REPORT_LOCATION, LC_SQL_REPORT_STAFF };
	sqlite3_stmt *st;
	struct lc_report_row r;
	int rc, stop = 0;

	st = group == LC_GROUP_DAY ? lc_sq_prep(db, which[group], "siii",
	    merchant_id, from, to, offset_ms) : lc_sq_prep(db, which[group],
	    "sii", merchant_id, from, to);
	if (st == NULL)
		return -1;
	while (stop == 0 && (rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		memset(&r, 0, sizeof(r));
		if (group == LC_GROUP_DAY)
			r.day = sqlite3_column_int64(st, 0);
		else
			COL(st, 0, r.key);
		r.label = text_or_null(st, 1);
		r.purchases = sqlite3_column_int64(st, 2);
		r.sales_amount = sqlite3_column_int64(st, 3);
		r.punches = sqlite3_column_int64(st, 4);
		r.rewards_earned = sqlite3_column_int64(st, 5);
		r.rewards_claimed = sqlite3_column_int64(st, 6);
		r.cashback_earned = sqlite3_column_int64(st, 7);
		r.cashback_redeemed = sqlite3_column_int64(st, 8);
		r.discounts_given = sqlite3_column_int64(st, 9);
		r.cashback_expired = sqlite3_column_int64(st, 10);
		r.punches_removed = sqlite3_column_int64(st, 11);
		stop = each(arg, &r);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
sq_outstanding(struct lc_db *db, const char *merchant_id, int64_t to,
    int64_t *cents)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_OUTSTANDING, "si", merchant_id,
	    to);

	if (row(db, st) != 1)
		return -1;
	*cents = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static int
sq_txns_count(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total)
{
	sqlite3_stmt *st = lc_sq_prep(db, LC_SQL_TXNS_COUNT, "sii", merchant_id,
	    from, to);

	if (row(db, st) != 1)
		return -1;
	*total = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

/* The rows of st (LC_TXN_ROW_COLS) to each. */
static int
txn_rows(struct lc_db *db, sqlite3_stmt *st,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	struct lc_txn_row t;
	int rc, stop = 0;

	if (st == NULL)
		return -1;
	while (stop == 0 && (rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		hist_row(st, &t.it);
		t.card_id = text_or_null(st, LC_HISTORY_NCOLS);
		t.customer_name = text_or_null(st, LC_HISTORY_NCOLS + 1);
		t.card_type = text_or_null(st, LC_HISTORY_NCOLS + 2);
		t.location_id = text_or_null(st, LC_HISTORY_NCOLS + 3);
		t.staff_user_id = text_or_null(st, LC_HISTORY_NCOLS + 4);
		t.card_title = text_or_null(st, LC_HISTORY_NCOLS + 5);
		stop = each(arg, &t);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
sq_txns(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return txn_rows(db, lc_sq_prep(db, LC_SQL_TXNS_PAGE, "siiii",
	    merchant_id, from, to, limit, offset), each, arg);
}

static int
sq_txns_mine(struct lc_db *db, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return txn_rows(db, lc_sq_prep(db, LC_SQL_TXNS_MINE, "sssii",
	    merchant_id, staff_user_id, location_id, since, limit), each, arg);
}

/* What a merchant's backup leaves out: every other merchant's rows, in
 * an order the foreign keys allow, and what is only the running
 * installation's (sign-in tokens, throttling). A table added to the
 * schema must be added here: tests/fixtures/admin/backup-other-merchant-
 * data.case reads every row of a backup for another merchant's data. */
static const char *const lc_backup_filter[] = {
	"DELETE FROM redemption_entries WHERE redeem_transaction_id IN "
	    "(SELECT id FROM transactions WHERE merchant_id <> ?1)",
	"DELETE FROM cashback_earnings WHERE card_id IN "
	    "(SELECT id FROM cards WHERE merchant_id <> ?1)",
	"DELETE FROM rewards WHERE card_id IN "
	    "(SELECT id FROM cards WHERE merchant_id <> ?1)",
	"DELETE FROM transactions WHERE merchant_id <> ?1",
	"DELETE FROM txn_counts WHERE card_id IN "
	    "(SELECT id FROM cards WHERE merchant_id <> ?1)",
	"DELETE FROM idempotency_keys WHERE merchant_id <> ?1",
	"DELETE FROM report_buckets WHERE merchant_id <> ?1",
	"DELETE FROM cards WHERE merchant_id <> ?1",
	"DELETE FROM tiers WHERE program_id IN "
	    "(SELECT id FROM programs WHERE merchant_id <> ?1)",
	"DELETE FROM programs WHERE merchant_id <> ?1",
	"DELETE FROM tokens",
	"DELETE FROM users WHERE merchant_id <> ?1",
	"DELETE FROM locations WHERE merchant_id <> ?1",
	"DELETE FROM merchants WHERE id <> ?1",
	"DELETE FROM login_attempts",
	"DELETE FROM login_known",
	/* The installation's own rows (merchant NULL) too. */
	"DELETE FROM audit_log WHERE merchant_id IS NOT ?1",
	NULL
};

/* Runs the filter on the copy dst for merchant_id, in one transaction. */
static int
backup_filter(sqlite3 *dst, const char *merchant_id)
{
	sqlite3_stmt *st = NULL;
	int i, off, rc = -1;

	/* The copy's own connection runs no trigger: the audit trail's
	 * refuse any delete, and the filter removes what it must itself. */
	if (sqlite3_db_config(dst, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0,
	    &off) != SQLITE_OK || off != 0 ||
	    exec(dst, "BEGIN IMMEDIATE") == -1)
		return -1;
	for (i = 0; lc_backup_filter[i] != NULL; i++) {
		if (sqlite3_prepare_v2(dst, lc_backup_filter[i], -1, &st,
		    NULL) != SQLITE_OK ||
		    (sqlite3_bind_parameter_count(st) > 0 &&
		    sqlite3_bind_text(st, 1, merchant_id, -1,
		    SQLITE_TRANSIENT) != SQLITE_OK) ||
		    sqlite3_step(st) != SQLITE_DONE)
			goto out;
		sqlite3_finalize(st);
		st = NULL;
	}
	rc = exec(dst, "COMMIT");
out:
	sqlite3_finalize(st);
	if (rc == -1) {
		lc_log("backup filter: %s", sqlite3_errmsg(dst));
		(void)exec(dst, "ROLLBACK");
	}
	return rc;
}

static int
sq_backup(struct lc_db *db, const char *path, const char *merchant_id)
{
	sqlite3 *dst = NULL;
	sqlite3_backup *b;
	int rc = -1;

	if (sqlite3_open_v2(path, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK)
		goto out;
	/* One step copies every page inside one read transaction of the
	 * source: a consistent snapshot, while writers go on in the WAL. */
	if ((b = sqlite3_backup_init(dst, "main", db->h, "main")) == NULL)
		goto out;
	if (sqlite3_backup_step(b, -1) != SQLITE_DONE) {
		(void)sqlite3_backup_finish(b);
		goto out;
	}
	if (sqlite3_backup_finish(b) != SQLITE_OK)
		goto out;
	/* A single self-contained file, holding one merchant's shop: the
	 * deleted rows' pages are rewritten away by VACUUM, not left in
	 * free pages of the file. */
	if (exec(dst, "PRAGMA journal_mode = DELETE") == -1 ||
	    exec(dst, "PRAGMA foreign_keys = ON") == -1 ||
	    (merchant_id != NULL && (backup_filter(dst, merchant_id) == -1 ||
	    exec(dst, "VACUUM") == -1)))
		goto out;
	rc = 0;
out:
	if (rc == -1)
		lc_log("backup: %s", dst ? sqlite3_errmsg(dst) : "cannot open");
	if (sqlite3_close(dst) != SQLITE_OK)
		rc = -1;
	return rc;
}

/* The statement of the filter that leads (the most selective given),
 * bound with them all. */
static sqlite3_stmt *
audit_prep(struct lc_db *db, const struct lc_audit_query *q, int page)
{
	enum lc_sql s;

	if (q->object_type != NULL)
		s = page ? LC_SQL_AUDIT_PAGE_OBJECT : LC_SQL_AUDIT_COUNT_OBJECT;
	else if (q->user_id != NULL)
		s = page ? LC_SQL_AUDIT_PAGE_USER : LC_SQL_AUDIT_COUNT_USER;
	else if (q->action != NULL)
		s = page ? LC_SQL_AUDIT_PAGE_ACTION : LC_SQL_AUDIT_COUNT_ACTION;
	else if (q->location_id != NULL)
		s = page ? LC_SQL_AUDIT_PAGE_LOCATION :
		    LC_SQL_AUDIT_COUNT_LOCATION;
	else
		s = page ? LC_SQL_AUDIT_PAGE : LC_SQL_AUDIT_COUNT;
	return page ? lc_sq_prep(db, s, "siisssssii", q->merchant_id, q->from,
	    q->to, q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id, q->limit, q->offset) :
	    lc_sq_prep(db, s, "siisssss", q->merchant_id, q->from, q->to,
	    q->user_id, q->action, q->object_type, q->object_id,
	    q->location_id);
}

static int
sq_audit_count(struct lc_db *db, const struct lc_audit_query *q,
    int64_t *total)
{
	sqlite3_stmt *st = audit_prep(db, q, 0);

	if (row(db, st) != 1)
		return -1;
	*total = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return 0;
}

static int
sq_audit(struct lc_db *db, const struct lc_audit_query *q,
    int (*each)(void *, const struct lc_audit_row *), void *arg)
{
	sqlite3_stmt *st = audit_prep(db, q, 1);
	struct lc_audit_row a;
	int rc = SQLITE_DONE, stop = 0;

	if (st == NULL)
		return -1;
	while (stop == 0 && (rc = lc_sq_step(db, st)) == SQLITE_ROW) {
		a.seq = sqlite3_column_int64(st, 0);
		a.at = sqlite3_column_int64(st, 1);
		a.merchant_id = text_or_null(st, 2);
		a.actor_type = text_or_null(st, 3);
		a.user_id = text_or_null(st, 4);
		a.location_id = text_or_null(st, 5);
		a.terminal_id = text_or_null(st, 6);
		a.request_id = text_or_null(st, 7);
		a.action = text_or_null(st, 8);
		a.object_type = text_or_null(st, 9);
		a.object_id = text_or_null(st, 10);
		a.before = text_or_null(st, 11);
		a.after = text_or_null(st, 12);
		a.user_name = text_or_null(st, 13);
		a.location_name = text_or_null(st, 14);
		stop = each(arg, &a);
	}
	sqlite3_reset(st);
	if (stop != 0)
		return stop;
	return rc == SQLITE_DONE ? 0 : -1;
}

static int
sq_card_any(struct lc_db *db, const char *id, struct lc_card *c)
{
	return card_get(db, lc_sq_prep(db, LC_SQL_CARD_ANY, "s", id), c);
}

static const struct lc_bk sq_bk = {
	"sqlite", sq_close, sq_replaced, sq_version, sq_begin, sq_idle,
	sq_commit, sq_tidy, sq_shrink, sq_rollback, sq_backup,
	sq_run, sq_next, sq_done, sq_text, sq_int64, sq_null, sq_changes,
	sq_insert_id
};

static const struct lc_db_ops sq_ops = {
#define SQ_OP(ret, name, params) sq_##name,
	LC_DB_OPS(SQ_OP)
#undef SQ_OP
};
