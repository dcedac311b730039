/*
 * loyalty-admin migrate-to URI: copies a SQLite shop, live, into an empty
 * PostgreSQL database, and says it is done only once the copy is checked.
 *
 * The copy is of one read snapshot of the SQLite file, so the service may
 * keep selling while it runs; but what it writes after the snapshot is
 * not in the copy: when that happened, the copy is rolled back and the
 * command fails, saying so. The
 * tables and their columns are read from the two schemas, which are the
 * same migrations (schema/ and schema/pg/): a column a later migration
 * adds is copied without a change here. Every row goes in one PostgreSQL
 * transaction, in the write turn, with the tables' own triggers off (the
 * report figures and counts they keep are copied as they are), in an
 * order that lets each foreign key find its row; the identity counters
 * then continue after the copied rows. Before the commit, each table's
 * row count, the sum of each integer column (balances, the ledger, the
 * figures) and the total length of each other column are compared with
 * the snapshot's: any difference rolls everything back.
 *
 * The one place of the library whose SQL is not all static text: a
 * statement per table names that table and its columns, which no
 * parameter can stand for. Those names come from the two schemas' own
 * catalogs, never from input, and each must be plain_name()'s (small
 * letters, digits, _) before it is put between double quotes; values are
 * bound or go through COPY.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"
#include "lc_pg.h"
#include "lc_sqlite.h"

#define TABLES_MAX 64
#define COLS_MAX 64
#define NAME_MAX_ 64

struct table {
	char name[NAME_MAX_];
	char cols[COLS_MAX][NAME_MAX_];
	int integer[COLS_MAX];		/* SQLite's INTEGER affinity */
	int ncols;
	int rowid;			/* PostgreSQL's copy has a rowid */
	int done;
};

struct migration {
	sqlite3 *sq;
	PGconn *pg;
	struct table t[TABLES_MAX];
	int nt;
	int64_t rows;
};

static int
fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
fail(const char *fmt, ...)
{
	va_list ap;

	fputs("loyalty-admin: migrate-to: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* A name of the schema, safe to put between double quotes as it is. */
static int
plain_name(const char *s)
{
	size_t i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_' ||
		    (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return i > 0 && i < NAME_MAX_;
}

/* One value of PostgreSQL's answer to sql with its n parameters: 0 or
 * -1 (told). */
static int
pg_value_n(PGconn *pg, const char *sql, int n, const char *const *params,
    char *out, size_t outsz)
{
	PGresult *r = PQexecParams(pg, sql, n, NULL, params, NULL, NULL, 0);
	int rc = -1;

	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1)
		fail("PostgreSQL: %s", PQresultErrorMessage(r));
	else {
		snprintf(out, outsz, "%s", PQgetisnull(r, 0, 0) ? "" :
		    PQgetvalue(r, 0, 0));
		rc = 0;
	}
	PQclear(r);
	return rc;
}

/* As pg_value_n with one parameter (NULL: none). */
static int
pg_value(PGconn *pg, const char *sql, const char *param, char *out,
    size_t outsz)
{
	return pg_value_n(pg, sql, param != NULL, &param, out, outsz);
}

static int
pg_do(PGconn *pg, const char *sql)
{
	PGresult *r = PQexec(pg, sql);
	ExecStatusType s = PQresultStatus(r);
	int rc = 0;

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
		rc = fail("PostgreSQL: %s", PQresultErrorMessage(r));
	PQclear(r);
	return rc;
}

/* The tables of the SQLite shop with their columns, each checked against
 * PostgreSQL's table of the same name. */
static int
tables_read(struct migration *m)
{
	sqlite3_stmt *st = NULL, *ci = NULL;
	char sql[256], v[16];
	struct table *t;
	const char *name, *type;
	int rc = -1, pgcols;

	if (sqlite3_prepare_v2(m->sq, "SELECT name FROM sqlite_master WHERE "
	    "type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND "
	    "name <> 'schema_migrations' ORDER BY name", -1, &st, NULL) !=
	    SQLITE_OK)
		return fail("SQLite: %s", sqlite3_errmsg(m->sq));
	while (sqlite3_step(st) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(st, 0);
		if (name == NULL || !plain_name(name) || m->nt == TABLES_MAX) {
			fail("the SQLite table %s is not one of the service's",
			    name != NULL ? name : "(none)");
			goto out;
		}
		t = &m->t[m->nt++];
		snprintf(t->name, sizeof(t->name), "%s", name);
		snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", name);
		if (sqlite3_prepare_v2(m->sq, sql, -1, &ci, NULL) != SQLITE_OK) {
			fail("SQLite: %s", sqlite3_errmsg(m->sq));
			goto out;
		}
		while (sqlite3_step(ci) == SQLITE_ROW) {
			name = (const char *)sqlite3_column_text(ci, 1);
			type = (const char *)sqlite3_column_text(ci, 2);
			if (name == NULL || !plain_name(name) ||
			    t->ncols == COLS_MAX) {
				fail("table %s: a column the service does not "
				    "have", t->name);
				goto out;
			}
			snprintf(t->cols[t->ncols], NAME_MAX_, "%s", name);
			t->integer[t->ncols++] = type != NULL &&
			    strstr(type, "INT") != NULL;
		}
		sqlite3_finalize(ci);
		ci = NULL;
		/* The same table on PostgreSQL: its columns, and whether it
		 * keeps SQLite's rowid as a column. */
		if (pg_value(m->pg, "SELECT count(*) FROM "
		    "information_schema.columns WHERE table_schema = "
		    "current_schema() AND table_name = $1 AND column_name <> "
		    "'rowid'", t->name, v, sizeof(v)) == -1)
			goto out;
		pgcols = atoi(v);
		if (pg_value(m->pg, "SELECT count(*) FROM "
		    "information_schema.columns WHERE table_schema = "
		    "current_schema() AND table_name = $1 AND column_name = "
		    "'rowid'", t->name, v, sizeof(v)) == -1)
			goto out;
		t->rowid = atoi(v) > 0;
		if (pgcols != t->ncols) {
			fail("table %s has %d columns in SQLite and %d in "
			    "PostgreSQL: are both at the same version?",
			    t->name, t->ncols, pgcols);
			goto out;
		}
	}
	if (pg_value(m->pg, "SELECT count(*) FROM information_schema.tables "
	    "WHERE table_schema = current_schema() AND table_type = "
	    "'BASE TABLE' AND table_name <> 'schema_migrations'", NULL, v,
	    sizeof(v)) == -1)
		goto out;
	if (atoi(v) != m->nt) {
		fail("SQLite has %d tables and PostgreSQL %s", m->nt, v);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(ci);
	sqlite3_finalize(st);
	return rc;
}

/* 1 when every table t's foreign keys name is copied already. */
static int
ready(struct migration *m, const struct table *t)
{
	sqlite3_stmt *st = NULL;
	char sql[128];
	const char *ref;
	int i, ok = 1;

	snprintf(sql, sizeof(sql), "PRAGMA foreign_key_list(\"%s\")", t->name);
	if (sqlite3_prepare_v2(m->sq, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		ref = (const char *)sqlite3_column_text(st, 2);
		if (ref == NULL || strcmp(ref, t->name) == 0)
			continue;
		for (i = 0; i < m->nt; i++)
			if (strcmp(m->t[i].name, ref) == 0 && !m->t[i].done)
				ok = 0;
	}
	sqlite3_finalize(st);
	return ok;
}

/* Appends one value in COPY's text form. */
static int
copy_value(sqlite3_stmt *st, int i, char **buf, size_t *len, size_t *cap)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p;
	size_t n, k, need;
	char *nb;

	n = (size_t)sqlite3_column_bytes(st, i);
	need = *len + 4 * n + 32;
	if (need > *cap) {
		if ((nb = realloc(*buf, need * 2)) == NULL)
			return -1;
		*buf = nb;
		*cap = need * 2;
	}
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_NULL:
		memcpy(*buf + *len, "\\N", 2);
		*len += 2;
		break;
	case SQLITE_BLOB:
		p = sqlite3_column_blob(st, i);
		memcpy(*buf + *len, "\\\\x", 3);
		*len += 3;
		for (k = 0; k < n; k++) {
			(*buf)[(*len)++] = hex[p[k] >> 4];
			(*buf)[(*len)++] = hex[p[k] & 15];
		}
		break;
	default:
		p = sqlite3_column_text(st, i);
		for (k = 0; k < n; k++) {
			switch (p[k]) {
			case '\\':
				(*buf)[(*len)++] = '\\';
				(*buf)[(*len)++] = '\\';
				break;
			case '\t':
				(*buf)[(*len)++] = '\\';
				(*buf)[(*len)++] = 't';
				break;
			case '\n':
				(*buf)[(*len)++] = '\\';
				(*buf)[(*len)++] = 'n';
				break;
			case '\r':
				(*buf)[(*len)++] = '\\';
				(*buf)[(*len)++] = 'r';
				break;
			default:
				(*buf)[(*len)++] = (char)p[k];
			}
		}
	}
	return 0;
}

/* Copies one table's rows (in SQLite's rowid order where PostgreSQL keeps
 * it, so a row comes after the rows it names). */
static int
table_copy(struct migration *m, const struct table *t)
{
	char sel[4096], cp[4096], *buf = NULL;
	size_t len, cap = 0, o1, o2;
	sqlite3_stmt *st = NULL;
	PGresult *r;
	int i, rc = -1, step, first, ncol;

	o1 = (size_t)snprintf(sel, sizeof(sel), "SELECT %s",
	    t->rowid ? "rowid" : "");
	o2 = (size_t)snprintf(cp, sizeof(cp), "COPY \"%s\"(%s", t->name,
	    t->rowid ? "rowid" : "");
	for (i = 0; i < t->ncols && o1 < sizeof(sel) && o2 < sizeof(cp); i++) {
		first = i == 0 && !t->rowid;
		o1 += (size_t)snprintf(sel + o1, sizeof(sel) - o1, "%s\"%s\"",
		    first ? "" : ", ", t->cols[i]);
		if (o1 < sizeof(sel))
			o2 += (size_t)snprintf(cp + o2, sizeof(cp) - o2,
			    "%s\"%s\"", first ? "" : ", ", t->cols[i]);
	}
	if (o1 < sizeof(sel))
		o1 += (size_t)snprintf(sel + o1, sizeof(sel) - o1,
		    " FROM \"%s\"%s", t->name, t->rowid ? " ORDER BY rowid" : "");
	if (o2 < sizeof(cp))
		o2 += (size_t)snprintf(cp + o2, sizeof(cp) - o2, ") FROM STDIN");
	if (o1 >= sizeof(sel) || o2 >= sizeof(cp))
		return fail("table %s: too many columns", t->name);
	if (sqlite3_prepare_v2(m->sq, sel, -1, &st, NULL) != SQLITE_OK)
		return fail("SQLite: %s", sqlite3_errmsg(m->sq));
	ncol = sqlite3_column_count(st);
	r = PQexec(m->pg, cp);
	if (PQresultStatus(r) != PGRES_COPY_IN) {
		fail("PostgreSQL: %s", PQresultErrorMessage(r));
		PQclear(r);
		goto out;
	}
	PQclear(r);
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		len = 0;
		for (i = 0; i < ncol; i++) {
			/* Room for the separator too. */
			if (copy_value(st, i, &buf, &len, &cap) == -1)
				goto end;
			buf[len++] = i + 1 < ncol ? '\t' : '\n';
		}
		if (PQputCopyData(m->pg, buf, (int)len) != 1)
			goto end;
		m->rows++;
	}
	if (step == SQLITE_DONE)
		rc = 0;
	else
		fail("SQLite: %s", sqlite3_errmsg(m->sq));
end:
	if (PQputCopyEnd(m->pg, rc == 0 ? NULL : "stopped") != 1)
		rc = -1;
	while ((r = PQgetResult(m->pg)) != NULL) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0)
			rc = fail("table %s: %s", t->name,
			    PQresultErrorMessage(r));
		PQclear(r);
	}
out:
	free(buf);
	sqlite3_finalize(st);
	return rc;
}

/* A figure of a table on both sides: equal, or -1 after telling. */
static int
same(struct migration *m, const struct table *t, const char *what,
    const char *expr)
{
	char sql[512], pg[64];
	sqlite3_stmt *st = NULL;
	const unsigned char *v;
	int rc = -1;

	snprintf(sql, sizeof(sql), "SELECT %s FROM \"%s\"", expr, t->name);
	if (sqlite3_prepare_v2(m->sq, sql, -1, &st, NULL) != SQLITE_OK ||
	    sqlite3_step(st) != SQLITE_ROW) {
		fail("SQLite: %s", sqlite3_errmsg(m->sq));
		goto out;
	}
	if (pg_value(m->pg, sql, NULL, pg, sizeof(pg)) == -1)
		goto out;
	v = sqlite3_column_text(st, 0);
	if (strcmp(v != NULL ? (const char *)v : "", pg) != 0) {
		fail("table %s, %s: %s in SQLite, %s in PostgreSQL: nothing "
		    "was copied", t->name, what, v != NULL ?
		    (const char *)v : "", pg);
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Counts, and each column's sum (integers) or total length (text). */
static int
check(struct migration *m)
{
	char expr[160];
	const struct table *t;
	int i, j;

	for (i = 0; i < m->nt; i++) {
		t = &m->t[i];
		if (same(m, t, "rows", "count(*)") == -1)
			return -1;
		for (j = 0; j < t->ncols; j++) {
			snprintf(expr, sizeof(expr), t->integer[j] ?
			    "coalesce(sum(\"%s\"), 0)" :
			    "coalesce(sum(length(\"%s\")), 0)", t->cols[j]);
			if (same(m, t, t->cols[j], expr) == -1)
				return -1;
		}
	}
	return 0;
}

/* The last number SQLite's AUTOINCREMENT gave in table (0 none) into
 * out: what it never gives again, though its rows be gone (the events
 * pruned). 0 or -1 (told). */
static int
sq_sequence(struct migration *m, const char *table, char *out, size_t outsz)
{
	sqlite3_stmt *st = NULL;
	int rc;

	snprintf(out, outsz, "0");
	/* No AUTOINCREMENT table: no sqlite_sequence. */
	rc = sqlite3_prepare_v2(m->sq, "SELECT seq FROM sqlite_sequence "
	    "WHERE name = ?", -1, &st, NULL);
	if (rc != SQLITE_OK) {
		sqlite3_finalize(st);
		return 0;
	}
	if (sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT) != SQLITE_OK)
		rc = SQLITE_ERROR;
	else if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		snprintf(out, outsz, "%lld",
		    (long long)sqlite3_column_int64(st, 0));
		rc = SQLITE_DONE;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail("SQLite: %s",
	    sqlite3_errmsg(m->sq));
}

/* Identity counters continue after the copied rows, and after any
 * number SQLite's AUTOINCREMENT gave before (the newest events may have
 * been pruned: their seqs are never given again). */
static int
identities(struct migration *m)
{
	char q[256], v[32], floor[32];
	const char *params[2];
	PGresult *r;
	int i, n, rc = -1;

	/* Each counter's sequence named by the catalog itself: only the
	 * table and column the maximum is read from are in the text. */
	r = PQexec(m->pg, "SELECT table_name, column_name, "
	    "pg_get_serial_sequence(quote_ident(table_name), column_name) "
	    "FROM information_schema.columns WHERE table_schema = "
	    "current_schema() AND is_identity = 'YES'");
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		fail("PostgreSQL: %s", PQresultErrorMessage(r));
		goto out;
	}
	n = PQntuples(r);
	for (i = 0; i < n; i++) {
		if (!plain_name(PQgetvalue(r, i, 0)) ||
		    !plain_name(PQgetvalue(r, i, 1)) || PQgetisnull(r, i, 2))
			continue;
		if (sq_sequence(m, PQgetvalue(r, i, 0), floor,
		    sizeof(floor)) == -1)
			goto out;
		snprintf(q, sizeof(q), "SELECT setval($1::regclass, "
		    "greatest(coalesce(max(\"%s\"), 0), $2::bigint) + 1, "
		    "false) FROM \"%s\"", PQgetvalue(r, i, 1),
		    PQgetvalue(r, i, 0));
		params[0] = PQgetvalue(r, i, 2);
		params[1] = floor;
		if (pg_value_n(m->pg, q, 2, params, v, sizeof(v)) == -1)
			goto out;
	}
	rc = 0;
out:
	PQclear(r);
	return rc;
}

/* The triggers of every table, off for the copy or on again. */
static int
triggers(struct migration *m, int on)
{
	char sql[160];
	int i;

	for (i = 0; i < m->nt; i++) {
		snprintf(sql, sizeof(sql), "ALTER TABLE \"%s\" %s TRIGGER USER",
		    m->t[i].name, on ? "ENABLE" : "DISABLE");
		if (pg_do(m->pg, sql) == -1)
			return -1;
	}
	return 0;
}

/* SQLite's count of the commits other connections made to the file, as
 * this one has seen them (PRAGMA data_version): any write, audited or
 * not (a login's checks), changes it. Outside a transaction only. */
static int64_t
writes(sqlite3 *sq)
{
	sqlite3_stmt *st = NULL;
	int64_t n = -1;

	if (sqlite3_prepare_v2(sq, "PRAGMA data_version", -1, &st, NULL) ==
	    SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

int
lc_admin_migrate_to(struct lc_db *src, struct lc_db *dst)
{
	struct migration *m;
	char v[32];
	int64_t before, after;
	int i, left, progress, rc = -1, r;

	if (strcmp(lc_db_backend(src), "sqlite") != 0 ||
	    strcmp(lc_db_backend(dst), "postgresql") != 0)
		return fail("%s", "copies a SQLite database (--db) into a "
		    "PostgreSQL one (the URI)");
	if (lc_db_version(src) != lc_db_version(dst))
		return fail("the two databases are at different schema "
		    "versions (%d and %d): is one program older?",
		    lc_db_version(src), lc_db_version(dst));
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return fail("%s", "out of memory");
	m->sq = lc_sq_handle(src);
	m->pg = lc_pg_handle(dst);
	/* The snapshot, and PostgreSQL's write turn: no service writes
	 * there while the copy goes in. */
	if ((before = writes(m->sq)) == -1 ||
	    sqlite3_exec(m->sq, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		fail("SQLite: %s", sqlite3_errmsg(m->sq));
		goto out;
	}
	if (pg_do(m->pg, "BEGIN ISOLATION LEVEL READ COMMITTED") == -1 ||
	    pg_value(m->pg, "SELECT pg_advisory_xact_lock("
	    LC_PG_WRITE_LOCK ")::text", NULL, v, sizeof(v)) == -1 ||
	    tables_read(m) == -1)
		goto out;
	for (i = 0; i < m->nt; i++) {
		char sql[160];

		snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM "
		    "\"%s\")::int", m->t[i].name);
		if (pg_value(m->pg, sql, NULL, v, sizeof(v)) == -1)
			goto out;
		if (strcmp(v, "0") != 0) {
			fail("the PostgreSQL database is not empty (table %s "
			    "has rows): give an empty one", m->t[i].name);
			goto out;
		}
	}
	if (triggers(m, 0) == -1)
		goto out;
	/* Tables whose foreign keys' tables are in, until all are. */
	for (left = m->nt; left > 0; left -= progress) {
		progress = 0;
		for (i = 0; i < m->nt; i++) {
			if (m->t[i].done)
				continue;
			if ((r = ready(m, &m->t[i])) == -1)
				goto out;
			if (r == 0)
				continue;
			if (table_copy(m, &m->t[i]) == -1)
				goto out;
			m->t[i].done = 1;
			progress++;
		}
		if (progress == 0) {
			fail("%s", "the tables' foreign keys go round in a "
			    "circle");
			goto out;
		}
	}
	/* Checked first: a refused copy leaves no counter moved. */
	if (triggers(m, 1) == -1 || check(m) == -1 || identities(m) == -1)
		goto out;
	/* What the service wrote after the snapshot is not in the copy:
	 * then nothing is committed. */
	(void)sqlite3_exec(m->sq, "COMMIT", NULL, NULL, NULL);
	if ((after = writes(m->sq)) != before) {
		fail("%s", "the SQLite database was written during the copy: "
		    "nothing was copied. Stop the service's writes (or wait "
		    "until the shop is closed) and run migrate-to again");
		goto out;
	}
	if (pg_do(m->pg, "COMMIT") == -1)
		goto out;
	printf("copied %d tables, %" PRId64 " rows; counts, balances and "
	    "ledger sums checked\n", m->nt, m->rows);
	/* A write in the instant between that count and the commit. */
	if ((after = writes(m->sq)) != before) {
		fail("%s", "the SQLite database was written as the copy was "
		    "committed, and that write is not in PostgreSQL: stop the "
		    "service's writes, empty the PostgreSQL database and run "
		    "migrate-to again");
		goto done;
	}
	rc = 0;
	goto done;
out:
	if (PQtransactionStatus(m->pg) != PQTRANS_IDLE)
		(void)pg_do(m->pg, "ROLLBACK");
	(void)sqlite3_exec(m->sq, "ROLLBACK", NULL, NULL, NULL);
done:
	free(m);
	return rc;
}
