/*
 * GET /api/v1/admin/events: the feed of events, oldest first, for the
 * owner or an integration token of scope events:read. ?after=ID (an
 * event's id, exclusive; absent: from the oldest kept), ?limit=1..500
 * (100), ?type=T1,T2 (known types). A client that keeps next_after and
 * asks again from it never misses or doubles an event; one whose after
 * was pruned meanwhile is told so (410 EVENTS_PRUNED), never silently
 * given a gap.
 */
#include <string.h>

#include "lc_http.h"

/* Room for every known type, comma-separated. */
#define TYPES_MAX 512

struct feed {
	json_object *events;	/* borrowed: the answer's list */
	int64_t limit, n, last;
	int more, bad;
};

static int
feed_one(void *arg, const struct lc_event_row *e)
{
	struct feed *f = arg;
	json_object *o;

	/* One more than the page: there is more after it. */
	if (f->n == f->limit) {
		f->more = 1;
		return 1;
	}
	if ((o = lc_event_object(e->seq, e->type, e->created_at,
	    e->merchant_id, e->data)) == NULL) {
		lc_log("event %lld: its data is not JSON", (long long)e->seq);
		f->bad = 1;
		return 1;
	}
	json_object_array_add(f->events, o);
	f->n++;
	f->last = e->seq;
	return 0;
}

/* ?type=: known types, comma-separated, into types (each once,
 * NULL-terminated). 0 absent, 1 given, -1 after lc_fail. */
static int
read_types(struct lc_ctx *ctx, char q[TYPES_MAX],
    const char *types[LC_FEED_TYPES_MAX + 1])
{
	char *p, *end;
	size_t n = 0, i;
	int rc;

	types[0] = NULL;
	if ((rc = lc_q_str(ctx, "type", q, TYPES_MAX)) <= 0)
		return rc;
	for (p = q; p != NULL; p = end) {
		if ((end = strchr(p, ',')) != NULL)
			*end++ = '\0';
		if (*p == '\0')
			return lc_fail(ctx, LC_E_VALIDATION, "type", "type must "
			    "be event types, comma-separated");
		if (!lc_event_type_known(p))
			return lc_fail(ctx, LC_E_VALIDATION, "type",
			    "%s is not an event type", p);
		for (i = 0; i < n && strcmp(types[i], p) != 0; i++)
			continue;
		if (i < n)
			continue;
		if (n == LC_FEED_TYPES_MAX)
			return lc_fail(ctx, LC_E_VALIDATION, "type", "type may "
			    "name at most %d types", LC_FEED_TYPES_MAX);
		types[n++] = p;
	}
	types[n] = NULL;
	return 1;
}

int
lc_h_admin_events(struct lc_ctx *ctx)
{
	struct lc_dom *dom = &ctx->dom;
	const char *m = dom->caller.merchant_id;
	struct feed f;
	json_object *out;
	char after_id[64], q[TYPES_MAX], next[LC_EVENT_ID_LEN + 1],
	    oldest_id[LC_EVENT_ID_LEN + 1];
	const char *types[LC_FEED_TYPES_MAX + 1];
	int64_t after = 0, through, oldest;
	int has_after, has_types, rc;

	memset(&f, 0, sizeof(f));
	f.limit = LC_EVENTS_PAGE_DEFAULT;
	if ((has_after = lc_q_str(ctx, "after", after_id,
	    sizeof(after_id))) == -1 ||
	    lc_q_int(ctx, "limit", 1, LC_EVENTS_PAGE_MAX, &f.limit) == -1 ||
	    (has_types = read_types(ctx, q, types)) == -1)
		return -1;
	if (has_after && lc_event_id_parse(after_id, &after) == -1)
		return lc_fail(ctx, LC_E_VALIDATION, "after", "after must be an "
		    "event id (evt_ and 16 digits)");
	/* Events after it were pruned: the client would miss them. */
	if (has_after) {
		if ((rc = lc_db_feed_pruned(dom->db, m, &through)) == -1)
			return -1;
		if (rc == 1 && through > after) {
			if ((rc = lc_db_feed_oldest(dom->db, m, &oldest)) == -1)
				return -1;
			if (rc == 1)
				lc_event_id(oldest, oldest_id);
			return lc_fail(ctx, LC_E_EVENTS_PRUNED, "after",
			    "Events after %s have been pruned: this shop keeps "
			    "events for %lld days. The oldest kept is %s; read "
			    "the feed again without after to start from it.",
			    after_id, (long long)lc_setting(dom->db,
			    LC_SET_EVENT_RETENTION),
			    rc == 1 ? oldest_id : "none (no event is kept now)");
		}
	}
	out = json_object_new_object();
	f.events = json_object_new_array();
	json_object_object_add(out, "events", f.events);
	/* One more than the page, to know whether more follow. */
	rc = lc_db_feed(dom->db, m, after, has_types ? types : NULL,
	    f.limit + 1, feed_one, &f);
	if (rc == -1 || f.bad) {
		json_object_put(out);
		return rc == -1 ? -1 : lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	}
	json_object_object_add(out, "has_more", json_object_new_boolean(f.more));
	if (f.n > 0)
		lc_event_id(f.last, next);
	json_object_object_add(out, "next_after", f.n > 0 ?
	    json_object_new_string(next) : has_after ?
	    json_object_new_string(after_id) : NULL);
	ctx->out = out;
	return 0;
}
