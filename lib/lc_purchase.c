/*
 * A purchase on a card, whether it arrives alone (record) or in a batch
 * (sync): one validation, one code path, one write transaction each.
 */
#include <string.h>

#include "lc_int.h"

int
lc_purchase_parse(struct lc_ctx *ctx, json_object *obj, struct lc_purchase *p)
{
	int date_only;

	memset(p, 0, sizeof(*p));
	p->punch_count = 1;
	p->at_ms = ctx->now_ms;
	if (lc_in_str(ctx, obj, "qr_code_data", 0, LC_REF_MAX, &p->qr) == -1 ||
	    lc_in_str(ctx, obj, "card_instance_id", 0, LC_REF_MAX,
	    &p->card_id) == -1 ||
	    lc_in_str(ctx, obj, "barcode_value", 0, LC_REF_MAX,
	    &p->barcode) == -1)
		return -1;
	if (p->qr == NULL && p->card_id == NULL && p->barcode == NULL)
		return lc_fail(ctx, LC_E_VALIDATION, "qr_code_data",
		    "Send qr_code_data, card_instance_id or barcode_value.");
	if (lc_in_str(ctx, obj, "location_id", 1, LC_REF_MAX,
	    &p->location_id) == -1 ||
	    lc_in_str(ctx, obj, "staff_user_id", 1, LC_REF_MAX,
	    &p->staff_user_id) == -1 ||
	    lc_in_money(ctx, obj, "purchase_amount", 1, &p->amount, NULL) == -1 ||
	    lc_in_int(ctx, obj, "punch_count", 0, 1, 100, &p->punch_count,
	    NULL) == -1 ||
	    lc_in_str(ctx, obj, "transaction_notes", 0, LC_NOTES_MAX,
	    &p->notes) == -1 ||
	    lc_in_key(ctx, obj, 0, &p->key) == -1 ||
	    lc_in_str(ctx, obj, "pos_reference_id", 0, LC_POSREF_MAX,
	    &p->pos_ref) == -1 ||
	    lc_in_str(ctx, obj, "pos_terminal_id", 0, LC_POSREF_MAX,
	    &p->pos_term) == -1 ||
	    lc_in_str(ctx, obj, "client_timestamp", 0, LC_POSREF_MAX,
	    &p->client_ts) == -1)
		return -1;
	if (p->client_ts != NULL &&
	    (lc_time_parse(p->client_ts, &p->client_ms, &date_only) == -1 ||
	    date_only))
		return lc_fail(ctx, LC_E_VALIDATION, "client_timestamp",
		    "client_timestamp must be an ISO 8601 date-time "
		    "such as 2026-11-02T10:15:00Z");
	return 0;
}

int
lc_purchase_run(struct lc_ctx *ctx, struct lc_purchase *p,
    json_object **data, int *idempotent)
{
	struct lc_card card;
	struct lc_txn t;
	int rc;

	*data = NULL;
	*idempotent = 0;
	if (lc_auth_scope(ctx, p->location_id, p->staff_user_id) == -1)
		return -1;
	if (lc_db_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (p->key != NULL) {
		if ((rc = lc_idem_get(ctx, p->key, "purchase", data)) == -1)
			goto fail;
		if (rc == 1) {
			lc_db_rollback(ctx->db);
			*idempotent = 1;
			return 0;
		}
	}
	if (lc_card_resolve(ctx, p->card_id, p->qr, p->barcode, &card) == -1)
		goto fail;
	if (strcmp(card.status, "active") != 0) {
		lc_fail(ctx, LC_E_CARD_INACTIVE, NULL, NULL);
		goto fail;
	}
	if (lc_txn_init(ctx, &t, &card, p->location_id, p->staff_user_id,
	    card.type, p->at_ms) == -1)
		goto fail;
	t.purchase_amount = p->amount;
	t.notes = p->notes;
	t.pos_ref = p->pos_ref;
	t.pos_term = p->pos_term;
	t.client_ts = p->client_ts;
	if (card.ops->purchase(ctx, &card, p, &t, data) == -1)
		goto fail;
	if (lc_card_write_end(ctx, p->key, "purchase", t.id, *data) == -1)
		goto fail;
	return 0;
fail:
	lc_db_rollback(ctx->db);
	json_object_put(*data);
	*data = NULL;
	return -1;
}

int
lc_h_record(struct lc_ctx *ctx)
{
	struct lc_purchase p;
	json_object *data;
	int idem;

	if (lc_purchase_parse(ctx, ctx->in, &p) == -1 ||
	    lc_purchase_run(ctx, &p, &data, &idem) == -1)
		return -1;
	json_object_object_add(data, "idempotent", json_object_new_boolean(idem));
	ctx->out = data;
	return 0;
}
