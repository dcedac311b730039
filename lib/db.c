/*
 * Storage, whichever the backend: the database name chooses it when the
 * connection opens; the connection's own calls (transactions, tidying,
 * backup) go to its backend's table, and every statement of the topic
 * files (db_people.c, db_cards.c, db_lists.c) runs here, through
 * lc_st_run and the readers after it (lc_backend.h), which is where a
 * test build can make the Nth one fail (LC_TEST_DB_FAIL).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lc_backend.h"
#include "lc_core.h"

#define HEAD(db) ((struct lc_db_head *)(void *)(db))
#define BK(db) (HEAD(db)->bk)

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

/* The conninfo of a PostgreSQL database name, or NULL for a SQLite path:
 * a URI as it is, else the conninfo after "postgres:" or "postgresql:". */
static const char *
pg_conninfo(const char *name)
{
	if (strncmp(name, "postgresql://", 13) == 0 ||
	    strncmp(name, "postgres://", 11) == 0)
		return name;
	if (strncmp(name, "postgresql:", 11) == 0)
		return name + 11;
	if (strncmp(name, "postgres:", 9) == 0)
		return name + 9;
	return NULL;
}

const char *
lc_db_name_problem(const char *name)
{
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");

	if (pg_conninfo(name) != NULL)
		return NULL;
	/* A mistyped PostgreSQL name, or another scheme's URI, would
	 * otherwise be a new SQLite file of that name. */
	if (strncasecmp(name, "postgre", 7) == 0 ||
	    (n > 0 && strncmp(name + n, "://", 3) == 0))
		return "not a database name this service knows: a PostgreSQL "
		    "database is postgresql://... or postgres: and a conninfo "
		    "(in small letters), a SQLite one a file's path";
	return NULL;
}

int
lc_db_name_is_pg(const char *name)
{
	return name != NULL && pg_conninfo(name) != NULL;
}

struct lc_db *
lc_db_open(const char *path, int create, const char **errmsg)
{
	return lc_db_open_ex(path, create, errmsg, NULL);
}

/* Test builds only: LC_TEST_DB_FAIL=N fails the connection's Nth run
 * (lc_st_run), so a test can walk every database-error path one run at a
 * time; read as the connection opens. */
static struct lc_db *
test_switch(struct lc_db *db)
{
#ifdef LC_TEST_CLOCK
	const char *env;

	if (db != NULL && (env = getenv("LC_TEST_DB_FAIL")) != NULL)
		HEAD(db)->fail_at = strtol(env, NULL, 10);
#endif
	return db;
}

/* Test builds only: 1 when this run (a statement, a begin or a commit)
 * is the Nth of LC_TEST_DB_FAIL=N, and is to fail as a database error
 * would. */
static int
fail_now(struct lc_db *db, const char *what)
{
#ifdef LC_TEST_CLOCK
	struct lc_db_head *h = HEAD(db);

	if (h->fail_at > 0 && ++h->runs == h->fail_at) {
		lc_log("%s: failed on purpose (LC_TEST_DB_FAIL=%ld)", what,
		    h->fail_at);
		h->failed = 1;
		return 1;
	}
#else
	(void)db;
	(void)what;
#endif
	return 0;
}

/* A failure of rc -1 is remembered until the request ends (lc_db_idle):
 * a rule may have let an earlier one pass (a setting's default), but an
 * unexplained -1 after it is storage's. */
static int
noted(struct lc_db *db, int rc)
{
	if (rc == -1)
		HEAD(db)->failed = 1;
	return rc;
}

int
lc_db_failed(struct lc_db *db)
{
	return db != NULL && HEAD(db)->failed;
}

struct lc_db *
lc_db_open_ex(const char *name, int create, const char **errmsg,
    int *misconfigured)
{
	const char *conninfo = pg_conninfo(name);

	if ((*errmsg = lc_db_name_problem(name)) != NULL) {
		if (misconfigured != NULL)
			*misconfigured = 1;
		return NULL;
	}
	if (conninfo == NULL)
		return test_switch(lc_sq_open(name, create, errmsg,
		    misconfigured));
#ifdef LC_WITH_POSTGRESQL
	return test_switch(lc_pg_open(conninfo, create, errmsg,
	    misconfigured));
#else
	(void)create;
	*errmsg = "this build has no PostgreSQL support (it is built with "
	    "./configure --with-postgresql)";
	if (misconfigured != NULL)
		*misconfigured = 1;
	return NULL;
#endif
}

/* Appends n bytes of s to out (of size sz, o used), cut to fit. */
static void
put(char *out, size_t sz, size_t *o, const char *s, size_t n)
{
	if (*o + 1 >= sz)
		return;
	if (n > sz - 1 - *o)
		n = sz - 1 - *o;
	memcpy(out + *o, s, n);
	*o += n;
	out[*o] = '\0';
}

/* The end of the value that starts at v: quoted (conninfo) or plain. */
static const char *
value_end(const char *v)
{
	if (*v != '\'')
		return v + strcspn(v, " \t&#");
	for (v++; *v != '\0' && *v != '\''; v++)
		if (*v == '\\' && v[1] != '\0')
			v++;
	return *v == '\'' ? v + 1 : v;
}

const char *
lc_db_name_shown(const char *name, char *out, size_t outsz)
{
	const char *s = name, *k, *e, *at, *colon;
	size_t o = 0, n;

	/* Any name, a mistyped one too, keeps its secrets: the password of
	 * a URI's user part, and the value of every parameter whose name
	 * ends in "password" (password, sslpassword), in a URI's query or
	 * a conninfo's pairs. */
	if (outsz == 0)
		return out;
	out[0] = '\0';
	while (*s != '\0') {
		if (strncmp(s, "://", 3) == 0) {
			put(out, outsz, &o, s, 3);
			s += 3;
			e = s + strcspn(s, "/?#");
			if ((at = memchr(s, '@', (size_t)(e - s))) != NULL &&
			    (colon = memchr(s, ':', (size_t)(at - s))) != NULL) {
				put(out, outsz, &o, s, (size_t)(colon - s));
				put(out, outsz, &o, ":***", 4);
				s = at;
			}
			continue;
		}
		/* A parameter's name, after a start, a blank, : ? or &. */
		if ((s == name || strchr(" \t:?&", s[-1]) != NULL) &&
		    (n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_")) >= 8 &&
		    strncasecmp(s + n - 8, "password", 8) == 0) {
			k = s + n + strspn(s + n, " \t");
			if (*k == '=') {
				k++;
				k += strspn(k, " \t");
				put(out, outsz, &o, s, (size_t)(k - s));
				put(out, outsz, &o, "***", 3);
				s = value_end(k);
				continue;
			}
		}
		put(out, outsz, &o, s, 1);
		s++;
	}
	return out;
}

int
lc_db_like_patterns(const char *q, char *start, char *word, size_t sz)
{
	size_t i, o = 0;

	for (i = 0; q[i] != '\0'; i++) {
		if (o + 4 >= sz)
			return -1;
		if (q[i] == '%' || q[i] == '_' || q[i] == '\\')
			start[o++] = '\\';
		start[o++] = q[i];
	}
	start[o++] = '%';
	start[o] = '\0';
	return snprintf(word, sz, "%% %s", start) >= (int)sz ? -1 : 0;
}

const char *
lc_db_backend(struct lc_db *db)
{
	return BK(db)->name;
}

void
lc_db_close(struct lc_db *db)
{
	if (db != NULL)
		BK(db)->close(db);
}

int
lc_db_replaced(struct lc_db *db)
{
	return db != NULL && BK(db)->replaced(db);
}

int
lc_db_version(struct lc_db *db)
{
	return BK(db)->version(db);
}

int
lc_db_begin(struct lc_db *db, int write)
{
	if (fail_now(db, "begin"))
		return -1;
	return noted(db, BK(db)->begin(db, write));
}

int
lc_db_idle(struct lc_db *db)
{
	HEAD(db)->failed = 0;
	return BK(db)->idle(db);
}

int
lc_db_commit(struct lc_db *db)
{
	/* A commit failed by the test switch is rolled back, as one that
	 * failed would be by the write path. */
	if (fail_now(db, "commit"))
		return -1;
	return noted(db, BK(db)->commit(db));
}

void
lc_db_tidy(struct lc_db *db)
{
	if (db != NULL)
		BK(db)->tidy(db);
}

void
lc_db_shrink(struct lc_db *db)
{
	if (db != NULL)
		BK(db)->shrink(db);
}

void
lc_db_rollback(struct lc_db *db)
{
	BK(db)->rollback(db);
}

int
lc_db_backup(struct lc_db *db, const char *path, const char *merchant_id)
{
	return BK(db)->backup(db, path, merchant_id);
}

/* The statement runner and readers of lc_backend.h. */


struct lc_row *
lc_st_run(struct lc_row *r, struct lc_db *db, int slot, const char *sql,
    const char *pg, const char *fmt, ...)
{
	va_list ap;
	int rc;

	if (fail_now(db, "statement"))
		return NULL;
	r->bk = BK(db);
	r->db = db;
	r->st = NULL;
	r->i = r->n = 0;
	va_start(ap, fmt);
	rc = noted(db, r->bk->run(r, slot, sql, pg, fmt, ap));
	va_end(ap);
	return rc == -1 ? NULL : r;
}

int
lc_st_next(struct lc_row *r)
{
	return noted(r->db, r->bk->next(r));
}

void
lc_st_done(struct lc_row *r)
{
	r->bk->done(r);
}

const char *
lc_st_text(struct lc_row *r, int col)
{
	size_t n;

	return r->bk->text(r, col, &n);
}

int64_t
lc_st_int(struct lc_row *r, int col)
{
	return r->bk->int64(r, col);
}

int
lc_st_null(struct lc_row *r, int col)
{
	return r->bk->null(r, col);
}

int64_t
lc_st_int_or(struct lc_row *r, int col, int64_t none)
{
	return r->bk->null(r, col) ? none : r->bk->int64(r, col);
}

/* Copied by hand, not through snprintf: a row's many columns through
 * snprintf showed in a lookup's profile. */
void
lc_st_col(struct lc_row *r, int col, char *out, size_t outsz)
{
	size_t n = 0;
	const char *t = r->bk->text(r, col, &n);

	if (outsz == 0)
		return;
	if (t == NULL)
		n = 0;
	if (n >= outsz)
		n = outsz - 1;
	if (n > 0)
		memcpy(out, t, n);
	out[n] = '\0';
}

int
lc_st_put(struct lc_row *r)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = lc_st_next(r)) == 1)
		;
	r->bk->done(r);
	return rc;
}

int
lc_st_put_unique(struct lc_row *r)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = lc_st_next(r)) == 1)
		;
	/* ON CONFLICT DO NOTHING, in both: nothing went in. */
	if (rc == 0 && r->bk->changes(r) == 0)
		rc = LC_DB_CONFLICT;
	r->bk->done(r);
	return rc;
}

int
lc_st_put_id(struct lc_row *r, int64_t *id)
{
	int rc;

	if (r == NULL)
		return -1;
	rc = noted(r->db, r->bk->insert_id(r, id));
	r->bk->done(r);
	return rc;
}

int
lc_st_change(struct lc_row *r)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = lc_st_next(r)) == 1)
		;
	if (rc == 0)
		rc = r->bk->changes(r) > 0;
	r->bk->done(r);
	return rc;
}

int64_t
lc_st_count(struct lc_row *r)
{
	int64_t n = -1;
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = lc_st_next(r)) == 1)
		;
	if (rc == 0)
		n = r->bk->changes(r);
	r->bk->done(r);
	return n;
}

int
lc_st_row(struct lc_row *r)
{
	int rc;

	if (r == NULL)
		return -1;
	if ((rc = lc_st_next(r)) != 1)
		r->bk->done(r);
	return rc;
}

int
lc_st_int1(struct lc_row *r, int64_t none, int64_t *v)
{
	int rc = lc_st_row(r);

	if (rc == 1) {
		*v = lc_st_int_or(r, 0, none);
		lc_st_done(r);
	}
	return rc;
}

