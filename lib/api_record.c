/*
 * POST /api/v1/transactions/record: a purchase on a card. The reading of
 * a purchase and its write are shared with sync, item by item.
 */
#include <string.h>

#include "lc_http.h"

int
lc_purchase_read(struct lc_error *e, const struct lc_currency *cur,
    json_object *obj, int64_t now, struct lc_purchase *p)
{
	int date_only;

	memset(p, 0, sizeof(*p));
	p->punch_count = 1;
	p->at_ms = now;
	if (lc_in_str(e, obj, "qr_code_data", 0, LC_REF_MAX, &p->qr) == -1 ||
	    lc_in_str(e, obj, "card_instance_id", 0, LC_REF_MAX,
	    &p->card_id) == -1 ||
	    lc_in_str(e, obj, "barcode_value", 0, LC_REF_MAX, &p->barcode) == -1)
		return -1;
	if (p->qr == NULL && p->card_id == NULL && p->barcode == NULL)
		return lc_error_set(e, LC_E_VALIDATION, "qr_code_data",
		    "Send qr_code_data, card_instance_id or barcode_value.");
	if (lc_in_str(e, obj, "location_id", 1, LC_REF_MAX,
	    &p->location_id) == -1 ||
	    lc_in_str(e, obj, "staff_user_id", 1, LC_REF_MAX,
	    &p->staff_user_id) == -1 ||
	    lc_in_money(e, obj, "purchase_amount", 1, cur, &p->amount,
	    NULL) == -1 ||
	    lc_in_int(e, obj, "punch_count", 0, 1, LC_PUNCH_COUNT_MAX,
	    &p->punch_count, NULL) == -1 ||
	    lc_in_str(e, obj, "transaction_notes", 0, LC_NOTES_MAX,
	    &p->notes) == -1 ||
	    lc_in_key(e, obj, 0, &p->key) == -1 ||
	    lc_in_str(e, obj, "pos_reference_id", 0, LC_POSREF_MAX,
	    &p->pos_ref) == -1 ||
	    lc_in_str(e, obj, "pos_terminal_id", 0, LC_POSREF_MAX,
	    &p->pos_term) == -1 ||
	    lc_in_str(e, obj, "client_timestamp", 0, LC_POSREF_MAX,
	    &p->client_ts) == -1)
		return -1;
	/* The POS's own ids are shown in history, lists and the audit
	 * trail: no control characters. (Notes are free text, line breaks
	 * and all; every answer escapes them.) */
	if ((p->pos_ref != NULL && lc_text_check(e, "pos_reference_id",
	    p->pos_ref, LC_POSREF_MAX, 1) == -1) || (p->pos_term != NULL &&
	    lc_text_check(e, "pos_terminal_id", p->pos_term, LC_POSREF_MAX,
	    1) == -1))
		return -1;
	if (p->client_ts != NULL &&
	    (lc_time_parse(p->client_ts, &p->client_ms, &date_only) == -1 ||
	    date_only))
		return lc_error_set(e, LC_E_VALIDATION, "client_timestamp",
		    "client_timestamp must be an ISO 8601 date-time "
		    "such as 2026-11-02T10:15:00Z");
	return 0;
}

struct purchase_write {
	const struct lc_purchase *p;
	struct lc_purchase_result r;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
purchase_rule(struct lc_dom *dom, void *arg)
{
	struct purchase_write *pw = arg;

	pw->cur = &dom->cur;
	return lc_purchase(dom, pw->p, &pw->r);
}

static json_object *
purchase_answer(void *arg)
{
	struct purchase_write *pw = arg;

	return lc_fmt_purchase(&pw->r, pw->cur);
}

int
lc_purchase_write(struct lc_dom *dom, const struct lc_purchase *p, int sync,
    json_object **answer)
{
	struct purchase_write pw = { p, { .card_type = NULL }, NULL };
	struct lc_write w = { "purchase", p->key, purchase_rule,
	    purchase_answer, &pw, sync ? "transaction.sync" :
	    "transaction.record", "card", NULL };

	if (lc_auth_scope(dom, p->location_id, p->staff_user_id, 1) == -1)
		return -1;
	return lc_write(dom, &w, answer);
}

int
lc_h_record(struct lc_ctx *ctx)
{
	struct lc_purchase p;
	int rc;

	if (lc_purchase_read(&ctx->dom.err, &ctx->dom.cur, ctx->in,
	    ctx->dom.now_ms, &p) == -1 ||
	    (rc = lc_purchase_write(&ctx->dom, &p, 0, &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}
