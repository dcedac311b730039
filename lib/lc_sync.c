/*
 * Offline sync: a batch of purchases, each recorded by the same code as
 * record, in its own transaction, at the time it was captured. One item
 * failing never undoes another, and a retried batch records nothing twice.
 */
#include <string.h>

#include "lc_int.h"

#define LC_BATCH_MAX 100
/*
 * Each item may wait the busy timeout for a locked database; past this
 * much time in one batch the remaining items are not tried but answered
 * DATABASE_ERROR (transient: the till resends them), so the till gets its
 * per-item results before any web server timeout.
 */
#define LC_SYNC_DEADLINE_MS 15000

static json_object *
item_error(struct lc_ctx *ctx)
{
	json_object *r = json_object_new_object();

	json_object_object_add(r, "success", json_object_new_boolean(0));
	json_object_object_add(r, "error",
	    json_object_new_string(lc_err_info(ctx->err)->code));
	json_object_object_add(r, "message", json_object_new_string(
	    ctx->err_msg[0] ? ctx->err_msg : lc_err_info(ctx->err)->message));
	if (ctx->err_field[0] != '\0')
		json_object_object_add(r, "field",
		    json_object_new_string(ctx->err_field));
	return r;
}

static json_object *
item_success(json_object *data, int idempotent)
{
	json_object *r = json_object_new_object(), *v;

	json_object_object_add(r, "success", json_object_new_boolean(1));
	json_object_object_add(r, "idempotent", json_object_new_boolean(idempotent));
	if (json_object_object_get_ex(data, "transaction_id", &v))
		json_object_object_add(r, "transaction_id", json_object_get(v));
	if (json_object_object_get_ex(data, "card_type", &v))
		json_object_object_add(r, "card_type", json_object_get(v));
	return r;
}

/* Records one item; returns its result object. */
static json_object *
sync_item(struct lc_ctx *ctx, json_object *item)
{
	struct lc_purchase p;
	json_object *data = NULL, *r;
	int idem;

	if (lc_purchase_parse(ctx, item, &p) == -1)
		return item_error(ctx);
	if (p.key == NULL) {
		lc_fail(ctx, LC_E_VALIDATION, "idempotency_key",
		    "idempotency_key is required");
		return item_error(ctx);
	}
	/* The time the purchase happened, never later than now. */
	if (p.client_ts != NULL && p.client_ms < ctx->now_ms)
		p.at_ms = p.client_ms;
	if (lc_purchase_run(ctx, &p, &data, &idem) == -1)
		return item_error(ctx);
	r = item_success(data, idem);
	json_object_put(data);
	return r;
}

static void
clear_error(struct lc_ctx *ctx)
{
	ctx->err = LC_OK;
	ctx->err_msg[0] = '\0';
	ctx->err_field[0] = '\0';
	ctx->retry_after = 0;
}

int
lc_h_sync(struct lc_ctx *ctx)
{
	json_object *batch, *results, *entry, *item, *key, *r, *d;
	size_t i, n;
	int64_t ok = 0, start;

	if (!json_object_object_get_ex(ctx->in, "transactions", &batch) ||
	    !json_object_is_type(batch, json_type_array) ||
	    (n = json_object_array_length(batch)) < 1 || n > LC_BATCH_MAX)
		return lc_fail(ctx, LC_E_VALIDATION, "transactions",
		    "transactions must be an array of 1 to 100 objects");
	for (i = 0; i < n; i++)
		if (!json_object_is_type(json_object_array_get_idx(batch, i),
		    json_type_object))
			return lc_fail(ctx, LC_E_VALIDATION, "transactions",
			    "transactions must be an array of 1 to 100 objects");
	results = json_object_new_array();
	start = lc_now_ms();
	for (i = 0; i < n; i++) {
		item = json_object_array_get_idx(batch, i);
		if (lc_now_ms() - start > LC_SYNC_DEADLINE_MS) {
			lc_fail(ctx, LC_E_DATABASE, NULL, "The database is busy; "
			    "this item was not recorded. Send it again.");
			r = item_error(ctx);
		} else
			r = sync_item(ctx, item);
		if (ctx->err == LC_OK)
			ok++;
		clear_error(ctx);
		entry = json_object_new_object();
		key = NULL;
		json_object_object_get_ex(item, "idempotency_key", &key);
		json_object_object_add(entry, "idempotency_key",
		    json_object_is_type(key, json_type_string) ?
		    json_object_get(key) : NULL);
		json_object_object_add(entry, "result", r);
		json_object_array_add(results, entry);
	}
	d = json_object_new_object();
	json_object_object_add(d, "total_count", json_object_new_int64((int64_t)n));
	json_object_object_add(d, "success_count", json_object_new_int64(ok));
	json_object_object_add(d, "error_count",
	    json_object_new_int64((int64_t)n - ok));
	json_object_object_add(d, "results", results);
	ctx->out = d;
	ctx->status = ok == (int64_t)n ? 200 : 207;
	return 0;
}
