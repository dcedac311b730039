/*
 * Storage, both backends: settings, merchants and locations, users, login
 * attempts, tokens and the audit trail's append. Each statement is
 * written once for SQLite and PostgreSQL (lc_backend.h says in which
 * words); SQL_PG holds the few PostgreSQL must read otherwise, each with
 * why.
 */
#include "lc_backend.h"

/* The columns a user is read from (user_row). */
#define USER_COLS "SELECT id, merchant_id, coalesce(location_id, ''), " \
	"email, coalesce(display_name, ''), password_hash, " \
	"CAST(user_type = 'owner' AS integer), disabled, created_at FROM users "

#define SQL(X) \
	X(SETTING_GET, "SELECT value FROM settings WHERE key = ?") \
	X(SETTING_SET, "INSERT INTO settings(key, value) VALUES (?, ?) " \
	    "ON CONFLICT(key) DO UPDATE SET value = excluded.value") \
	X(SHOP_SETTING_GET, "SELECT value FROM shop_settings " \
	    "WHERE merchant_id = ? AND key = ?") \
	X(SHOP_SETTING_SET, "INSERT INTO shop_settings(merchant_id, key, " \
	    "value) VALUES (?, ?, ?) ON CONFLICT(merchant_id, key) " \
	    "DO UPDATE SET value = excluded.value") \
	X(MERCHANT_MONEY_MOVED, "SELECT count(*) FROM (SELECT 1 " \
	    "FROM transactions WHERE merchant_id = ? LIMIT 1) AS t") \
	X(MERCHANT_NAME, "SELECT name FROM merchants WHERE id = ?") \
	X(MERCHANT_ADD, "INSERT INTO merchants(id, name, created_at) " \
	    "VALUES (?, ?, ?)") \
	X(MERCHANT_EXISTS, "SELECT 1 FROM merchants WHERE id = ?") \
	X(MERCHANT_COUNT, "SELECT count(*) FROM merchants") \
	X(MERCHANT_FIRST, "SELECT id FROM merchants ORDER BY created_at, id " \
	    "LIMIT 1") \
	X(LOCATION_ADD, "INSERT INTO locations(id, merchant_id, name, " \
	    "created_at) VALUES (?, ?, ?, ?)") \
	X(LOCATION_GET, "SELECT id, merchant_id, name, created_at " \
	    "FROM locations WHERE id = ?") \
	X(LOCATION_RENAME, "UPDATE locations SET name = ? WHERE id = ?") \
	X(LOCATIONS_OF_MERCHANT, "SELECT id, merchant_id, name, created_at " \
	    "FROM locations WHERE merchant_id = ? ORDER BY rowid") \
	/* SQLite's e-mail column compares without case (NOCASE). */ \
	X(USER_BY_EMAIL, USER_COLS "WHERE email = ?") \
	X(USER_GET, USER_COLS "WHERE id = ?") \
	/* A taken id or e-mail inserts nothing (LC_DB_CONFLICT): on \
	 * PostgreSQL an error would fail the whole transaction. */ \
	X(USER_ADD, "INSERT INTO users(id, merchant_id, email, display_name, " \
	    "user_type, location_id, password_hash, created_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING") \
	X(USER_SET_DISABLED, "UPDATE users SET disabled = ? WHERE id = ?") \
	X(USER_SET_PASSWORD, "UPDATE users SET password_hash = ? WHERE id = ?") \
	X(USER_SET_NAME, "UPDATE users SET display_name = ? WHERE id = ?") \
	X(USER_SET_LOCATION, "UPDATE users SET location_id = ? WHERE id = ? " \
	    "AND user_type = 'system_user'") \
	X(USERS_OF_MERCHANT, USER_COLS "WHERE merchant_id = ? ORDER BY rowid") \
	X(OWNER_EXISTS, "SELECT 1 FROM users WHERE user_type = 'owner' LIMIT 1") \
	/* ?1 key, ?2 window start, ?3 stale before, ?4 the address (NULL: \
	 * the checks of the key's shared limit): failures in the window \
	 * (settled, or checks gone stale), checks in flight, the oldest \
	 * failure, the oldest check in flight. */ \
	X(ATTEMPTS, "SELECT coalesce(sum(CAST(at > ?2 AND (pending = 0 OR " \
	    "at <= ?3) AS integer)), 0), " \
	    "coalesce(sum(CAST(pending = 1 AND at > ?3 AS integer)), 0), " \
	    "min(CASE WHEN at > ?2 AND (pending = 0 OR at <= ?3) THEN at END), " \
	    "min(CASE WHEN pending = 1 AND at > ?3 THEN at END) " \
	    "FROM login_attempts WHERE email = ?1 AND " \
	    "CASE WHEN CAST(?4 AS text) IS NULL THEN shared = 1 " \
	    "ELSE addr = ?4 END") \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, addr, shared, at, " \
	    "pending) VALUES (?, ?, ?, ?, 1)") \
	X(ATTEMPT_FAIL, "UPDATE login_attempts SET pending = 0, at = ? " \
	    "WHERE rowid = ?") \
	X(ATTEMPT_FORGET, "DELETE FROM login_attempts WHERE rowid = ?") \
	X(ATTEMPTS_CLEAR, "DELETE FROM login_attempts WHERE email = ? " \
	    "AND addr = ? AND (pending = 0 OR at <= ?)") \
	X(ATTEMPTS_PRUNE, "DELETE FROM login_attempts WHERE at <= ? " \
	    "AND (pending = 0 OR at <= ?)") \
	X(KNOWN, "SELECT count(*) FROM login_known WHERE email = ? " \
	    "AND addr = ? AND at > ?") \
	X(KNOWN_ADD, "INSERT INTO login_known(email, addr, at) " \
	    "VALUES (?, ?, ?) ON CONFLICT(email, addr) DO UPDATE SET " \
	    "at = excluded.at") \
	X(KNOWN_PRUNE, "DELETE FROM login_known WHERE at <= ?") \
	X(TOKEN_ADD, "INSERT INTO tokens(digest, kind, user_id, family, " \
	    "expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)") \
	X(TOKEN_GET, "SELECT t.kind, t.user_id, t.family, t.expires_at, " \
	    "CAST(t.rotated_at IS NOT NULL AS integer), t.revoked, " \
	    "u.merchant_id, CAST(u.user_type = 'owner' AS integer), " \
	    "coalesce(u.location_id, '') FROM tokens t " \
	    "JOIN users u ON u.id = t.user_id WHERE t.digest = ? " \
	    "AND u.disabled = 0") \
	X(TOKEN_ROTATE, "UPDATE tokens SET rotated_at = ? WHERE digest = ? " \
	    "AND rotated_at IS NULL") \
	X(TOKENS_REVOKE_FAMILY, "UPDATE tokens SET revoked = 1 WHERE family = ?") \
	X(TOKENS_REVOKE_USER, "UPDATE tokens SET revoked = 1 WHERE user_id = ?") \
	X(TOKENS_PRUNE, "DELETE FROM tokens WHERE expires_at < ?") \
	X(AUDIT_ADD, "INSERT INTO audit_log(at, merchant_id, actor_type, " \
	    "user_id, location_id, terminal_id, request_id, action, " \
	    "object_type, object_id, before, after) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")

#define SQL_PG(X) \
	/* SQLite's e-mail column compares without case (NOCASE): ASCII \
	 * letters only, as lower() does under the "C" collation, the unique \
	 * index's (schema/pg/001): under a UTF-8 locale lower() folds more \
	 * (the Kelvin sign to "k"), and a login typed so would reach the \
	 * account under another throttle key. */ \
	X(USER_BY_EMAIL, USER_COLS \
	    "WHERE lower(email COLLATE \"C\") = lower(CAST(? AS text) " \
	    "COLLATE \"C\")") \
	/* The new row's id from the insert itself (SQLite's comes from \
	 * its last insert rowid; its RETURNING needs 3.35). */ \
	X(ATTEMPT_ADD, "INSERT INTO login_attempts(email, addr, shared, at, " \
	    "pending) VALUES (?, ?, ?, ?, 1) RETURNING rowid")

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_PEOPLE + Q__N <= LC_Q_CARDS,
    "db_people.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUN(r, db, name, ...) lc_st_run((r), (db), LC_Q_PEOPLE + Q_##name, \
	q_sql[Q_##name], q_pg[Q_##name], __VA_ARGS__)

/* Settings. */

int
lc_db_setting_get(struct lc_db *db, const char *key, char *out, size_t outsz)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, SETTING_GET, "s", key))) == 1) {
		lc_st_col(&r, 0, out, outsz);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_setting_set(struct lc_db *db, const char *key, const char *value)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, SETTING_SET, "ss", key, value));
}

/* A shop's own setting: 1 read, 0 none of its own, -1 error. */
int
lc_db_shop_setting_get(struct lc_db *db, const char *merchant_id,
    const char *key, char *out, size_t outsz)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, SHOP_SETTING_GET, "ss", merchant_id,
	    key))) == 1) {
		lc_st_col(&r, 0, out, outsz);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_shop_setting_set(struct lc_db *db, const char *merchant_id,
    const char *key, const char *value)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, SHOP_SETTING_SET, "sss", merchant_id, key,
	    value));
}

int
lc_db_merchant_money_moved(struct lc_db *db, const char *merchant_id,
    int *moved)
{
	struct lc_row r;
	int64_t n = 0;

	if (lc_st_int1(RUN(&r, db, MERCHANT_MONEY_MOVED, "s", merchant_id), 0,
	    &n) != 1)
		return -1;
	*moved = n > 0;
	return 0;
}

/* Merchants and locations. */

int
lc_db_merchant_name(struct lc_db *db, const char *id, char *out,
    size_t outsz)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, MERCHANT_NAME, "s", id))) == 1) {
		lc_st_col(&r, 0, out, outsz);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_merchant_add(struct lc_db *db, const char *id, const char *name,
    int64_t at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, MERCHANT_ADD, "ssi", id, name, at));
}

int
lc_db_merchant_exists(struct lc_db *db, const char *id)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, MERCHANT_EXISTS, "s", id))) == 1)
		lc_st_done(&r);
	return rc;
}

int
lc_db_merchant_count(struct lc_db *db, int64_t *n)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, MERCHANT_COUNT, ""), 0, n) == 1 ? 0 : -1;
}

/* The oldest merchant's id (the only one, where there is one): 1, 0 none,
 * -1 error. */
int
lc_db_merchant_first(struct lc_db *db, char *out, size_t outsz)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, MERCHANT_FIRST, ""))) == 1) {
		lc_st_col(&r, 0, out, outsz);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_location_add(struct lc_db *db, const struct lc_location *l, int64_t at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, LOCATION_ADD, "sssi", l->id,
	    l->merchant_id, l->name, at));
}

static void
location_row(struct lc_row *r, struct lc_location *l)
{
	LC_ST_COL(r, 0, l->id);
	LC_ST_COL(r, 1, l->merchant_id);
	LC_ST_COL(r, 2, l->name);
	l->created_at = lc_st_int(r, 3);
}

int
lc_db_location_get(struct lc_db *db, const char *id, struct lc_location *l)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, LOCATION_GET, "s", id))) == 1) {
		location_row(&r, l);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_location_rename(struct lc_db *db, const char *id, const char *name)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, LOCATION_RENAME, "ss", name, id));
}

int
lc_db_locations(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_location *), void *arg)
{
	struct lc_row r;
	struct lc_location l;
	int rc = 0, stop = 0;

	if (RUN(&r, db, LOCATIONS_OF_MERCHANT, "s", merchant_id) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		location_row(&r, &l);
		stop = each(arg, &l);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

/* Users. */

static void
user_row(struct lc_row *r, struct lc_user *u)
{
	LC_ST_COL(r, 0, u->id);
	LC_ST_COL(r, 1, u->merchant_id);
	LC_ST_COL(r, 2, u->location_id);
	LC_ST_COL(r, 3, u->email);
	LC_ST_COL(r, 4, u->display_name);
	LC_ST_COL(r, 5, u->password_hash);
	u->is_owner = (int)lc_st_int(r, 6);
	u->disabled = (int)lc_st_int(r, 7);
	u->created_at = lc_st_int(r, 8);
}

/* The one user of a run: 1, 0 none, -1. */
static int
user_get(struct lc_row *r, struct lc_user *u)
{
	int rc;

	if ((rc = lc_st_row(r)) == 1) {
		user_row(r, u);
		lc_st_done(r);
	}
	return rc;
}

int
lc_db_user_by_email(struct lc_db *db, const char *email, struct lc_user *u)
{
	struct lc_row r;

	return user_get(RUN(&r, db, USER_BY_EMAIL, "s", email), u);
}

int
lc_db_user_get(struct lc_db *db, const char *id, struct lc_user *u)
{
	struct lc_row r;

	return user_get(RUN(&r, db, USER_GET, "s", id), u);
}

int
lc_db_user_add(struct lc_db *db, const struct lc_user *u, int64_t at)
{
	struct lc_row r;

	return lc_st_put_unique(RUN(&r, db, USER_ADD, "sssssssi", u->id,
	    u->merchant_id, u->email,
	    u->display_name[0] ? u->display_name : NULL,
	    u->is_owner ? "owner" : "system_user",
	    u->is_owner ? NULL : u->location_id, u->password_hash, at));
}

int
lc_db_user_set_disabled(struct lc_db *db, const char *id, int disabled)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, USER_SET_DISABLED, "is",
	    (int64_t)(disabled != 0), id));
}

int
lc_db_user_set_password(struct lc_db *db, const char *id, const char *hash)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, USER_SET_PASSWORD, "ss", hash, id));
}

int
lc_db_user_set_name(struct lc_db *db, const char *id, const char *name)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, USER_SET_NAME, "ss",
	    *name != '\0' ? name : NULL, id));
}

int
lc_db_user_set_location(struct lc_db *db, const char *id,
    const char *location_id)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, USER_SET_LOCATION, "ss", location_id,
	    id));
}

int
lc_db_users(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_user *), void *arg)
{
	struct lc_row r;
	struct lc_user u;
	int rc = 0, stop = 0;

	if (RUN(&r, db, USERS_OF_MERCHANT, "s", merchant_id) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		user_row(&r, &u);
		stop = each(arg, &u);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

int
lc_db_owner_exists(struct lc_db *db)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, OWNER_EXISTS, ""))) == 1)
		lc_st_done(&r);
	return rc;
}

/* Login attempts. */

int
lc_db_attempts(struct lc_db *db, const char *email, const char *addr,
    int64_t since, int64_t stale_before, struct lc_attempts *a)
{
	struct lc_row r;

	if (lc_st_row(RUN(&r, db, ATTEMPTS, "siis", email, since,
	    stale_before, addr)) != 1)
		return -1;
	/* No failure or check: the oldest are 0 (NULL read as 0). */
	a->failures = lc_st_int(&r, 0);
	a->pending = lc_st_int(&r, 1);
	a->oldest = lc_st_int(&r, 2);
	a->oldest_pending = lc_st_int(&r, 3);
	lc_st_done(&r);
	return 0;
}

int
lc_db_attempt_add(struct lc_db *db, const char *email, const char *addr,
    int shared, int64_t at, int64_t *id)
{
	struct lc_row r;

	return lc_st_put_id(RUN(&r, db, ATTEMPT_ADD, "ssii", email, addr,
	    (int64_t)shared, at), id);
}

int
lc_db_attempt_settle(struct lc_db *db, int64_t id, int failed, int64_t at)
{
	struct lc_row r;

	return failed ? lc_st_change(RUN(&r, db, ATTEMPT_FAIL, "ii", at, id)) :
	    lc_st_change(RUN(&r, db, ATTEMPT_FORGET, "i", id));
}

int
lc_db_attempts_clear(struct lc_db *db, const char *email, const char *addr,
    int64_t stale_before)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, ATTEMPTS_CLEAR, "ssi", email, addr,
	    stale_before));
}

int
lc_db_attempts_prune(struct lc_db *db, int64_t before, int64_t stale_before)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, ATTEMPTS_PRUNE, "ii", before,
	    stale_before));
}

int
lc_db_known(struct lc_db *db, const char *email, const char *addr,
    int64_t since)
{
	struct lc_row r;
	int64_t n;

	if (lc_st_int1(RUN(&r, db, KNOWN, "ssi", email, addr, since), 0,
	    &n) != 1)
		return -1;
	return n > 0;
}

int
lc_db_known_add(struct lc_db *db, const char *email, const char *addr,
    int64_t at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, KNOWN_ADD, "ssi", email, addr, at));
}

int
lc_db_known_prune(struct lc_db *db, int64_t before)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, KNOWN_PRUNE, "i", before));
}

/* Tokens. */

int
lc_db_token_get(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    struct lc_token *t)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, TOKEN_GET, "b", digest,
	    LC_DIGEST_LEN))) != 1)
		return rc;
	LC_ST_COL(&r, 0, t->kind);
	LC_ST_COL(&r, 1, t->user_id);
	LC_ST_COL(&r, 2, t->family);
	t->expires_at = lc_st_int(&r, 3);
	t->rotated = (int)lc_st_int(&r, 4);
	t->revoked = (int)lc_st_int(&r, 5);
	LC_ST_COL(&r, 6, t->merchant_id);
	t->is_owner = (int)lc_st_int(&r, 7);
	LC_ST_COL(&r, 8, t->location_id);
	lc_st_done(&r);
	return 1;
}

int
lc_db_token_add(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    const char *kind, const char *user_id, const char *family,
    int64_t expires_at, int64_t at)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, TOKEN_ADD, "bsssii", digest,
	    LC_DIGEST_LEN, kind, user_id, family, expires_at, at));
}

int
lc_db_token_rotate(struct lc_db *db, const unsigned char digest[LC_DIGEST_LEN],
    int64_t at)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, TOKEN_ROTATE, "ib", at, digest,
	    LC_DIGEST_LEN));
}

int
lc_db_tokens_revoke_family(struct lc_db *db, const char *family)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, TOKENS_REVOKE_FAMILY, "s", family));
}

int
lc_db_tokens_revoke_user(struct lc_db *db, const char *user_id)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, TOKENS_REVOKE_USER, "s", user_id));
}

int
lc_db_tokens_prune(struct lc_db *db, int64_t now)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, TOKENS_PRUNE, "i", now));
}

/* The audit trail. */

int
lc_db_audit_add(struct lc_db *db, const struct lc_audit_row *a)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, AUDIT_ADD, "isssssssssss", a->at,
	    a->merchant_id, a->actor_type, a->user_id, a->location_id,
	    a->terminal_id, a->request_id, a->action, a->object_type,
	    a->object_id, a->before, a->after));
}
