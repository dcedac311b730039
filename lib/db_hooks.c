/*
 * Storage: webhook endpoints, their jobs and delivery log, the events an
 * endpoint waits for and the deliverer's last run, for the owner's API
 * (webhook.c). Each statement is written once for SQLite and PostgreSQL
 * (lc_backend.h says in which words).
 */
#include <string.h>

#include "lc_backend.h"
#include "lc_webhook.h"

#define HOOK_COLS "SELECT id, merchant_id, url, description, " \
	"coalesce(event_types, ''), CAST(event_types IS NULL AS integer), " \
	"enabled, coalesce(disabled_reason, ''), secret, old_secret_until, " \
	"created_at, updated_at, cursor_seq, attempts, next_attempt_at, " \
	"failing_since, last_success_at FROM webhooks "

#define SQL(X) \
	X(HOOK_GET, HOOK_COLS "WHERE id = ?1 AND " \
	    "(CAST(?2 AS text) IS NULL OR merchant_id = ?2)") \
	X(HOOKS, HOOK_COLS "WHERE merchant_id = ? ORDER BY created_at, id") \
	X(HOOKS_COUNT, "SELECT count(*) FROM webhooks WHERE merchant_id = ?") \
	X(HOOK_ADD, "INSERT INTO webhooks(id, merchant_id, url, description, " \
	    "event_types, enabled, secret, created_at, updated_at, " \
	    "cursor_seq) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?)") \
	X(HOOK_SET, "UPDATE webhooks SET url = ?, description = ?, " \
	    "event_types = ?, enabled = ?, disabled_reason = ?, " \
	    "updated_at = ? WHERE id = ? AND merchant_id = ?") \
	X(HOOK_CLEAR, "UPDATE webhooks SET attempts = 0, " \
	    "next_attempt_at = NULL, failing_since = NULL WHERE id = ? " \
	    "AND merchant_id = ?") \
	X(HOOK_SECRET, "UPDATE webhooks SET secret = ?, old_secret = ?, " \
	    "old_secret_until = ?, updated_at = ? WHERE id = ? " \
	    "AND merchant_id = ?") \
	/* Its log and jobs first: the foreign keys hold on both databases \
	 * whatever SQLite's foreign_keys pragma says. */ \
	X(HOOK_DEL_LOG, "DELETE FROM webhook_deliveries WHERE webhook_id IN " \
	    "(SELECT id FROM webhooks WHERE id = ?1 AND merchant_id = ?2)") \
	X(HOOK_DEL_JOBS, "DELETE FROM webhook_jobs WHERE webhook_id IN " \
	    "(SELECT id FROM webhooks WHERE id = ?1 AND merchant_id = ?2)") \
	X(HOOK_DEL, "DELETE FROM webhooks WHERE id = ? AND merchant_id = ?") \
	/* ?3 its types one space apart, NULL all. The same test as \
	 * lc_webhook_wants: the event's type a whole word of ?3 (the \
	 * pattern's blanks each side, ?3 padded with one; a type holding \
	 * a blank is none); the type's '%', '_' and '!' escaped, so the \
	 * pattern matches it alone. Types \
	 * are the lower-case names of event.c's table on both sides (the \
	 * endpoint's checked on write, the event's written by the server), \
	 * so SQLite's LIKE, blind to ASCII case, answers as PostgreSQL's. */ \
	X(HOOK_PENDING, "SELECT count(*) FROM events WHERE merchant_id = ?1 " \
	    "AND seq > ?2 AND (CAST(?3 AS text) IS NULL OR " \
	    "(type NOT LIKE '% %' AND (' ' || ?3 || ' ') LIKE ('% ' || " \
	    "replace(replace(replace(type, '!', '!!'), '%', '!%'), '_', " \
	    "'!_') || ' %') ESCAPE '!'))") \
	X(HOOK_JOB_ADD, "INSERT INTO webhook_jobs(id, webhook_id, kind, " \
	    "event_seq, payload, created_at, next_attempt_at) " \
	    "VALUES (?, ?, ?, ?, ?, ?, ?)") \
	X(HOOK_LAST_SEQ, "SELECT max(seq) FROM events WHERE merchant_id = ?") \
	X(HOOK_EVENT_TYPE, "SELECT type FROM events WHERE merchant_id = ? " \
	    "AND seq = ?") \
	X(HOOK_LOG_COUNT, "SELECT count(*) FROM webhook_deliveries " \
	    "WHERE webhook_id = ?") \
	X(HOOK_LOG, "SELECT id, event_id, event_type, attempt, at, status, " \
	    "duration_ms, outcome, error, response FROM webhook_deliveries " \
	    "WHERE webhook_id = ? ORDER BY at DESC, id DESC LIMIT ? OFFSET ?") \
	X(HOOK_DELIVERER, "SELECT started_at, ended_at FROM deliverer " \
	    "WHERE id = 1")

#define SQL_PG(X)

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_HOOKS + Q__N <= LC_Q_DELIVER,
    "db_hooks.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUN(r, db, name, ...) lc_st_run((r), (db), LC_Q_HOOKS + Q_##name, \
	q_sql[Q_##name], q_pg[Q_##name], __VA_ARGS__)

static void
hook_row(struct lc_row *r, struct lc_webhook *w)
{
	memset(w, 0, sizeof(*w));
	LC_ST_COL(r, 0, w->id);
	LC_ST_COL(r, 1, w->merchant_id);
	LC_ST_COL(r, 2, w->url);
	LC_ST_COL(r, 3, w->description);
	LC_ST_COL(r, 4, w->event_types);
	w->all_types = lc_st_int(r, 5) != 0;
	w->enabled = lc_st_int(r, 6) != 0;
	LC_ST_COL(r, 7, w->disabled_reason);
	LC_ST_COL(r, 8, w->secret);
	w->old_secret_until = lc_st_int_or(r, 9, -1);
	w->created_at = lc_st_int(r, 10);
	w->updated_at = lc_st_int(r, 11);
	w->cursor_seq = lc_st_int(r, 12);
	w->attempts = lc_st_int(r, 13);
	w->next_attempt_at = lc_st_int_or(r, 14, -1);
	w->failing_since = lc_st_int_or(r, 15, -1);
	w->last_success_at = lc_st_int_or(r, 16, -1);
}

int
lc_db_hook_get(struct lc_db *db, const char *merchant_id, const char *id,
    struct lc_webhook *w)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, HOOK_GET, "ss", id,
	    merchant_id))) == 1) {
		hook_row(&r, w);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_hooks(struct lc_db *db, const char *merchant_id,
    int (*each)(void *, const struct lc_webhook *), void *arg)
{
	struct lc_webhook w;
	struct lc_row r;
	int rc;

	if (RUN(&r, db, HOOKS, "s", merchant_id) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1) {
		hook_row(&r, &w);
		if ((rc = each(arg, &w)) != 0)
			break;
	}
	lc_st_done(&r);
	return rc;
}

int
lc_db_hooks_count(struct lc_db *db, const char *merchant_id, int64_t *n)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, HOOKS_COUNT, "s", merchant_id), 0, n) ==
	    1 ? 0 : -1;
}

int
lc_db_hook_add(struct lc_db *db, const struct lc_webhook *w)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, HOOK_ADD, "ssssssiii", w->id,
	    w->merchant_id, w->url, w->description,
	    w->all_types ? NULL : w->event_types, w->secret, w->created_at,
	    w->updated_at, w->cursor_seq));
}

int
lc_db_hook_set(struct lc_db *db, const struct lc_webhook *w)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_SET, "sssisiss", w->url,
	    w->description, w->all_types ? NULL : w->event_types,
	    (int64_t)w->enabled, w->disabled_reason[0] != '\0' ?
	    w->disabled_reason : NULL, w->updated_at, w->id,
	    w->merchant_id));
}

int
lc_db_hook_clear_failures(struct lc_db *db, const char *merchant_id,
    const char *id)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_CLEAR, "ss", id, merchant_id));
}

int
lc_db_hook_secret(struct lc_db *db, const char *merchant_id, const char *id,
    const char *secret, const char *old_secret, int64_t old_until,
    int64_t now)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_SECRET, "ssoiss", secret,
	    old_secret, old_until, now, id, merchant_id));
}

int
lc_db_hook_delete(struct lc_db *db, const char *merchant_id, const char *id)
{
	struct lc_row r;

	if (lc_st_put(RUN(&r, db, HOOK_DEL_LOG, "ss", id, merchant_id)) == -1 ||
	    lc_st_put(RUN(&r, db, HOOK_DEL_JOBS, "ss", id, merchant_id)) == -1)
		return -1;
	return lc_st_change(RUN(&r, db, HOOK_DEL, "ss", id, merchant_id));
}

int
lc_db_hook_pending(struct lc_db *db, const struct lc_webhook *w, int64_t *n)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, HOOK_PENDING, "sis", w->merchant_id,
	    w->cursor_seq, w->all_types ? NULL : w->event_types), 0, n) == 1 ?
	    0 : -1;
}

int
lc_db_hook_job_add(struct lc_db *db, const struct lc_webhook_job *j)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, HOOK_JOB_ADD, "sssosii", j->id,
	    j->webhook_id, j->kind, j->event_seq, j->payload, j->created_at,
	    j->created_at));
}

int
lc_db_hook_last_seq(struct lc_db *db, const char *merchant_id, int64_t *seq)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, HOOK_LAST_SEQ, "s", merchant_id), 0,
	    seq) == 1 ? 0 : -1;
}

int
lc_db_hook_event_type(struct lc_db *db, const char *merchant_id, int64_t seq,
    char *type, size_t typesz)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, HOOK_EVENT_TYPE, "si", merchant_id,
	    seq))) == 1) {
		lc_st_col(&r, 0, type, typesz);
		lc_st_done(&r);
	}
	return rc;
}

int
lc_db_hook_deliveries_count(struct lc_db *db, const char *webhook_id,
    int64_t *total)
{
	struct lc_row r;

	return lc_st_int1(RUN(&r, db, HOOK_LOG_COUNT, "s", webhook_id), 0,
	    total) == 1 ? 0 : -1;
}

int
lc_db_hook_deliveries(struct lc_db *db, const char *webhook_id, int64_t limit,
    int64_t offset, int (*each)(void *, const struct lc_hook_delivery *),
    void *arg)
{
	struct lc_hook_delivery d;
	struct lc_row r;
	int rc;

	if (RUN(&r, db, HOOK_LOG, "sll", webhook_id, limit, offset) == NULL)
		return -1;
	while ((rc = lc_st_next(&r)) == 1) {
		d.id = lc_st_text(&r, 0);
		d.event_id = lc_st_text(&r, 1);
		d.event_type = lc_st_text(&r, 2);
		d.attempt = lc_st_int(&r, 3);
		d.at = lc_st_int(&r, 4);
		d.status = lc_st_int_or(&r, 5, -1);
		d.duration_ms = lc_st_int_or(&r, 6, -1);
		d.outcome = lc_st_text(&r, 7);
		d.error = lc_st_text(&r, 8);
		d.response = lc_st_text(&r, 9);
		if ((rc = each(arg, &d)) != 0)
			break;
	}
	lc_st_done(&r);
	return rc;
}

int
lc_db_hook_deliverer(struct lc_db *db, int64_t *started, int64_t *ended)
{
	struct lc_row r;
	int rc;

	if ((rc = lc_st_row(RUN(&r, db, HOOK_DELIVERER, ""))) == 1) {
		*started = lc_st_int(&r, 0);
		*ended = lc_st_int_or(&r, 1, -1);
		lc_st_done(&r);
	}
	return rc;
}
