/*
 * Storage, both backends: the feed of events (read only: the outbox,
 * db_events.c, writes them) and integration tokens. Each statement is
 * written once for SQLite and PostgreSQL (lc_backend.h says in which
 * words).
 */
#include "lc_backend.h"
#include "lc_apitoken.h"
#include "lc_util.h"

#define TOKEN_COLS "SELECT id, merchant_id, name, scopes, prefix, " \
	"created_at, last_used_at, revoked_at, digest FROM api_tokens "

#define SQL(X) \
	/* ?3 to ?18: the types wanted (NULL: none; ?3 NULL: all). The \
	 * merchant's index gives its events in seq order. */ \
	X(FEED, "SELECT seq, merchant_id, type, created_at, data " \
	    "FROM events WHERE merchant_id = ?1 AND seq > ?2 " \
	    "AND (CAST(?3 AS text) IS NULL OR type IN (?3, ?4, ?5, ?6, ?7, " \
	    "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)) " \
	    "ORDER BY seq LIMIT ?19") \
	X(FEED_PRUNED, "SELECT through_seq FROM events_pruned " \
	    "WHERE merchant_id = ?") \
	X(FEED_OLDEST, "SELECT min(seq) FROM events WHERE merchant_id = ?") \
	X(TOKEN_ADD, "INSERT INTO api_tokens(id, merchant_id, name, scopes, " \
	    "digest, prefix, created_at, created_by) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)") \
	X(TOKEN_GET, TOKEN_COLS "WHERE id = ? AND merchant_id = ?") \
	X(TOKEN_BY_DIGEST, TOKEN_COLS "WHERE digest = ?") \
	/* Newest first; rowid orders tokens made in the same ms. */ \
	X(TOKENS, TOKEN_COLS "WHERE merchant_id = ? " \
	    "ORDER BY created_at DESC, rowid DESC") \
	X(TOKENS_LIVE, "SELECT count(*) FROM api_tokens " \
	    "WHERE merchant_id = ? AND revoked_at IS NULL") \
	X(TOKEN_REVOKE, "UPDATE api_tokens SET revoked_at = ? " \
	    "WHERE id = ? AND revoked_at IS NULL") \
	X(TOKEN_TOUCH, "UPDATE api_tokens SET last_used_at = ?1 " \
	    "WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?3)")

#define SQL_PG(X) \
	/* PostgreSQL has no rowid: the id orders tokens of one ms (any \
	 * order, the same each time). */ \
	X(TOKENS, TOKEN_COLS "WHERE merchant_id = ? " \
	    "ORDER BY created_at DESC, id DESC")

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_FEED + Q__N <= LC_Q_HOOKS,
    "db_feed.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUN(r, db, name, ...) lc_st_run((r), (db), LC_Q_FEED + Q_##name, \
	q_sql[Q_##name], q_pg[Q_##name], __VA_ARGS__)

/* The feed. */

int
lc_db_feed(struct lc_db *db, const char *merchant_id, int64_t after,
    const char *const *types, int64_t limit,
    int (*each)(void *, const struct lc_event_row *), void *arg)
{
	struct lc_row r;
	struct lc_event_row e;
	const char *t[LC_FEED_TYPES_MAX] = { NULL };
	int rc = 0, stop = 0, i;

	for (i = 0; types != NULL && types[i] != NULL; i++) {
		if (i == LC_FEED_TYPES_MAX) {
			lc_log("the feed takes at most %d types",
			    LC_FEED_TYPES_MAX);
			return -1;
		}
		t[i] = types[i];
	}
	if (RUN(&r, db, FEED, "si" "ssssssssssssssss" "l", merchant_id, after,
	    t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10],
	    t[11], t[12], t[13], t[14], t[15], limit) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		e.seq = lc_st_int(&r, 0);
		e.merchant_id = lc_st_text(&r, 1);
		e.type = lc_st_text(&r, 2);
		e.created_at = lc_st_int(&r, 3);
		e.data = lc_st_text(&r, 4);
		stop = each(arg, &e);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

int
lc_db_feed_pruned(struct lc_db *db, const char *merchant_id,
    int64_t *through)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, FEED_PRUNED, "s", merchant_id), 0,
	    through);
}

int
lc_db_feed_oldest(struct lc_db *db, const char *merchant_id, int64_t *seq)
{
	struct lc_row r;
	int rc;

	/* min() of no rows is one row of NULL. */
	if ((rc = lc_st_int1(RUN(&r, db, FEED_OLDEST, "s", merchant_id), -1,
	    seq)) != 1)
		return rc;
	return *seq == -1 ? 0 : 1;
}

/* Integration tokens. */

static void
token_row(struct lc_row *r, struct lc_apitoken *t)
{
	LC_ST_COL(r, 0, t->id);
	LC_ST_COL(r, 1, t->merchant_id);
	LC_ST_COL(r, 2, t->name);
	t->scopes = lc_apitoken_scopes_parse(lc_st_text(r, 3));
	LC_ST_COL(r, 4, t->prefix);
	t->created_at = lc_st_int(r, 5);
	t->last_used_at = lc_st_int_or(r, 6, -1);
	t->revoked_at = lc_st_int_or(r, 7, -1);
}

int
lc_db_apitoken_add(struct lc_db *db, const struct lc_apitoken *t,
    const char *scopes, const char *digest, const char *created_by)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, TOKEN_ADD, "ssssssis", t->id,
	    t->merchant_id, t->name, scopes, digest, t->prefix, t->created_at,
	    created_by));
}

int
lc_db_apitoken_get(struct lc_db *db, const char *merchant_id,
    const char *id, struct lc_apitoken *t)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, TOKEN_GET, "ss", id,
	    merchant_id))) == 1) {
		token_row(&r, t);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_apitoken_by_digest(struct lc_db *db, const char *digest,
    struct lc_apitoken *t, char *digest_out)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, TOKEN_BY_DIGEST, "s", digest))) == 1) {
		token_row(&r, t);
		lc_st_col(&r, 8, digest_out, 65);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_apitokens(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_apitoken *), void *arg)
{
	struct lc_row r;
	struct lc_apitoken t;
	int rc = 0, stop = 0;

	if (RUN(&r, db, TOKENS, "s", merchant_id) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1) {
		token_row(&r, &t);
		stop = each(arg, &t);
	}
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

int
lc_db_apitokens_live(struct lc_db *db, const char *merchant_id, int64_t *n)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, TOKENS_LIVE, "s", merchant_id), 0,
	    n) == -1 ? -1 : 0;
}

int
lc_db_apitoken_revoke(struct lc_db *db, const char *id, int64_t at)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, TOKEN_REVOKE, "is", at, id));
}

int
lc_db_apitoken_touch(struct lc_db *db, const char *id, int64_t at,
    int64_t since)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, TOKEN_TOUCH, "isi", at, id, since));
}
