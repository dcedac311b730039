/*
 * Storage on PostgreSQL: the connection, migrations, transactions, and the
 * statement runner and column reader of lc_backend.h (struct lc_bk). The
 * storage functions are the topic files', shared with SQLite
 * (db_people.c, db_cards.c, db_lists.c).
 *
 * What gives the guarantees the rules rely on (lc_store.h: one write
 * transaction at a time, each reading then writing):
 *  - Each write transaction takes one transaction-level advisory lock
 *    (pg_advisory_xact_lock) as it begins, so writes to one database run
 *    one at a time whichever web server runs them, as on SQLite. This
 *    is what keeps an idempotency key to one transaction when two
 *    servers get it at once, a card from being overdrawn by parallel
 *    redemptions, FIFO spending in order, the punch cooldown, and a
 *    refresh token rotated once: each of those reads, then writes, inside
 *    the one turn. Row locks would serve a card's own counters, but a
 *    write also reads keys, rewards, the ledger and login failures, and
 *    one lock at begin covers them all without serialization failures to
 *    retry. The lock is released by COMMIT or ROLLBACK, also when the
 *    process or its connection dies.
 *  - Unique constraints stay the last word on what must be unique (keys,
 *    cards' codes, e-mails): an insert that meets one uses ON CONFLICT DO
 *    NOTHING and reports LC_DB_CONFLICT, leaving the transaction usable.
 *  - Reads run in a REPEATABLE READ, READ ONLY transaction: one snapshot
 *    per request, taking no lock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"
#include "lc_pg.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define PARAMS_MAX 32

enum { TXN_NONE, TXN_READ, TXN_WRITE };

struct lc_db {
	struct lc_db_head head;		/* first: see lc_backend.h */
	PGconn *c;
	int txn;			/* TXN_: what this connection began */
	/* Statements are sent whole instead of prepared once: a pooler in
	 * transaction mode hands this process other server connections,
	 * which lack what it prepared or hold another's (runv). */
	int unnamed;
	unsigned char prepared[LC_Q__MAX];
	char names[LC_Q__MAX][20];	/* "lc" and a hash of the text */
};

static const struct lc_bk pg_bk;
static void pg_close(struct lc_db *);
static int pg_replaced(struct lc_db *);
static int pg_version(struct lc_db *);
static int pg_begin(struct lc_db *, int);
static int pg_idle(struct lc_db *);
static int pg_commit(struct lc_db *);
static void pg_tidy(struct lc_db *);
static void pg_shrink(struct lc_db *);
static void pg_rollback(struct lc_db *);
static int pg_backup(struct lc_db *, const char *, const char *);

/* Runs SQL text of no parameters (one or more statements): 0 or -1. */
static int
exec(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql);
	ExecStatusType s = PQresultStatus(r);
	int rc = 0;

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		lc_log("sql: %s", r != NULL ? PQresultErrorMessage(r) :
		    PQerrorMessage(c));
		rc = -1;
	}
	PQclear(r);
	return rc;
}

/* Notices (such as "already exists, skipping") are not the service's to
 * log. */
static void
quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* The highest applied migration, 0 for a database with none, -1. */
static int
applied_version(PGconn *c)
{
	PGresult *r;
	int v = -1;

	r = PQexec(c, "SELECT to_regclass('schema_migrations') IS NULL");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
		goto out;
	if (strcmp(PQgetvalue(r, 0, 0), "t") == 0) {
		v = 0;
		goto out;
	}
	PQclear(r);
	r = PQexec(c, "SELECT coalesce(max(version), 0) FROM "
	    "schema_migrations");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
		goto out;
	v = atoi(PQgetvalue(r, 0, 0));
out:
	if (v == -1)
		lc_log("sql: %s", PQerrorMessage(c));
	PQclear(r);
	return v;
}

static int
latest_version(void)
{
	int i, v = 0;

	for (i = 0; lc_pg_migrations[i].sql != NULL; i++)
		v = lc_pg_migrations[i].version;
	return v;
}

/* Applies the missing migrations in one transaction, in the write turn,
 * so servers starting at once on an old database upgrade it once. */
static int
migrate(struct lc_db *db)
{
	const char *vals[3];
	char version[16], at[24];
	PGresult *r;
	int i, have, rc = -1;

	if ((have = applied_version(db->c)) == -1)
		return -1;
	if (have >= latest_version())
		return 0;
	if (exec(db->c, "BEGIN ISOLATION LEVEL READ COMMITTED; "
	    "SELECT pg_advisory_xact_lock(" LC_PG_WRITE_LOCK ")") == -1)
		goto out;
	if (exec(db->c, "CREATE TABLE IF NOT EXISTS schema_migrations ("
	    "version BIGINT PRIMARY KEY, name TEXT NOT NULL, "
	    "applied_at BIGINT NOT NULL)") == -1 ||
	    (have = applied_version(db->c)) == -1)
		goto out;
	for (i = 0; lc_pg_migrations[i].sql != NULL; i++) {
		if (lc_pg_migrations[i].version <= have)
			continue;
		if (exec(db->c, lc_pg_migrations[i].sql) == -1)
			goto out;
		snprintf(version, sizeof(version), "%d",
		    lc_pg_migrations[i].version);
		snprintf(at, sizeof(at), "%lld", (long long)lc_now_ms());
		vals[0] = version;
		vals[1] = lc_pg_migrations[i].name;
		vals[2] = at;
		r = PQexecParams(db->c, "INSERT INTO schema_migrations(version, "
		    "name, applied_at) VALUES ($1, $2, $3)", 3, NULL, vals,
		    NULL, NULL, 0);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			lc_log("sql: %s", PQresultErrorMessage(r));
			PQclear(r);
			goto out;
		}
		PQclear(r);
	}
	rc = exec(db->c, "COMMIT");
out:
	if (rc == -1 && PQtransactionStatus(db->c) != PQTRANS_IDLE)
		(void)exec(db->c, "ROLLBACK");
	return rc;
}

/* The count of tables in the database's schema (-1 on failure): any
 * before the service's own are another program's. */
static int
foreign_tables(PGconn *c)
{
	PGresult *r = PQexec(c, "SELECT count(*) FROM "
	    "information_schema.tables WHERE table_schema = current_schema()");
	int n = -1;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
		n = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return n;
}

/*
 * Whether a failed connection was refused for its set-up (no password, a
 * wrong one, no such user or database, no pg_hba.conf line), which no
 * retry cures, rather than a server down or restarting. libpq gives the
 * server's words only, in the server's language: those of an English one
 * are known here; any other stays a failure to retry.
 */
static int
refused(PGconn *c)
{
	static const char *const words[] = { "password authentication failed",
	    "no password supplied", "authentication failed",
	    "does not exist", "no pg_hba.conf entry", "permission denied" };
	const char *m = PQerrorMessage(c);
	size_t i;

	if (PQconnectionNeedsPassword(c))
		return 1;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(m, words[i]) != NULL)
			return 1;
	return 0;
}

struct lc_db *
lc_pg_open(const char *conninfo, int create, const char **errmsg,
    int *misconfigured)
{
	/* The name is a URI or conninfo (expanded in dbname's place): what
	 * it says wins over the defaults before it, the encoding after it
	 * wins over the name. A server that does not answer is given up
	 * after 10 s, not the system's TCP timeout. */
	const char *const keys[] = { "connect_timeout",
	    "fallback_application_name", "dbname", "client_encoding", NULL };
	const char *vals[] = { "10", "loyalty-pos", conninfo, "UTF8", NULL };
	PQconninfoOption *opts;
	struct lc_db *db;
	char *err = NULL;
	int have;

	*errmsg = NULL;
	if (misconfigured != NULL)
		*misconfigured = 0;
	/* A name libpq cannot read is a set-up to fix, not a server to
	 * wait for. */
	if ((opts = PQconninfoParse(conninfo, &err)) == NULL) {
		/* libpq's reason may quote the string, password and all. */
		PQfreemem(err);
		*errmsg = "the PostgreSQL connection string is not valid";
		if (misconfigured != NULL)
			*misconfigured = 1;
		return NULL;
	}
	PQconninfoFree(opts);
	if ((db = calloc(1, sizeof(*db))) == NULL) {
		*errmsg = "out of memory";
		return NULL;
	}
	db->head.bk = &pg_bk;
	db->c = PQconnectdbParams(keys, vals, 1);
	if (db->c == NULL || PQstatus(db->c) != CONNECTION_OK) {
		/* libpq's message names the server, never the password. */
		lc_log("PostgreSQL: %s", db->c != NULL ?
		    PQerrorMessage(db->c) : "out of memory");
		*errmsg = "cannot connect to the PostgreSQL server";
		if (db->c != NULL && refused(db->c)) {
			*errmsg = "the PostgreSQL server refused this user or "
			    "database (the server's error log says why)";
			if (misconfigured != NULL)
				*misconfigured = 1;
		}
		goto fail;
	}
	(void)PQsetNoticeProcessor(db->c, quiet, NULL);
	if ((have = applied_version(db->c)) == -1) {
		*errmsg = "cannot read the database schema";
		goto fail;
	}
	/* SQLite makes a new file on a new installation's first request;
	 * an empty PostgreSQL database is set up by loyalty-admin init, and
	 * one that holds another program's tables never. */
	if (have == 0 && create && foreign_tables(db->c) != 0) {
		*errmsg = "the PostgreSQL database holds tables of something "
		    "else: give the service an empty database of its own";
		if (misconfigured != NULL)
			*misconfigured = 1;
		goto fail;
	}
	if (have == 0 && !create) {
		*errmsg = "the PostgreSQL database is empty: set it up with "
		    "loyalty-admin init";
		if (misconfigured != NULL)
			*misconfigured = 1;
		goto fail;
	}
	if (migrate(db) == -1) {
		*errmsg = "cannot upgrade the database schema";
		goto fail;
	}
	return db;
fail:
	pg_close(db);
	return NULL;
}

static void
pg_close(struct lc_db *db)
{
	if (db == NULL)
		return;
	PQfinish(db->c);
	free(db);
}

/* A server's database has no file of ours to be swapped under us. */
static int
pg_replaced(struct lc_db *db)
{
	(void)db;
	return 0;
}

PGconn *
lc_pg_handle(struct lc_db *db)
{
	return db->c;
}

static int
pg_version(struct lc_db *db)
{
	return applied_version(db->c);
}

/* Between transactions: a connection the server dropped (a restart, a
 * failover) is made again, with nothing prepared on it. */
static int
connected(struct lc_db *db)
{
	if (PQstatus(db->c) == CONNECTION_OK)
		return 0;
	PQreset(db->c);
	memset(db->prepared, 0, sizeof(db->prepared));
	if (PQstatus(db->c) != CONNECTION_OK) {
		lc_log("PostgreSQL: %s", PQerrorMessage(db->c));
		return -1;
	}
	return 0;
}

static int
begin_sql(struct lc_db *db, int write)
{
	if (!write)
		return exec(db->c, "BEGIN ISOLATION LEVEL REPEATABLE READ, "
		    "READ ONLY");
	return exec(db->c, "BEGIN ISOLATION LEVEL READ COMMITTED; "
	    "SET LOCAL lock_timeout = " STR(LC_BUSY_TIMEOUT_MS) "; "
	    "SELECT pg_advisory_xact_lock(" LC_PG_WRITE_LOCK ")");
}

static int
pg_begin(struct lc_db *db, int write)
{
	int rc;

	/* A read begun inside the request's read reads its snapshot; a
	 * write ends that read first, to start from the newest data. */
	if (db->txn == TXN_READ) {
		if (!write)
			return 0;
		pg_rollback(db);
	} else if (db->txn == TXN_WRITE) {
		lc_log("a transaction was begun inside a write");
		return -1;
	}
	if (connected(db) == -1)
		return -1;
	/* One round trip: the transaction, then the write turn, waited for
	 * as long as SQLite's writers wait theirs (LC_BUSY_TIMEOUT_MS). A
	 * write no one waits for (LC_DB_WRITE_LATER) queues as any other:
	 * the advisory lock has no order to give way in. */
	rc = begin_sql(db, write);
	/* A connection the server dropped while this process was idle is
	 * found dead only now: nothing was done yet, so it is made again
	 * and the transaction begun once more. */
	if (rc == -1 && PQstatus(db->c) == CONNECTION_BAD &&
	    connected(db) == 0)
		rc = begin_sql(db, write);
	if (rc == -1) {
		if (PQtransactionStatus(db->c) != PQTRANS_IDLE)
			(void)exec(db->c, "ROLLBACK");
		return -1;
	}
	db->txn = write ? TXN_WRITE : TXN_READ;
	return 0;
}

static int
pg_commit(struct lc_db *db)
{
	PGresult *r = PQexec(db->c, "COMMIT");
	int rc = -1;

	/* COMMIT of a failed transaction answers ROLLBACK. Durable once
	 * answered, as the server's synchronous_commit makes it (on by
	 * default; README says not to turn it off). */
	if (PQresultStatus(r) == PGRES_COMMAND_OK &&
	    strcmp(PQcmdStatus(r), "COMMIT") == 0)
		rc = 0;
	else
		lc_log("commit: %s", r != NULL && *PQresultErrorMessage(r) ?
		    PQresultErrorMessage(r) : "the transaction had failed");
	PQclear(r);
	db->txn = TXN_NONE;
	if (PQtransactionStatus(db->c) != PQTRANS_IDLE)
		(void)exec(db->c, "ROLLBACK");
	return rc;
}

static void
pg_rollback(struct lc_db *db)
{
	PGTransactionStatusType s = PQtransactionStatus(db->c);

	if (s == PQTRANS_INTRANS || s == PQTRANS_INERROR)
		(void)exec(db->c, "ROLLBACK");
	db->txn = TXN_NONE;
}

static int
pg_idle(struct lc_db *db)
{
	int left = db->txn == TXN_WRITE;

	/* The request's read ends here; a write left open is a bug, and
	 * would hold every other writer's turn. */
	if (left)
		lc_log("a transaction was left open: rolled back");
	pg_rollback(db);
	return left;
}

static void
pg_tidy(struct lc_db *db)
{
	/* The server's autovacuum keeps the tables and the log. */
	(void)db;
}

static void
pg_shrink(struct lc_db *db)
{
	/* Results are freed as each statement is read: nothing is cached. */
	(void)db;
}

static int
pg_backup(struct lc_db *db, const char *path, const char *merchant_id)
{
	(void)db;
	(void)path;
	(void)merchant_id;
	lc_log("a PostgreSQL database is backed up with the server's own "
	    "tools (pg_dump), not by the service");
	return -1;
}

/* "lc" and 16 hex digits of the FNV-1a hash of sql. */
static void
name_of(const char *sql, char out[20])
{
	uint64_t h = 14695981039346656037ULL;

	for (; *sql != '\0'; sql++)
		h = (h ^ (unsigned char)*sql) * 1099511628211ULL;
	snprintf(out, 20, "lc%016llx", (unsigned long long)h);
}

static PGresult *
runv(struct lc_db *db, int slot, const char *sql, const char *fmt,
    va_list ap)
{
	const char *vals[PARAMS_MAX];
	int lens[PARAMS_MAX], fmts[PARAMS_MAX];
	char nums[PARAMS_MAX][24];
	PGresult *r = NULL;
	ExecStatusType s;
	int64_t v;
	int n, bad = 0;
	const char *state;

	if (slot < 0 || slot >= LC_Q__MAX || strlen(fmt) > PARAMS_MAX) {
		lc_log("statement %d: bad slot or too many parameters", slot);
		return NULL;
	}
	for (n = 0; fmt[n] != '\0'; n++) {
		vals[n] = NULL;
		lens[n] = 0;
		fmts[n] = 0;
		switch (fmt[n]) {
		case 's':
			vals[n] = va_arg(ap, const char *);
			break;
		case 'N':
			break;
		case 'i':
		case 'o':
		case 'l':	/* PostgreSQL refuses a negative LIMIT: NULL */
		case 'n':
			v = va_arg(ap, int64_t);
			if (((fmt[n] == 'o' || fmt[n] == 'l') && v < 0) ||
			    (fmt[n] == 'n' && v == LC_TXN_NONE))
				break;
			snprintf(nums[n], sizeof(nums[n]), "%lld",
			    (long long)v);
			vals[n] = nums[n];
			break;
		case 'b':
			vals[n] = va_arg(ap, const char *);
			lens[n] = va_arg(ap, int);
			fmts[n] = 1;
			break;
		default:
			lc_log("statement %d: bad bind format '%c'", slot,
			    fmt[n]);
			bad = 1;
		}
	}
	if (bad)
		return NULL;
	/* A statement's name is a hash of its text: a server connection
	 * shared through a pooler may hold statements another process
	 * prepared, and a name found there then still means this text
	 * (another version of the service has other names). */
	if (db->names[slot][0] == '\0')
		name_of(sql, db->names[slot]);
	if (!db->unnamed && !db->prepared[slot]) {
		r = PQprepare(db->c, db->names[slot], sql, 0, NULL);
		if (PQresultStatus(r) != PGRES_COMMAND_OK)
			goto fail;
		PQclear(r);
		db->prepared[slot] = 1;
	}
	if (db->unnamed)
		r = PQexecParams(db->c, sql, n, NULL, vals, lens, fmts, 0);
	else
		r = PQexecPrepared(db->c, db->names[slot], n, vals, lens, fmts,
		    0);
	s = PQresultStatus(r);
	if (s == PGRES_TUPLES_OK || s == PGRES_COMMAND_OK)
		return r;
fail:
	/* Not prepared on this server connection (26000), or prepared
	 * already by another process sharing it (42P05): a pooler in
	 * transaction mode. This request's transaction has failed; from
	 * now on statements go whole, which any pooler passes on. */
	state = r != NULL ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	if (state != NULL && (strcmp(state, "26000") == 0 ||
	    strcmp(state, "42P05") == 0) && !db->unnamed) {
		lc_log("PostgreSQL: the server connection does not keep this "
		    "process's prepared statements (a pooler in transaction "
		    "mode?): statements are sent whole from now on");
		db->unnamed = 1;
	}
	lc_log("statement %d: %s", slot, r != NULL ?
	    PQresultErrorMessage(r) : PQerrorMessage(db->c));
	PQclear(r);
	return NULL;
}

/*
 * The text of the topic files' statement slot in PostgreSQL's words: pg,
 * else sql, with each ?NNN as $NNN and each bare ? numbered as SQLite
 * numbers it (one past the largest so far). Made once per process, on
 * first use, and kept; NULL when out of memory.
 */
static const char *
pg_text(int slot, const char *sql, const char *pg)
{
	static char *text[LC_Q__MAX];
	const char *s;
	char *o;
	int last = 0, quoted = 0, n;

	if (text[slot] != NULL)
		return text[slot];
	if (pg != NULL)
		sql = pg;
	/* "?" is one byte, "$NN" at most 4 */
	if ((o = text[slot] = malloc(strlen(sql) * 4 + 1)) == NULL)
		return NULL;
	for (s = sql; *s != '\0'; s++) {
		if (*s == '\'')
			quoted = !quoted;
		if (*s != '?' || quoted) {
			*o++ = *s;
			continue;
		}
		if (s[1] >= '0' && s[1] <= '9') {
			n = (int)strtol(s + 1, NULL, 10);
			s += strspn(s + 1, "0123456789");
		} else
			n = last + 1;
		if (n > last)
			last = n;
		o += sprintf(o, "$%d", n);
	}
	*o = '\0';
	return text[slot];
}

static int
pgq_run(struct lc_row *r, int slot, const char *sql, const char *pg,
    const char *fmt, va_list ap)
{
	const char *text;

	if (slot < 0 || slot >= LC_Q__MAX) {
		lc_log("statement %d: no such slot", slot);
		return -1;
	}
	if ((text = pg_text(slot, sql, pg)) == NULL) {
		lc_log("statement %d: out of memory", slot);
		return -1;
	}
	if ((r->st = runv(r->db, slot, text, fmt, ap)) == NULL)
		return -1;
	r->i = -1;
	r->n = PQntuples(r->st);
	return 0;
}

static int
pgq_next(struct lc_row *r)
{
	return ++r->i < r->n ? 1 : 0;
}

static void
pgq_done(struct lc_row *r)
{
	PQclear(r->st);
	r->st = NULL;
}

static const char *
pgq_text(struct lc_row *r, int col, size_t *len)
{
	if (PQgetisnull(r->st, r->i, col)) {
		*len = 0;
		return NULL;
	}
	*len = (size_t)PQgetlength(r->st, r->i, col);
	return PQgetvalue(r->st, r->i, col);
}

static int64_t
pgq_int64(struct lc_row *r, int col)
{
	if (PQgetisnull(r->st, r->i, col))
		return 0;
	return (int64_t)strtoll(PQgetvalue(r->st, r->i, col), NULL, 10);
}

static int
pgq_null(struct lc_row *r, int col)
{
	return PQgetisnull(r->st, r->i, col);
}

static int64_t
pgq_changes(struct lc_row *r)
{
	return (int64_t)strtoll(PQcmdTuples(r->st), NULL, 10);
}

/* RETURNING rowid */
static int
pgq_insert_id(struct lc_row *r, int64_t *id)
{
	if (r->n < 1 || PQgetisnull(r->st, 0, 0))
		return -1;
	*id = (int64_t)strtoll(PQgetvalue(r->st, 0, 0), NULL, 10);
	return 0;
}

static const struct lc_bk pg_bk = {
	"postgresql", pg_close, pg_replaced, pg_version, pg_begin, pg_idle,
	pg_commit, pg_tidy, pg_shrink, pg_rollback, pg_backup,
	pgq_run, pgq_next, pgq_done, pgq_text, pgq_int64, pgq_null,
	pgq_changes, pgq_insert_id
};
