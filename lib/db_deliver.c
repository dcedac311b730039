/*
 * Storage, both backends: the deliverer's. Its leases (an endpoint's or
 * a job's lease_owner until lease_until) are taken and given back by
 * statements that name their holder, so a run that lost one (it outlived
 * its lease) changes nothing; the delivery log; the deliverer's row; the
 * pruning after the retention.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_backend.h"
#include "lc_util.h"

#define SQL(X) \
	X(STARTED, "INSERT INTO deliverer(id, started_at, ended_at) " \
	    "VALUES (1, ?1, NULL) ON CONFLICT(id) DO UPDATE SET " \
	    "started_at = excluded.started_at, ended_at = NULL") \
	X(ENDED, "UPDATE deliverer SET ended_at = ?1 WHERE id = 1") \
	/* Only those with something to do: due, not held, an event after \
	 * their cursor (along events_merchant). An idle endpoint costs no \
	 * write. */ \
	X(HOOK_IDS, "SELECT w.id FROM webhooks w WHERE w.enabled = 1 " \
	    "AND (w.next_attempt_at IS NULL OR w.next_attempt_at <= ?1) " \
	    "AND (w.lease_until IS NULL OR w.lease_until <= ?1) " \
	    "AND EXISTS (SELECT 1 FROM events e WHERE " \
	    "e.merchant_id = w.merchant_id AND e.seq > w.cursor_seq) " \
	    "ORDER BY w.created_at, w.id") \
	X(HOOK_CLAIM, "UPDATE webhooks SET lease_owner = ?2, " \
	    "lease_until = ?3 WHERE id = ?1 AND enabled = 1 " \
	    "AND (lease_until IS NULL OR lease_until <= ?4) " \
	    "AND (next_attempt_at IS NULL OR next_attempt_at <= ?4)") \
	X(HOOK_GET, "SELECT id, merchant_id, url, secret, " \
	    "coalesce(old_secret, ''), coalesce(old_secret_until, 0), " \
	    "coalesce(event_types, ''), cursor_seq, attempts, " \
	    "coalesce(failing_since, -1), enabled, updated_at FROM webhooks " \
	    "WHERE id = ?1") \
	X(EVENT_GET, "SELECT seq, created_at, merchant_id, type, data " \
	    "FROM events WHERE merchant_id = ?1 AND seq = ?2") \
	X(HOOK_RELEASE, "UPDATE webhooks SET cursor_seq = CASE " \
	    "WHEN ?3 > cursor_seq THEN ?3 ELSE cursor_seq END, " \
	    "lease_owner = NULL, lease_until = NULL " \
	    "WHERE id = ?1 AND lease_owner = ?2") \
	X(HOOK_DONE, "UPDATE webhooks SET cursor_seq = ?3, attempts = 0, " \
	    "next_attempt_at = NULL, failing_since = NULL, " \
	    "last_success_at = ?4, lease_owner = NULL, lease_until = NULL " \
	    "WHERE id = ?1 AND lease_owner = ?2") \
	X(HOOK_FAILED, "UPDATE webhooks SET attempts = ?3, " \
	    "next_attempt_at = ?4, failing_since = ?5, " \
	    "enabled = CASE WHEN CAST(?6 AS text) IS NULL THEN enabled " \
	    "ELSE 0 END, " \
	    "disabled_reason = coalesce(CAST(?6 AS text), disabled_reason), " \
	    "updated_at = CASE WHEN CAST(?6 AS text) IS NULL THEN updated_at " \
	    "ELSE ?7 END, lease_owner = NULL, lease_until = NULL " \
	    "WHERE id = ?1 AND lease_owner = ?2 AND updated_at = ?8") \
	X(HOOK_DISABLE, "UPDATE webhooks SET enabled = 0, " \
	    "disabled_reason = ?2, updated_at = ?3 WHERE id = ?1 " \
	    "AND enabled = 1") \
	X(DELIVERY_ADD, "INSERT INTO webhook_deliveries(id, webhook_id, " \
	    "event_id, event_type, attempt, job_id, at, status, duration_ms, " \
	    "outcome, error, response) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, " \
	    "?8, ?9, ?10, ?11, ?12)") \
	X(JOB_IDS, "SELECT j.id FROM webhook_jobs j " \
	    "JOIN webhooks w ON w.id = j.webhook_id " \
	    "WHERE j.done_at IS NULL AND j.next_attempt_at <= ?1 " \
	    "AND w.enabled = 1 ORDER BY j.created_at, j.id LIMIT 100") \
	X(JOB_CLAIM, "UPDATE webhook_jobs SET lease_owner = ?2, " \
	    "lease_until = ?3 WHERE id = ?1 AND done_at IS NULL " \
	    "AND next_attempt_at <= ?4 AND EXISTS (SELECT 1 FROM webhooks w " \
	    "WHERE w.id = webhook_jobs.webhook_id AND w.enabled = 1) " \
	    "AND (lease_until IS NULL OR lease_until <= ?4)") \
	X(JOB_GET, "SELECT id, webhook_id, kind, coalesce(event_seq, 0), " \
	    "coalesce(payload, ''), attempts, created_at FROM webhook_jobs " \
	    "WHERE id = ?1") \
	X(JOB_AFTER, "UPDATE webhook_jobs SET attempts = ?3, " \
	    "next_attempt_at = ?4, done_at = ?5, lease_owner = NULL, " \
	    "lease_until = NULL WHERE id = ?1 AND lease_owner = ?2") \
	/* Whether this run prunes: the first run in an hour does. */ \
	X(PRUNE_CLAIM, "UPDATE deliverer SET pruned_at = ?1 WHERE id = 1 " \
	    "AND (pruned_at IS NULL OR pruned_at <= ?2)") \
	/* Per merchant, along events_merchant: its oldest event, and the \
	 * seq before its first one to keep (or its newest, when every one \
	 * is older than the retention). By seq, not time: the events kept \
	 * are exactly those after the mark, whatever order the clocks of \
	 * their writers gave. */ \
	X(PRUNE_HEADS, "SELECT m.id, (SELECT min(e.seq) FROM events e " \
	    "WHERE e.merchant_id = m.id), coalesce((SELECT e.seq FROM " \
	    "events e WHERE e.merchant_id = m.id AND e.created_at >= ?1 " \
	    "ORDER BY e.seq LIMIT 1) - 1, (SELECT max(e.seq) FROM events e " \
	    "WHERE e.merchant_id = m.id)) FROM merchants m") \
	/* The newest seq the merchant loses, kept so the feed can say an \
	 * older after is gone; raised only. */ \
	X(PRUNE_MARK, "INSERT INTO events_pruned(merchant_id, through_seq) " \
	    "VALUES (?1, ?2) ON CONFLICT(merchant_id) DO UPDATE SET " \
	    "through_seq = excluded.through_seq " \
	    "WHERE excluded.through_seq > events_pruned.through_seq") \
	X(PRUNE_EVENTS, "DELETE FROM events WHERE seq IN (SELECT seq FROM " \
	    "events WHERE merchant_id = ?1 AND seq <= ?2 ORDER BY seq " \
	    "LIMIT ?3)") \
	X(PRUNE_DELIVERIES, "DELETE FROM webhook_deliveries WHERE id IN " \
	    "(SELECT id FROM webhook_deliveries WHERE at < ?1 ORDER BY at " \
	    "LIMIT ?2)") \
	/* Done jobs, and those of an endpoint that was disabled (never \
	 * done, never due). Jobs are few (an owner's tests and re-sends), \
	 * so no index of their own for this. */ \
	X(PRUNE_JOBS, "DELETE FROM webhook_jobs WHERE id IN (SELECT j.id " \
	    "FROM webhook_jobs j WHERE (j.done_at IS NOT NULL AND " \
	    "j.done_at < ?1) OR (j.created_at < ?1 AND j.webhook_id IN " \
	    "(SELECT w.id FROM webhooks w WHERE w.enabled = 0)) LIMIT ?2)")

#define SQL_PG(X)

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_DELIVER + Q__N <= LC_Q__MAX,
    "db_deliver.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUN(r, db, name, ...) lc_st_run((r), (db), LC_Q_DELIVER + Q_##name, \
	q_sql[Q_##name], q_pg[Q_##name], __VA_ARGS__)

int
lc_db_dlv_started(struct lc_db *db, int64_t now)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, STARTED, "i", now));
}

int
lc_db_dlv_ended(struct lc_db *db, int64_t now)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, ENDED, "i", now)) == -1 ? -1 : 0;
}

/* The ids of a statement's first column, to each. */
static int
ids(struct lc_row *r, int (*each)(void *, const char *), void *arg)
{
	int rc, stop = 0;

	if (r == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(r)) == 1)
		stop = each(arg, lc_st_text(r, 0));
	lc_st_done(r);
	return stop != 0 ? stop : rc;
}

int
lc_db_dlv_hook_ids(struct lc_db *db, int64_t now,
    int (*each)(void *, const char *), void *arg)
{
	struct lc_row r;

	return ids(RUN(&r, db, HOOK_IDS, "i", now), each, arg);
}

int
lc_db_dlv_hook_claim(struct lc_db *db, const char *id, const char *owner,
    int64_t now, int64_t until)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_CLAIM, "ssii", id, owner, until,
	    now));
}

int
lc_db_dlv_hook_get(struct lc_db *db, const char *id, struct lc_dlv_hook *h)
{
	struct lc_row r;
	int rc;

	memset(h, 0, sizeof(*h));
	if ((rc = lc_st_row(RUN(&r, db, HOOK_GET, "s", id))) != 1)
		return rc;
	LC_ST_COL(&r, 0, h->id);
	LC_ST_COL(&r, 1, h->merchant_id);
	LC_ST_COL(&r, 2, h->url);
	LC_ST_COL(&r, 3, h->secret);
	LC_ST_COL(&r, 4, h->old_secret);
	h->old_secret_until = lc_st_int(&r, 5);
	LC_ST_COL(&r, 6, h->event_types);
	h->cursor_seq = lc_st_int(&r, 7);
	h->attempts = lc_st_int(&r, 8);
	h->failing_since = lc_st_int(&r, 9);
	h->enabled = lc_st_int(&r, 10) != 0;
	h->updated_at = lc_st_int(&r, 11);
	lc_st_done(&r);
	return 1;
}

/* An event's columns; data borrowed from the row. */
static void
event_row(struct lc_row *r, struct lc_dlv_event *e)
{
	e->seq = lc_st_int(r, 0);
	e->created_at = lc_st_int(r, 1);
	LC_ST_COL(r, 2, e->merchant_id);
	LC_ST_COL(r, 3, e->type);
	e->data = (char *)lc_st_text(r, 4);
}

int
lc_db_dlv_event_get(struct lc_db *db, const char *merchant_id, int64_t seq,
    struct lc_dlv_event *e)
{
	struct lc_row r;
	int rc;

	memset(e, 0, sizeof(*e));
	if ((rc = lc_st_row(RUN(&r, db, EVENT_GET, "si", merchant_id, seq)))
	    != 1)
		return rc;
	event_row(&r, e);
	e->data = strdup(e->data != NULL ? e->data : "");
	lc_st_done(&r);
	if (e->data == NULL) {
		lc_log("deliver: out of memory");
		return -1;
	}
	return 1;
}

int
lc_db_dlv_hook_release(struct lc_db *db, const char *id, const char *owner,
    int64_t seq)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_RELEASE, "ssi", id, owner, seq));
}

int
lc_db_dlv_hook_done(struct lc_db *db, const char *id, const char *owner,
    int64_t seq, int64_t now)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_DONE, "ssii", id, owner, seq,
	    now));
}

int
lc_db_dlv_hook_failed(struct lc_db *db, const char *id, const char *owner,
    const struct lc_dlv_fail *f)
{
	struct lc_row r;
	int rc;

	rc = lc_st_change(RUN(&r, db, HOOK_FAILED, "ssiiosii", id, owner,
	    f->attempts, f->next_attempt_at, f->failing_since,
	    f->disabled_reason, f->now, f->updated_at));
	if (rc != 0)
		return rc;
	/* The owner changed it during the attempt (enabled it again,
	 * disabled it): theirs stands; the run only lets it go. */
	return (rc = lc_db_dlv_hook_release(db, id, owner, -1)) == 1 ? 2 : rc;
}

int
lc_db_dlv_hook_disable(struct lc_db *db, const char *id, const char *reason,
    int64_t now)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, HOOK_DISABLE, "ssi", id, reason, now));
}

int
lc_db_dlv_delivery_add(struct lc_db *db, const struct lc_dlv_delivery *d)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, DELIVERY_ADD, "ssssisiooss" "s", d->id,
	    d->webhook_id, d->event_id, d->event_type, d->attempt, d->job_id,
	    d->at, d->status, d->duration_ms, d->outcome, d->error,
	    d->response));
}

int
lc_db_dlv_job_ids(struct lc_db *db, int64_t now,
    int (*each)(void *, const char *), void *arg)
{
	struct lc_row r;

	return ids(RUN(&r, db, JOB_IDS, "i", now), each, arg);
}

int
lc_db_dlv_job_claim(struct lc_db *db, const char *id, const char *owner,
    int64_t now, int64_t until)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, JOB_CLAIM, "ssii", id, owner, until,
	    now));
}

int
lc_db_dlv_job_get(struct lc_db *db, const char *id, struct lc_dlv_job *j)
{
	struct lc_row r;
	int rc;

	memset(j, 0, sizeof(*j));
	if ((rc = lc_st_row(RUN(&r, db, JOB_GET, "s", id))) != 1)
		return rc;
	LC_ST_COL(&r, 0, j->id);
	LC_ST_COL(&r, 1, j->webhook_id);
	LC_ST_COL(&r, 2, j->kind);
	j->event_seq = lc_st_int(&r, 3);
	j->payload = strdup(lc_st_text(&r, 4) != NULL ? lc_st_text(&r, 4) :
	    "");
	j->attempts = lc_st_int(&r, 5);
	j->created_at = lc_st_int(&r, 6);
	lc_st_done(&r);
	if (j->payload == NULL) {
		lc_log("deliver: out of memory");
		return -1;
	}
	return 1;
}

int
lc_db_dlv_job_after(struct lc_db *db, const char *id, const char *owner,
    int64_t attempts, int64_t next_attempt_at, int64_t done_at)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, JOB_AFTER, "ssiio", id, owner,
	    attempts, next_attempt_at, done_at));
}

int
lc_db_dlv_prune_claim(struct lc_db *db, int64_t now, int64_t since)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, PRUNE_CLAIM, "ii", now, since));
}

int
lc_db_dlv_prune_heads(struct lc_db *db, int64_t before,
    int (*each)(void *, const char *, int64_t, int64_t), void *arg)
{
	struct lc_row r;
	int rc = 0, stop = 0;

	if (RUN(&r, db, PRUNE_HEADS, "i", before) == NULL)
		return -1;
	while (stop == 0 && (rc = lc_st_next(&r)) == 1)
		if (!lc_st_null(&r, 1))
			stop = each(arg, lc_st_text(&r, 0), lc_st_int(&r, 1),
			    lc_st_int(&r, 2));
	lc_st_done(&r);
	return stop != 0 ? stop : rc;
}

int
lc_db_dlv_prune_mark(struct lc_db *db, const char *merchant_id,
    int64_t through)
{
	struct lc_row r;

	return lc_st_change(RUN(&r, db, PRUNE_MARK, "si", merchant_id,
	    through)) == -1 ? -1 : 0;
}

int64_t
lc_db_dlv_prune_events(struct lc_db *db, const char *merchant_id,
    int64_t through, int64_t limit)
{
	struct lc_row r;

	return lc_st_count(RUN(&r, db, PRUNE_EVENTS, "sil", merchant_id,
	    through, limit));
}

int64_t
lc_db_dlv_prune_log(struct lc_db *db, int64_t before, int64_t limit)
{
	struct lc_row r;
	int64_t a, b;

	if ((a = lc_st_count(RUN(&r, db, PRUNE_DELIVERIES, "il", before,
	    limit))) == -1 ||
	    (b = lc_st_count(RUN(&r, db, PRUNE_JOBS, "il", before, limit))) ==
	    -1)
		return -1;
	return a > b ? a : b;
}
