/*
 * Storage, whichever the backend: the database name chooses it when the
 * connection opens, and every lc_db_ call goes to that connection's
 * backend (lc_backend.h). The calls below are all alike by design.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lc_backend.h"
#include "lc_int.h"

#define HEAD(db) ((const struct lc_db_head *)(const void *)(db))
#define BK(db) (HEAD(db)->bk)
#define OPS(db) (HEAD(db)->ops)

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
		return lc_sq_open(name, create, errmsg, misconfigured);
#ifdef LC_WITH_POSTGRESQL
	return lc_pg_open(conninfo, create, errmsg, misconfigured);
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
	return BK(db)->begin(db, write);
}

void
lc_db_idle(struct lc_db *db)
{
	BK(db)->idle(db);
}

int
lc_db_commit(struct lc_db *db)
{
	return BK(db)->commit(db);
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

#ifdef LC_TEST_CLOCK
/* Test builds only: LC_TEST_DB_FAIL=N fails the process's Nth run, so a
 * test can walk every database-error path one run at a time. */
static int
fail_now(int slot)
{
	static long fail_at = -1, runs;
	const char *env;

	if (fail_at == -1)
		fail_at = (env = getenv("LC_TEST_DB_FAIL")) != NULL ?
		    strtol(env, NULL, 10) : 0;
	if (fail_at <= 0 || ++runs != fail_at)
		return 0;
	lc_log("statement %d: failed on purpose (LC_TEST_DB_FAIL=%ld)", slot,
	    fail_at);
	return 1;
}
#endif

struct lc_row *
lc_st_run(struct lc_row *r, struct lc_db *db, int slot, const char *sql,
    const char *pg, const char *fmt, ...)
{
	va_list ap;
	int rc;

#ifdef LC_TEST_CLOCK
	if (fail_now(slot))
		return NULL;
#endif
	r->bk = BK(db);
	r->db = db;
	r->st = NULL;
	r->i = r->n = 0;
	va_start(ap, fmt);
	rc = r->bk->run(r, slot, sql, pg, fmt, ap);
	va_end(ap);
	return rc == -1 ? NULL : r;
}

int
lc_st_next(struct lc_row *r)
{
	return r->bk->next(r);
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
	while ((rc = r->bk->next(r)) == 1)
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
	while ((rc = r->bk->next(r)) == 1)
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
	rc = r->bk->insert_id(r, id);
	r->bk->done(r);
	return rc;
}

int
lc_st_change(struct lc_row *r)
{
	int rc;

	if (r == NULL)
		return -1;
	while ((rc = r->bk->next(r)) == 1)
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
	while ((rc = r->bk->next(r)) == 1)
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
	if ((rc = r->bk->next(r)) != 1)
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

int
lc_db_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	return OPS(db)->program_add(db, p, at);
}

int
lc_db_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	return OPS(db)->program_get(db, id, p);
}

int
lc_db_program_update(struct lc_db *db, const struct lc_program *p)
{
	return OPS(db)->program_update(db, p);
}

int
lc_db_programs(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t cards), void *arg)
{
	return OPS(db)->programs(db, merchant_id, each, arg);
}

int
lc_db_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	return OPS(db)->card_get(db, key, merchant_id, value, c);
}

int
lc_db_card_add(struct lc_db *db, const struct lc_card *c, const char *issued_by,
    const char *issued_location, int64_t at)
{
	return OPS(db)->card_add(db, c, issued_by, issued_location, at);
}

int
lc_db_card_by_share(struct lc_db *db, const char *token, struct lc_card *c)
{
	return OPS(db)->card_by_share(db, token, c);
}

int
lc_db_card_updated(struct lc_db *db, const struct lc_card *c, int64_t *at)
{
	return OPS(db)->card_updated(db, c, at);
}

int
lc_db_card_save(struct lc_db *db, const struct lc_card *c)
{
	return OPS(db)->card_save(db, c);
}

int
lc_db_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	return OPS(db)->card_set_status(db, id, status);
}

int
lc_db_card_set_name(struct lc_db *db, const char *id, const char *name)
{
	return OPS(db)->card_set_name(db, id, name);
}

int
lc_db_card_set_share(struct lc_db *db, const char *id, const char *token,
    const char *secret)
{
	return OPS(db)->card_set_share(db, id, token, secret);
}

int
lc_db_card_code_use(struct lc_db *db, const char *id, int64_t step)
{
	return OPS(db)->card_code_use(db, id, step);
}

int
lc_db_cards_count(struct lc_db *db, const struct lc_card_query *q,
    int64_t *total)
{
	return OPS(db)->cards_count(db, q, total);
}

int
lc_db_cards(struct lc_db *db, const struct lc_card_query *q,
    int (*each)(void *, const struct lc_card *), void *arg)
{
	return OPS(db)->cards(db, q, each, arg);
}

int
lc_db_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	return OPS(db)->txn_add(db, t);
}

int
lc_db_txn_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_txn_info *info)
{
	return OPS(db)->txn_get(db, merchant_id, id, info);
}

int
lc_db_txn_child(struct lc_db *db, const char *id, char out[LC_ID_LEN + 1])
{
	return OPS(db)->txn_child(db, id, out);
}

int
lc_db_punch_near(struct lc_db *db, const char *card_id, int64_t after,
    int64_t before, int64_t *at)
{
	return OPS(db)->punch_near(db, card_id, after, before, at);
}

int
lc_db_reward_add(struct lc_db *db, const struct lc_reward *r)
{
	return OPS(db)->reward_add(db, r);
}

int
lc_db_reward_oldest(struct lc_db *db, const char *card_id, struct lc_reward *r)
{
	return OPS(db)->reward_oldest(db, card_id, r);
}

int
lc_db_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	return OPS(db)->reward_claim(db, id, at, claim_txn_id);
}

int
lc_db_reward_pending_of(struct lc_db *db, const char *txn_id,
    const char *card_id, struct lc_reward *r)
{
	return OPS(db)->reward_pending_of(db, txn_id, card_id, r);
}

int
lc_db_reward_withdraw(struct lc_db *db, const char *id)
{
	return OPS(db)->reward_withdraw(db, id);
}

int
lc_db_reward_earning_voided(struct lc_db *db, const char *id)
{
	return OPS(db)->reward_earning_voided(db, id);
}

int
lc_db_reward_unclaim(struct lc_db *db, const char *id, const char *claim_txn_id)
{
	return OPS(db)->reward_unclaim(db, id, claim_txn_id);
}

int
lc_db_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	return OPS(db)->earning_add(db, txn_id, card_id, amount, at);
}

int
lc_db_earning_add_until(struct lc_db *db, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at)
{
	return OPS(db)->earning_add_until(db, txn_id, card_id, amount, at,
	    expires_at);
}

int
lc_db_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	return OPS(db)->earning_oldest(db, card_id, e);
}

int
lc_db_expiry_next(struct lc_db *db, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance)
{
	return OPS(db)->expiry_next(db, card_id, at, amount, balance);
}

int
lc_db_earning_due(struct lc_db *db, const char *card_id, int64_t now,
    struct lc_earning *e)
{
	return OPS(db)->earning_due(db, card_id, now, e);
}

int
lc_db_earning_expire(struct lc_db *db, const struct lc_earning *e,
    const char *txn_id)
{
	return OPS(db)->earning_expire(db, e, txn_id);
}

int
lc_db_expiry_due_card(struct lc_db *db, const char *merchant_id, int64_t now,
    char card_id[LC_ID_LEN + 1])
{
	return OPS(db)->expiry_due_card(db, merchant_id, now, card_id);
}

int
lc_db_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	return OPS(db)->earning_use(db, txn_id, use);
}

int
lc_db_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	return OPS(db)->entry_add(db, redeem_txn_id, earning_txn_id, amount);
}

int
lc_db_earning_get(struct lc_db *db, const char *txn_id, struct lc_earning *e)
{
	return OPS(db)->earning_get(db, txn_id, e);
}

int
lc_db_earning_return(struct lc_db *db, const char *txn_id, int64_t amount)
{
	return OPS(db)->earning_return(db, txn_id, amount);
}

int
lc_db_entries(struct lc_db *db, const char *txn_id, struct lc_entry **out,
    size_t *n)
{
	return OPS(db)->entries(db, txn_id, out, n);
}

int
lc_db_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
    struct lc_idem *k)
{
	return OPS(db)->idem_get(db, merchant_id, key, k);
}

int
lc_db_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	return OPS(db)->idem_add(db, merchant_id, key, kind, txn_id, answer,
	    at);
}

int
lc_db_history_count(struct lc_db *db, const struct lc_hist_query *q,
    int64_t *total)
{
	return OPS(db)->history_count(db, q, total);
}

int
lc_db_history_page(struct lc_db *db, const struct lc_hist_query *q,
    int (*each)(void *, const struct lc_hist_item *), void *arg)
{
	return OPS(db)->history_page(db, q, each, arg);
}

int
lc_db_report(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group group,
    int (*each)(void *, const struct lc_report_row *), void *arg)
{
	return OPS(db)->report(db, merchant_id, from, to, offset_ms, group,
	    each, arg);
}

int
lc_db_outstanding(struct lc_db *db, const char *merchant_id, int64_t to,
    int64_t *cents)
{
	return OPS(db)->outstanding(db, merchant_id, to, cents);
}

int
lc_db_txns_count(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total)
{
	return OPS(db)->txns_count(db, merchant_id, from, to, total);
}

int
lc_db_txns(struct lc_db *db, const char *merchant_id, int64_t from, int64_t to,
    int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return OPS(db)->txns(db, merchant_id, from, to, limit, offset, each,
	    arg);
}

int
lc_db_txns_mine(struct lc_db *db, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	return OPS(db)->txns_mine(db, merchant_id, staff_user_id, location_id,
	    since, limit, each, arg);
}

int
lc_db_audit_count(struct lc_db *db, const struct lc_audit_query *q,
    int64_t *total)
{
	return OPS(db)->audit_count(db, q, total);
}

int
lc_db_audit(struct lc_db *db, const struct lc_audit_query *q,
    int (*each)(void *, const struct lc_audit_row *), void *arg)
{
	return OPS(db)->audit(db, q, each, arg);
}

int
lc_db_card_any(struct lc_db *db, const char *id, struct lc_card *c)
{
	return OPS(db)->card_any(db, id, c);
}
