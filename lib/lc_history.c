/*
 * Transaction history of a card: filters, newest first, paged. Served
 * from the (card_id, created_at) and (card_id, type, created_at) indexes,
 * so a page costs the same on a card with 10 or 100,000 transactions.
 */
#include <string.h>

#include "lc_int.h"

#define PAGE_SIZE_MAX 100
#define PAGE_MAX 999999999999999LL	/* 15 digits: (page - 1) * 100 fits */
#define DAY_MS 86400000LL

struct hquery {
	char card_id[LC_REF_MAX + 1];
	char type[32];		/* "" for all */
	int64_t page, page_size;
	int64_t from, to;	/* inclusive, ms */
};

/* A query parameter: 1 present (copied), 0 absent, -1 after lc_fail. */
static int
param(struct lc_ctx *ctx, const char *name, char *out, size_t outsz)
{
	int rc = lc_query_get(ctx->req.query, name, out, outsz);

	if (rc == -1 || (rc == 1 && out[0] == '\0'))
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must not be empty or malformed", name);
	return rc;
}

static int
int_param(struct lc_ctx *ctx, const char *name, int64_t min, int64_t max,
    int64_t *v)
{
	char buf[32];
	int rc, i;
	int64_t n = 0;

	if ((rc = param(ctx, name, buf, sizeof(buf))) <= 0)
		return rc;
	for (i = 0; buf[i] != '\0'; i++) {
		if (buf[i] < '0' || buf[i] > '9' || i >= 15)
			return lc_fail(ctx, LC_E_VALIDATION, name,
			    "%s must be an integer from %lld to %lld", name,
			    (long long)min, (long long)max);
		n = n * 10 + (buf[i] - '0');
	}
	if (n < min || n > max)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be an integer from %lld to %lld", name,
		    (long long)min, (long long)max);
	*v = n;
	return 1;
}

/* A date or date-time; a date-only end covers its whole (UTC) day. */
static int
date_param(struct lc_ctx *ctx, const char *name, int end, int64_t *v)
{
	char buf[64];
	int rc, date_only;

	char *sp;

	if ((rc = param(ctx, name, buf, sizeof(buf))) <= 0)
		return rc;
	/* A '+' of an offset sent unencoded arrives as a space, which no
	 * date holds: read it back as the '+' it was. */
	while ((sp = strchr(buf, ' ')) != NULL)
		*sp = '+';
	if (lc_time_parse(buf, v, &date_only) == -1)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be a date (2026-11-01) or an ISO 8601 date-time",
		    name);
	if (date_only && end)
		*v += DAY_MS - 1;
	return 1;
}

static int
parse_query(struct lc_ctx *ctx, struct hquery *q)
{
	static const char *const types[] = { "punch", "cashback", "discount",
	    "reward_claim", "cashback_redeem", NULL };
	int i, rc;

	memset(q, 0, sizeof(*q));
	q->page = 1;
	q->page_size = 20;
	q->from = INT64_MIN;
	q->to = INT64_MAX;
	if ((rc = param(ctx, "card_instance_id", q->card_id,
	    sizeof(q->card_id))) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_VALIDATION, "card_instance_id",
		    "card_instance_id is required");
	if (int_param(ctx, "page", 1, PAGE_MAX, &q->page) == -1 ||
	    int_param(ctx, "page_size", 1, PAGE_SIZE_MAX, &q->page_size) == -1 ||
	    (rc = param(ctx, "transaction_type", q->type, sizeof(q->type))) == -1 ||
	    date_param(ctx, "from_date", 0, &q->from) == -1 ||
	    date_param(ctx, "to_date", 1, &q->to) == -1)
		return -1;
	if (rc == 1) {
		for (i = 0; types[i] != NULL; i++)
			if (strcmp(q->type, types[i]) == 0)
				break;
		if (types[i] == NULL)
			return lc_fail(ctx, LC_E_VALIDATION, "transaction_type",
			    "transaction_type must be punch, cashback, discount, "
			    "reward_claim or cashback_redeem");
	}
	if (q->from > q->to)
		return lc_fail(ctx, LC_E_VALIDATION, "from_date",
		    "from_date must not be after to_date");
	return 0;
}

/* Adds column i as money, when not NULL, under name. */
static void
opt_money(json_object *o, const char *name, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) != SQLITE_NULL)
		json_object_object_add(o, name,
		    lc_json_money(sqlite3_column_int64(st, i)));
}

static void
opt_text(json_object *o, const char *name, sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	if (t != NULL)
		json_object_object_add(o, name,
		    json_object_new_string((const char *)t));
}

static json_object *
item_json(sqlite3_stmt *st)
{
	json_object *o = json_object_new_object();
	const char *type = (const char *)sqlite3_column_text(st, 1);

	opt_text(o, "transaction_id", st, 0);
	opt_text(o, "transaction_type", st, 1);
	json_object_object_add(o, "purchase_amount",
	    lc_json_money(sqlite3_column_int64(st, 2)));
	if (type != NULL && strcmp(type, "punch") == 0)
		json_object_object_add(o, "punches_added",
		    json_object_new_int64(sqlite3_column_int64(st, 3)));
	json_object_object_add(o, "created_at",
	    lc_json_time(sqlite3_column_int64(st, 4)));
	opt_text(o, "location_name", st, 5);
	opt_text(o, "staff_name", st, 6);
	opt_money(o, "cashback_earned", st, 7);
	opt_money(o, "discount_amount", st, 8);
	opt_money(o, "redeemed_amount", st, 9);
	opt_text(o, "reward_name", st, 10);
	opt_text(o, "pos_reference_id", st, 11);
	opt_text(o, "pos_terminal_id", st, 12);
	opt_text(o, "transaction_notes", st, 13);
	opt_text(o, "client_timestamp", st, 14);
	return o;
}

int
lc_h_history(struct lc_ctx *ctx)
{
	struct hquery q;
	struct lc_card card;
	sqlite3_stmt *st;
	json_object *items = NULL, *pg, *d;
	int64_t total, offset;
	int rc, typed;

	if (parse_query(ctx, &q) == -1)
		return -1;
	if ((rc = lc_card_load(ctx, LC_CARDKEY_ID, q.card_id, &card)) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
	typed = q.type[0] != '\0';
	/* Count and page from one snapshot. */
	if (lc_db_read_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (q.from == INT64_MIN && q.to == INT64_MAX)
		/* No date range: the trigger-kept counts answer at once. */
		st = typed ? lc_db_prep(ctx->db, LC_SQL_HISTORY_TOTAL_TYPE, "ss",
		    card.id, q.type) : lc_db_prep(ctx->db, LC_SQL_HISTORY_TOTAL,
		    "s", card.id);
	else
		st = typed ? lc_db_prep(ctx->db, LC_SQL_HISTORY_COUNT_TYPE,
		    "ssii", card.id, q.type, q.from, q.to) : lc_db_prep(ctx->db,
		    LC_SQL_HISTORY_COUNT, "sii", card.id, q.from, q.to);
	if (st == NULL || lc_db_step(ctx->db, st) != SQLITE_ROW)
		goto dberr;
	total = sqlite3_column_int64(st, 0);
	lc_db_reset(st);
	offset = (q.page - 1) * q.page_size;
	items = json_object_new_array();
	if (offset < total) {
		st = typed ? lc_db_prep(ctx->db, LC_SQL_HISTORY_PAGE_TYPE,
		    "ssiiii", card.id, q.type, q.from, q.to, q.page_size,
		    offset) : lc_db_prep(ctx->db, LC_SQL_HISTORY_PAGE, "siiii",
		    card.id, q.from, q.to, q.page_size, offset);
		if (st == NULL)
			goto dberr;
		while ((rc = lc_db_step(ctx->db, st)) == SQLITE_ROW)
			json_object_array_add(items, item_json(st));
		lc_db_reset(st);
		if (rc != SQLITE_DONE)
			goto dberr;
	}
	lc_db_rollback(ctx->db);
	pg = json_object_new_object();
	json_object_object_add(pg, "page", json_object_new_int64(q.page));
	json_object_object_add(pg, "page_size", json_object_new_int64(q.page_size));
	json_object_object_add(pg, "total_count", json_object_new_int64(total));
	json_object_object_add(pg, "total_pages", json_object_new_int64(
	    (total + q.page_size - 1) / q.page_size));
	d = json_object_new_object();
	json_object_object_add(d, "transactions", items);
	json_object_object_add(d, "pagination", pg);
	ctx->out = d;
	return 0;
dberr:
	lc_db_reset(st);
	lc_db_rollback(ctx->db);
	json_object_put(items);
	return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
}
