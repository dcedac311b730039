/*
 * Authentication: login with throttling, refresh rotation with reuse
 * detection, the user profile, and the bearer check every endpoint uses.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include <libscrypt.h>

#include "lc_int.h"

#define LC_TOKEN_BYTES 32	/* 256 bits from the OS random source */
#define LC_TOKEN_LEN 43		/* base64url of 32 bytes, unpadded */
#define LC_DIGEST_LEN 32
#define LC_EMAIL_MAX 254
#define LC_PASSWORD_MAX 1024

/* Cost of stored password hashes: scrypt's interactive parameters. */
#define LC_SCRYPT_N 16384
#define LC_SCRYPT_R 8
#define LC_SCRYPT_P 1

/*
 * A hash of nothing anyone knows, with the same parameters as real ones:
 * checking a password for an unknown e-mail against it costs the same
 * work as a wrong password, so timing does not reveal which accounts exist.
 */
static const char lc_dummy_mcf[] = "$s1$0e0801$hW+X/b3HcDCVQ6AygvB3FQ==$"
    "FBV/kywh2MJmJDSK30VDUZTy6DWJDjrF68j8npDaLrRqhrLqHwwrPyDAkFIDRmIeYxb8"
    "hCyc3OBJwamYaujRKg==";

int
lc_auth_hash_password(const char *password, char *out, size_t outsz)
{
	if (outsz < SCRYPT_MCF_LEN)
		return -1;
	return libscrypt_hash(out, password, LC_SCRYPT_N, LC_SCRYPT_R,
	    LC_SCRYPT_P) > 0 ? 0 : -1;
}

/* 1 when password matches the stored MCF hash. */
static int
check_password(const char *mcf, const char *password)
{
	char copy[SCRYPT_MCF_LEN + 1];

	/* libscrypt_check writes into the hash it is given: pass a copy. */
	if (strlen(mcf) >= sizeof(copy))
		return 0;
	memcpy(copy, mcf, strlen(mcf) + 1);
	return libscrypt_check(copy, password) > 0;
}

/*
 * The stored form of a token. A token is 256 random bits, so no one can
 * guess it and a slow hash buys nothing: scrypt at minimal cost with a
 * fixed salt is a plain one-way digest, deterministic so it can be looked
 * up by an index. A database leak then yields no usable token.
 */
static int
token_digest(const char *token, unsigned char out[LC_DIGEST_LEN])
{
	static const char salt[] = "loyalty-pos token v1";

	return libscrypt_scrypt((const uint8_t *)token, strlen(token),
	    (const uint8_t *)salt, sizeof(salt) - 1, 2, 1, 1, out,
	    LC_DIGEST_LEN) == 0 ? 0 : -1;
}

static int
token_new(char out[LC_TOKEN_LEN + 1])
{
	unsigned char raw[LC_TOKEN_BYTES];

	if (lc_random(raw, sizeof(raw)) == -1)
		return -1;
	lc_b64_encode(raw, sizeof(raw), out, 1);
	return 0;
}

static int
token_wellformed(const char *t)
{
	return strlen(t) == LC_TOKEN_LEN && strspn(t,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_") == LC_TOKEN_LEN;
}

/* Issues and stores one token of kind for user in family. */
static int
token_issue(struct lc_ctx *ctx, const char *kind, const char *user_id,
    const char *family, int64_t ttl, char out[LC_TOKEN_LEN + 1])
{
	unsigned char dg[LC_DIGEST_LEN];
	sqlite3_stmt *st;

	if (token_new(out) == -1 || token_digest(out, dg) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if ((st = lc_db_prep(ctx->db, LC_SQL_TOKEN_ADD, "bsssii", dg,
	    LC_DIGEST_LEN, kind, user_id, family,
	    ctx->now_ms + ttl * 1000, ctx->now_ms)) == NULL ||
	    lc_db_exec(ctx->db, st) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}

/* Issues an access and a refresh token into a new object with
 * expires_in and token_type. Call inside a write transaction. */
static json_object *
token_pair(struct lc_ctx *ctx, const char *user_id, const char *family)
{
	char access[LC_TOKEN_LEN + 1], refresh[LC_TOKEN_LEN + 1];
	int64_t attl = lc_setting(ctx->db, LC_SET_ACCESS_TTL);
	json_object *o;

	if (token_issue(ctx, "access", user_id, family, attl, access) == -1 ||
	    token_issue(ctx, "refresh", user_id, family,
	    lc_setting(ctx->db, LC_SET_REFRESH_TTL), refresh) == -1)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "access_token", json_object_new_string(access));
	json_object_object_add(o, "refresh_token", json_object_new_string(refresh));
	json_object_object_add(o, "expires_in", json_object_new_int64(attl));
	json_object_object_add(o, "token_type", json_object_new_string("bearer"));
	return o;
}

static json_object *
location_json(const char *id, const char *name)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "name", json_object_new_string(name));
	return o;
}

/*
 * The user object of spec 2.2 for user_id, or NULL after lc_fail.
 * system_user: its one location; owner: every location of the merchant,
 * the first created being the active one.
 */
static json_object *
user_json(struct lc_ctx *ctx, const char *user_id)
{
	char id[LC_ID_LEN + 1], email[LC_EMAIL_MAX + 1], type[16],
	    merchant[LC_ID_LEN + 1], loc[LC_ID_LEN + 1], lname[256];
	json_object *u = NULL, *locs, *active = NULL;
	sqlite3_stmt *st;
	int rc;

	if ((st = lc_db_prep(ctx->db, LC_SQL_USER_BY_ID, "s", user_id)) == NULL)
		goto dberr;
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		if (rc == SQLITE_DONE) {
			lc_fail(ctx, LC_E_UNAUTHORIZED, NULL, NULL);
			return NULL;
		}
		goto dberr;
	}
	lc_db_col(st, 0, id, sizeof(id));
	lc_db_col(st, 1, email, sizeof(email));
	lc_db_col(st, 2, type, sizeof(type));
	lc_db_col(st, 3, merchant, sizeof(merchant));
	lc_db_col(st, 4, loc, sizeof(loc));
	u = json_object_new_object();
	json_object_object_add(u, "id", json_object_new_string(id));
	json_object_object_add(u, "email", json_object_new_string(email));
	/* An addition to spec 2.2: the display name for a till's header. */
	json_object_object_add(u, "name", sqlite3_column_bytes(st, 5) == 0 ?
	    NULL : json_object_new_string((const char *)
	    sqlite3_column_text(st, 5)));
	lc_db_reset(st);

	json_object_object_add(u, "user_type", json_object_new_string(type));
	json_object_object_add(u, "merchant_id", json_object_new_string(merchant));
	locs = json_object_new_array();
	json_object_object_add(u, "locations", locs);
	if (strcmp(type, "system_user") == 0) {
		if ((st = lc_db_prep(ctx->db, LC_SQL_LOCATION_BY_ID, "s", loc)) == NULL)
			goto dberr;
		if ((rc = lc_db_step(ctx->db, st)) == SQLITE_ROW) {
			lc_db_col(st, 1, lname, sizeof(lname));
			active = location_json(loc, lname);
			json_object_array_add(locs, location_json(loc, lname));
		}
		lc_db_reset(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			goto dberr;
	} else {
		if ((st = lc_db_prep(ctx->db, LC_SQL_LOCATIONS_OF_MERCHANT, "s",
		    merchant)) == NULL)
			goto dberr;
		while ((rc = lc_db_step(ctx->db, st)) == SQLITE_ROW) {
			lc_db_col(st, 0, loc, sizeof(loc));
			lc_db_col(st, 1, lname, sizeof(lname));
			if (active == NULL)
				active = location_json(loc, lname);
			json_object_array_add(locs, location_json(loc, lname));
		}
		lc_db_reset(st);
		if (rc != SQLITE_DONE)
			goto dberr;
	}
	/* An owner whose merchant has no location yet has none active. */
	json_object_object_add(u, "location", active);
	return u;
dberr:
	json_object_put(active);
	json_object_put(u);
	lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return NULL;
}

static void
normalise_email(const char *in, char out[LC_EMAIL_MAX + 1])
{
	size_t i;

	for (i = 0; in[i] != '\0' && i < LC_EMAIL_MAX; i++)
		out[i] = (char)tolower((unsigned char)in[i]);
	out[i] = '\0';
}

/*
 * Refuses a login for email after too many recent failures (decisions §4):
 * 0, or -1 after lc_fail (RATE_LIMITED with Retry-After). Only completed
 * failures count, so tills logging in together with the right password are
 * never refused; guesses in flight at the same moment can pass the limit by
 * at most the number of responder processes.
 */
static int
throttle(struct lc_ctx *ctx, const char *email)
{
	int64_t max = lc_setting(ctx->db, LC_SET_LOGIN_MAX_FAILURES);
	int64_t window = lc_setting(ctx->db, LC_SET_LOGIN_WINDOW) * 1000;
	int64_t count, oldest;
	sqlite3_stmt *st;

	if ((st = lc_db_prep(ctx->db, LC_SQL_ATTEMPTS_COUNT, "si", email,
	    ctx->now_ms - window)) == NULL || lc_db_step(ctx->db, st) != SQLITE_ROW) {
		lc_db_reset(st);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	count = sqlite3_column_int64(st, 0);
	oldest = sqlite3_column_int64(st, 1);
	lc_db_reset(st);
	if (count < max)
		return 0;
	/* Whole seconds, rounded up, until the oldest failure ages out. */
	ctx->retry_after = (long)((oldest + window - ctx->now_ms + 999) / 1000);
	if (ctx->retry_after < 1)
		ctx->retry_after = 1;
	return lc_fail(ctx, LC_E_RATE_LIMITED, NULL, NULL);
}

/* Counts a failed login for email, forgetting failures past the window. */
static int
record_failure(struct lc_ctx *ctx, const char *email)
{
	int64_t window = lc_setting(ctx->db, LC_SET_LOGIN_WINDOW) * 1000;
	sqlite3_stmt *st;

	if (lc_db_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if ((st = lc_db_prep(ctx->db, LC_SQL_ATTEMPTS_PRUNE, "i",
	    ctx->now_ms - window)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
	    (st = lc_db_prep(ctx->db, LC_SQL_ATTEMPT_ADD, "si", email,
	    ctx->now_ms)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
	    lc_db_commit(ctx->db) == -1) {
		lc_db_rollback(ctx->db);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	return 0;
}

int
lc_h_login(struct lc_ctx *ctx)
{
	const char *email, *password;
	char norm[LC_EMAIL_MAX + 1], user_id[LC_ID_LEN + 1] = "",
	    hash[SCRYPT_MCF_LEN + 1] = "", family[LC_ID_LEN + 1];
	sqlite3_stmt *st;
	json_object *out = NULL, *user = NULL;
	int rc, ok;

	if (lc_in_str(ctx, ctx->in, "email", 1, LC_EMAIL_MAX, &email) == -1 ||
	    lc_in_str(ctx, ctx->in, "password", 1, LC_PASSWORD_MAX,
	    &password) == -1)
		return -1;
	normalise_email(email, norm);
	if (throttle(ctx, norm) == -1)
		return -1;

	/* The slow check runs outside any transaction. A disabled user is
	 * an unknown one. */
	if ((st = lc_db_prep(ctx->db, LC_SQL_USER_BY_EMAIL, "s", email)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	rc = lc_db_step(ctx->db, st);
	if (rc == SQLITE_ROW) {
		lc_db_col(st, 0, user_id, sizeof(user_id));
		lc_db_col(st, 1, hash, sizeof(hash));
	}
	lc_db_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	ok = check_password(rc == SQLITE_ROW ? hash : lc_dummy_mcf, password);
	if (!ok || rc != SQLITE_ROW)
		return record_failure(ctx, norm) == -1 ? -1 :
		    lc_fail(ctx, LC_E_INVALID_CREDENTIALS, NULL, NULL);

	if (lc_uuid(family) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if (lc_db_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	/* Success wipes this e-mail's failures. */
	if ((st = lc_db_prep(ctx->db, LC_SQL_ATTEMPTS_CLEAR, "s", norm)) == NULL ||
	    lc_db_exec(ctx->db, st) == -1 ||
	    (st = lc_db_prep(ctx->db, LC_SQL_TOKENS_PRUNE, "i", ctx->now_ms)) == NULL ||
	    lc_db_exec(ctx->db, st) == -1) {
		lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		goto fail;
	}
	if ((out = token_pair(ctx, user_id, family)) == NULL ||
	    (user = user_json(ctx, user_id)) == NULL)
		goto fail;
	if (lc_db_commit(ctx->db) == -1) {
		lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		goto fail;
	}
	json_object_object_add(out, "user", user);
	ctx->out = out;
	return 0;
fail:
	lc_db_rollback(ctx->db);
	json_object_put(out);
	json_object_put(user);
	return -1;
}

int
lc_h_refresh(struct lc_ctx *ctx)
{
	const char *token;
	unsigned char dg[LC_DIGEST_LEN];
	char kind[16], user_id[LC_ID_LEN + 1], family[LC_ID_LEN + 1];
	int64_t expires;
	int rotated, revoked, rc;
	sqlite3_stmt *st;
	json_object *out = NULL;

	if (lc_in_str(ctx, ctx->in, "refresh_token", 1, 512, &token) == -1)
		return -1;
	if (!token_wellformed(token))
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token is invalid or expired.");
	if (token_digest(token, dg) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if (lc_db_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if ((st = lc_db_prep(ctx->db, LC_SQL_TOKEN_GET, "b", dg,
	    LC_DIGEST_LEN)) == NULL)
		goto dberr;
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		if (rc != SQLITE_DONE)
			goto dberr;
		lc_db_rollback(ctx->db);
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token is invalid or expired.");
	}
	lc_db_col(st, 0, kind, sizeof(kind));
	lc_db_col(st, 1, user_id, sizeof(user_id));
	lc_db_col(st, 2, family, sizeof(family));
	expires = sqlite3_column_int64(st, 3);
	rotated = sqlite3_column_type(st, 4) != SQLITE_NULL;
	revoked = sqlite3_column_int(st, 5);
	lc_db_reset(st);
	if (strcmp(kind, "refresh") != 0 || revoked || expires <= ctx->now_ms) {
		lc_db_rollback(ctx->db);
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token is invalid or expired.");
	}
	if (rotated) {
		/* A rotated token presented again: someone holds a copy.
		 * Revoke everything descended from that login. */
		if ((st = lc_db_prep(ctx->db, LC_SQL_TOKEN_REVOKE_FAMILY, "s",
		    family)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
		    lc_db_commit(ctx->db) == -1)
			goto dberr;
		lc_log("refresh token reuse: revoked login family %s", family);
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token was already used; log in again.");
	}
	if ((st = lc_db_prep(ctx->db, LC_SQL_TOKEN_ROTATE, "ib", ctx->now_ms,
	    dg, LC_DIGEST_LEN)) == NULL || lc_db_exec(ctx->db, st) == -1)
		goto dberr;
	if ((out = token_pair(ctx, user_id, family)) == NULL) {
		lc_db_rollback(ctx->db);
		return -1;
	}
	if (lc_db_commit(ctx->db) == -1) {
		json_object_put(out);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = out;
	return 0;
dberr:
	lc_db_rollback(ctx->db);
	return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
}

int
lc_h_me(struct lc_ctx *ctx)
{
	return (ctx->out = user_json(ctx, ctx->caller.user_id)) == NULL ? -1 : 0;
}

int
lc_auth_bearer(struct lc_ctx *ctx)
{
	const char *h = ctx->req.authorization, *tok;
	unsigned char dg[LC_DIGEST_LEN];
	char kind[16], type[16];
	struct lc_caller *c = &ctx->caller;
	sqlite3_stmt *st;
	int rc, revoked;
	int64_t expires;

	if (h == NULL || strncasecmp(h, "Bearer", 6) != 0 ||
	    (h[6] != ' ' && h[6] != '\0'))
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "Send Authorization: Bearer <access token>.");
	for (tok = h + 6; *tok == ' '; tok++)
		continue;
	if (*tok == '\0')
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The bearer token is missing.");
	ctx->auth_had_token = 1;
	if (!token_wellformed(tok))
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The access token is invalid or expired.");
	if (token_digest(tok, dg) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if ((st = lc_db_prep(ctx->db, LC_SQL_TOKEN_GET, "b", dg,
	    LC_DIGEST_LEN)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		if (rc != SQLITE_DONE)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The access token is invalid or expired.");
	}
	lc_db_col(st, 0, kind, sizeof(kind));
	lc_db_col(st, 1, c->user_id, sizeof(c->user_id));
	lc_db_col(st, 2, c->family, sizeof(c->family));
	expires = sqlite3_column_int64(st, 3);
	revoked = sqlite3_column_int(st, 5);
	lc_db_col(st, 6, c->merchant_id, sizeof(c->merchant_id));
	lc_db_col(st, 7, type, sizeof(type));
	lc_db_col(st, 8, c->location_id, sizeof(c->location_id));
	lc_db_reset(st);
	c->is_owner = strcmp(type, "owner") == 0;
	if (strcmp(kind, "access") != 0 || revoked || expires <= ctx->now_ms) {
		memset(c, 0, sizeof(*c));
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The access token is invalid or expired.");
	}
	return 0;
}

/* 1 when the row of which (id -> merchant_id in column merchant_col)
 * belongs to the caller's merchant, 0 when not or unknown, -1 on error. */
static int
of_merchant(struct lc_ctx *ctx, enum lc_sql which, int merchant_col,
    const char *id)
{
	sqlite3_stmt *st;
	char mid[LC_ID_LEN + 1];
	int rc;

	if ((st = lc_db_prep(ctx->db, which, "s", id)) == NULL)
		return -1;
	rc = lc_db_step(ctx->db, st);
	if (rc == SQLITE_ROW)
		lc_db_col(st, merchant_col, mid, sizeof(mid));
	lc_db_reset(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return -1;
	return strcmp(mid, ctx->caller.merchant_id) == 0;
}

int
lc_auth_scope(struct lc_ctx *ctx, const char *location_id,
    const char *staff_user_id)
{
	int rc;

	if (!ctx->caller.is_owner) {
		/* Staff act at their own location, as themselves. */
		if (strcmp(location_id, ctx->caller.location_id) != 0)
			return lc_fail(ctx, LC_E_FORBIDDEN, "location_id",
			    "You can only act at your own location.");
		if (strcmp(staff_user_id, ctx->caller.user_id) != 0)
			return lc_fail(ctx, LC_E_FORBIDDEN, "staff_user_id",
			    "You can only act as yourself.");
		return 0;
	}
	if ((rc = of_merchant(ctx, LC_SQL_LOCATION_BY_ID, 2, location_id)) != 1)
		return rc == -1 ? lc_fail(ctx, LC_E_DATABASE, NULL, NULL) :
		    lc_fail(ctx, LC_E_FORBIDDEN, "location_id",
		    "This location is not one of your merchant's.");
	if ((rc = of_merchant(ctx, LC_SQL_USER_MERCHANT, 0, staff_user_id)) != 1)
		return rc == -1 ? lc_fail(ctx, LC_E_DATABASE, NULL, NULL) :
		    lc_fail(ctx, LC_E_FORBIDDEN, "staff_user_id",
		    "This user is not one of your merchant's.");
	return 0;
}
