/*
 * The deliverer: one bounded run over the due deliveries. Each endpoint
 * gets its events in order: its head event (the first after its cursor
 * of its types) is sent until a 2xx comes back, and only then does the
 * cursor move. A run holds an endpoint (or a job) by a lease taken in a
 * write transaction, sends with no transaction open (the network is
 * slow, the database's write lock must not wait for it), and records the
 * attempt in another write that names the lease: two runs at once never
 * send one attempt twice. A run killed mid-attempt leaves the lease to
 * run out and the attempt unrecorded, so the next run sends that event
 * again: delivery is at least once, and the webhook-id says which
 * deliveries are one event.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lc_core.h"

/* Endpoints and jobs listed for one round of a run. */
struct idlist {
	char (*id)[LC_ID_LEN + 1];
	size_t n, cap;
	int oom;		/* the list stopped: out of memory */
};

/* One attempt, from its lease to its record. */
struct step {
	const char *owner;
	const char *id;		/* the endpoint's or the job's */
	struct lc_dlv_hook h;
	struct lc_dlv_job job;
	struct lc_dlv_event ev;	/* ev.data owned */
	int have;		/* a head event to send (stream), or the job */
	int moved;		/* none, but the cursor moved past others */
	int64_t last_seen;	/* the newest event scanned, not of its types */
	char msg_id[64];	/* webhook-id */
	char *body;
	struct lc_post post;
	int64_t attempt;
	const char *reason;	/* disabled now: "gone", "failing" */
	int lost;		/* the lease was another run's by the record */
	int done;		/* job: done now */
};

int64_t
lc_deliver_backoff(int64_t n)
{
	int64_t ms = LC_DELIVER_BACKOFF_MS;
	unsigned char r[2];
	unsigned v;

	while (--n > 0 && ms < LC_DELIVER_BACKOFF_MAX_MS)
		ms *= 2;
	if (ms > LC_DELIVER_BACKOFF_MAX_MS)
		ms = LC_DELIVER_BACKOFF_MAX_MS;
	/* +-20 %: retries of many endpoints that failed together (the
	 * receiver's host was down) do not all come back at once. The
	 * jitter needs no secrecy: without random bytes the clock's low
	 * bits do. */
	if (lc_random(r, sizeof(r)) == 0)
		v = (unsigned)r[0] << 8 | r[1];
	else
		v = (unsigned)lc_mono_ms();
	ms += ms * ((int64_t)(v % 4001) - 2000) / 10000;
	return ms;
}

static int
collect(void *arg, const char *id)
{
	struct idlist *l = arg;
	void *p;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		if ((p = realloc(l->id, l->cap * sizeof(*l->id))) == NULL) {
			l->oom = 1;
			return -1;
		}
		l->id = p;
	}
	snprintf(l->id[l->n++], sizeof(l->id[0]), "%s", id);
	return 0;
}

struct list_arg {
	struct idlist *l;
	int jobs;
};

static int
list_rule(struct lc_dom *dom, void *arg)
{
	struct list_arg *a = arg;

	a->l->n = 0;
	if ((a->jobs ? lc_db_dlv_job_ids(dom->db, dom->now_ms, collect,
	    a->l) : lc_db_dlv_hook_ids(dom->db, dom->now_ms, collect,
	    a->l)) == 0)
		return 0;
	if (a->l->oom)
		lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return -1;
}

/* Whether type is one of the endpoint's ("" every type). */
static int
wanted(const char *types, const char *type)
{
	size_t n = strlen(type);
	const char *p;

	if (*types == '\0')
		return 1;
	for (p = types; (p = strstr(p, type)) != NULL; p += n)
		if ((p == types || p[-1] == ' ') && (p[n] == ' ' ||
		    p[n] == '\0'))
			return 1;
	return 0;
}

/* The first event of the endpoint's types after its cursor (the feed's
 * read of every type: those it does not want move the cursor too). */
static int
head(void *arg, const struct lc_event_row *e)
{
	struct step *s = arg;

	if (!wanted(s->h.event_types, e->type)) {
		s->last_seen = e->seq;
		return 0;
	}
	s->ev.seq = e->seq;
	s->ev.created_at = e->created_at;
	snprintf(s->ev.merchant_id, sizeof(s->ev.merchant_id), "%s",
	    e->merchant_id);
	snprintf(s->ev.type, sizeof(s->ev.type), "%s", e->type);
	if ((s->ev.data = strdup(e->data != NULL ? e->data : "")) == NULL) {
		lc_log("deliver: out of memory");
		return -1;
	}
	s->have = 1;
	return 1;
}

/* Takes the endpoint and finds its head event; when it has none, moves
 * its cursor past what it does not want and lets it go. */
static int
hook_take(struct lc_dom *dom, void *arg)
{
	struct step *s = arg;
	int rc;

	if ((rc = lc_db_dlv_hook_claim(dom->db, s->id, s->owner, dom->now_ms,
	    dom->now_ms + LC_DELIVER_LEASE_MS)) != 1)
		return rc;
	if ((rc = lc_db_dlv_hook_get(dom->db, s->id, &s->h)) != 1)
		return rc == 0 ? 0 : -1;
	s->last_seen = -1;
	rc = lc_db_feed(dom->db, s->h.merchant_id, s->h.cursor_seq, NULL,
	    LC_DELIVER_SCAN, head, s);
	if (rc == -1)
		return -1;
	if (s->have)
		return 0;
	if ((rc = lc_db_dlv_hook_release(dom->db, s->id, s->owner,
	    s->last_seen)) == -1)
		return -1;
	s->moved = rc == 1 && s->last_seen > s->h.cursor_seq;
	return 0;
}

/* An attempt that failed before anything was sent: recorded as any
 * failed attempt (its log row, the backoff), never the run's failure. */
static void
not_sent(struct step *s, const char *why)
{
	memset(&s->post, 0, sizeof(s->post));
	s->post.outcome = LC_POST_FAILED;
	snprintf(s->post.error, sizeof(s->post.error), "%s", why);
}

/* s->body: the event as its JSON object, the one the feed gives too
 * (event.c): 0, or -1 when it cannot be built (logged; s->post says
 * why). One unreadable event holds up its endpoint alone (retried, and
 * in the end disabled as failing): every other endpoint goes on. */
static int
event_body(struct step *s)
{
	json_object *o;
	const char *t;

	if ((o = lc_event_object(s->ev.seq, s->ev.type, s->ev.created_at,
	    s->ev.merchant_id, s->ev.data)) == NULL) {
		lc_log("deliver: event %lld: its data is not JSON",
		    (long long)s->ev.seq);
		not_sent(s, "the event's data is not JSON: its body cannot "
		    "be built");
		return -1;
	}
	if ((t = lc_json_text(o)) == NULL || (s->body = strdup(t)) == NULL) {
		lc_log("deliver: event %lld: out of memory building its body",
		    (long long)s->ev.seq);
		not_sent(s, "out of memory building the event's body");
	}
	json_object_put(o);
	return s->body != NULL ? 0 : -1;
}

/* Signs and sends s->body to the endpoint: no transaction is open. */
static void
send_one(struct lc_dom *dom, struct step *s, int allow_private)
{
	char sig[LC_SIGN_MAX], sig2[LC_SIGN_MAX], hid[96], hts[64];
	char hsig[2 * LC_SIGN_MAX + 32];
	const char *headers[] = { "Content-Type: application/json", hid, hts,
	    hsig, NULL };
	/* The real time, never the test clock: the receiver checks it
	 * against its own. */
	int64_t ts = (int64_t)time(NULL);
	size_t len = strlen(s->body);

	snprintf(hid, sizeof(hid), "webhook-id: %s", s->msg_id);
	snprintf(hts, sizeof(hts), "webhook-timestamp: %lld", (long long)ts);
	if (lc_sign(s->h.secret, s->msg_id, ts, s->body, len, sig) == -1) {
		memset(&s->post, 0, sizeof(s->post));
		s->post.outcome = LC_POST_FAILED;
		snprintf(s->post.error, sizeof(s->post.error),
		    "the endpoint's secret is not a whsec_ secret");
		return;
	}
	/* During a rotation the old secret signs too: a receiver still
	 * holding it keeps verifying. */
	if (s->h.old_secret[0] != '\0' && s->h.old_secret_until > dom->now_ms &&
	    lc_sign(s->h.old_secret, s->msg_id, ts, s->body, len, sig2) == 0)
		snprintf(hsig, sizeof(hsig), "webhook-signature: %s %s", sig,
		    sig2);
	else
		snprintf(hsig, sizeof(hsig), "webhook-signature: %s", sig);
	lc_post_send(s->h.url, headers, s->body, len, allow_private, &s->post);
}

static const char *const outcome_names[] = {
	[LC_POST_DELIVERED] = "delivered", [LC_POST_FAILED] = "failed",
	[LC_POST_REFUSED] = "refused"
};

static int
log_add(struct lc_dom *dom, struct step *s, const char *job_id)
{
	struct lc_dlv_delivery d;
	char id[LC_ID_LEN + 1];

	if (lc_uuid(id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memset(&d, 0, sizeof(d));
	d.id = id;
	d.webhook_id = s->h.id;
	d.event_id = s->msg_id;
	d.event_type = s->ev.type;
	d.job_id = job_id;
	d.attempt = s->attempt;
	d.at = dom->now_ms;
	d.status = s->post.status > 0 ? s->post.status : -1;
	d.duration_ms = s->post.duration_ms;
	d.outcome = outcome_names[s->post.outcome];
	d.error = s->post.error[0] != '\0' ? s->post.error : NULL;
	d.response = s->post.response;
	return lc_db_dlv_delivery_add(dom->db, &d);
}

/* The endpoint disabled by the service: its row in the audit trail, a
 * change of the endpoint (before and after, audit.c) by actor "service",
 * noting why. */
static void
audit_disabled(struct lc_dom *dom, const struct step *s)
{
	lc_audit_who(dom, "service", NULL, s->h.merchant_id);
	lc_audit_object(dom, s->h.id);
	lc_audit_note_str(dom, "disabled_reason", s->reason);
}

/* Records the stream's attempt, if this run still holds the endpoint. */
static int
hook_record(struct lc_dom *dom, void *arg)
{
	struct step *s = arg;
	struct lc_dlv_fail f;
	int rc;

	if (s->post.outcome == LC_POST_DELIVERED)
		rc = lc_db_dlv_hook_done(dom->db, s->id, s->owner, s->ev.seq,
		    dom->now_ms);
	else {
		f.attempts = s->attempt;
		f.now = dom->now_ms;
		f.failing_since = s->h.failing_since >= 0 ?
		    s->h.failing_since : dom->now_ms;
		f.next_attempt_at = dom->now_ms + lc_deliver_backoff(s->attempt);
		f.disabled_reason = s->reason;
		f.updated_at = s->h.updated_at;
		rc = lc_db_dlv_hook_failed(dom->db, s->id, s->owner, &f);
	}
	if (rc == -1)
		return -1;
	if (rc == 0) {
		/* Its lease ran out and another run holds it: that run's
		 * word stands, this attempt is not recorded. */
		s->lost = 1;
		lc_audit_skip(dom);
		return 0;
	}
	if (rc == 2 && s->reason != NULL) {
		/* The owner's change stands: the endpoint is not
		 * disabled by this attempt, only logged. */
		s->reason = NULL;
		lc_audit_skip(dom);
	}
	if (s->reason != NULL)
		audit_disabled(dom, s);
	return log_add(dom, s, NULL);
}

/* Why an endpoint is disabled after a failed attempt, or NULL. */
static const char *
disable_reason(const struct step *s, int64_t now)
{
	if (s->post.outcome == LC_POST_DELIVERED)
		return NULL;
	if (s->post.status == 410)
		return "gone";
	if (s->h.failing_since >= 0 &&
	    now - s->h.failing_since >= LC_DELIVER_FAILING_MS)
		return "failing";
	return NULL;
}

static void
step_free(struct step *s)
{
	free(s->ev.data);
	free(s->job.payload);
	free(s->body);
}

/* The take/send/record skeleton of one attempt, the stream's or a
 * job's: take (a write: the lease, and what to send), then send (no
 * transaction open: fills s->post and, when it disables the endpoint,
 * s->reason), then record (a write naming the lease). 1 made, 0 nothing
 * to send, -1 (dom->err). */
static int
attempt(struct lc_dom *dom, struct step *s, int (*take)(struct lc_dom *,
    void *), void (*send)(struct lc_dom *, struct step *, int),
    int (*record)(struct lc_dom *, void *), int allow_private)
{
	struct lc_write w = { "deliver", NULL, take, NULL, NULL,
	    LC_AUDIT_NONE, NULL, NULL };

	w.arg = s;
	dom->now_ms = lc_now_ms();
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	if (!s->have)
		return 0;
	send(dom, s, allow_private);
	w.rule = record;
	if (s->reason != NULL) {
		w.action = "webhook.update";
		w.object_type = "webhook";
		w.object_id = s->h.id;
	}
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	if (s->lost)
		lc_log("deliver: %s: the lease ran out during an attempt; "
		    "another run holds it now", s->id);
	return 1;
}

/* The stream's attempt: its head event. */
static void
hook_send(struct lc_dom *dom, struct step *s, int allow_private)
{
	lc_event_id(s->ev.seq, s->msg_id);
	s->attempt = s->h.attempts + 1;
	if (event_body(s) == 0)
		send_one(dom, s, allow_private);
	dom->now_ms = lc_now_ms();
	s->reason = disable_reason(s, dom->now_ms);
}

/* One attempt on endpoint id: 1 made, 2 none but its cursor moved past
 * events not of its types (more may follow), 0 nothing due (or another
 * run holds it), -1 (dom->err). */
static int
hook_step(struct lc_dom *dom, const char *owner, const char *id,
    int allow_private)
{
	struct step s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.owner = owner;
	s.id = id;
	rc = attempt(dom, &s, hook_take, hook_send, hook_record,
	    allow_private);
	if (rc == 0 && s.moved)
		rc = 2;
	step_free(&s);
	return rc;
}

/* Takes the job and reads it, its endpoint and (a re-send) its event. */
static int
job_take(struct lc_dom *dom, void *arg)
{
	struct step *s = arg;
	int rc;

	if ((rc = lc_db_dlv_job_claim(dom->db, s->id, s->owner, dom->now_ms,
	    dom->now_ms + LC_DELIVER_LEASE_MS)) != 1)
		return rc;
	if ((rc = lc_db_dlv_job_get(dom->db, s->id, &s->job)) != 1 ||
	    (rc = lc_db_dlv_hook_get(dom->db, s->job.webhook_id, &s->h)) != 1)
		return rc == 0 ? 0 : -1;
	s->have = 1;
	if (strcmp(s->job.kind, "resend") == 0 &&
	    lc_db_dlv_event_get(dom->db, s->h.merchant_id, s->job.event_seq,
	    &s->ev) == -1)
		return -1;
	return 0;
}

static int
job_record(struct lc_dom *dom, void *arg)
{
	struct step *s = arg;
	int64_t next = dom->now_ms + lc_deliver_backoff(s->attempt);
	int rc;

	rc = lc_db_dlv_job_after(dom->db, s->id, s->owner, s->attempt, next,
	    s->done ? dom->now_ms : -1);
	if (rc == -1)
		return -1;
	if (rc == 0) {
		s->lost = 1;
		lc_audit_skip(dom);
		return 0;
	}
	if (s->reason != NULL) {
		if (lc_db_dlv_hook_disable(dom->db, s->h.id, s->reason,
		    dom->now_ms) == -1)
			return -1;
		audit_disabled(dom, s);
	}
	return log_add(dom, s, s->job.id);
}

/* A job's attempt: a test's body, or the event re-sent. */
static void
job_send(struct lc_dom *dom, struct step *s, int allow_private)
{
	s->attempt = s->job.attempts + 1;
	if (strcmp(s->job.kind, "test") == 0) {
		snprintf(s->msg_id, sizeof(s->msg_id), "msg_test_%s", s->job.id);
		snprintf(s->ev.type, sizeof(s->ev.type), "%s", LC_EVENT_TEST);
		s->body = s->job.payload;
		s->job.payload = NULL;
		send_one(dom, s, allow_private);
	} else if (s->ev.data != NULL) {
		lc_event_id(s->ev.seq, s->msg_id);
		if (event_body(s) == 0)
			send_one(dom, s, allow_private);
	} else {
		/* Pruned since it was asked for: nothing left to send. */
		lc_event_id(s->job.event_seq, s->msg_id);
		snprintf(s->ev.type, sizeof(s->ev.type), "unknown");
		not_sent(s, "the event was pruned after the retention "
		    "before it was sent");
		s->done = 1;
	}
	dom->now_ms = lc_now_ms();
	if (s->post.outcome == LC_POST_DELIVERED ||
	    dom->now_ms - s->job.created_at >= LC_DELIVER_FAILING_MS)
		s->done = 1;
	if (s->post.outcome != LC_POST_DELIVERED && s->post.status == 410)
		s->reason = "gone";
}

/* One attempt of job id: 1 made, 0 nothing due, -1 (dom->err). */
static int
job_step(struct lc_dom *dom, const char *owner, const char *id,
    int allow_private)
{
	struct step s;
	int rc;

	memset(&s, 0, sizeof(s));
	s.owner = owner;
	s.id = id;
	rc = attempt(dom, &s, job_take, job_send, job_record, allow_private);
	step_free(&s);
	return rc;
}

/* Pruning: at most once an hour (the first run in the hour), in steps of
 * at most PRUNE_BATCH rows a write, so no write holds the lock long. */
#define PRUNE_EVERY_MS (3600 * 1000LL)
#define PRUNE_BATCH 500

struct mark {
	int ended;
	int prune;		/* this run prunes */
};

static int
mark_rule(struct lc_dom *dom, void *arg)
{
	struct mark *m = arg;
	int rc;

	if (m->ended)
		return lc_db_dlv_ended(dom->db, dom->now_ms);
	if (lc_db_dlv_started(dom->db, dom->now_ms) == -1 ||
	    (rc = lc_db_dlv_prune_claim(dom->db, dom->now_ms,
	    dom->now_ms - PRUNE_EVERY_MS)) == -1)
		return -1;
	m->prune = rc == 1;
	return 0;
}

/* The merchants with events to prune, and through which seq. */
struct heads {
	struct {
		char merchant_id[LC_ID_LEN + 1];
		int64_t through;
	} *h;
	size_t n, cap;
	int64_t before;
	int oom;
};

static int
head_add(void *arg, const char *merchant_id, int64_t oldest, int64_t through)
{
	struct heads *hs = arg;
	void *p;

	if (through < oldest)
		return 0;
	if (hs->n == hs->cap) {
		hs->cap = hs->cap ? hs->cap * 2 : 16;
		if ((p = realloc(hs->h, hs->cap * sizeof(*hs->h))) == NULL) {
			hs->oom = 1;
			return -1;
		}
		hs->h = p;
	}
	snprintf(hs->h[hs->n].merchant_id, sizeof(hs->h[0].merchant_id), "%s",
	    merchant_id);
	hs->h[hs->n++].through = through;
	return 0;
}

static int
heads_rule(struct lc_dom *dom, void *arg)
{
	struct heads *hs = arg;

	hs->n = 0;
	if (lc_db_dlv_prune_heads(dom->db, hs->before, head_add, hs) == 0)
		return 0;
	if (hs->oom)
		lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return -1;
}

/* One step of pruning: a merchant's events (marked first), or the log. */
struct prune {
	const char *merchant_id;	/* NULL: the log and jobs */
	int64_t through, before, n;
	int mark;
};

static int
prune_rule(struct lc_dom *dom, void *arg)
{
	struct prune *p = arg;

	if (p->merchant_id == NULL)
		p->n = lc_db_dlv_prune_log(dom->db, p->before, PRUNE_BATCH);
	else if (p->mark && lc_db_dlv_prune_mark(dom->db, p->merchant_id,
	    p->through) == -1)
		return -1;
	else
		p->n = lc_db_dlv_prune_events(dom->db, p->merchant_id,
		    p->through, PRUNE_BATCH);
	return p->n == -1 ? -1 : 0;
}

/* Prunes what is older than before, until done or real time `until`
 * (lc_mono_ms) passed (the next hour's run goes on): the merchants found
 * in a read, then each one's events along its index in batches, each its
 * own write; then the log and the jobs the same way. 0 or -1. */
static int
prune_run(struct lc_dom *dom, int64_t before, int64_t until)
{
	struct lc_write w = { "deliver", NULL, prune_rule, NULL, NULL,
	    LC_AUDIT_NONE, NULL, NULL };
	struct heads hs;
	struct prune p;
	size_t i;
	int rc = -1;

	memset(&hs, 0, sizeof(hs));
	hs.before = before;
	if (lc_read(dom, heads_rule, &hs) == -1)
		goto out;
	memset(&p, 0, sizeof(p));
	p.before = before;
	w.arg = &p;
	for (i = 0; i <= hs.n; i++) {
		p.merchant_id = i < hs.n ? hs.h[i].merchant_id : NULL;
		p.through = i < hs.n ? hs.h[i].through : 0;
		/* The mark in a write of its own before the first delete: a
		 * feed asked for what was pruned says so from then on. */
		p.mark = p.merchant_id != NULL;
		do {
			if (lc_write(dom, &w, NULL) == -1)
				goto out;
			if (p.mark) {
				p.mark = 0;
				p.n = PRUNE_BATCH;
			}
		} while (p.n == PRUNE_BATCH && lc_mono_ms() < until);
	}
	rc = 0;
out:
	free(hs.h);
	return rc;
}

/* Events after the same endpoint's visit in one round before the others
 * get theirs: one busy endpoint does not hold up the rest. */
#define VISIT_MAX 50

int
lc_deliver_run(struct lc_dom *dom, int64_t max_ms, long *sent)
{
	struct lc_write w = { "deliver", NULL, mark_rule, NULL, NULL,
	    LC_AUDIT_NONE, NULL, NULL };
	struct mark m = { 0, 0 };
	int64_t before;
	struct lc_error err;
	struct idlist hooks = { NULL, 0, 0, 0 }, jobs = { NULL, 0, 0, 0 };
	struct list_arg la;
	char owner[33];
	int64_t t0 = lc_mono_ms();
	size_t i;
	int allow, progress, rc = -1, k, r;

	*sent = 0;
	if (lc_post_init() == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if (lc_random_hex(owner, 32) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	/* An unreadable setting reads as its default: the run fails rather
	 * than prune at a retention nobody chose, or send where the
	 * installation may not. */
	allow = lc_setting(dom->db, LC_SET_WEBHOOK_PRIVATE) != 0;
	if (lc_db_failed(dom->db))
		return lc_dom_settle(dom);
	dom->now_ms = lc_now_ms();
	before = dom->now_ms -
	    lc_setting(dom->db, LC_SET_EVENT_RETENTION) * 86400000LL;
	if (lc_db_failed(dom->db))
		return lc_dom_settle(dom);
	w.arg = &m;
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	/* At most half the run's time: deliveries are what it is for. */
	if (m.prune && prune_run(dom, before, t0 + max_ms / 2) == -1)
		goto out;
	do {
		progress = 0;
		la.l = &hooks;
		la.jobs = 0;
		dom->now_ms = lc_now_ms();
		if (lc_read(dom, list_rule, &la) == -1)
			goto out;
		for (i = 0; i < hooks.n; i++)
			for (k = 0; k < VISIT_MAX &&
			    lc_mono_ms() - t0 < max_ms; k++) {
				if ((r = hook_step(dom, owner, hooks.id[i],
				    allow)) == -1)
					goto out;
				if (r == 0)
					break;
				*sent += r == 1;
				progress = 1;
			}
		la.l = &jobs;
		la.jobs = 1;
		dom->now_ms = lc_now_ms();
		if (lc_read(dom, list_rule, &la) == -1)
			goto out;
		for (i = 0; i < jobs.n && lc_mono_ms() - t0 < max_ms; i++) {
			if ((r = job_step(dom, owner, jobs.id[i], allow)) == -1)
				goto out;
			*sent += r;
			progress |= r;
		}
	} while (progress && lc_mono_ms() - t0 < max_ms);
	rc = 0;
out:
	free(hooks.id);
	free(jobs.id);
	m.ended = 1;
	dom->now_ms = lc_now_ms();
	/* The run's end is recorded even after a failure: the owner's page
	 * tells a deliverer that runs from none at all. The first failure
	 * is the one reported. */
	err = dom->err;
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	if (rc == -1)
		dom->err = err;
	return rc;
}
