/*
 * /api/v1/admin/reports: the figures of a period in the shop's days.
 * GET /summary by day, location or staff member, from the figures kept
 * per quarter hour; GET /transactions, the period's transactions. Both as
 * JSON or, with format=csv, as CSV.
 */
#include <string.h>

#include "lc_http.h"

#define DAY_MS 86400000LL
#define BUCKET_MS 900000LL
#define DAYS_MAX 3660		/* ten years a report */

/* Offsets a report's period may hold: most zones change twice a year,
 * but some more (Casablanca and Gaza around Ramadan: up to 42 in ten
 * years); a period with more is refused, never grouped by a wrong
 * offset. */
#define SEGMENTS_MAX (8 * (DAYS_MAX / 365 + 1))
/* Probing the offset every half day finds each change (zones change at
 * most twice a year, months apart). */
#define PROBE_MS (DAY_MS / 2)

struct period {
	int64_t from_day, to_day;	/* the shop's days, since 1970 */
	int64_t from_ms, to_ms;		/* UTC, inclusive */
	struct lc_tz tz;
	int csv;
	int exp;			/* the shop's currency's decimals */
	struct lc_csv_form form;
};

/* Floor division: a quarter hour of a time, before 1970 too. */
static int64_t
bucket(int64_t ms)
{
	return (ms - ((ms % BUCKET_MS) + BUCKET_MS) % BUCKET_MS) / BUCKET_MS;
}

/* A date-only parameter into days since 1970. */
static int
day_param(struct lc_ctx *ctx, const char *name, int64_t *day)
{
	char buf[32];
	int64_t ms;
	int rc, date_only;

	if ((rc = lc_q_str(ctx, name, buf, sizeof(buf))) == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_VALIDATION, name, "%s is required", name);
	if (lc_time_parse(buf, &ms, &date_only) == -1 || !date_only || ms < 0)
		return lc_fail(ctx, LC_E_VALIDATION, name,
		    "%s must be a date such as 2026-11-01", name);
	*day = ms / DAY_MS;
	return 0;
}

static int
period(struct lc_ctx *ctx, struct period *p)
{
	char fmt[8];
	int rc;

	memset(p, 0, sizeof(*p));
	if (day_param(ctx, "from", &p->from_day) == -1 ||
	    day_param(ctx, "to", &p->to_day) == -1)
		return -1;
	if (p->from_day > p->to_day)
		return lc_fail(ctx, LC_E_VALIDATION, "from",
		    "from must not be after to");
	if (p->to_day - p->from_day >= DAYS_MAX)
		return lc_fail(ctx, LC_E_VALIDATION, "to",
		    "A report covers at most %d days.", DAYS_MAX);
	if ((rc = lc_q_str(ctx, "format", fmt, sizeof(fmt))) == -1)
		return -1;
	if (rc == 1 && strcmp(fmt, "csv") != 0 && strcmp(fmt, "json") != 0)
		return lc_fail(ctx, LC_E_VALIDATION, "format",
		    "format must be json or csv");
	p->csv = rc == 1 && strcmp(fmt, "csv") == 0;
	p->exp = lc_currency_exp(&ctx->dom.cur);
	/* A shop day runs from its midnight in its zone: 23 or 25 hours
	 * when the clocks change. */
	if (lc_tz_of(ctx->dom.db, ctx->dom.caller.merchant_id, &p->tz) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (p->csv && lc_q_csv_form(ctx, &p->tz, &p->form) == -1)
		return -1;
	p->from_ms = lc_tz_day_start(&p->tz, p->from_day);
	p->to_ms = lc_tz_day_start(&p->tz, p->to_day + 1) - 1;
	return 0;
}

/* The first instant after lo, up to hi, whose offset is not lo's. */
static int64_t
change_after(const struct lc_tz *tz, int64_t lo, int64_t hi)
{
	int64_t off = lc_tz_offset_ms(tz, lo), mid;

	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (lc_tz_offset_ms(tz, mid) == off)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* A stretch of the period with one offset from UTC: the quarter hours
 * from..to, inclusive. */
struct segment {
	int64_t from, to, offset_ms;
};

/* The period cut where the zone's offset changes, so each part can be
 * grouped by days of a fixed offset. A quarter hour a change falls in
 * (none does today) goes to the part before it. Returns the parts, -1
 * for more than SEGMENTS_MAX. */
static int
segments(const struct period *p, struct segment *seg)
{
	int64_t at = p->from_ms, probe, next, first;
	int n = 0;

	first = bucket(p->from_ms);
	while (n < SEGMENTS_MAX) {
		seg[n].from = first;
		seg[n].offset_ms = lc_tz_offset_ms(&p->tz, at);
		next = -1;
		for (probe = at; probe < p->to_ms; ) {
			probe = probe + PROBE_MS < p->to_ms ? probe + PROBE_MS :
			    p->to_ms;
			if (lc_tz_offset_ms(&p->tz, probe) != seg[n].offset_ms) {
				next = change_after(&p->tz, probe - PROBE_MS <
				    at ? at : probe - PROBE_MS, probe);
				break;
			}
		}
		if (next == -1) {
			seg[n++].to = bucket(p->to_ms);
			break;
		}
		if (n + 1 == SEGMENTS_MAX)
			return -1;
		seg[n].to = bucket(next - 1);
		first = seg[n].to + 1;
		at = next;
		/* A change in the quarter hour before: nothing left of it. */
		if (seg[n].to >= seg[n].from)
			n++;
	}
	return n;
}

static void
day_text(int64_t day, char out[32])
{
	lc_time_fmt(day * DAY_MS, out);
	out[10] = '\0';
}

struct summary {
	enum lc_report_group group;
	json_object *rows;
	FILE *csv;
	int keys, exp;
	struct lc_report_row total;
	/* By day, the day read last: the day of a change of offset comes
	 * from two parts of the period, summed before it is written. */
	int held;
	struct lc_report_row day;
};

static void
row_add(struct lc_report_row *to, const struct lc_report_row *r)
{
	to->purchases += r->purchases;
	to->sales_amount += r->sales_amount;
	to->punches += r->punches;
	to->rewards_earned += r->rewards_earned;
	to->rewards_claimed += r->rewards_claimed;
	to->cashback_earned += r->cashback_earned;
	to->cashback_redeemed += r->cashback_redeemed;
	to->discounts_given += r->discounts_given;
	to->cashback_expired += r->cashback_expired;
	to->punches_removed += r->punches_removed;
}

/* The figures of a row in order: their keys (JSON, the scripts' CSV)
 * and their names (the spreadsheet's CSV, the back office's words). */
static const char *const lc_figures[][2] = { { "purchases", "Purchases" },
    { "sales_amount", "Sales" }, { "punches", "Punches" },
    { "rewards_earned", "Rewards earned" },
    { "rewards_claimed", "Rewards claimed" },
    { "cashback_earned", "Cashback earned" },
    { "cashback_redeemed", "Cashback redeemed" },
    { "discounts_given", "Discounts given" },
    { "cashback_expired", "Cashback expired" },
    { "punches_removed", "Punches taken off" }, { NULL, NULL } };

static void
row_json(json_object *o, const struct lc_report_row *r, int exp)
{
	json_object_object_add(o, "purchases", json_object_new_int64(r->purchases));
	json_object_object_add(o, "sales_amount", lc_json_money_exp(r->sales_amount, exp));
	json_object_object_add(o, "punches", json_object_new_int64(r->punches));
	json_object_object_add(o, "rewards_earned",
	    json_object_new_int64(r->rewards_earned));
	json_object_object_add(o, "rewards_claimed",
	    json_object_new_int64(r->rewards_claimed));
	json_object_object_add(o, "cashback_earned",
	    lc_json_money_exp(r->cashback_earned, exp));
	json_object_object_add(o, "cashback_redeemed",
	    lc_json_money_exp(r->cashback_redeemed, exp));
	json_object_object_add(o, "discounts_given",
	    lc_json_money_exp(r->discounts_given, exp));
	json_object_object_add(o, "cashback_expired",
	    lc_json_money_exp(r->cashback_expired, exp));
	json_object_object_add(o, "punches_removed",
	    json_object_new_int64(r->punches_removed));
}

/* The scripts' form has the key and the label, the spreadsheet's the
 * label alone (key NULL). */
static void
row_csv(FILE *f, const char *key, const char *label,
    const struct lc_report_row *r, int exp)
{
	if (key != NULL)
		lc_csv_text(f, key, 0);
	lc_csv_text(f, label, 0);
	lc_csv_int(f, r->purchases, 0);
	lc_csv_money(f, r->sales_amount, exp, 0);
	lc_csv_int(f, r->punches, 0);
	lc_csv_int(f, r->rewards_earned, 0);
	lc_csv_int(f, r->rewards_claimed, 0);
	lc_csv_money(f, r->cashback_earned, exp, 0);
	lc_csv_money(f, r->cashback_redeemed, exp, 0);
	lc_csv_money(f, r->discounts_given, exp, 0);
	lc_csv_money(f, r->cashback_expired, exp, 0);
	lc_csv_int(f, r->punches_removed, 1);
}

static int
summary_write(struct summary *s, const struct lc_report_row *r)
{
	char day[32];
	const char *key = r->key, *label = r->label ? r->label : "";
	json_object *o;

	if (s->group == LC_GROUP_DAY) {
		day_text(r->day, day);
		key = label = day;
	}
	row_add(&s->total, r);
	if (s->csv != NULL) {
		row_csv(s->csv, s->keys ? key : NULL, label, r, s->exp);
		return 0;
	}
	o = json_object_new_object();
	json_object_object_add(o, "key", json_object_new_string(key));
	json_object_object_add(o, "label", json_object_new_string(label));
	row_json(o, r, s->exp);
	json_object_array_add(s->rows, o);
	return 0;
}

static int
summary_row(void *arg, const struct lc_report_row *r)
{
	struct summary *s = arg;

	if (s->group != LC_GROUP_DAY)
		return summary_write(s, r);
	/* Days come in order, part after part: a day is written once the
	 * next one begins. */
	if (s->held && s->day.day == r->day) {
		row_add(&s->day, r);
		return 0;
	}
	if (s->held && summary_write(s, &s->day) != 0)
		return -1;
	s->day = *r;
	s->day.label = NULL;
	s->held = 1;
	return 0;
}

/* The figures by day: each part of the period of one offset grouped by
 * its days, the day of a change summed over its two parts. */
static int
summary_days(struct lc_ctx *ctx, const struct segment *seg, int n,
    struct summary *s)
{
	int i, rc = 0;

	for (i = 0; rc == 0 && i < n; i++)
		rc = lc_db_report(ctx->dom.db, ctx->dom.caller.merchant_id,
		    seg[i].from, seg[i].to, seg[i].offset_ms, LC_GROUP_DAY,
		    summary_row, s);
	if (rc == 0 && s->held)
		rc = summary_write(s, &s->day);
	return rc;
}

static int
summary(struct lc_ctx *ctx)
{
	static const char *const groups[] = { "day", "location", "staff" };
	static const char *const group_names[] = { "Date", "Location",
	    "Staff" };
	struct period p;
	struct summary s;
	struct segment seg[SEGMENTS_MAX];
	char g[16], from[32], to[32];
	int64_t owed;
	json_object *o;
	int rc, i, nseg = 0;

	memset(&s, 0, sizeof(s));
	if (period(ctx, &p) == -1 ||
	    (rc = lc_q_str(ctx, "group", g, sizeof(g))) == -1)
		return -1;
	if (rc == 0)
		snprintf(g, sizeof(g), "day");
	for (i = 0; i < 3 && strcmp(g, groups[i]) != 0; i++)
		continue;
	if (i == 3)
		return lc_fail(ctx, LC_E_VALIDATION, "group",
		    "group must be day, location or staff");
	s.group = (enum lc_report_group)i;
	if (s.group == LC_GROUP_DAY && (nseg = segments(&p, seg)) == -1)
		return lc_fail(ctx, LC_E_VALIDATION, "to", "The shop's time "
		    "zone changes its offset more than %d times in this "
		    "period: ask for a shorter one.", SEGMENTS_MAX - 1);
	if (p.csv) {
		if ((s.csv = lc_raw(ctx, "text/csv; charset=utf-8")) == NULL)
			return -1;
		snprintf(ctx->raw_name, sizeof(ctx->raw_name),
		    "summary-%s.csv", g);
		s.keys = p.form.keys;
		if (!s.keys)
			fputs(LC_CSV_BOM, s.csv);
		fputs(s.keys ? "key,label" : group_names[s.group], s.csv);
		for (i = 0; lc_figures[i][0] != NULL; i++)
			fprintf(s.csv, ",%s", lc_figures[i][s.keys ? 0 : 1]);
		fputs("\r\n", s.csv);
	} else
		s.rows = json_object_new_array();
	s.exp = p.exp;
	if (s.group == LC_GROUP_DAY)
		rc = summary_days(ctx, seg, nseg, &s);
	else
		rc = lc_db_report(ctx->dom.db, ctx->dom.caller.merchant_id,
		    bucket(p.from_ms), bucket(p.to_ms), 0, s.group,
		    summary_row, &s);
	if (rc == 0)
		rc = lc_db_outstanding(ctx->dom.db, ctx->dom.caller.merchant_id,
		    bucket(p.to_ms), &owed);
	if (rc != 0) {
		json_object_put(s.rows);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	if (p.csv) {
		if (s.keys)
			row_csv(s.csv, "total", "", &s.total, s.exp);
		else
			row_csv(s.csv, NULL, "Total", &s.total, s.exp);
		return 0;
	}
	day_text(p.from_day, from);
	day_text(p.to_day, to);
	ctx->out = json_object_new_object();
	json_object_object_add(ctx->out, "from", json_object_new_string(from));
	json_object_object_add(ctx->out, "to", json_object_new_string(to));
	json_object_object_add(ctx->out, "group", json_object_new_string(g));
	json_object_object_add(ctx->out, "rows", s.rows);
	o = json_object_new_object();
	row_json(o, &s.total, s.exp);
	json_object_object_add(ctx->out, "totals", o);
	json_object_object_add(ctx->out, "outstanding_cashback",
	    lc_json_money_exp(owed, p.exp));
	return 0;
}

static const char lc_txn_csv_head[] = "transaction_id,created_at,"
    "transaction_type,card_instance_id,customer_name,card_type,location_id,"
    "location_name,staff_user_id,staff_name,purchase_amount,punches_added,"
    "cashback_earned,discount_amount,redeemed_amount,reward_name,"
    "pos_reference_id,pos_terminal_id,transaction_notes,client_timestamp,"
    "expired_amount,voided_transaction_id,voided_by_transaction_id,reason,"
    "punches_change,cashback_change,redeemed_change,discount_change\r\n";

/* The spreadsheet's columns: what happened first, ids last. */
static const char *const lc_txn_csv_names[] = { "Date", "Time", "Type",
    "Customer", "Card", "Program", "Location", "Staff", "Amount", "Punches",
    "Cashback earned", "Discount", "Cashback used", "Reward",
    "Cashback expired", "Punches change", "Cashback change",
    "Cashback used change", "Discount change", "Reason", "Notes",
    "POS reference", "Terminal", "Transaction", "Voids transaction",
    "Voided by transaction", NULL };

/* A transaction's type as the back office names it. */
static const char *
type_name(const char *type)
{
	static const char *const names[][2] = { { "punch", "Punch" },
	    { "cashback", "Cashback" }, { "discount", "Discount" },
	    { "reward_claim", "Reward claim" },
	    { "cashback_redeem", "Cashback redeem" }, { "void", "Void" },
	    { "adjustment", "Adjustment" }, { "expiry", "Expiry" } };
	size_t i;

	for (i = 0; type != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(type, names[i][0]) == 0)
			return names[i][1];
	return type;
}

/* Amount and the figures of a transaction, as both forms write them. */
static void
txn_amount(FILE *f, const struct lc_hist_item *it, int exp)
{
	/* A void reverses its sale: summed, the column nets it out. */
	if (it->voided_id != NULL)
		lc_csv_signed(f, -it->purchase_amount, exp, 0);
	else
		lc_csv_money(f, it->purchase_amount, exp, 0);
	if (it->punches_added >= 0)
		lc_csv_int(f, it->punches_added, 0);
	else
		lc_csv_text(f, "", 0);
	lc_csv_money(f, it->cashback_earned, exp, 0);
	lc_csv_money(f, it->discount_amount, exp, 0);
	lc_csv_money(f, it->redeemed_amount, exp, 0);
}

/* A void's or an adjustment's effect on the card, signed (a void of a
 * 0.60 earning: cashback_change -0.60). */
static void
txn_changes(FILE *f, const struct lc_hist_item *it, int exp, int last)
{
	if (it->punches_change == LC_TXN_NONE)
		lc_csv_text(f, "", 0);
	else
		lc_csv_int(f, it->punches_change, 0);
	lc_csv_signed(f, it->cashback_change, exp, 0);
	lc_csv_signed(f, it->redeemed_change, exp, 0);
	lc_csv_signed(f, it->discount_change, exp, last);
}

struct txn_csv {
	FILE *f;
	const struct lc_csv_form *form;
};

static int
txn_row_names(void *arg, const struct lc_txn_row *t)
{
	const struct lc_hist_item *it = &t->it;
	struct txn_csv *tc = arg;
	FILE *f = tc->f;
	int exp = tc->form->exp;

	lc_csv_when(f, tc->form, it->created_at, 0);
	lc_csv_text(f, type_name(it->type), 0);
	lc_csv_text(f, t->customer_name, 0);
	lc_csv_text(f, t->card_barcode, 0);
	lc_csv_text(f, t->card_title, 0);
	lc_csv_text(f, it->location_name, 0);
	/* An expiry is the service's own, as the back office says. */
	lc_csv_text(f, strcmp(it->type, "expiry") == 0 ? "Automatic" :
	    it->staff_name, 0);
	txn_amount(f, it, exp);
	lc_csv_text(f, it->reward_name, 0);
	lc_csv_money(f, it->expired_amount, exp, 0);
	txn_changes(f, it, exp, 0);
	lc_csv_text(f, it->reason, 0);
	lc_csv_text(f, it->notes, 0);
	lc_csv_text(f, it->pos_ref, 0);
	lc_csv_text(f, it->pos_term, 0);
	lc_csv_text(f, it->id, 0);
	lc_csv_text(f, it->voided_id, 0);
	lc_csv_text(f, it->voided_by, 1);
	return ferror(f) ? -2 : 0;
}

static int
txn_row(void *arg, const struct lc_txn_row *t)
{
	const struct lc_hist_item *it = &t->it;
	FILE *f = ((struct txn_csv *)arg)->f;
	int exp = ((struct txn_csv *)arg)->form->exp;
	char when[32];

	lc_time_fmt(it->created_at, when);
	lc_csv_text(f, it->id, 0);
	lc_csv_text(f, when, 0);
	lc_csv_text(f, it->type, 0);
	lc_csv_text(f, t->card_id, 0);
	lc_csv_text(f, t->customer_name, 0);
	lc_csv_text(f, t->card_type, 0);
	lc_csv_text(f, t->location_id, 0);
	lc_csv_text(f, it->location_name, 0);
	lc_csv_text(f, t->staff_user_id, 0);
	lc_csv_text(f, it->staff_name, 0);
	txn_amount(f, it, exp);
	lc_csv_text(f, it->reward_name, 0);
	lc_csv_text(f, it->pos_ref, 0);
	lc_csv_text(f, it->pos_term, 0);
	lc_csv_text(f, it->notes, 0);
	lc_csv_text(f, it->client_ts, 0);
	lc_csv_money(f, it->expired_amount, exp, 0);
	/* A void names its original, a voided transaction its void. */
	lc_csv_text(f, it->voided_id, 0);
	lc_csv_text(f, it->voided_by, 0);
	lc_csv_text(f, it->reason, 0);
	txn_changes(f, it, exp, 1);
	return ferror(f) ? -2 : 0;
}

struct txn_list {
	json_object *a;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
txn_add(void *arg, const struct lc_txn_row *t)
{
	struct txn_list *l = arg;

	lc_fmt_txn_row(l->a, t, l->cur);
	return 0;
}

static int
transactions(struct lc_ctx *ctx)
{
	const char *mid = ctx->dom.caller.merchant_id;
	struct period p;
	int64_t page = 1, size = 100, total;
	struct txn_csv tc;
	struct txn_list l;

	if (period(ctx, &p) == -1 ||
	    lc_q_int(ctx, "page", 1, 1000000000, &page) == -1 ||
	    lc_q_int(ctx, "page_size", 1, LC_TXN_PAGE_MAX, &size) == -1)
		return -1;
	if (p.csv) {
		/* The whole period, row by row from one statement. */
		if ((tc.f = lc_raw(ctx, "text/csv; charset=utf-8")) == NULL)
			return -1;
		tc.form = &p.form;
		snprintf(ctx->raw_name, sizeof(ctx->raw_name),
		    "transactions.csv");
		if (p.form.keys)
			fputs(lc_txn_csv_head, tc.f);
		else
			lc_csv_head(tc.f, &p.form, lc_txn_csv_names);
		if (lc_db_txns(ctx->dom.db, mid, p.from_ms, p.to_ms, -1, 0,
		    p.form.keys ? txn_row : txn_row_names, &tc) != 0)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		return 0;
	}
	if (lc_db_txns_count(ctx->dom.db, mid, p.from_ms, p.to_ms, &total) == -1)
		return -1;
	l.a = json_object_new_array();
	l.cur = &ctx->dom.cur;
	if ((page - 1) * size < total && lc_db_txns(ctx->dom.db, mid, p.from_ms,
	    p.to_ms, size, (page - 1) * size, txn_add, &l) != 0) {
		json_object_put(l.a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = lc_view_one("transactions", l.a);
	json_object_object_add(ctx->out, "pagination",
	    lc_fmt_pagination(page, size, total));
	return 0;
}

int
lc_h_admin_reports(struct lc_ctx *ctx)
{
	if (strcmp(ctx->subpath, "/summary") != 0 &&
	    strcmp(ctx->subpath, "/transactions") != 0)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (!lc_method_is(ctx, "GET"))
		return lc_not_allowed(ctx, "GET");
	/* The figures count what has expired up to now. */
	if (lc_expiry_merchant(&ctx->dom) == -1)
		return -1;
	if (strcmp(ctx->subpath, "/summary") == 0)
		return summary(ctx);
	if (strcmp(ctx->subpath, "/transactions") == 0)
		return transactions(ctx);
	return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
}
