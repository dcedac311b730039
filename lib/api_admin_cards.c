/*
 * /api/v1/admin/cards: the owner's cards. GET lists and searches, POST
 * issues one or many, named or not (a box of cards to hand out), GET and PATCH /{id} show one or rename its customer
 * and (de)activate it, GET /{id}/qr.svg and /{id}/barcode.svg draw it to
 * scan, GET /sheet makes a printable A4 sheet of cards, POST /{id}/adjust
 * corrects its punches or cashback (rule_adjust.c), POST /{id}/redraw
 * gives it a new share token: its old link is refused at once.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"


struct card_write {
	const char *program_id;
	const char *names[LC_ISSUE_MAX];
	size_t n;
	struct lc_card cards[LC_ISSUE_MAX];
	/* PATCH */
	const char *id, *name;
	int active;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
issue_rule(struct lc_dom *dom, void *arg)
{
	struct card_write *cw = arg;
	char id[LC_ID_LEN + 1];
	size_t i;

	if (lc_shop_cards_issue(dom, cw->program_id, cw->names, cw->n,
	    cw->cards) == -1)
		return -1;
	/* Read back whole: status, program and balance as any card. */
	for (i = 0; i < cw->n; i++) {
		memcpy(id, cw->cards[i].id, sizeof(id));
		if (lc_card_get(dom, LC_CARDKEY_ID, id, &cw->cards[i]) != 1)
			return dom->err.code != LC_OK ? -1 :
			    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	return 0;
}

static json_object *
issue_answer(void *arg)
{
	struct card_write *cw = arg;
	json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < cw->n; i++)
		json_object_array_add(a, lc_fmt_owner_card(&cw->cards[i],
		    cw->cur));
	return lc_view_one("cards", a);
}

static int
update_rule(struct lc_dom *dom, void *arg)
{
	struct card_write *cw = arg;

	return lc_shop_card_update(dom, cw->id, cw->name, cw->active,
	    &cw->cards[0]);
}

static int
redraw_rule(struct lc_dom *dom, void *arg)
{
	struct card_write *cw = arg;

	return lc_card_redraw(dom, cw->id, &cw->cards[0]);
}

static json_object *
one_answer(void *arg)
{
	struct card_write *cw = arg;

	return lc_view_one("card", lc_fmt_owner_card(&cw->cards[0], cw->cur));
}

/*
 * customer_name (one card), customer_names (one each) or count (that many
 * without a name): one of them. None is 400 on customer_name, as in v1: a
 * card without a name is asked for by count, never by a name forgotten.
 */
static int
issue(struct lc_ctx *ctx, struct card_write *cw)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_write w = { "card_issue", NULL, issue_rule, issue_answer, cw,
	    "card.issue", "card", NULL };
	json_object *a, *v;
	int64_t count = 1;
	size_t i;
	int has_count, has_names, rc;

	if (lc_in_str(e, ctx->in, "program_id", 1, LC_REF_MAX,
	    &cw->program_id) == -1 ||
	    lc_in_str(e, ctx->in, "customer_name", 0, LC_NAME_MAX,
	    &cw->names[0]) == -1 ||
	    lc_in_int(e, ctx->in, "count", 0, 1, LC_ISSUE_MAX, &count,
	    &has_count) == -1 ||
	    lc_in_key(e, ctx->in, 0, &w.key) == -1)
		return -1;
	has_names = json_object_object_get_ex(ctx->in, "customer_names", &a) &&
	    a != NULL;
	if (has_count && (cw->names[0] != NULL || has_names))
		return lc_fail(ctx, LC_E_VALIDATION, "count",
		    "Send count (cards without a name) or customer_name(s), "
		    "not both.");
	if (!has_count && cw->names[0] == NULL && !has_names)
		return lc_fail(ctx, LC_E_VALIDATION, "customer_name",
		    "customer_name is required (or customer_names, or count "
		    "for cards without a name)");
	/* Sent, a name of 1 character at least. */
	if (cw->names[0] != NULL && *cw->names[0] == '\0')
		return lc_fail(ctx, LC_E_VALIDATION, "customer_name",
		    "customer_name must not be empty (send count for a card "
		    "without a name)");
	cw->n = (size_t)count;
	if (has_names) {
		if (cw->names[0] != NULL)
			return lc_fail(ctx, LC_E_VALIDATION, "customer_names",
			    "Send customer_name or customer_names, not both.");
		if (!json_object_is_type(a, json_type_array) ||
		    (cw->n = json_object_array_length(a)) < 1 ||
		    cw->n > LC_ISSUE_MAX)
			return lc_fail(ctx, LC_E_VALIDATION, "customer_names",
			    "customer_names must be an array of 1 to %d names",
			    LC_ISSUE_MAX);
		for (i = 0; i < cw->n; i++) {
			v = json_object_array_get_idx(a, i);
			if (!json_object_is_type(v, json_type_string) ||
			    lc_text_check(e, "customer_names",
			    json_object_get_string(v), LC_NAME_MAX, 0) == -1)
				return lc_fail(ctx, LC_E_VALIDATION,
				    "customer_names", "customer_names must "
				    "hold names of 1 to %d characters",
				    LC_NAME_MAX);
			cw->names[i] = json_object_get_string(v);
		}
	}
	if ((rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}

struct list {
	json_object *a;
	const struct lc_currency *cur;
};

static int
list_one(void *arg, const struct lc_card *c)
{
	struct list *l = arg;

	json_object_array_add(l->a, lc_fmt_owner_card(c, l->cur));
	return 0;
}

static int
list(struct lc_ctx *ctx)
{
	char q[LC_REF_MAX + 1], prog[LC_REF_MAX + 1], status[16];
	struct lc_card_query cq;
	int64_t page = 1, size = 20, total;
	struct list l;
	int rc;

	memset(&cq, 0, sizeof(cq));
	cq.merchant_id = ctx->dom.caller.merchant_id;
	if ((rc = lc_q_str(ctx, "q", q, sizeof(q))) == -1)
		return -1;
	cq.q = rc == 1 ? q : NULL;
	if ((rc = lc_q_str(ctx, "program_id", prog, sizeof(prog))) == -1)
		return -1;
	cq.program_id = rc == 1 ? prog : NULL;
	if ((rc = lc_q_str(ctx, "status", status, sizeof(status))) == -1)
		return -1;
	if (rc == 1 && strcmp(status, "active") != 0 &&
	    strcmp(status, "inactive") != 0)
		return lc_fail(ctx, LC_E_VALIDATION, "status",
		    "status must be active or inactive");
	cq.status = rc == 1 ? status : NULL;
	if (lc_q_int(ctx, "page", 1, 1000000000, &page) == -1 ||
	    lc_q_int(ctx, "page_size", 1, LC_CARDS_PAGE_MAX, &size) == -1)
		return -1;
	cq.limit = size;
	cq.offset = (page - 1) * size;
	/* The balances shown are after what has expired. */
	if (lc_expiry_merchant(&ctx->dom) == -1)
		return -1;
	if (lc_db_cards_count(ctx->dom.db, &cq, &total) == -1)
		return -1;
	l.a = json_object_new_array();
	l.cur = &ctx->dom.cur;
	if (cq.offset < total && lc_db_cards(ctx->dom.db, &cq, list_one,
	    &l) != 0) {
		json_object_put(l.a);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	ctx->out = lc_view_one("cards", l.a);
	json_object_object_add(ctx->out, "pagination",
	    lc_fmt_pagination(page, size, total));
	return 0;
}

struct sheet {
	struct lc_card *cards;
	size_t n;
};

static int
sheet_one(void *arg, const struct lc_card *c)
{
	struct sheet *sh = arg;

	if (sh->n < LC_SHEET_MAX)
		sh->cards[sh->n++] = *c;
	return 0;
}

/* The cards of ?ids=ID,ID,... (in that order) or of ?program_id= (a
 * page of LC_SHEET_MAX, newest first), as a printable sheet. */
static int
sheet(struct lc_ctx *ctx)
{
	/* Room for one id more than a sheet takes: too many is said so. */
	char ids[(LC_SHEET_MAX + 2) * (LC_ID_LEN + 1) + 1], prog[LC_REF_MAX + 1];
	char shop[LC_BYTES(LC_NAME_MAX)], base[LC_BYTES(LC_URL_MAX)], *p, *comma;
	struct lc_card_query cq;
	struct sheet sh = { NULL, 0 };
	int64_t page = 1;
	FILE *f;
	int rc, rp, ret = -1;

	if ((rc = lc_q_str(ctx, "ids", ids, sizeof(ids))) == -1 ||
	    (rp = lc_q_str(ctx, "program_id", prog, sizeof(prog))) == -1 ||
	    lc_q_int(ctx, "page", 1, 1000000000, &page) == -1)
		return -1;
	if ((rc == 1) == (rp == 1))
		return lc_fail(ctx, LC_E_VALIDATION, "ids",
		    "Send ids (up to %d, comma-separated) or program_id.",
		    LC_SHEET_MAX);
	if ((sh.cards = calloc(LC_SHEET_MAX, sizeof(*sh.cards))) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if (rc == 1) {
		for (p = ids; p != NULL; p = comma) {
			if ((comma = strchr(p, ',')) != NULL)
				*comma++ = '\0';
			if ((rc = lc_card_get(&ctx->dom, LC_CARDKEY_ID, p,
			    &sh.cards[sh.n])) == -1)
				goto out;
			if (rc == 0) {
				lc_fail(ctx, LC_E_NOT_FOUND, "ids",
				    "No such card: %.40s.", p);
				goto out;
			}
			if (++sh.n == LC_SHEET_MAX && comma != NULL) {
				lc_fail(ctx, LC_E_VALIDATION, "ids",
				    "At most %d cards a sheet.", LC_SHEET_MAX);
				goto out;
			}
		}
	} else {
		if (lc_shop_program(&ctx->dom, prog, &sh.cards[0].program) == -1) {
			snprintf(ctx->dom.err.field, sizeof(ctx->dom.err.field),
			    "program_id");
			goto out;
		}
		memset(&cq, 0, sizeof(cq));
		cq.merchant_id = ctx->dom.caller.merchant_id;
		cq.program_id = prog;
		cq.limit = LC_SHEET_MAX;
		cq.offset = (page - 1) * LC_SHEET_MAX;
		if (lc_db_cards(ctx->dom.db, &cq, sheet_one, &sh) != 0) {
			lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
			goto out;
		}
	}
	if (lc_db_merchant_name(ctx->dom.db, ctx->dom.caller.merchant_id, shop,
	    sizeof(shop)) != 1) {
		lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		goto out;
	}
	if ((f = lc_raw(ctx, "text/html; charset=utf-8")) == NULL)
		goto out;
	/* The link printed is the shop's own address. */
	if (lc_image_sheet(f, shop, sh.cards, sh.n, lc_setting_shop_text(
	    ctx->dom.db, ctx->dom.caller.merchant_id, LC_SET_PUBLIC_URL, base,
	    sizeof(base))) == -1) {
		lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
		goto out;
	}
	ret = 0;
out:
	free(sh.cards);
	return ret;
}

/* GET /{id}/qr.svg and /{id}/barcode.svg. */
static int
image(struct lc_ctx *ctx, const struct lc_card *c, const char *what)
{
	FILE *f;

	if ((f = lc_raw(ctx, "image/svg+xml")) == NULL)
		return -1;
	if ((strcmp(what, "/qr.svg") == 0 ? lc_image_qr(f, c->qr) :
	    lc_image_barcode(f, c->barcode)) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	return 0;
}

/* A signed amount of money of the currency cur ("-2.50" as -250): 0, or
 * -1 (VALIDATION_ERROR). Absent: *present 0. */
static int
signed_money(struct lc_error *e, json_object *in, const char *name,
    const struct lc_currency *cur, int64_t *minor, int *present)
{
	json_object *v;
	const char *s;
	char max[32], rule[48];
	int exp = lc_currency_exp(cur), neg;

	*present = 0;
	if (!json_object_object_get_ex(in, name, &v) || v == NULL)
		return 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be a number", name);
	/* json-c keeps a parsed number's text: exact, no double rounding. */
	s = json_object_get_string(v);
	if ((neg = *s == '-'))
		s++;
	if (lc_money_parse(s, exp, LC_MONEY_MAX, minor) == -1) {
		lc_money_fmt(LC_MONEY_MAX, exp, max);
		/* The unnamed currency's message is v1's to the byte. */
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be an amount from -%s to %s %s", name, max, max,
		    lc_money_rule(cur, rule, sizeof(rule)));
	}
	if (neg)
		*minor = -*minor;
	*present = 1;
	return 0;
}

struct adjust_write {
	struct lc_adjust q;
	struct lc_adjust_result r;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
adjust_rule(struct lc_dom *dom, void *arg)
{
	struct adjust_write *aw = arg;

	return lc_adjust(dom, &aw->q, &aw->r);
}

static json_object *
adjust_answer(void *arg)
{
	struct adjust_write *aw = arg;

	return lc_fmt_adjust(&aw->r, aw->cur);
}

/* POST /{id}/adjust: punches or cashback_amount, signed, with a reason. */
static int
adjust(struct lc_ctx *ctx, const char *id)
{
	struct lc_error *e = &ctx->dom.err;
	struct adjust_write *aw;
	struct lc_write w = { "adjust", NULL, adjust_rule, adjust_answer, NULL,
	    "card.adjust", "card", id };
	struct lc_adjust *q;
	int has_cash, rc, ret = -1;

	if ((aw = calloc(1, sizeof(*aw))) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	q = &aw->q;
	w.arg = aw;
	aw->cur = &ctx->dom.cur;
	q->card_id = id;
	if (lc_in_int(e, ctx->in, "punches", 0, -LC_PUNCH_ADJUST_MAX,
	    LC_PUNCH_ADJUST_MAX, &q->punches, &q->has_punches) == -1 ||
	    signed_money(e, ctx->in, "cashback_amount", &ctx->dom.cur,
	    &q->cashback, &has_cash) == -1 ||
	    lc_in_str(e, ctx->in, "reason", 1, LC_NOTES_MAX, &q->reason) == -1 ||
	    lc_void_reason_check(e, q->reason) == -1 ||
	    lc_in_str(e, ctx->in, "location_id", 0, LC_REF_MAX,
	    &q->location_id) == -1 ||
	    lc_in_key(e, ctx->in, 0, &q->key) == -1)
		goto out;
	if (q->has_punches == has_cash) {
		lc_fail(ctx, LC_E_VALIDATION, "punches",
		    "Send punches or cashback_amount, one of them.");
		goto out;
	}
	if ((q->has_punches ? q->punches : q->cashback) == 0) {
		lc_fail(ctx, LC_E_VALIDATION, q->has_punches ? "punches" :
		    "cashback_amount", "An adjustment must not be 0.");
		goto out;
	}
	w.key = q->key;
	if ((rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
		goto out;
	lc_fmt_idempotent(ctx, rc);
	ret = 0;
out:
	free(aw);
	return ret;
}

int
lc_h_admin_cards(struct lc_ctx *ctx)
{
	struct card_write *cw;
	struct lc_write w = { NULL, NULL, update_rule, one_answer, NULL,
	    "card.update", "card", NULL };
	struct lc_error *e = &ctx->dom.err;
	char id[LC_ID_LEN + 1];
	const char *rest, *status;
	int rc, ret = -1;

	if (ctx->subpath[0] == '\0' && lc_method_is(ctx, "GET"))
		return list(ctx);
	if (strcmp(ctx->subpath, "/sheet") == 0)
		return lc_method_is(ctx, "GET") ? sheet(ctx) :
		    lc_not_allowed(ctx, "GET");
	/* A hundred cards with their programs: too big for the stack. */
	if ((cw = calloc(1, sizeof(*cw))) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	w.arg = cw;
	cw->cur = &ctx->dom.cur;
	if (ctx->subpath[0] == '\0') {
		ret = !lc_method_is(ctx, "POST") ?
		    lc_not_allowed(ctx, "GET, POST") : lc_body(ctx) == -1 ? -1 :
		    issue(ctx, cw);
		goto out;
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		goto out;
	if (strcmp(rest, "/redraw") == 0) {
		if (!lc_method_is(ctx, "POST")) {
			lc_not_allowed(ctx, "POST");
			goto out;
		}
		/* No body needed; one sent must be a JSON object, and may
		 * carry an idempotency_key: a retry after a lost answer then
		 * gets the link drawn the first time, not another. */
		if (ctx->req.body != NULL && ctx->req.bodylen > 0 &&
		    (lc_body(ctx) == -1 ||
		    lc_in_key(e, ctx->in, 0, &w.key) == -1))
			goto out;
		cw->id = w.object_id = id;
		w.kind = "card_redraw";
		w.rule = redraw_rule;
		w.action = "card.redraw";
		if ((rc = lc_write(&ctx->dom, &w, &ctx->out)) == -1)
			goto out;
		lc_fmt_idempotent(ctx, rc);
		ret = 0;
		goto out;
	}
	if (strcmp(rest, "/adjust") == 0) {
		ret = !lc_method_is(ctx, "POST") ? lc_not_allowed(ctx, "POST") :
		    lc_body(ctx) == -1 ? -1 : adjust(ctx, id);
		goto out;
	}
	if (*rest != '\0') {
		if (strcmp(rest, "/qr.svg") != 0 &&
		    strcmp(rest, "/barcode.svg") != 0) {
			lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
			goto out;
		}
		if (!lc_method_is(ctx, "GET")) {
			lc_not_allowed(ctx, "GET");
			goto out;
		}
		if ((rc = lc_card_get(&ctx->dom, LC_CARDKEY_ID, id,
		    &cw->cards[0])) == 1)
			ret = image(ctx, &cw->cards[0], rest);
		else if (rc == 0)
			lc_fail(ctx, LC_E_NOT_FOUND, NULL, "No such card.");
		goto out;
	}
	if (lc_method_is(ctx, "GET")) {
		if ((rc = lc_card_get(&ctx->dom, LC_CARDKEY_ID, id,
		    &cw->cards[0])) == 1) {
			if (lc_expiry_fresh(&ctx->dom, &cw->cards[0]) == -1)
				goto out;
			ctx->out = one_answer(cw);
			ret = 0;
		} else if (rc == 0)
			lc_fail(ctx, LC_E_NOT_FOUND, NULL, "No such card.");
		goto out;
	}
	if (!lc_method_is(ctx, "PATCH")) {
		lc_not_allowed(ctx, "GET, PATCH");
		goto out;
	}
	if (lc_body(ctx) == -1)
		goto out;
	cw->id = w.object_id = id;
	cw->active = -1;
	if (lc_in_str(e, ctx->in, "customer_name", 0, LC_NAME_MAX,
	    &cw->name) == -1 ||
	    lc_in_str(e, ctx->in, "status", 0, 16, &status) == -1)
		goto out;
	if (status != NULL) {
		if (strcmp(status, "active") != 0 &&
		    strcmp(status, "inactive") != 0) {
			lc_fail(ctx, LC_E_VALIDATION, "status",
			    "status must be active or inactive");
			goto out;
		}
		cw->active = strcmp(status, "active") == 0;
	}
	ret = lc_write(&ctx->dom, &w, &ctx->out) == -1 ? -1 : 0;
out:
	free(cw);
	return ret;
}
