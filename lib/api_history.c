/*
 * GET /api/v1/transactions/history: a card's transactions with filters,
 * newest first, paged. Served from the (card_id, created_at) and
 * (card_id, type, created_at) indexes, so a page costs the same on a card
 * with 10 or 100,000 transactions.
 */
#include <string.h>

#include "lc_http.h"

#define PAGE_SIZE_MAX 100
#define PAGE_MAX 999999999999999LL	/* 15 digits: (page - 1) * 100 fits */

struct hquery {
	char card_id[LC_REF_MAX + 1];
	char type[32];		/* "" for all */
	int64_t page, page_size;
	int64_t from, to;	/* inclusive, ms */
};

static int
parse_query(struct lc_ctx *ctx, struct hquery *q)
{
	static const char *const types[] = { "punch", "cashback", "discount",
	    "reward_claim", "cashback_redeem", "expiry", "void", "adjustment",
	    NULL };
	int i, rc;

	memset(q, 0, sizeof(*q));
	q->page = 1;
	q->page_size = 20;
	q->from = INT64_MIN;
	q->to = INT64_MAX;
	if ((rc = lc_q_str(ctx, "card_instance_id", q->card_id,
	    sizeof(q->card_id))) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_VALIDATION, "card_instance_id",
		    "card_instance_id is required");
	if (lc_q_int(ctx, "page", 1, PAGE_MAX, &q->page) == -1 ||
	    lc_q_int(ctx, "page_size", 1, PAGE_SIZE_MAX, &q->page_size) == -1 ||
	    (rc = lc_q_str(ctx, "transaction_type", q->type, sizeof(q->type))) == -1 ||
	    lc_q_date(ctx, "from_date", 0, &q->from) == -1 ||
	    lc_q_date(ctx, "to_date", 1, &q->to) == -1)
		return -1;
	if (rc == 1) {
		for (i = 0; types[i] != NULL; i++)
			if (strcmp(q->type, types[i]) == 0)
				break;
		if (types[i] == NULL)
			return lc_fail(ctx, LC_E_VALIDATION, "transaction_type",
			    "transaction_type must be punch, cashback, discount, "
			    "reward_claim, cashback_redeem, expiry, void or "
			    "adjustment");
	}
	if (q->from > q->to)
		return lc_fail(ctx, LC_E_VALIDATION, "from_date",
		    "from_date must not be after to_date");
	return 0;
}

static void
opt_text(json_object *o, const char *name, const char *s)
{
	if (s != NULL)
		json_object_object_add(o, name, json_object_new_string(s));
}

static void
opt_money(json_object *o, const char *name, int64_t v)
{
	if (v >= 0)
		json_object_object_add(o, name, lc_json_money(v));
}

static int
item_add(void *arg, const struct lc_hist_item *it)
{
	json_object *o = json_object_new_object();

	opt_text(o, "transaction_id", it->id);
	opt_text(o, "transaction_type", it->type);
	json_object_object_add(o, "purchase_amount",
	    lc_json_money(it->purchase_amount));
	if (it->type != NULL && strcmp(it->type, "punch") == 0)
		json_object_object_add(o, "punches_added", json_object_new_int64(
		    it->punches_added < 0 ? 0 : it->punches_added));
	json_object_object_add(o, "created_at", lc_json_time(it->created_at));
	opt_text(o, "location_name", it->location_name);
	opt_text(o, "staff_name", it->staff_name);
	opt_money(o, "cashback_earned", it->cashback_earned);
	opt_money(o, "discount_amount", it->discount_amount);
	opt_money(o, "redeemed_amount", it->redeemed_amount);
	opt_money(o, "expired_amount", it->expired_amount);
	opt_text(o, "reward_name", it->reward_name);
	opt_text(o, "pos_reference_id", it->pos_ref);
	opt_text(o, "pos_terminal_id", it->pos_term);
	opt_text(o, "transaction_notes", it->notes);
	opt_text(o, "client_timestamp", it->client_ts);
	lc_fmt_hist_extra(o, it);
	json_object_array_add(arg, o);
	return 0;
}

struct page {
	struct lc_hist_query q;
	int64_t total;
	json_object *items;
};

/* Count and page from one snapshot. */
static int
page_read(struct lc_dom *dom, void *arg)
{
	struct page *pg = arg;

	if (lc_db_history_count(dom->db, &pg->q, &pg->total) == -1 ||
	    (pg->q.offset < pg->total &&
	    lc_db_history_page(dom->db, &pg->q, item_add, pg->items) != 0))
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

int
lc_h_history(struct lc_ctx *ctx)
{
	struct hquery q;
	struct lc_card card;
	struct page pg;
	json_object *p, *d;
	int rc;

	if (parse_query(ctx, &q) == -1)
		return -1;
	if ((rc = lc_card_get(&ctx->dom, LC_CARDKEY_ID, q.card_id, &card)) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
	/* What has expired is in the history before it is read. */
	if (lc_expiry_fresh(&ctx->dom, &card) == -1)
		return -1;
	memset(&pg, 0, sizeof(pg));
	pg.q.card_id = card.id;
	pg.q.type = q.type[0] != '\0' ? q.type : NULL;
	pg.q.from = q.from;
	pg.q.to = q.to;
	pg.q.limit = q.page_size;
	pg.q.offset = (q.page - 1) * q.page_size;
	pg.items = json_object_new_array();
	if (lc_read(&ctx->dom, page_read, &pg) == -1) {
		json_object_put(pg.items);
		return -1;
	}
	p = json_object_new_object();
	json_object_object_add(p, "page", json_object_new_int64(q.page));
	json_object_object_add(p, "page_size", json_object_new_int64(q.page_size));
	json_object_object_add(p, "total_count", json_object_new_int64(pg.total));
	json_object_object_add(p, "total_pages", json_object_new_int64(
	    (pg.total + q.page_size - 1) / q.page_size));
	d = json_object_new_object();
	json_object_object_add(d, "transactions", pg.items);
	json_object_object_add(d, "pagination", p);
	ctx->out = d;
	return 0;
}
