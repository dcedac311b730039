/*
 * Storage on PostgreSQL: settings, merchants and locations, users, login
 * attempts, tokens and the audit trail's append. Each function is the
 * translation of db_sqlite.c's of the same name, statement by statement,
 * and answers as it does.
 */
#include "lc_core.h"
#include "lc_pg.h"

/* The columns a user is read from (user_row). */
#define USER_COLS "SELECT id, merchant_id, coalesce(location_id, ''), " \
	"email, coalesce(display_name, ''), password_hash, " \
	"(user_type = 'owner')::int, disabled, created_at FROM users "

#define SQL(X) \
	X(SETTING_GET, "SELECT value FROM settings WHERE key = $1") \
	X(SETTING_SET, "INSERT INTO settings(key, value) VALUES ($1, $2) " \
	    "ON CONFLICT(key) DO UPDATE SET value = excluded.value") \
	X(MERCHANT_NAME, "SELECT name FROM merchants WHERE id = $1") \
	X(MERCHANT_ADD, "INSERT INTO merchants(id, name, created_at) " \
	    "VALUES ($1, $2, $3)") \
	X(MERCHANT_EXISTS, "SELECT 1 FROM merchants WHERE id = $1") \
	X(MERCHANT_COUNT, "SELECT count(*) FROM merchants") \
	X(LOCATION_ADD, "INSERT INTO locations(id, merchant_id, name, " \
	    "created_at) VALUES ($1, $2, $3, $4)") \
	X(LOCATION_GET, "SELECT id, merchant_id, name, created_at " \
	    "FROM locations WHERE id = $1") \
	X(LOCATION_RENAME, "UPDATE locations SET name = $1 WHERE id = $2") \
	X(LOCATIONS_OF_MERCHANT, "SELECT id, merchant_id, name, created_at " \
	    "FROM locations WHERE merchant_id = $1 ORDER BY rowid") \
	/* SQLite's e-mail column compares without case (NOCASE): ASCII \
	 * letters only, as lower() does under the "C" collation, the unique \
	 * index's (schema/pg/001): under a UTF-8 locale lower() folds more \
	 * (the Kelvin sign to "k"), and a login typed so would reach the \
	 * account under another throttle key. */ \
	X(USER_BY_EMAIL, USER_COLS \
	    "WHERE lower(email COLLATE \"C\") = lower($1::text COLLATE \"C\")") \
	X(USER_GET, USER_COLS "WHERE id = $1") \
	/* A taken id or e-mail inserts nothing (LC_DB_CONFLICT): an error \
	 * would fail the whole transaction. */ \
	X(USER_ADD, "INSERT INTO users(id, merchant_id, email, display_name, " \
	    "user_type, location_id, password_hash, created_at) " \
	    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING") \
	X(USER_SET_DISABLED, "UPDATE users SET disabled = $1 WHERE id = $2") \
	X(USER_SET_PASSWORD, "UPDATE users SET password_hash = $1 " \
	    "WHERE id = $2") \
	X(USER_SET_NAME, "UPDATE users SET display_name = $1 WHERE id = $2") \
	X(USER_SET_LOCATION, "UPDATE users SET location_id = $1 " \
	    "WHERE id = $2 AND user_type = 'system_user'") \
	X(USERS_OF_MERCHANT, USER_COLS "WHERE merchant_id = $1 " \
	    "ORDER BY rowid") \
	X(OWNER_EXISTS, "SELECT 1 FROM users WHERE user_type = 'owner' " \
	    "LIMIT 1") \
	/* $1 key, $2 window start, $3 stale before: failures in the window \
	 * (settled, or checks gone stale), checks in flight, the oldest \
	 * failure, the oldest check in flight. */ \
	X(ATTEMPTS, "SELECT coalesce(sum((at > $2 AND (pending = 0 OR " \
	    "at <= $3))::int), 0), " \
	    "coalesce(sum((pending = 1 AND at > $3)::int), 0), " \
	    "min(CASE WHEN at > $2 AND (pending = 0 OR at <= $3) " \
	    "THEN at END), " \
	    "min(CASE WHEN pending = 1 AND at > $3 THEN at END) " \
	    "FROM login_attempts WHERE email = $1 AND " \
	    "CASE WHEN $4::text IS NULL THEN shared = 1 ELSE addr = $4 END") \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, addr, shared, at, " \
	    "pending) VALUES ($1, $2, $3, $4, 1) RETURNING rowid") \
	X(ATTEMPT_FAIL, "UPDATE login_attempts SET pending = 0, at = $1 " \
	    "WHERE rowid = $2") \
	X(ATTEMPT_FORGET, "DELETE FROM login_attempts WHERE rowid = $1") \
	X(ATTEMPTS_CLEAR, "DELETE FROM login_attempts WHERE email = $1 " \
	    "AND addr = $2 AND (pending = 0 OR at <= $3)") \
	X(ATTEMPTS_PRUNE, "DELETE FROM login_attempts WHERE at <= $1 " \
	    "AND (pending = 0 OR at <= $2)") \
	X(KNOWN, "SELECT count(*) FROM login_known WHERE email = $1 " \
	    "AND addr = $2 AND at > $3") \
	X(KNOWN_ADD, "INSERT INTO login_known(email, addr, at) " \
	    "VALUES ($1, $2, $3) ON CONFLICT(email, addr) DO UPDATE SET " \
	    "at = excluded.at") \
	X(KNOWN_PRUNE, "DELETE FROM login_known WHERE at <= $1") \
	X(TOKEN_GET, "SELECT t.kind, t.user_id, t.family, t.expires_at, " \
	    "(t.rotated_at IS NOT NULL)::int, t.revoked, u.merchant_id, " \
	    "(u.user_type = 'owner')::int, coalesce(u.location_id, '') " \
	    "FROM tokens t JOIN users u ON u.id = t.user_id " \
	    "WHERE t.digest = $1 AND u.disabled = 0") \
	X(TOKEN_ADD, "INSERT INTO tokens(digest, kind, user_id, family, " \
	    "expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)") \
	X(TOKEN_ROTATE, "UPDATE tokens SET rotated_at = $1 WHERE digest = $2 " \
	    "AND rotated_at IS NULL") \
	X(TOKENS_REVOKE_FAMILY, "UPDATE tokens SET revoked = 1 " \
	    "WHERE family = $1") \
	X(TOKENS_REVOKE_USER, "UPDATE tokens SET revoked = 1 " \
	    "WHERE user_id = $1") \
	X(TOKENS_PRUNE, "DELETE FROM tokens WHERE expires_at < $1") \
	X(AUDIT_ADD, "INSERT INTO audit_log(at, merchant_id, actor_type, " \
	    "user_id, location_id, terminal_id, request_id, action, " \
	    "object_type, object_id, before, after) " \
	    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)")

enum { SQL(LC_PG_Q_ENUM) Q__N };
static const char *const q_sql[Q__N] = { SQL(LC_PG_Q_TEXT) };
_Static_assert(LC_PG_PEOPLE + Q__N <= LC_PG_CARDS,
    "db_pg_people.c has more statements than its slots");

#define RUN(db, name, ...) lc_pg_run((db), LC_PG_PEOPLE + Q_##name, \
	q_sql[Q_##name], __VA_ARGS__)

/* Settings. */

int
lc_pg_setting_get(struct lc_db *db, const char *key, char *out, size_t outsz)
{
	PGresult *r = RUN(db, SETTING_GET, "s", key);
	int rc;

	if ((rc = lc_pg_row(r)) == 1) {
		lc_pg_col(r, 0, 0, out, outsz);
		PQclear(r);
	}
	return rc;
}

int
lc_pg_setting_set(struct lc_db *db, const char *key, const char *value)
{
	return lc_pg_put(RUN(db, SETTING_SET, "ss", key, value));
}

/* Merchants and locations. */

int
lc_pg_merchant_name(struct lc_db *db, const char *id, char *out,
    size_t outsz)
{
	PGresult *r = RUN(db, MERCHANT_NAME, "s", id);
	int rc;

	if ((rc = lc_pg_row(r)) == 1) {
		lc_pg_col(r, 0, 0, out, outsz);
		PQclear(r);
	}
	return rc;
}

int
lc_pg_merchant_add(struct lc_db *db, const char *id, const char *name,
    int64_t at)
{
	return lc_pg_put(RUN(db, MERCHANT_ADD, "ssi", id, name, at));
}

int
lc_pg_merchant_exists(struct lc_db *db, const char *id)
{
	PGresult *r = RUN(db, MERCHANT_EXISTS, "s", id);
	int rc;

	if ((rc = lc_pg_row(r)) == 1)
		PQclear(r);
	return rc;
}

int
lc_pg_merchant_count(struct lc_db *db, int64_t *n)
{
	PGresult *r = RUN(db, MERCHANT_COUNT, "");

	if (lc_pg_row(r) != 1)
		return -1;
	*n = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return 0;
}

int
lc_pg_location_add(struct lc_db *db, const struct lc_location *l, int64_t at)
{
	return lc_pg_put(RUN(db, LOCATION_ADD, "sssi", l->id, l->merchant_id,
	    l->name, at));
}

static void
location_row(const PGresult *r, int row, struct lc_location *l)
{
	LC_PG_COL(r, row, 0, l->id);
	LC_PG_COL(r, row, 1, l->merchant_id);
	LC_PG_COL(r, row, 2, l->name);
	l->created_at = lc_pg_int(r, row, 3, 0);
}

int
lc_pg_location_get(struct lc_db *db, const char *id, struct lc_location *l)
{
	PGresult *r = RUN(db, LOCATION_GET, "s", id);
	int rc;

	if ((rc = lc_pg_row(r)) == 1) {
		location_row(r, 0, l);
		PQclear(r);
	}
	return rc;
}

int
lc_pg_location_rename(struct lc_db *db, const char *id, const char *name)
{
	return lc_pg_change(RUN(db, LOCATION_RENAME, "ss", name, id));
}

int
lc_pg_locations(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_location *), void *arg)
{
	PGresult *r = RUN(db, LOCATIONS_OF_MERCHANT, "s", merchant_id);
	struct lc_location l;
	int i, n, stop = 0;

	if (r == NULL)
		return -1;
	n = PQntuples(r);
	for (i = 0; stop == 0 && i < n; i++) {
		location_row(r, i, &l);
		stop = each(arg, &l);
	}
	PQclear(r);
	return stop;
}

/* Users. */

static void
user_row(const PGresult *r, int row, struct lc_user *u)
{
	LC_PG_COL(r, row, 0, u->id);
	LC_PG_COL(r, row, 1, u->merchant_id);
	LC_PG_COL(r, row, 2, u->location_id);
	LC_PG_COL(r, row, 3, u->email);
	LC_PG_COL(r, row, 4, u->display_name);
	LC_PG_COL(r, row, 5, u->password_hash);
	u->is_owner = (int)lc_pg_int(r, row, 6, 0);
	u->disabled = (int)lc_pg_int(r, row, 7, 0);
	u->created_at = lc_pg_int(r, row, 8, 0);
}

/* The one user of r (cleared): 1, 0 none, -1. */
static int
user_get(PGresult *r, struct lc_user *u)
{
	int rc;

	if ((rc = lc_pg_row(r)) == 1) {
		user_row(r, 0, u);
		PQclear(r);
	}
	return rc;
}

int
lc_pg_user_by_email(struct lc_db *db, const char *email, struct lc_user *u)
{
	return user_get(RUN(db, USER_BY_EMAIL, "s", email), u);
}

int
lc_pg_user_get(struct lc_db *db, const char *id, struct lc_user *u)
{
	return user_get(RUN(db, USER_GET, "s", id), u);
}

int
lc_pg_user_add(struct lc_db *db, const struct lc_user *u, int64_t at)
{
	return lc_pg_put_unique(RUN(db, USER_ADD, "sssssssi", u->id,
	    u->merchant_id, u->email,
	    u->display_name[0] ? u->display_name : NULL,
	    u->is_owner ? "owner" : "system_user",
	    u->is_owner ? NULL : u->location_id, u->password_hash, at));
}

int
lc_pg_user_set_disabled(struct lc_db *db, const char *id, int disabled)
{
	return lc_pg_change(RUN(db, USER_SET_DISABLED, "is",
	    (int64_t)(disabled != 0), id));
}

int
lc_pg_user_set_password(struct lc_db *db, const char *id, const char *hash)
{
	return lc_pg_change(RUN(db, USER_SET_PASSWORD, "ss", hash, id));
}

int
lc_pg_user_set_name(struct lc_db *db, const char *id, const char *name)
{
	return lc_pg_change(RUN(db, USER_SET_NAME, "ss",
	    *name != '\0' ? name : NULL, id));
}

int
lc_pg_user_set_location(struct lc_db *db, const char *id,
    const char *location_id)
{
	return lc_pg_change(RUN(db, USER_SET_LOCATION, "ss", location_id, id));
}

int
lc_pg_users(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_user *), void *arg)
{
	PGresult *r = RUN(db, USERS_OF_MERCHANT, "s", merchant_id);
	struct lc_user u;
	int i, n, stop = 0;

	if (r == NULL)
		return -1;
	n = PQntuples(r);
	for (i = 0; stop == 0 && i < n; i++) {
		user_row(r, i, &u);
		stop = each(arg, &u);
	}
	PQclear(r);
	return stop;
}

int
lc_pg_owner_exists(struct lc_db *db)
{
	PGresult *r = RUN(db, OWNER_EXISTS, "");
	int rc;

	if ((rc = lc_pg_row(r)) == 1)
		PQclear(r);
	return rc;
}

/* Login attempts. */

int
lc_pg_attempts(struct lc_db *db, const char *email, const char *addr,
    int64_t since, int64_t stale_before, struct lc_attempts *a)
{
	PGresult *r = RUN(db, ATTEMPTS, "siis", email, since, stale_before,
	    addr);

	if (lc_pg_row(r) != 1)
		return -1;
	/* No failure or check: the oldest are 0, as SQLite reads NULL. */
	a->failures = lc_pg_int(r, 0, 0, 0);
	a->pending = lc_pg_int(r, 0, 1, 0);
	a->oldest = lc_pg_int(r, 0, 2, 0);
	a->oldest_pending = lc_pg_int(r, 0, 3, 0);
	PQclear(r);
	return 0;
}

int
lc_pg_attempt_add(struct lc_db *db, const char *email, const char *addr,
    int shared, int64_t at, int64_t *id)
{
	PGresult *r = RUN(db, ATTEMPT_ADD, "ssii", email, addr, (int64_t)shared,
	    at);

	if (lc_pg_row(r) != 1)
		return -1;
	*id = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return 0;
}

int
lc_pg_attempt_settle(struct lc_db *db, int64_t id, int failed, int64_t at)
{
	return failed ? lc_pg_change(RUN(db, ATTEMPT_FAIL, "ii", at, id)) :
	    lc_pg_change(RUN(db, ATTEMPT_FORGET, "i", id));
}

int
lc_pg_attempts_clear(struct lc_db *db, const char *email, const char *addr,
    int64_t stale_before)
{
	return lc_pg_put(RUN(db, ATTEMPTS_CLEAR, "ssi", email, addr,
	    stale_before));
}

int
lc_pg_attempts_prune(struct lc_db *db, int64_t before, int64_t stale_before)
{
	return lc_pg_put(RUN(db, ATTEMPTS_PRUNE, "ii", before, stale_before));
}

int
lc_pg_known(struct lc_db *db, const char *email, const char *addr,
    int64_t since)
{
	PGresult *r = RUN(db, KNOWN, "ssi", email, addr, since);
	int64_t n;

	if (lc_pg_row(r) != 1)
		return -1;
	n = lc_pg_int(r, 0, 0, 0);
	PQclear(r);
	return n > 0;
}

int
lc_pg_known_add(struct lc_db *db, const char *email, const char *addr,
    int64_t at)
{
	return lc_pg_put(RUN(db, KNOWN_ADD, "ssi", email, addr, at));
}

int
lc_pg_known_prune(struct lc_db *db, int64_t before)
{
	return lc_pg_put(RUN(db, KNOWN_PRUNE, "i", before));
}

/* Tokens. */

int
lc_pg_token_get(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    struct lc_token *t)
{
	PGresult *r = RUN(db, TOKEN_GET, "b", digest, LC_DIGEST_LEN);
	int rc;

	if ((rc = lc_pg_row(r)) != 1)
		return rc;
	LC_PG_COL(r, 0, 0, t->kind);
	LC_PG_COL(r, 0, 1, t->user_id);
	LC_PG_COL(r, 0, 2, t->family);
	t->expires_at = lc_pg_int(r, 0, 3, 0);
	t->rotated = (int)lc_pg_int(r, 0, 4, 0);
	t->revoked = (int)lc_pg_int(r, 0, 5, 0);
	LC_PG_COL(r, 0, 6, t->merchant_id);
	t->is_owner = (int)lc_pg_int(r, 0, 7, 0);
	LC_PG_COL(r, 0, 8, t->location_id);
	PQclear(r);
	return 1;
}

int
lc_pg_token_add(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    const char *kind, const char *user_id, const char *family,
    int64_t expires_at, int64_t at)
{
	return lc_pg_put(RUN(db, TOKEN_ADD, "bsssii", digest, LC_DIGEST_LEN,
	    kind, user_id, family, expires_at, at));
}

int
lc_pg_token_rotate(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    int64_t at)
{
	return lc_pg_change(RUN(db, TOKEN_ROTATE, "ib", at, digest,
	    LC_DIGEST_LEN));
}

int
lc_pg_tokens_revoke_family(struct lc_db *db, const char *family)
{
	return lc_pg_put(RUN(db, TOKENS_REVOKE_FAMILY, "s", family));
}

int
lc_pg_tokens_revoke_user(struct lc_db *db, const char *user_id)
{
	return lc_pg_put(RUN(db, TOKENS_REVOKE_USER, "s", user_id));
}

int
lc_pg_tokens_prune(struct lc_db *db, int64_t now)
{
	return lc_pg_put(RUN(db, TOKENS_PRUNE, "i", now));
}

/* The audit trail. */

int
lc_pg_audit_add(struct lc_db *db, const struct lc_audit_row *a)
{
	return lc_pg_put(RUN(db, AUDIT_ADD, "isssssssssss", a->at,
	    a->merchant_id, a->actor_type, a->user_id, a->location_id,
	    a->terminal_id, a->request_id, a->action, a->object_type,
	    a->object_id, a->before, a->after));
}
