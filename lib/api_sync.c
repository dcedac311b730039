/*
 * POST /api/v1/transactions/sync: a batch of offline purchases, each read
 * and written as record does, in its own write, at the time it was
 * captured. One item failing never undoes another, and a retried batch
 * records nothing twice.
 */
#include <string.h>
#include <sys/resource.h>

#include "lc_http.h"

/* A sync process's share of the processor beside the tills selling:
 * its batches wait for no customer (a nice value; a process may lower
 * its own priority, so this responder stays there). */
#define LC_SYNC_NICE 10

/* What a refused item's row of the audit trail keeps of it: no card
 * (a QR payload is a card's secret) and no id, which may be another
 * shop's (refused as such): who and where are the row's own, the
 * caller's. */
static const char *const kept[] = {
	"idempotency_key", "purchase_amount", "punch_count", "client_timestamp",
	"pos_reference_id", "pos_terminal_id", "transaction_notes", NULL
};

struct refusal {
	json_object *item;
	const struct lc_error *err;
};

static int
refused_rule(struct lc_dom *dom, void *arg)
{
	const struct refusal *r = arg;
	const char *const *k;
	json_object *v;

	/* As sent, but only what any such field could be: a number, or
	 * text no longer than the longest of them (notes). A refused item
	 * may hold anything, and the trail keeps rows for good. */
	for (k = kept; *k != NULL; k++)
		if (json_object_object_get_ex(r->item, *k, &v) && v != NULL &&
		    (json_object_is_type(v, json_type_int) ||
		    json_object_is_type(v, json_type_double) ||
		    (json_object_is_type(v, json_type_string) &&
		    json_object_get_string_len(v) <= LC_NOTES_MAX)))
			lc_audit_note(dom, *k, json_object_get(v));
	lc_audit_note_str(dom, "error", lc_err_info(r->err->code)->code);
	lc_audit_note_str(dom, "message", lc_error_msg(r->err));
	if (r->err->field[0] != '\0')
		lc_audit_note_str(dom, "field", r->err->field);
	return 0;
}

/*
 * A purchase refused for good (not one to send again: the database busy,
 * the service failing) is set aside by the till, and may never be
 * recorded: the owner sees it, and why, in the audit trail, in a write
 * of its own. Sent again and refused again, it is a row more.
 */
static void
refused(const struct lc_dom *base, json_object *item,
    const struct lc_error *err)
{
	struct lc_dom dom = *base;
	struct refusal r = { item, err };
	struct lc_write w = { NULL, NULL, refused_rule, NULL, &r,
	    "transaction.sync_refused", "transaction", NULL };

	switch (err->code) {
	case LC_E_DATABASE:
	case LC_E_INTERNAL:
	case LC_E_UNAVAILABLE:
	case LC_E_CONFIG:
		return;
	default:
		break;
	}
	memset(&dom.err, 0, sizeof(dom.err));
	dom.later = 1;
	if (lc_write(&dom, &w, NULL) == -1)
		lc_log("request %s: a refused sync item is not in the audit "
		    "trail: %s", base->request_id != NULL ? base->request_id :
		    "-", lc_error_msg(&dom.err));
}

/* Records one item; returns its result object. Each item has its own
 * domain context, so one item's error never reaches the next; a refused
 * one's error is copied to *why. */
static json_object *
sync_item(const struct lc_dom *base, json_object *item, int64_t start,
    const int64_t *max_age, int *ok, struct lc_error *why)
{
	struct lc_dom dom = *base;
	struct lc_purchase p;
	json_object *answer = NULL, *r;
	int rc;

	*ok = 0;
	/* The till that sends it is not waiting with a customer: the
	 * purchases of the tills that are go first (db_queue.c). */
	dom.later = 1;
	if (lc_mono_ms() - start > LC_SYNC_DEADLINE_MS) {
		lc_dom_fail(&dom, LC_E_DATABASE, NULL, "The database is busy; "
		    "this item was not recorded. Send it again.");
		return (*why = dom.err, lc_fmt_sync_error(why));
	}
	if (lc_purchase_read(&dom.err, &dom.cur, item, dom.now_ms, &p) == -1)
		return (*why = dom.err, lc_fmt_sync_error(why));
	if (p.key == NULL) {
		lc_dom_fail(&dom, LC_E_VALIDATION, "idempotency_key",
		    "idempotency_key is required");
		return (*why = dom.err, lc_fmt_sync_error(why));
	}
	if (p.client_ts != NULL && p.client_ms < dom.now_ms - *max_age) {
		lc_dom_fail(&dom, LC_E_VALIDATION, "client_timestamp",
		    "client_timestamp is more than %lld days ago; record the "
		    "purchase as a new one.", (long long)(*max_age / 86400000));
		return (*why = dom.err, lc_fmt_sync_error(why));
	}
	/* The time the purchase happened, never later than now. */
	if (p.client_ts != NULL && p.client_ms < dom.now_ms)
		p.at_ms = p.client_ms;
	if ((rc = lc_purchase_write(&dom, &p, 1, &answer)) == -1) {
		(void)lc_dom_settle(&dom);
		return (*why = dom.err, lc_fmt_sync_error(why));
	}
	r = lc_fmt_sync_ok(answer, rc == 1);
	json_object_put(answer);
	*ok = 1;
	return r;
}

int
lc_h_sync(struct lc_ctx *ctx)
{
	json_object *batch, *results, *entry, *item, *key, *d;
	struct lc_error why;
	size_t i, n;
	int64_t good = 0, start, max_age;
	int ok;

	if (!json_object_object_get_ex(ctx->in, "transactions", &batch) ||
	    !json_object_is_type(batch, json_type_array) ||
	    (n = json_object_array_length(batch)) < 1 || n > LC_BATCH_MAX)
		return lc_fail(ctx, LC_E_VALIDATION, "transactions",
		    "transactions must be an array of 1 to %d objects",
		    LC_BATCH_MAX);
	for (i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(batch, i),
		    json_type_object))
			return lc_fail(ctx, LC_E_VALIDATION, "transactions",
			    "transactions must be an array of 1 to %d objects",
			    LC_BATCH_MAX);
	(void)setpriority(PRIO_PROCESS, 0, LC_SYNC_NICE);
	max_age = lc_setting(ctx->dom.db, LC_SET_SYNC_MAX_AGE) * 86400000;
	results = json_object_new_array();
	start = lc_mono_ms();
	for (i = 0; i < n; i++) {
		item = json_object_array_get_idx(batch, i);
		entry = json_object_new_object();
		key = NULL;
		json_object_object_get_ex(item, "idempotency_key", &key);
		json_object_object_add(entry, "idempotency_key",
		    json_object_is_type(key, json_type_string) ?
		    json_object_get(key) : NULL);
		json_object_object_add(entry, "result",
		    sync_item(&ctx->dom, item, start, &max_age, &ok, &why));
		if (!ok)
			refused(&ctx->dom, item, &why);
		good += ok;
		json_object_array_add(results, entry);
	}
	d = json_object_new_object();
	json_object_object_add(d, "total_count", json_object_new_int64((int64_t)n));
	json_object_object_add(d, "success_count", json_object_new_int64(good));
	json_object_object_add(d, "error_count",
	    json_object_new_int64((int64_t)n - good));
	json_object_object_add(d, "results", results);
	ctx->out = d;
	ctx->status = good == (int64_t)n ? 200 : 207;
	return 0;
}
