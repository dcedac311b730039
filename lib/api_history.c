/*
 * GET /api/v1/transactions/history: a card's transactions with filters,
 * newest first, paged. Served from the (card_id, created_at) and
 * (card_id, type, created_at) indexes, so a page costs the same on a card
 * with 10 or 100,000 transactions.
 */
#include <string.h>

#include "lc_http.h"

#define PAGE_MAX 999999999999999LL	/* 15 digits: (page - 1) * 100 fits */

struct hquery {
	char card_id[LC_REF_MAX + 1];
	char type[32];		/* "" for all */
	int64_t page, page_size;
	int64_t from, to;	/* inclusive, ms */
};

/* VALIDATION_ERROR naming the types a history may be asked for: the
 * card types' names, then others. */
static int
type_fail(struct lc_ctx *ctx, const char *const *others)
{
	char buf[256];
	size_t len = 0;
	int i, n = 0;

	for (i = 0; i < LC_CT__MAX; i++, n++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    n ? ", " : "", lc_cardtype_name((enum lc_ctype)i));
	for (i = 0; others[i] != NULL; i++, n++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    others[i + 1] == NULL ? " or " : ", ", others[i]);
	return lc_fail(ctx, LC_E_VALIDATION, "transaction_type",
	    "transaction_type must be %s", buf);
}

static int
parse_query(struct lc_ctx *ctx, struct hquery *q)
{
	/* Besides purchases, of each card type's name. */
	static const char *const others[] = { "reward_claim",
	    "cashback_redeem", "expiry", "void", "adjustment", NULL };
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
	    lc_q_int(ctx, "page_size", 1, LC_HISTORY_PAGE_MAX, &q->page_size) == -1 ||
	    (rc = lc_q_str(ctx, "transaction_type", q->type, sizeof(q->type))) == -1 ||
	    lc_q_date(ctx, "from_date", 0, &q->from) == -1 ||
	    lc_q_date(ctx, "to_date", 1, &q->to) == -1)
		return -1;
	if (rc == 1 && lc_cardtype_id(q->type) == LC_CT__MAX) {
		for (i = 0; others[i] != NULL; i++)
			if (strcmp(q->type, others[i]) == 0)
				break;
		if (others[i] == NULL)
			return type_fail(ctx, others);
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
opt_money(json_object *o, const char *name, int64_t v,
    const struct lc_currency *cur)
{
	if (v >= 0)
		json_object_object_add(o, name, lc_json_money_of(cur, v));
}

struct page {
	struct lc_hist_query q;
	int64_t total;
	json_object *items;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
item_add(void *arg, const struct lc_hist_item *it)
{
	struct page *pg = arg;
	const struct lc_currency *cur = pg->cur;
	const struct lc_cardtype *ct;
	struct lc_json_fields jf;
	json_object *o = json_object_new_object();

	opt_text(o, "transaction_id", it->id);
	opt_text(o, "transaction_type", it->type);
	json_object_object_add(o, "purchase_amount",
	    lc_json_money_of(cur, it->purchase_amount));
	/* A purchase: its type is its card type's name. */
	if (it->type != NULL &&
	    (ct = lc_cardtype(lc_cardtype_id(it->type))) != NULL &&
	    ct->history != NULL)
		ct->history(it, lc_json_fields(&jf, o, cur));
	json_object_object_add(o, "created_at", lc_json_time(it->created_at));
	opt_text(o, "location_name", it->location_name);
	opt_text(o, "staff_name", it->staff_name);
	opt_money(o, "cashback_earned", it->cashback_earned, cur);
	opt_money(o, "discount_amount", it->discount_amount, cur);
	opt_money(o, "redeemed_amount", it->redeemed_amount, cur);
	opt_money(o, "expired_amount", it->expired_amount, cur);
	opt_text(o, "reward_name", it->reward_name);
	opt_text(o, "pos_reference_id", it->pos_ref);
	opt_text(o, "pos_terminal_id", it->pos_term);
	opt_text(o, "transaction_notes", it->notes);
	opt_text(o, "client_timestamp", it->client_ts);
	lc_fmt_hist_extra(o, it, cur);
	json_object_array_add(pg->items, o);
	return 0;
}

/* Count and page from one snapshot. */
static int
page_read(struct lc_dom *dom, void *arg)
{
	struct page *pg = arg;

	if (lc_db_history_count(dom->db, &pg->q, &pg->total) == -1 ||
	    (pg->q.offset < pg->total &&
	    lc_db_history_page(dom->db, &pg->q, item_add, pg) != 0))
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
	pg.cur = &ctx->dom.cur;
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
