/*
 * The outbox: each write's events, added inside its own transaction by
 * the write path (write.c) just before its audit row, so an event exists
 * if and only if its change committed, once: a replayed key runs no rule
 * and adds none, a write that rolls back takes its events with it. What
 * an event says comes from what the write declared (its audit action),
 * the answer it built (the same object the API returned for the change)
 * and what the rules noted on the way (dom->ev): the cards read, saved,
 * issued or changed, expiries and rewards. Each card event carries the
 * card after the write as a lookup shows it (lc_view_card), never a
 * share link, QR payload, barcode or code secret.
 *
 * Order inside one write, card by card: its own event (and a
 * redemption's earn on the remainder), then the expiries recorded on the
 * way, the rewards earned, the tier changed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

/* Every type an event of the feed may have. */
static const char *const types[] = {
	"transaction.recorded", "reward.earned", "reward.claimed",
	"cashback.redeemed", "transaction.voided", "card.adjusted",
	"cashback.expired", "card.enrolled", "card.issued", "card.updated",
	"tier.changed", NULL
};

int
lc_event_type_known(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && types[i] != NULL; i++)
		if (strcmp(types[i], name) == 0)
			return 1;
	return 0;
}

const char *
lc_event_type_at(size_t i)
{
	return i < sizeof(types) / sizeof(types[0]) ? types[i] : NULL;
}

void
lc_event_id(int64_t seq, char *out)
{
	snprintf(out, LC_EVENT_ID_LEN + 1, "evt_%016" PRId64, seq);
}

int
lc_event_id_parse(const char *id, int64_t *seq)
{
	int64_t v = 0;
	int i;

	if (id == NULL || strlen(id) != LC_EVENT_ID_LEN ||
	    strncmp(id, "evt_", 4) != 0)
		return -1;
	for (i = 4; i < LC_EVENT_ID_LEN; i++) {
		if (id[i] < '0' || id[i] > '9')
			return -1;
		/* 16 digits fit in an int64_t. */
		v = v * 10 + (id[i] - '0');
	}
	if (v < 1)
		return -1;
	*seq = v;
	return 0;
}

json_object *
lc_event_object(int64_t seq, const char *type, int64_t created_at,
    const char *merchant_id, const char *data)
{
	json_object *o, *d;
	char id[LC_EVENT_ID_LEN + 1];

	if ((d = lc_json_parse(data, strlen(data))) == NULL)
		return NULL;
	lc_event_id(seq, id);
	o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "created_at", lc_json_time(created_at));
	json_object_object_add(o, "merchant_id",
	    json_object_new_string(merchant_id));
	json_object_object_add(o, "data", d);
	return o;
}

/* What the running write did to one card. */
struct lc_ev_card {
	char id[LC_ID_LEN + 1];
	int seen;		/* read: tier is its tier before */
	char tier[LC_BYTES(LC_TIER_NAME_MAX)];
	int saved, issued;
	int name_changed, status_changed;
	int64_t rewards;	/* earned */
};

/* An earning expired on the way. */
struct lc_ev_expiry {
	size_t card;		/* index in cards */
	char txn_id[LC_ID_LEN + 1];
	int64_t amount;
};

/* Grows *arr of *n (*a allocated) by one: the new one, zeroed; NULL
 * (ev->broken set) when out of memory. */
static void *
grow(struct lc_evtrack *ev, void **arr, size_t *n, size_t *a, size_t size)
{
	void *p;
	size_t na;

	if (*n == *a) {
		na = *a ? *a * 2 : 4;
		if ((p = realloc(*arr, na * size)) == NULL) {
			ev->broken = 1;
			return NULL;
		}
		*arr = p;
		*a = na;
	}
	p = (char *)*arr + *n * size;
	memset(p, 0, size);
	(*n)++;
	return p;
}

/* The card's record, added at its first note; NULL outside a write or
 * when out of memory. */
static struct lc_ev_card *
card_of(struct lc_dom *dom, const struct lc_card *c, size_t *idx)
{
	struct lc_evtrack *ev = &dom->ev;
	struct lc_ev_card *k;
	size_t i;

	if (!ev->on || ev->broken)
		return NULL;
	for (i = 0; i < ev->ncards; i++)
		if (strcmp(ev->cards[i].id, c->id) == 0)
			break;
	if (i == ev->ncards) {
		if ((k = grow(ev, (void **)&ev->cards, &ev->ncards,
		    &ev->acards, sizeof(*k))) == NULL)
			return NULL;
		snprintf(k->id, sizeof(k->id), "%s", c->id);
	}
	if (idx != NULL)
		*idx = i;
	return &ev->cards[i];
}

void
lc_event_seen(struct lc_dom *dom, const struct lc_card *c)
{
	struct lc_ev_card *k;

	/* The first read is the card as the write found it. */
	if ((k = card_of(dom, c, NULL)) != NULL && !k->seen && !k->saved) {
		k->seen = 1;
		snprintf(k->tier, sizeof(k->tier), "%s", lc_card_tier_name(c));
	}
}

void
lc_event_saved(struct lc_dom *dom, const struct lc_card *c)
{
	struct lc_ev_card *k;

	if ((k = card_of(dom, c, NULL)) != NULL)
		k->saved = 1;
}

void
lc_event_issued(struct lc_dom *dom, const struct lc_card *c)
{
	struct lc_ev_card *k;

	if ((k = card_of(dom, c, NULL)) != NULL)
		k->issued = 1;
}

void
lc_event_changed(struct lc_dom *dom, const struct lc_card *c,
    const char *field)
{
	struct lc_ev_card *k;

	if ((k = card_of(dom, c, NULL)) == NULL)
		return;
	if (strcmp(field, "customer_name") == 0)
		k->name_changed = 1;
	else
		k->status_changed = 1;
}

void
lc_event_expired(struct lc_dom *dom, const struct lc_card *c,
    const char *txn_id, int64_t amount)
{
	struct lc_evtrack *ev = &dom->ev;
	struct lc_ev_expiry *x;
	size_t idx;

	if (card_of(dom, c, &idx) == NULL || (x = grow(ev, (void **)&ev->exp,
	    &ev->nexp, &ev->aexp, sizeof(*x))) == NULL)
		return;
	x->card = idx;
	snprintf(x->txn_id, sizeof(x->txn_id), "%s", txn_id);
	x->amount = amount;
}

void
lc_event_rewards(struct lc_dom *dom, const struct lc_card *c, int64_t n)
{
	struct lc_ev_card *k;

	if ((k = card_of(dom, c, NULL)) != NULL)
		k->rewards += n;
}

void
lc_event_txn(struct lc_dom *dom, const struct lc_txn *t)
{
	struct lc_evtrack *ev = &dom->ev;

	if (!ev->on || ev->have_txn)
		return;
	ev->have_txn = 1;
	snprintf(ev->location_id, sizeof(ev->location_id), "%s",
	    t->location_id != NULL ? t->location_id : "");
	snprintf(ev->staff_user_id, sizeof(ev->staff_user_id), "%s",
	    t->staff_user_id != NULL ? t->staff_user_id : "");
}

void
lc_event_reset(struct lc_dom *dom, int on)
{
	free(dom->ev.cards);
	free(dom->ev.exp);
	memset(&dom->ev, 0, sizeof(dom->ev));
	dom->ev.on = on;
}

/* The write's own event, by its audit action. */
enum own {
	OWN_NONE, OWN_PURCHASE, OWN_SYNC, OWN_CLAIM, OWN_REDEEM, OWN_VOID,
	OWN_ADJUST, OWN_ENROL, OWN_ISSUE, OWN_UPDATE
};

static enum own
own_of(const char *action)
{
	static const struct {
		const char *action;
		enum own own;
	} t[] = {
		{ "transaction.record", OWN_PURCHASE },
		{ "transaction.sync", OWN_SYNC },
		{ "reward.claim", OWN_CLAIM },
		{ "cashback.redeem", OWN_REDEEM },
		{ "transaction.void", OWN_VOID },
		{ "card.adjust", OWN_ADJUST },
		{ "card.enrol", OWN_ENROL },
		{ "card.issue", OWN_ISSUE },
		{ "card.update", OWN_UPDATE },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (strcmp(t[i].action, action) == 0)
			return t[i].own;
	return OWN_NONE;
}

/* One write's emission: the card being written about, as it is now. */
struct emit {
	struct lc_dom *dom;
	const char *txn_id;		/* NULL none */
	/* The transaction that moved its tier: the write's, or a
	 * redemption's earn on the remainder. */
	const char *tier_txn_id;
	const char *location_id, *staff_user_id;	/* NULL none */
	struct lc_card card;
	struct lc_currency cur;		/* its shop's: its amounts' */
	json_object *view;		/* the card's lookup object (owned) */
};

static const char *
or_null(const char *s)
{
	return s != NULL && *s != '\0' ? s : NULL;
}

/* The card after the write into e: 0, or -1 (dom->err). */
static int
load(struct emit *e, const char *id)
{
	int rc;

	json_object_put(e->view);
	e->view = NULL;
	if ((rc = lc_db_card_any(e->dom->db, id, &e->card)) != 1)
		return lc_dom_fail(e->dom, LC_E_DATABASE, NULL, NULL);
	if ((e->card.ops = lc_cardtype(e->card.program.type)) == NULL)
		return lc_dom_fail(e->dom, LC_E_INTERNAL, NULL, NULL);
	/* As a lookup shows it: with its next expiry, in its shop's
	 * currency (the caller's, or the admin tool's or a sweep's card's
	 * shop). */
	if (lc_expiry_next(e->dom, &e->card) == -1)
		return -1;
	if (strcmp(e->card.merchant_id, e->dom->caller.merchant_id) == 0)
		e->cur = e->dom->cur;
	else if (lc_currency_of(e->dom->db, e->card.merchant_id,
	    &e->cur) == -1)
		return lc_dom_fail(e->dom, LC_E_DATABASE, NULL, NULL);
	e->view = lc_view_card(&e->card, &e->cur);
	return 0;
}

/* The data every card event begins with; extra's members (taken) after. */
static int
add(struct emit *e, const char *type, json_object *extra)
{
	json_object *d = json_object_new_object();
	int rc;

	json_object_object_add(d, "card_instance_id",
	    json_object_new_string(e->card.id));
	json_object_object_add(d, "card", json_object_get(e->view));
	json_object_object_add(d, "location_id",
	    lc_json_str_or_null(e->location_id));
	json_object_object_add(d, "staff_user_id",
	    lc_json_str_or_null(e->staff_user_id));
	if (extra != NULL) {
		json_object_object_foreach(extra, k, v)
			json_object_object_add(d, k, json_object_get(v));
		json_object_put(extra);
	}
	rc = lc_db_event_add(e->dom->db, e->card.merchant_id, type,
	    e->dom->now_ms, lc_json_text(d));
	json_object_put(d);
	return rc == -1 ? lc_dom_fail(e->dom, LC_E_DATABASE, NULL, NULL) : 0;
}

/* {key: v}, v borrowed (a copy of the reference taken). */
static json_object *
with(const char *key, json_object *v)
{
	return lc_view_one(key, json_object_get(v));
}

/* The write's own event on its card, from its answer. */
static int
own_event(struct emit *e, enum own own, json_object *answer)
{
	json_object *x, *earned, *id;

	switch (own) {
	case OWN_PURCHASE:
	case OWN_SYNC:
		x = with("transaction", answer);
		json_object_object_add(x, "offline",
		    json_object_new_boolean(own == OWN_SYNC));
		return add(e, "transaction.recorded", x);
	case OWN_CLAIM:
		return add(e, "reward.claimed", with("claim", answer));
	case OWN_REDEEM:
		if (add(e, "cashback.redeemed", with("redemption", answer)) == -1)
			return -1;
		/* Its earn on the remainder is a purchase of its own. */
		if (!json_object_object_get_ex(answer, "earned", &earned) ||
		    earned == NULL)
			return 0;
		x = with("transaction", earned);
		json_object_object_add(x, "offline",
		    json_object_new_boolean(0));
		if (json_object_object_get_ex(earned, "transaction_id", &id) &&
		    json_object_is_type(id, json_type_string))
			e->tier_txn_id = json_object_get_string(id);
		return add(e, "transaction.recorded", x);
	case OWN_VOID:
		return add(e, "transaction.voided", with("void", answer));
	case OWN_ADJUST:
		return add(e, "card.adjusted", with("adjustment", answer));
	default:
		return 0;
	}
}

static json_object *
tier_or_null(const char *name)
{
	return lc_json_str_or_null(or_null(name));
}

/* Card k's events after its own: expiries, rewards, its tier. */
static int
after_events(struct emit *e, size_t idx, const struct lc_ev_card *k)
{
	const struct lc_evtrack *ev = &e->dom->ev;
	json_object *x;
	const char *now;
	size_t i;

	for (i = 0; i < ev->nexp; i++) {
		if (ev->exp[i].card != idx)
			continue;
		x = lc_view_one("transaction_id",
		    json_object_new_string(ev->exp[i].txn_id));
		json_object_object_add(x, "expired_amount",
		    lc_json_money_of(&e->cur, ev->exp[i].amount));
		if (add(e, "cashback.expired", x) == -1)
			return -1;
	}
	if (k->rewards > 0) {
		x = lc_view_one("transaction_id",
		    lc_json_str_or_null(e->txn_id));
		json_object_object_add(x, "rewards_earned",
		    json_object_new_int64(k->rewards));
		json_object_object_add(x, "pending_rewards",
		    json_object_new_int64(e->card.pending_rewards));
		if (add(e, "reward.earned", x) == -1)
			return -1;
	}
	now = lc_card_tier_name(&e->card);
	if (k->seen && k->saved && e->card.program.ntiers > 0 &&
	    strcmp(now, k->tier) != 0) {
		x = lc_view_one("transaction_id", lc_json_str_or_null(
		    e->tier_txn_id != NULL ? e->tier_txn_id : e->txn_id));
		json_object_object_add(x, "previous_tier",
		    tier_or_null(k->tier));
		json_object_object_add(x, "tier", tier_or_null(now));
		if (add(e, "tier.changed", x) == -1)
			return -1;
	}
	return 0;
}

/* Whether card idx has any event to give. */
static int
eventful(const struct lc_evtrack *ev, size_t idx)
{
	const struct lc_ev_card *k = &ev->cards[idx];
	size_t i;

	if (k->saved || k->issued || k->rewards > 0 || k->name_changed ||
	    k->status_changed)
		return 1;
	for (i = 0; i < ev->nexp; i++)
		if (ev->exp[i].card == idx)
			return 1;
	return 0;
}

/* Card k's own event when it is the card of the write's answer. */
static int
card_events(struct emit *e, size_t idx, enum own own, json_object *answer,
    const char *own_card)
{
	const struct lc_ev_card *k = &e->dom->ev.cards[idx];
	json_object *ch;

	if (own_card != NULL && strcmp(own_card, k->id) == 0 &&
	    own_event(e, own, answer) == -1)
		return -1;
	/* At the till, or by the owner, the tool or its demo shop. */
	if (k->issued && add(e, own == OWN_ENROL ? "card.enrolled" :
	    "card.issued", NULL) == -1)
		return -1;
	if (k->name_changed || k->status_changed) {
		ch = json_object_new_array();
		if (k->name_changed)
			json_object_array_add(ch,
			    json_object_new_string("customer_name"));
		if (k->status_changed)
			json_object_array_add(ch,
			    json_object_new_string("status"));
		if (add(e, "card.updated", lc_view_one("changed", ch)) == -1)
			return -1;
	}
	return after_events(e, idx, k);
}

/* The card an answer is about: its card_instance_id, else the card of
 * the write's first transaction (a purchase's answer names none). */
static const char *
answer_card(struct lc_dom *dom, json_object *answer)
{
	json_object *v;
	size_t i;

	if (answer != NULL &&
	    json_object_object_get_ex(answer, "card_instance_id", &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	/* One card saved: the write's own (a purchase, a claim, a
	 * redemption touch one card). */
	for (i = 0; i < dom->ev.ncards; i++)
		if (dom->ev.cards[i].saved)
			return dom->ev.cards[i].id;
	return NULL;
}

int
lc_event_emit(struct lc_dom *dom, const struct lc_write *w,
    json_object *answer)
{
	struct lc_evtrack *ev = &dom->ev;
	struct emit e;
	const char *action = dom->audit.action != NULL ? dom->audit.action :
	    w->action;
	enum own own = own_of(action);
	const char *own_card = NULL;
	size_t i;
	int rc = -1;

	if (ev->broken) {
		lc_log("events: out of memory noting a write of kind %s",
		    w->kind != NULL ? w->kind : "(none)");
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	if (ev->ncards == 0)
		return 0;
	memset(&e, 0, sizeof(e));
	e.dom = dom;
	e.txn_id = or_null(dom->txn_id);
	if (ev->have_txn) {
		e.location_id = or_null(ev->location_id);
		e.staff_user_id = or_null(ev->staff_user_id);
	} else {
		/* A card issued at a location; the service's own writes
		 * (an expiry found by a read) are nobody's. */
		e.location_id = or_null(dom->audit.location_id);
		e.staff_user_id = dom->audit.actor[0] != '\0' ? NULL :
		    or_null(dom->caller.user_id);
	}
	if (own >= OWN_PURCHASE && own <= OWN_ADJUST &&
	    (own_card = answer_card(dom, answer)) == NULL) {
		lc_log("events: a write of %s names no card", action);
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	for (i = 0; i < ev->ncards; i++) {
		if (!eventful(ev, i) &&
		    (own_card == NULL || strcmp(own_card, ev->cards[i].id) != 0))
			continue;
		if (load(&e, ev->cards[i].id) == -1 ||
		    card_events(&e, i, own, answer, own_card) == -1)
			goto out;
	}
	rc = 0;
out:
	json_object_put(e.view);
	return rc;
}
