/*
 * /api/v1/admin/programs: the owner's card programs. GET lists, POST
 * adds a punch, cashback or discount program, PATCH /{id} changes its
 * titles, reward, cooldown, tiers or cashback term (from the next
 * purchase on).
 */
#include <string.h>

#include "lc_http.h"

struct prog_write {
	const char *id;
	struct lc_program p;
	struct lc_program_change ch;
	int64_t cards;
	const struct lc_currency *cur;	/* the shop's: dom->cur */
};

static int
add_rule(struct lc_dom *dom, void *arg)
{
	struct prog_write *pw = arg;
	char id[LC_ID_LEN + 1];

	pw->cur = &dom->cur;
	return lc_shop_program_add(dom, &pw->p, id) == -1 ? -1 :
	    lc_shop_program(dom, id, &pw->p);
}

static int
update_rule(struct lc_dom *dom, void *arg)
{
	struct prog_write *pw = arg;
	struct lc_card_query q;

	pw->cur = &dom->cur;
	if (lc_shop_program_update(dom, pw->id, &pw->ch, &pw->p) == -1)
		return -1;
	memset(&q, 0, sizeof(q));
	q.merchant_id = pw->p.merchant_id;
	q.program_id = pw->p.id;
	return lc_db_cards_count(dom->db, &q, &pw->cards) == -1 ?
	    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
}

static json_object *
answer(void *arg)
{
	struct prog_write *pw = arg;

	return lc_view_one("program", lc_view_program(&pw->p, pw->cards,
	    pw->cur));
}

struct list {
	json_object *a;
	const struct lc_currency *cur;
};

static int
list_one(void *arg, const struct lc_program *p, int64_t cards)
{
	struct list *l = arg;

	json_object_array_add(l->a, lc_view_program(p, cards, l->cur));
	return 0;
}

/* "tiers": [{"name", "min_spend", "rate"}] into t: 1 given, 0 absent. */
static int
tiers(struct lc_ctx *ctx, struct lc_tier *t, int *n)
{
	struct lc_error *e = &ctx->dom.err;
	json_object *a, *o;
	const char *name;
	size_t i, len;

	*n = 0;
	if (!json_object_object_get_ex(ctx->in, "tiers", &a) || a == NULL)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    (len = json_object_array_length(a)) < 1 || len > LC_TIERS_MAX)
		return lc_fail(ctx, LC_E_VALIDATION, "tiers",
		    "tiers must be an array of 1 to %d objects", LC_TIERS_MAX);
	for (i = 0; i < len; i++) {
		o = json_object_array_get_idx(a, i);
		if (!json_object_is_type(o, json_type_object))
			return lc_fail(ctx, LC_E_VALIDATION, "tiers",
			    "tiers must be an array of 1 to %d objects",
			    LC_TIERS_MAX);
		if (lc_in_str(e, o, "name", 1, LC_TIER_NAME_MAX, &name) == -1 ||
		    lc_in_money(e, o, "min_spend", 1, &ctx->dom.cur,
		    &t[i].min_spend, NULL) == -1 ||
		    lc_in_rate(e, o, "rate", 1, &t[i].rate_bp, NULL) == -1) {
			/* The array is the field the client sent. */
			snprintf(e->field, sizeof(e->field), "tiers");
			return -1;
		}
		snprintf(t[i].name, sizeof(t[i].name), "%s", name);
	}
	*n = (int)len;
	return 1;
}

/* "expiry_days": 1 to LC_EXPIRY_DAYS_MAX, or null for never (0) into
 * *days; left as it is when absent. 0, or -1. */
static int
expiry_days(struct lc_ctx *ctx, int64_t *days)
{
	json_object *v;

	if (json_object_object_get_ex(ctx->in, "expiry_days", &v) && v == NULL) {
		*days = 0;
		return 0;
	}
	return lc_in_int(&ctx->dom.err, ctx->in, "expiry_days", 0, 1,
	    LC_EXPIRY_DAYS_MAX, days, NULL);
}

static int
copy(struct lc_ctx *ctx, const char *name, size_t max, char *dst, size_t dstsz,
    int required)
{
	const char *s;

	if (lc_in_str(&ctx->dom.err, ctx->in, name, required, max, &s) == -1)
		return -1;
	if (s != NULL)
		snprintf(dst, dstsz, "%s", s);
	return 0;
}

/* The fields of LC_CT_REWARD (a punch program's): refused on a type
 * without them, never ignored (a PATCH's rule refuses the same,
 * lc_shop_program_update). */
static const char *const reward_fields[] = {
	"punch_requirement", "reward_title", "reward_description",
	"reward_amount", "cooldown_seconds", "max_punches_per_purchase", NULL
};

static int
add(struct lc_ctx *ctx, struct prog_write *pw, struct lc_write *w)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_program *p = &pw->p;
	const char *const *f;
	char type[16];
	json_object *v;
	unsigned cols;
	int rc;

	memcpy(p->merchant_id, ctx->dom.caller.merchant_id,
	    sizeof(p->merchant_id));
	p->cooldown_seconds = LC_COOLDOWN_DEFAULT;
	if (copy(ctx, "type", 16, type, sizeof(type), 1) == -1 ||
	    copy(ctx, "title", LC_NAME_MAX, p->title, sizeof(p->title), 1) == -1 ||
	    lc_in_key(e, ctx->in, 0, &w->key) == -1 ||
	    expiry_days(ctx, &p->expiry_days) == -1)
		return -1;
	if ((p->type = lc_cardtype_id(type)) == LC_CT__MAX)
		return lc_fail(ctx, LC_E_VALIDATION, "type",
		    "type must be %s", lc_cardtype_names());
	/* The fields of the groups its type uses (LC_CT_*), each group
	 * refused on a type without it. */
	cols = lc_cardtype_cols(p->type);
	if (cols & LC_CT_REWARD) {
		if (lc_in_int(e, ctx->in, "punch_requirement", 1, 1,
		    LC_PUNCHES_MAX, &p->punch_requirement, NULL) == -1 ||
		    copy(ctx, "reward_title", LC_NAME_MAX, p->reward_title,
		    sizeof(p->reward_title), 1) == -1 ||
		    copy(ctx, "reward_description", LC_DESC_MAX,
		    p->reward_description, sizeof(p->reward_description),
		    0) == -1 ||
		    lc_in_money(e, ctx->in, "reward_amount", 0, &ctx->dom.cur,
		    &p->reward_amount, NULL) == -1 ||
		    lc_in_int(e, ctx->in, "cooldown_seconds", 0, 0,
		    LC_COOLDOWN_MAX, &p->cooldown_seconds, NULL) == -1 ||
		    lc_in_int(e, ctx->in, "max_punches_per_purchase", 0, 1,
		    LC_PUNCH_COUNT_MAX, &p->max_punches, NULL) == -1)
			return -1;
	} else {
		/* null counts as absent, as everywhere. */
		for (f = reward_fields; *f != NULL; f++)
			if (json_object_object_get_ex(ctx->in, *f, &v) &&
			    v != NULL)
				return lc_fail(ctx, LC_E_VALIDATION, *f,
				    "Only a punch program has a reward, a "
				    "cooldown and a cap of punches.");
	}
	if (cols & LC_CT_TIERS) {
		if ((rc = tiers(ctx, p->tiers, &p->ntiers)) <= 0)
			return rc == -1 ? -1 : lc_fail(ctx, LC_E_VALIDATION,
			    "tiers", "A %s program needs its tiers.", type);
	} else if (json_object_object_get_ex(ctx->in, "tiers", &v) &&
	    v != NULL)
		/* null counts as absent, as everywhere. */
		return lc_fail(ctx, LC_E_VALIDATION, "tiers",
		    "A %s program has no tiers.", type);
	if ((rc = lc_write(&ctx->dom, w, &ctx->out)) == -1)
		return -1;
	lc_fmt_idempotent(ctx, rc);
	return 0;
}

static int
update(struct lc_ctx *ctx, struct prog_write *pw, struct lc_write *w)
{
	struct lc_error *e = &ctx->dom.err;
	struct lc_program_change *ch = &pw->ch;
	int has;

	json_object *cap;

	ch->reward_amount = ch->cooldown_seconds = ch->max_punches = -1;
	ch->expiry_days = -1;
	if (lc_in_str(e, ctx->in, "title", 0, LC_NAME_MAX, &ch->title) == -1 ||
	    lc_in_str(e, ctx->in, "reward_title", 0, LC_NAME_MAX,
	    &ch->reward_title) == -1 ||
	    lc_in_str(e, ctx->in, "reward_description", 0, LC_DESC_MAX,
	    &ch->reward_description) == -1 ||
	    lc_in_money(e, ctx->in, "reward_amount", 0, &ctx->dom.cur,
	    &ch->reward_amount, &has) == -1 ||
	    lc_in_int(e, ctx->in, "cooldown_seconds", 0, 0, LC_COOLDOWN_MAX,
	    &ch->cooldown_seconds, NULL) == -1 ||
	    lc_in_int(e, ctx->in, "max_punches_per_purchase", 0, 1,
	    LC_PUNCH_COUNT_MAX, &ch->max_punches, NULL) == -1 ||
	    tiers(ctx, ch->tiers, &ch->ntiers) == -1 ||
	    expiry_days(ctx, &ch->expiry_days) == -1)
		return -1;
	/* null lifts the cap. */
	if (json_object_object_get_ex(ctx->in, "max_punches_per_purchase",
	    &cap) && cap == NULL)
		ch->max_punches = 0;
	if (!has)
		ch->reward_amount = -1;
	if (json_object_object_get_ex(ctx->in, "type", NULL) ||
	    json_object_object_get_ex(ctx->in, "punch_requirement", NULL))
		return lc_fail(ctx, LC_E_VALIDATION,
		    json_object_object_get_ex(ctx->in, "type", NULL) ? "type" :
		    "punch_requirement",
		    "A program's type and punch requirement cannot change; "
		    "make a new program.");
	w->kind = NULL;
	w->rule = update_rule;
	w->action = "program.update";
	w->object_id = pw->id;
	return lc_write(&ctx->dom, w, &ctx->out) == -1 ? -1 : 0;
}

int
lc_h_admin_programs(struct lc_ctx *ctx)
{
	struct prog_write pw;
	struct lc_write w = { "program_add", NULL, add_rule, answer, &pw,
	    "program.create", "program", NULL };
	char id[LC_ID_LEN + 1];
	const char *rest;
	struct list l;

	memset(&pw, 0, sizeof(pw));
	if (ctx->subpath[0] == '\0') {
		if (lc_method_is(ctx, "GET")) {
			l.a = json_object_new_array();
			l.cur = &ctx->dom.cur;
			if (lc_db_programs(ctx->dom.db,
			    ctx->dom.caller.merchant_id, list_one, &l) != 0) {
				json_object_put(l.a);
				return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
			}
			ctx->out = lc_view_one("programs", l.a);
			return 0;
		}
		if (!lc_method_is(ctx, "POST"))
			return lc_not_allowed(ctx, "GET, POST");
		return lc_body(ctx) == -1 ? -1 : add(ctx, &pw, &w);
	}
	if (lc_path_id(ctx, id, &rest) == -1)
		return -1;
	if (*rest != '\0')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	if (!lc_method_is(ctx, "PATCH"))
		return lc_not_allowed(ctx, "PATCH");
	pw.id = id;
	return lc_body(ctx) == -1 ? -1 : update(ctx, &pw, &w);
}
