/*
 * The owner's objects as JSON: the back office's answers and the audit
 * trail's snapshots both take them from here.
 */
#include <stdio.h>
#include <string.h>

#include "lc_core.h"

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

json_object *
lc_view_location(const struct lc_location *l)
{
	json_object *o = json_object_new_object();

	add(o, "id", str(l->id));
	add(o, "name", str(l->name));
	add(o, "created_at", lc_json_time(l->created_at));
	return o;
}

json_object *
lc_view_staff(const struct lc_user *u)
{
	json_object *o = json_object_new_object();

	add(o, "id", str(u->id));
	add(o, "email", str(u->email));
	add(o, "name", u->display_name[0] ? str(u->display_name) : NULL);
	add(o, "user_type", str(u->is_owner ? "owner" : "system_user"));
	add(o, "location_id", u->is_owner || !u->location_id[0] ? NULL :
	    str(u->location_id));
	add(o, "disabled", json_object_new_boolean(u->disabled));
	add(o, "created_at", lc_json_time(u->created_at));
	return o;
}

json_object *
lc_view_program(const struct lc_program *p, int64_t cards,
    const struct lc_currency *cur)
{
	const struct lc_cardtype *ct = lc_cardtype_or_none(p->type);
	json_object *o = json_object_new_object(), *ts, *t;
	int i;

	add(o, "id", str(p->id));
	add(o, "type", str(ct->name));
	add(o, "title", str(p->title));
	add(o, "card_count", num(cards));
	LC_JSON_TYPE_FIELDS(ct->program, p, o, cur);
	if ((ct->cols & LC_CT_TIERS) == 0)
		return o;
	ts = json_object_new_array();
	for (i = 0; i < p->ntiers; i++) {
		t = json_object_new_object();
		add(t, "name", str(p->tiers[i].name));
		add(t, "min_spend", lc_json_money_of(cur, p->tiers[i].min_spend));
		add(t, "rate", lc_json_rate(p->tiers[i].rate_bp));
		json_object_array_add(ts, t);
	}
	add(o, "tiers", ts);
	return o;
}

json_object *
lc_view_webhook(const struct lc_webhook *w, int64_t now, int status)
{
	json_object *o = json_object_new_object(), *a, *st;
	char types[sizeof(w->event_types)], *t, *save = NULL;

	add(o, "id", str(w->id));
	add(o, "url", str(w->url));
	add(o, "description", str(w->description));
	if (w->all_types)
		a = NULL;
	else {
		a = json_object_new_array();
		memcpy(types, w->event_types, sizeof(types));
		for (t = strtok_r(types, " ", &save); t != NULL;
		    t = strtok_r(NULL, " ", &save))
			json_object_array_add(a, str(t));
	}
	add(o, "event_types", a);
	add(o, "enabled", json_object_new_boolean(w->enabled));
	add(o, "disabled_reason", w->disabled_reason[0] ?
	    str(w->disabled_reason) : NULL);
	add(o, "created_at", lc_json_time(w->created_at));
	add(o, "updated_at", lc_json_time(w->updated_at));
	if (status) {
		st = json_object_new_object();
		add(st, "last_success_at", lc_json_time_or_null(w->last_success_at));
		add(st, "failing_since", lc_json_time_or_null(w->failing_since));
		add(st, "attempts", num(w->attempts));
		add(st, "next_attempt_at", lc_json_time_or_null(w->next_attempt_at));
		add(st, "pending", num(w->pending));
		add(o, "status", st);
	}
	/* The secret never: the answers of a create and a rotation add it. */
	add(o, "secret_rotated_until", w->old_secret_until > now ?
	    lc_json_time(w->old_secret_until) : NULL);
	return o;
}

json_object *
lc_view_webhook_test(const char *job_id, const struct lc_webhook *w,
    int64_t now)
{
	json_object *o = json_object_new_object(), *d;
	char id[LC_ID_LEN + 16];

	snprintf(id, sizeof(id), "msg_test_%s", job_id);
	add(o, "id", str(id));
	add(o, "type", str(LC_EVENT_TEST));
	add(o, "created_at", lc_json_time(now));
	add(o, "merchant_id", str(w->merchant_id));
	d = json_object_new_object();
	add(d, "webhook_id", str(w->id));
	add(d, "message", str("A test event from the loyalty service: this "
	    "endpoint receives and verifies its webhooks."));
	add(o, "data", d);
	return o;
}

json_object *
lc_view_one(const char *key, json_object *v)
{
	json_object *o = json_object_new_object();

	add(o, key, v);
	return o;
}

/*
 * A card as a lookup answers it (and an event carries it): both
 * documented forms at once, the enveloped fields with balance, and the
 * balance fields flat beside them, then what its type adds (struct
 * lc_cardtype's lookup). None of its secrets: no share link, QR payload,
 * barcode or code secret.
 */
json_object *
lc_view_card(const struct lc_card *c, const struct lc_currency *cur)
{
	const struct lc_cardtype *ct = lc_cardtype_or_none(c->program.type);
	json_object *d = json_object_new_object(), *bal = json_object_new_object();

	add(d, "card_instance_id", str(c->id));
	add(d, "card_type", str(ct->name));
	add(d, "card_title", str(c->program.title));
	add(d, "card_name", str(c->program.title));
	add(d, "merchant_name", str(c->merchant_name));
	add(d, "customer_name", str(c->customer_name));
	add(d, "status", str(c->status));
	/* What its amounts are in: the ISO code (null: the shop named
	 * none) and the decimals every amount here is written with. */
	add(d, "currency", cur != NULL && cur->code[0] != '\0' ?
	    str(cur->code) : NULL);
	add(d, "currency_decimals", num(lc_currency_exp(cur)));
	LC_JSON_TYPE_FIELDS(ct->balance, c, bal, cur);
	LC_JSON_TYPE_FIELDS(ct->balance, c, d, cur);
	add(d, "balance", bal);
	LC_JSON_TYPE_FIELDS(ct->lookup, c, d, cur);
	return d;
}
