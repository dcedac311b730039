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
#include "lc_util.h"

#define OPS(db) (((const struct lc_db_head *)(const void *)(db))->ops)

#ifdef LC_TEST_CLOCK
/* TEMPORARY (test builds): LC_TEST_DB_FAIL=N, read once per process,
 * makes the Nth storage call fail as a database error would (a failed
 * commit rolls back, as the backends' do). */
static int
test_fail(const char *name)
{
	static long n = -1, calls;
	static int trace;
	const char *v;

	if (n == -1) {
		n = (v = getenv("LC_TEST_DB_FAIL")) != NULL ? atol(v) : 0;
		trace = getenv("LC_TEST_DB_TRACE") != NULL;
	}
	++calls;
	if (trace)
		lc_log("LC_TEST_DB_TRACE: storage call %ld: %s", calls, name);
	if (n <= 0 || calls != n)
		return 0;
	lc_log("LC_TEST_DB_FAIL: storage call %ld (%s) fails", calls, name);
	return 1;
}
#else
#define test_fail(name) 0
#endif

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
	return OPS(db)->name;
}

void
lc_db_close(struct lc_db *db)
{
	if (db != NULL)
		OPS(db)->close(db);
}

int
lc_db_replaced(struct lc_db *db)
{
	return db != NULL && OPS(db)->replaced(db);
}

int
lc_db_version(struct lc_db *db)
{
	return OPS(db)->version(db);
}

int
lc_db_begin(struct lc_db *db, int write)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->begin(db, write);
}

int
lc_db_idle(struct lc_db *db)
{
	return OPS(db)->idle(db);
}

int
lc_db_commit(struct lc_db *db)
{
	if (test_fail(__func__))
		return OPS(db)->rollback(db), -1;
	return OPS(db)->commit(db);
}

void
lc_db_tidy(struct lc_db *db)
{
	if (db != NULL)
		OPS(db)->tidy(db);
}

void
lc_db_shrink(struct lc_db *db)
{
	if (db != NULL)
		OPS(db)->shrink(db);
}

void
lc_db_rollback(struct lc_db *db)
{
	OPS(db)->rollback(db);
}

int
lc_db_setting_get(struct lc_db *db, const char *key, char *out, size_t outsz)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->setting_get(db, key, out, outsz);
}

int
lc_db_setting_set(struct lc_db *db, const char *key, const char *value)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->setting_set(db, key, value);
}

int
lc_db_merchant_name(struct lc_db *db, const char *id, char *out, size_t outsz)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->merchant_name(db, id, out, outsz);
}

int
lc_db_merchant_add(struct lc_db *db, const char *id, const char *name,
    int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->merchant_add(db, id, name, at);
}

int
lc_db_merchant_exists(struct lc_db *db, const char *id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->merchant_exists(db, id);
}

int
lc_db_merchant_count(struct lc_db *db, int64_t *n)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->merchant_count(db, n);
}

int
lc_db_location_add(struct lc_db *db, const struct lc_location *l, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->location_add(db, l, at);
}

int
lc_db_location_get(struct lc_db *db, const char *id, struct lc_location *l)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->location_get(db, id, l);
}

int
lc_db_location_rename(struct lc_db *db, const char *id, const char *name)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->location_rename(db, id, name);
}

int
lc_db_locations(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_location *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->locations(db, merchant_id, each, arg);
}

int
lc_db_user_by_email(struct lc_db *db, const char *email, struct lc_user *u)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_by_email(db, email, u);
}

int
lc_db_user_get(struct lc_db *db, const char *id, struct lc_user *u)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_get(db, id, u);
}

int
lc_db_user_add(struct lc_db *db, const struct lc_user *u, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_add(db, u, at);
}

int
lc_db_user_set_disabled(struct lc_db *db, const char *id, int disabled)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_set_disabled(db, id, disabled);
}

int
lc_db_user_set_password(struct lc_db *db, const char *id, const char *hash)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_set_password(db, id, hash);
}

int
lc_db_user_set_name(struct lc_db *db, const char *id, const char *name)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_set_name(db, id, name);
}

int
lc_db_user_set_location(struct lc_db *db, const char *id,
    const char *location_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->user_set_location(db, id, location_id);
}

int
lc_db_users(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_user *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->users(db, merchant_id, each, arg);
}

int
lc_db_owner_exists(struct lc_db *db)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->owner_exists(db);
}

int
lc_db_attempts(struct lc_db *db, const char *email, const char *addr,
    int64_t since, int64_t stale_before, struct lc_attempts *n)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->attempts(db, email, addr, since, stale_before, n);
}

int
lc_db_attempt_add(struct lc_db *db, const char *email, const char *addr,
    int shared, int64_t at, int64_t *id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->attempt_add(db, email, addr, shared, at, id);
}

int
lc_db_attempt_settle(struct lc_db *db, int64_t id, int failed, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->attempt_settle(db, id, failed, at);
}

int
lc_db_attempts_clear(struct lc_db *db, const char *email, const char *addr,
    int64_t stale_before)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->attempts_clear(db, email, addr, stale_before);
}

int
lc_db_attempts_prune(struct lc_db *db, int64_t before, int64_t stale_before)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->attempts_prune(db, before, stale_before);
}

int
lc_db_known(struct lc_db *db, const char *email, const char *addr,
    int64_t since)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->known(db, email, addr, since);
}

int
lc_db_known_add(struct lc_db *db, const char *email, const char *addr,
    int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->known_add(db, email, addr, at);
}

int
lc_db_known_prune(struct lc_db *db, int64_t before)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->known_prune(db, before);
}

int
lc_db_token_get(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    struct lc_token *tok)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->token_get(db, digest, tok);
}

int
lc_db_token_add(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    const char *kind, const char *user_id, const char *family,
    int64_t expires_at, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->token_add(db, digest, kind, user_id, family, expires_at,
	    at);
}

int
lc_db_token_rotate(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->token_rotate(db, digest, at);
}

int
lc_db_tokens_revoke_family(struct lc_db *db, const char *family)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->tokens_revoke_family(db, family);
}

int
lc_db_tokens_revoke_user(struct lc_db *db, const char *user_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->tokens_revoke_user(db, user_id);
}

int
lc_db_tokens_prune(struct lc_db *db, int64_t now)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->tokens_prune(db, now);
}

int
lc_db_program_add(struct lc_db *db, const struct lc_program *p, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->program_add(db, p, at);
}

int
lc_db_program_get(struct lc_db *db, const char *id, struct lc_program *p)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->program_get(db, id, p);
}

int
lc_db_program_update(struct lc_db *db, const struct lc_program *p)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->program_update(db, p);
}

int
lc_db_programs(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_program *, int64_t cards), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->programs(db, merchant_id, each, arg);
}

int
lc_db_card_get(struct lc_db *db, enum lc_cardkey key, const char *merchant_id,
    const char *value, struct lc_card *c)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_get(db, key, merchant_id, value, c);
}

int
lc_db_card_add(struct lc_db *db, const struct lc_card *c, const char *issued_by,
    const char *issued_location, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_add(db, c, issued_by, issued_location, at);
}

int
lc_db_card_by_share(struct lc_db *db, const char *token, struct lc_card *c)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_by_share(db, token, c);
}

int
lc_db_card_updated(struct lc_db *db, const struct lc_card *c, int64_t *at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_updated(db, c, at);
}

int
lc_db_card_save(struct lc_db *db, const struct lc_card *c)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_save(db, c);
}

int
lc_db_card_set_status(struct lc_db *db, const char *id, const char *status)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_set_status(db, id, status);
}

int
lc_db_card_set_name(struct lc_db *db, const char *id, const char *name)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_set_name(db, id, name);
}

int
lc_db_card_set_share(struct lc_db *db, const char *id, const char *token,
    const char *secret)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_set_share(db, id, token, secret);
}

int
lc_db_card_code_use(struct lc_db *db, const char *id, int64_t step)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_code_use(db, id, step);
}

int
lc_db_cards_count(struct lc_db *db, const struct lc_card_query *q,
    int64_t *total)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->cards_count(db, q, total);
}

int
lc_db_cards(struct lc_db *db, const struct lc_card_query *q,
    int (*each)(void *, const struct lc_card *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->cards(db, q, each, arg);
}

int
lc_db_txn_add(struct lc_db *db, const struct lc_txn *t)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txn_add(db, t);
}

int
lc_db_txn_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_txn_info *info)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txn_get(db, merchant_id, id, info);
}

int
lc_db_txn_child(struct lc_db *db, const char *id, char out[LC_ID_LEN + 1])
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txn_child(db, id, out);
}

int
lc_db_punch_near(struct lc_db *db, const char *card_id, int64_t after,
    int64_t before, int64_t *at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->punch_near(db, card_id, after, before, at);
}

int
lc_db_reward_add(struct lc_db *db, const struct lc_reward *r)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_add(db, r);
}

int
lc_db_reward_oldest(struct lc_db *db, const char *card_id, struct lc_reward *r)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_oldest(db, card_id, r);
}

int
lc_db_reward_claim(struct lc_db *db, const char *id, int64_t at,
    const char *claim_txn_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_claim(db, id, at, claim_txn_id);
}

int
lc_db_reward_pending_of(struct lc_db *db, const char *txn_id,
    const char *card_id, struct lc_reward *r)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_pending_of(db, txn_id, card_id, r);
}

int
lc_db_reward_withdraw(struct lc_db *db, const char *id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_withdraw(db, id);
}

int
lc_db_reward_earning_voided(struct lc_db *db, const char *id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_earning_voided(db, id);
}

int
lc_db_reward_unclaim(struct lc_db *db, const char *id, const char *claim_txn_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->reward_unclaim(db, id, claim_txn_id);
}

int
lc_db_earning_add(struct lc_db *db, const char *txn_id, const char *card_id,
    int64_t amount, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_add(db, txn_id, card_id, amount, at);
}

int
lc_db_earning_add_until(struct lc_db *db, const char *txn_id,
    const char *card_id, int64_t amount, int64_t at, int64_t expires_at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_add_until(db, txn_id, card_id, amount, at,
	    expires_at);
}

int
lc_db_earning_oldest(struct lc_db *db, const char *card_id,
    struct lc_earning *e)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_oldest(db, card_id, e);
}

int
lc_db_expiry_next(struct lc_db *db, const char *card_id, int64_t *at,
    int64_t *amount, int64_t *balance)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->expiry_next(db, card_id, at, amount, balance);
}

int
lc_db_earning_due(struct lc_db *db, const char *card_id, int64_t now,
    struct lc_earning *e)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_due(db, card_id, now, e);
}

int
lc_db_earning_expire(struct lc_db *db, const struct lc_earning *e,
    const char *txn_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_expire(db, e, txn_id);
}

int
lc_db_expiry_due_card(struct lc_db *db, const char *merchant_id, int64_t now,
    char card_id[LC_ID_LEN + 1])
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->expiry_due_card(db, merchant_id, now, card_id);
}

int
lc_db_earning_use(struct lc_db *db, const char *txn_id, int64_t use)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_use(db, txn_id, use);
}

int
lc_db_entry_add(struct lc_db *db, const char *redeem_txn_id,
    const char *earning_txn_id, int64_t amount)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->entry_add(db, redeem_txn_id, earning_txn_id, amount);
}

int
lc_db_earning_get(struct lc_db *db, const char *txn_id, struct lc_earning *e)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_get(db, txn_id, e);
}

int
lc_db_earning_return(struct lc_db *db, const char *txn_id, int64_t amount)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->earning_return(db, txn_id, amount);
}

int
lc_db_entries(struct lc_db *db, const char *txn_id, struct lc_entry **out,
    size_t *n)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->entries(db, txn_id, out, n);
}

int
lc_db_idem_get(struct lc_db *db, const char *merchant_id, const char *key,
    struct lc_idem *k)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->idem_get(db, merchant_id, key, k);
}

int
lc_db_idem_add(struct lc_db *db, const char *merchant_id, const char *key,
    const char *kind, const char *txn_id, const char *answer, int64_t at)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->idem_add(db, merchant_id, key, kind, txn_id, answer,
	    at);
}

int
lc_db_history_count(struct lc_db *db, const struct lc_hist_query *q,
    int64_t *total)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->history_count(db, q, total);
}

int
lc_db_history_page(struct lc_db *db, const struct lc_hist_query *q,
    int (*each)(void *, const struct lc_hist_item *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->history_page(db, q, each, arg);
}

int
lc_db_report(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t offset_ms, enum lc_report_group group,
    int (*each)(void *, const struct lc_report_row *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->report(db, merchant_id, from, to, offset_ms, group,
	    each, arg);
}

int
lc_db_outstanding(struct lc_db *db, const char *merchant_id, int64_t to,
    int64_t *cents)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->outstanding(db, merchant_id, to, cents);
}

int
lc_db_txns_count(struct lc_db *db, const char *merchant_id, int64_t from,
    int64_t to, int64_t *total)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txns_count(db, merchant_id, from, to, total);
}

int
lc_db_txns(struct lc_db *db, const char *merchant_id, int64_t from, int64_t to,
    int64_t limit, int64_t offset,
    int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txns(db, merchant_id, from, to, limit, offset, each,
	    arg);
}

int
lc_db_txns_mine(struct lc_db *db, const char *merchant_id,
    const char *staff_user_id, const char *location_id, int64_t since,
    int64_t limit, int (*each)(void *, const struct lc_txn_row *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->txns_mine(db, merchant_id, staff_user_id, location_id,
	    since, limit, each, arg);
}

int
lc_db_audit_add(struct lc_db *db, const struct lc_audit_row *row)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->audit_add(db, row);
}

int
lc_db_audit_count(struct lc_db *db, const struct lc_audit_query *q,
    int64_t *total)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->audit_count(db, q, total);
}

int
lc_db_audit(struct lc_db *db, const struct lc_audit_query *q,
    int (*each)(void *, const struct lc_audit_row *), void *arg)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->audit(db, q, each, arg);
}

int
lc_db_card_any(struct lc_db *db, const char *id, struct lc_card *c)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->card_any(db, id, c);
}

int
lc_db_backup(struct lc_db *db, const char *path, const char *merchant_id)
{
	if (test_fail(__func__))
		return -1;
	return OPS(db)->backup(db, path, merchant_id);
}
