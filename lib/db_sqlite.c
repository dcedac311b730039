/*
 * Storage on SQLite: the connection, migrations, its own few statements
 * (transactions, the migrations' record), and the statement runner and
 * column reader of lc_backend.h over which the topic files (db_people.c,
 * db_cards.c, db_lists.c) write every function of lc_store.h once. With
 * db_pg.c, the only file that steps a statement or reads a column.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lc_backend.h"
#include "lc_core.h"
#include "lc_queue.h"
#include "lc_sqlite.h"

/* The backend's own statements; the storage functions' are the topic
 * files' (lc_st_run). Prepared once per connection and kept. */
#define LC_SQL_LIST \
	X(BEGIN, "BEGIN") \
	X(BEGIN_WRITE, "BEGIN IMMEDIATE") \
	X(COMMIT, "COMMIT") \
	X(ROLLBACK, "ROLLBACK") \
	X(MIGRATION_ADD, "INSERT INTO schema_migrations(version, name, " \
	    "applied_at) VALUES (?, ?, ?)")

enum lc_sql {
#define X(name, sql) LC_SQL_##name,
	LC_SQL_LIST
#undef X
	LC_SQL__MAX
};

struct lc_db {
	struct lc_db_head head;		/* first: see lc_backend.h */
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

static const struct lc_bk sq_bk;
static void sq_close(struct lc_db *);
static int sq_replaced(struct lc_db *);
static int sq_version(struct lc_db *);
static int sq_begin(struct lc_db *, int);
static int sq_idle(struct lc_db *);
static int sq_commit(struct lc_db *);
static void sq_tidy(struct lc_db *);
static void sq_shrink(struct lc_db *);
static void sq_rollback(struct lc_db *);
static int sq_backup(struct lc_db *, const char *, const char *);

static sqlite3_stmt *lc_sq_prep(struct lc_db *, enum lc_sql, const char *,
    ...);
static int lc_sq_step(struct lc_db *, sqlite3_stmt *);
static int lc_sq_exec(struct lc_db *, sqlite3_stmt *);

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
	db->head.bk = &sq_bk;
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

static sqlite3_stmt *
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

static int
lc_sq_step(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		lc_log("step: %s (%d)", sqlite3_errmsg(db->h), rc);
	return rc;
}

static int
lc_sq_exec(struct lc_db *db, sqlite3_stmt *st)
{
	int rc = lc_sq_step(db, st);

	sqlite3_reset(st);
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? 0 : -1;
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

static int
sq_idle(struct lc_db *db)
{
	int i, left = 0;

	/* The request's read transaction ends here; a write one left
	 * open is a bug. */
	if (!sqlite3_get_autocommit(db->h)) {
		left = sqlite3_txn_state(db->h, NULL) == SQLITE_TXN_WRITE;
		if (left)
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
	return left;
}

static void
sq_rollback(struct lc_db *db)
{
	if (!sqlite3_get_autocommit(db->h))
		(void)txn(db, LC_SQL_ROLLBACK);
	lc_queue_leave(&db->queue);
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
	"DELETE FROM events WHERE merchant_id <> ?1",
	"DELETE FROM events_pruned WHERE merchant_id <> ?1",
	"DELETE FROM report_buckets WHERE merchant_id <> ?1",
	"DELETE FROM cards WHERE merchant_id <> ?1",
	"DELETE FROM tiers WHERE program_id IN "
	    "(SELECT id FROM programs WHERE merchant_id <> ?1)",
	"DELETE FROM programs WHERE merchant_id <> ?1",
	"DELETE FROM tokens",
	/* Issue 28: integration tokens (the shop's own are kept: digests
	 * only), webhooks with their jobs and log, and the installation's
	 * deliverer. */
	"DELETE FROM api_tokens WHERE merchant_id <> ?1",
	"DELETE FROM webhook_deliveries WHERE webhook_id IN "
	    "(SELECT id FROM webhooks WHERE merchant_id <> ?1)",
	"DELETE FROM webhook_jobs WHERE webhook_id IN "
	    "(SELECT id FROM webhooks WHERE merchant_id <> ?1)",
	"DELETE FROM webhooks WHERE merchant_id <> ?1",
	"DELETE FROM deliverer",
	"DELETE FROM shop_settings WHERE merchant_id <> ?1",
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

static const struct lc_bk sq_bk = {
	"sqlite", sq_close, sq_replaced, sq_version, sq_begin, sq_idle,
	sq_commit, sq_tidy, sq_shrink, sq_rollback, sq_backup,
	sq_run, sq_next, sq_done, sq_text, sq_int64, sq_null, sq_changes,
	sq_insert_id
};

