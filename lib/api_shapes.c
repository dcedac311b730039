/*
 * The wire shapes: the one place a rule's result becomes the JSON of an
 * answer. A fresh answer and the one stored under an idempotency key come
 * from the same function here, so a replay is the original to the byte.
 */
#include <string.h>

#include "lc_conf.h"
#include "lc_http.h"

static void
add(json_object *o, const char *k, json_object *v)
{
	json_object_object_add(o, k, v);
}

static json_object *
str(const char *s)
{
	return json_object_new_string(s);
}

static json_object *
num(int64_t v)
{
	return json_object_new_int64(v);
}

/* An amount in the currency cur. */
static json_object *
money(const struct lc_currency *cur, int64_t v)
{
	return lc_json_money_of(cur, v);
}

/* A card's balance fields, by type. */
static void
balance(const struct lc_card *c, json_object *o, const struct lc_currency *cur)
{
	LC_JSON_TYPE_FIELDS(lc_cardtype_or_none(c->program.type)->balance, c, o,
	    cur);
}

/* Lookup: the card as the core shows it (view.c), events alike. */
json_object *
lc_fmt_card(const struct lc_card *c, const struct lc_currency *cur)
{
	return lc_view_card(c, cur);
}

json_object *
lc_fmt_purchase(const struct lc_purchase_result *r,
    const struct lc_currency *cur)
{
	json_object *d = json_object_new_object();

	add(d, "transaction_id", str(r->txn_id));
	add(d, "card_type", str(r->card_type));
	LC_JSON_TYPE_FIELDS(lc_cardtype_or_none(lc_cardtype_id(r->card_type))->purchased, r, d, cur);
	return d;
}

json_object *
lc_fmt_claim(const struct lc_claim_result *r, const struct lc_currency *cur)
{
	json_object *d = json_object_new_object();

	add(d, "transaction_id", str(r->txn_id));
	add(d, "reward_id", str(r->reward.id));
	add(d, "reward_name", str(r->reward.title));
	add(d, "reward_amount", money(cur, r->reward.amount));
	add(d, "earned_at", lc_json_time(r->reward.earned_at));
	add(d, "pending_rewards_remaining", num(r->pending_remaining));
	return d;
}

json_object *
lc_fmt_redeem(const struct lc_redeem_result *r, const struct lc_currency *cur)
{
	json_object *d = json_object_new_object(), *es = json_object_new_array(), *e;
	size_t i;

	add(d, "transaction_id", str(r->txn_id));
	add(d, "redeemed_amount", money(cur, r->redeemed));
	add(d, "new_balance", money(cur, r->new_balance));
	add(d, "final_purchase_amount", money(cur, r->final_amount));
	for (i = 0; i < r->nentries; i++) {
		e = json_object_new_object();
		add(e, "earning_transaction_id", str(r->entries[i].earning_txn_id));
		add(e, "amount_used", money(cur, r->entries[i].amount_used));
		add(e, "earned_at", lc_json_time(r->entries[i].earned_at));
		json_object_array_add(es, e);
	}
	add(d, "redeemed_entries", es);
	if (r->earned)
		add(d, "earned", lc_fmt_purchase(&r->earn, cur));
	return d;
}

json_object *
lc_fmt_tokens(const struct lc_tokens *t)
{
	json_object *o = json_object_new_object();

	add(o, "access_token", str(t->access));
	add(o, "refresh_token", str(t->refresh));
	add(o, "expires_in", num(t->expires_in));
	add(o, "token_type", str("bearer"));
	return o;
}

static json_object *
location(const struct lc_location *l)
{
	json_object *o = json_object_new_object();

	add(o, "id", str(l->id));
	add(o, "name", str(l->name));
	return o;
}

/* The user object: its locations, the first being the active one (none
 * for an owner whose merchant has no location yet). */
json_object *
lc_fmt_user(const struct lc_profile *p)
{
	json_object *u = json_object_new_object(), *locs = json_object_new_array();
	json_object *shop;
	size_t i;

	add(u, "id", str(p->user.id));
	add(u, "email", str(p->user.email));
	/* An addition to the user object: the name for a till's header. */
	add(u, "name", p->user.display_name[0] ? str(p->user.display_name) : NULL);
	add(u, "user_type", str(p->user.is_owner ? "owner" : "system_user"));
	add(u, "merchant_id", str(p->user.merchant_id));
	for (i = 0; i < p->nlocations; i++)
		json_object_array_add(locs, location(&p->locations[i]));
	add(u, "locations", locs);
	add(u, "location", p->nlocations ? location(&p->locations[0]) : NULL);
	/* What the till shows and offers this user. */
	shop = json_object_new_object();
	add(shop, "currency_symbol", str(p->currency_symbol));
	/* The shop's currency (null: none named, two decimals), zone
	 * (null: the fixed utc_offset_minutes) and default language, for
	 * the pages' formatting. */
	add(shop, "currency", p->currency.code[0] != '\0' ?
	    str(p->currency.code) : NULL);
	add(shop, "currency_decimals", num(p->currency.exp));
	add(shop, "time_zone", p->time_zone[0] != '\0' ? str(p->time_zone) :
	    NULL);
	add(shop, "utc_offset_minutes", num(p->utc_offset_minutes));
	add(shop, "language", str(p->language));
	/* The customers' address of the site, so a till shows the same
	 * card link as the QR code and the printed card ("" when unset). */
	add(shop, "public_url", str(p->public_url));
	add(shop, "staff_enrolment", json_object_new_boolean(p->staff_enrolment));
	add(shop, "can_enrol", json_object_new_boolean(p->user.is_owner ||
	    p->staff_enrolment));
	/* Whether and how long the till offers to void a sale. */
	add(shop, "void_window_minutes", num(p->void_window));
	/* Whether a claim or a redemption needs the phone's code, so a
	 * till says so before the cashier types the amounts. */
	add(shop, "card_code_required", json_object_new_boolean(p->card_code));
	add(u, "shop", shop);
	return u;
}

json_object *
lc_fmt_sync_ok(json_object *answer, int idempotent)
{
	json_object *r = json_object_new_object(), *v;

	add(r, "success", json_object_new_boolean(1));
	add(r, "idempotent", json_object_new_boolean(idempotent));
	if (json_object_object_get_ex(answer, "transaction_id", &v))
		add(r, "transaction_id", json_object_get(v));
	if (json_object_object_get_ex(answer, "card_type", &v))
		add(r, "card_type", json_object_get(v));
	return r;
}

json_object *
lc_fmt_sync_error(const struct lc_error *e)
{
	json_object *r = json_object_new_object();

	add(r, "success", json_object_new_boolean(0));
	add(r, "error", str(lc_err_info(e->code)->code));
	add(r, "message", str(lc_error_msg(e)));
	if (e->field[0] != '\0')
		add(r, "field", str(e->field));
	return r;
}

static json_object *
meta(const char *request_id, int64_t now)
{
	json_object *m = json_object_new_object();

	add(m, "request_id", str(request_id));
	add(m, "timestamp", lc_json_time(now));
	return m;
}

json_object *
lc_fmt_envelope(json_object *data, const char *request_id, int64_t now)
{
	json_object *b = json_object_new_object();

	add(b, "success", json_object_new_boolean(1));
	add(b, "data", json_object_get(data));
	add(b, "meta", meta(request_id, now));
	return b;
}

json_object *
lc_fmt_error(const struct lc_error *err, const char *request_id, int64_t now)
{
	json_object *b = json_object_new_object(), *e = json_object_new_object();
	json_object *d;

	add(e, "code", str(lc_err_info(err->code)->code));
	add(e, "message", str(lc_error_msg(err)));
	if (err->field[0] != '\0') {
		d = json_object_new_object();
		add(d, "field", str(err->field));
		add(e, "details", d);
	}
	add(b, "success", json_object_new_boolean(0));
	add(b, "error", e);
	add(b, "meta", meta(request_id, now));
	return b;
}

/* A card's public page, relative to the folder of the tills' page. */
static void
share(const struct lc_card *c, json_object *o)
{
	char page[LC_SHARE_LEN + 16];

	snprintf(page, sizeof(page), "card.html#%s", c->share_token);
	add(o, "share_token", str(c->share_token));
	add(o, "card_page", str(page));
}

json_object *
lc_fmt_issued(const struct lc_card *c)
{
	json_object *o = json_object_new_object();

	add(o, "card_instance_id", str(c->id));
	add(o, "barcode_value", str(c->barcode));
	add(o, "qr_code_data", str(c->qr));
	share(c, o);
	return o;
}

json_object *
lc_fmt_enrolled(const struct lc_card *c)
{
	json_object *o = json_object_new_object();

	add(o, "card_instance_id", str(c->id));
	add(o, "program_id", str(c->program.id));
	add(o, "card_type", str(lc_cardtype_or_none(c->program.type)->name));
	add(o, "card_title", str(c->program.title));
	add(o, "customer_name", str(c->customer_name));
	add(o, "status", str(c->status));
	add(o, "qr_code_data", str(c->qr));
	add(o, "barcode_value", str(c->barcode));
	share(c, o);
	return o;
}

/* A program a cashier may issue a card of: what tells them apart. */
json_object *
lc_fmt_enrol_program(const struct lc_program *p)
{
	json_object *o = json_object_new_object();

	add(o, "id", str(p->id));
	add(o, "title", str(p->title));
	add(o, "card_type", str(lc_cardtype_or_none(p->type)->name));
	/* No amount among them (enrolment shows no money): no currency. */
	LC_JSON_TYPE_FIELDS(lc_cardtype_or_none(p->type)->enrol_program, p, o,
	    NULL);
	return o;
}

/*
 * A card as its customer sees it on their own page: the shop's and the
 * program's names, the codes to show at the till, the balance; nothing
 * of the shop's people, places, other cards or history.
 */
json_object *
lc_fmt_mycard(const struct lc_card *c, const struct lc_currency *cur,
    const char *symbol, int64_t updated_at, int64_t qr_changes_at)
{
	const struct lc_cardtype *ct = lc_cardtype_or_none(c->program.type);
	json_object *d = json_object_new_object(), *bal = json_object_new_object();

	add(d, "merchant_name", str(c->merchant_name));
	add(d, "card_title", str(c->program.title));
	add(d, "card_type", str(ct->name));
	add(d, "customer_name", str(c->customer_name));
	add(d, "status", str(c->status));
	add(d, "qr_code_data", str(c->qr));
	add(d, "barcode_value", str(c->barcode));
	add(d, "currency_symbol", str(symbol));
	/* What the amounts are in: the page formats them by it. */
	add(d, "currency", cur != NULL && cur->code[0] != '\0' ?
	    str(cur->code) : NULL);
	add(d, "currency_decimals", num(lc_currency_exp(cur)));
	balance(c, bal, cur);
	add(d, "balance", bal);
	LC_JSON_TYPE_FIELDS(ct->mycard, c, d, cur);
	add(d, "updated_at", lc_json_time(updated_at));
	add(d, "card_code_required", json_object_new_boolean(qr_changes_at > 0));
	add(d, "qr_changes_at", qr_changes_at > 0 ? lc_json_time(qr_changes_at) :
	    NULL);
	return d;
}

json_object *
lc_fmt_redrawn(const struct lc_card *c, const char *link)
{
	json_object *o = json_object_new_object();

	share(c, o);
	add(o, "link", link != NULL ? str(link) : NULL);
	return o;
}

/* The owner's objects. */

json_object *
lc_fmt_owner_card(const struct lc_card *c, const struct lc_currency *cur)
{
	json_object *o = lc_fmt_card(c, cur);

	add(o, "program_id", str(c->program.id));
	add(o, "barcode_value", str(c->barcode));
	add(o, "qr_code_data", str(c->qr));
	add(o, "created_at", lc_json_time(c->created_at));
	share(c, o);
	return o;
}

json_object *
lc_fmt_pagination(int64_t page, int64_t size, int64_t total)
{
	json_object *o = json_object_new_object();

	add(o, "page", num(page));
	add(o, "page_size", num(size));
	add(o, "total_count", num(total));
	add(o, "total_pages", num((total + size - 1) / size));
	return o;
}

/* One key holding one value: {"location": {...}}. */
void
lc_fmt_idempotent(struct lc_ctx *ctx, int rc)
{
	add(ctx->out, "idempotent", json_object_new_boolean(rc == 1));
}

void
lc_fmt_balance(const struct lc_card *c, json_object *o,
    const struct lc_currency *cur)
{
	balance(c, o, cur);
}

/* A void: what it undid, what it gave back, and the card after. */
json_object *
lc_fmt_void(const struct lc_void_result *r, const struct lc_currency *cur)
{
	json_object *d = json_object_new_object(), *bal = json_object_new_object();
	const struct lc_cardtype *ct = lc_cardtype_or_none(r->card.program.type);
	json_object *also;
	const char *t = r->voided_type;

	add(d, "transaction_id", str(r->txn_id));
	add(d, "voided_transaction_id", str(r->voided_id));
	add(d, "voided_type", str(t));
	add(d, "card_instance_id", str(r->card.id));
	add(d, "card_type", str(ct->name));
	if (strcmp(t, "reward_claim") == 0) {
		add(d, "reward_id", str(r->reward_id));
	} else if (strcmp(t, "cashback_redeem") == 0) {
		add(d, "cashback_returned", money(cur, r->cashback_returned));
		/* Of earnings whose purchase was voided since. */
		add(d, "cashback_not_returned",
		    money(cur, r->cashback_not_returned));
	}
	/* A purchase's type is its card type's name; a redemption's
	 * earn-on-remainder purchase went with it. */
	if (strcmp(t, ct->name) == 0 || r->also_txn_id[0] != '\0')
		LC_JSON_TYPE_FIELDS(ct->voided, r, d, cur);
	also = NULL;
	if (r->also_txn_id[0] != '\0') {
		also = json_object_new_object();
		add(also, "transaction_id", str(r->also_txn_id));
		add(also, "voided_transaction_id", str(r->also_voided_id));
	}
	add(d, "earned_voided", also);
	balance(&r->card, bal, cur);
	add(d, "balance", bal);
	return d;
}

json_object *
lc_fmt_adjust(const struct lc_adjust_result *r, const struct lc_currency *cur)
{
	json_object *d = json_object_new_object(), *bal = json_object_new_object();

	add(d, "transaction_id", str(r->txn_id));
	add(d, "card_instance_id", str(r->card.id));
	add(d, "card_type", str(lc_cardtype_or_none(r->card.program.type)->name));
	LC_JSON_TYPE_FIELDS(lc_cardtype_or_none(r->card.program.type)->adjusted, r, d,
	    cur);
	balance(&r->card, bal, cur);
	add(d, "balance", bal);
	return d;
}

void
lc_fmt_hist_extra(json_object *o, const struct lc_hist_item *it,
    const struct lc_currency *cur)
{
	int is_void = it->voided_id != NULL;

	if (it->voided_by != NULL) {
		add(o, "voided", json_object_new_boolean(1));
		add(o, "voided_by_transaction_id", str(it->voided_by));
	}
	if (is_void)
		add(o, "voided_transaction_id", str(it->voided_id));
	if (it->reason != NULL)
		add(o, "reason", str(it->reason));
	if (is_void) {
		/* What it took back or gave back, as amounts of its own. */
		if (it->punches_change != LC_TXN_NONE)
			add(o, "punches_removed", num(-it->punches_change));
		if (it->cashback_change != LC_TXN_NONE)
			add(o, "cashback_removed",
			    money(cur, -it->cashback_change));
		if (it->redeemed_change != LC_TXN_NONE)
			add(o, "cashback_returned",
			    money(cur, -it->redeemed_change));
		if (it->discount_change != LC_TXN_NONE)
			add(o, "discount_voided",
			    money(cur, -it->discount_change));
		return;
	}
	/* An adjustment: signed. */
	if (it->punches_change != LC_TXN_NONE)
		add(o, "punches_adjusted", num(it->punches_change));
	if (it->cashback_change != LC_TXN_NONE)
		add(o, "cashback_adjusted", money(cur, it->cashback_change));
}

/* A row of the merchant's transaction lists (the owner's, a till's
 * voidable ones), added to array a. */
void
lc_fmt_txn_row(json_object *a, const struct lc_txn_row *t,
    const struct lc_currency *cur)
{
	const struct lc_hist_item *it = &t->it;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "transaction_id", lc_json_str_or_null(it->id));
	json_object_object_add(o, "transaction_type",
	    lc_json_str_or_null(it->type));
	json_object_object_add(o, "created_at", lc_json_time(it->created_at));
	json_object_object_add(o, "card_instance_id",
	    lc_json_str_or_null(t->card_id));
	json_object_object_add(o, "customer_name",
	    lc_json_str_or_null(t->customer_name));
	json_object_object_add(o, "card_type", lc_json_str_or_null(t->card_type));
	json_object_object_add(o, "card_title",
	    lc_json_str_or_null(t->card_title));
	json_object_object_add(o, "location_id",
	    lc_json_str_or_null(t->location_id));
	json_object_object_add(o, "location_name",
	    lc_json_str_or_null(it->location_name));
	json_object_object_add(o, "staff_user_id",
	    lc_json_str_or_null(t->staff_user_id));
	json_object_object_add(o, "staff_name",
	    lc_json_str_or_null(it->staff_name));
	json_object_object_add(o, "purchase_amount",
	    money(cur, it->purchase_amount));
	if (it->punches_added >= 0)
		json_object_object_add(o, "punches_added",
		    json_object_new_int64(it->punches_added));
	if (it->cashback_earned >= 0)
		json_object_object_add(o, "cashback_earned",
		    money(cur, it->cashback_earned));
	if (it->discount_amount >= 0)
		json_object_object_add(o, "discount_amount",
		    money(cur, it->discount_amount));
	if (it->redeemed_amount >= 0)
		json_object_object_add(o, "redeemed_amount",
		    money(cur, it->redeemed_amount));
	if (it->expired_amount >= 0)
		json_object_object_add(o, "expired_amount",
		    money(cur, it->expired_amount));
	if (it->reward_name != NULL)
		json_object_object_add(o, "reward_name",
		    json_object_new_string(it->reward_name));
	if (it->pos_ref != NULL)
		json_object_object_add(o, "pos_reference_id",
		    json_object_new_string(it->pos_ref));
	if (it->pos_term != NULL)
		json_object_object_add(o, "pos_terminal_id",
		    json_object_new_string(it->pos_term));
	if (it->notes != NULL)
		json_object_object_add(o, "transaction_notes",
		    json_object_new_string(it->notes));
	if (it->client_ts != NULL)
		json_object_object_add(o, "client_timestamp",
		    json_object_new_string(it->client_ts));
	lc_fmt_hist_extra(o, it, cur);
	json_object_array_add(a, o);
}

json_object *
lc_fmt_hosting(int flags)
{
	static const struct {
		int flag;
		const char *name;
	} w[] = {
		{ LC_HOST_SHARED_USER, "shared_web_user" },
		{ LC_HOST_DATA_WRITABLE, "data_folder_writable_by_all" },
		{ LC_HOST_DATA_READABLE, "database_readable_by_all" },
	};
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (flags & w[i].flag)
			json_object_array_add(a, str(w[i].name));
	add(o, "warnings", a);
	return o;
}
