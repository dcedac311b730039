/*
 * The owner's objects as JSON: the back office's answers and the audit
 * trail's snapshots both take them from here.
 */
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
lc_view_program(const struct lc_program *p, int64_t cards)
{
	const struct lc_cardtype *ct = lc_cardtype_or_none(p->type);
	json_object *o = json_object_new_object(), *ts, *t;
	int i;

	add(o, "id", str(p->id));
	add(o, "type", str(ct->name));
	add(o, "title", str(p->title));
	add(o, "card_count", num(cards));
	LC_JSON_TYPE_FIELDS(ct->program, p, o);
	if ((ct->cols & LC_CT_TIERS) == 0)
		return o;
	ts = json_object_new_array();
	for (i = 0; i < p->ntiers; i++) {
		t = json_object_new_object();
		add(t, "name", str(p->tiers[i].name));
		add(t, "min_spend", lc_json_money(p->tiers[i].min_spend));
		add(t, "rate", lc_json_rate(p->tiers[i].rate_bp));
		json_object_array_add(ts, t);
	}
	add(o, "tiers", ts);
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
lc_view_card(const struct lc_card *c)
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
	LC_JSON_TYPE_FIELDS(ct->balance, c, bal);
	LC_JSON_TYPE_FIELDS(ct->balance, c, d);
	add(d, "balance", bal);
	LC_JSON_TYPE_FIELDS(ct->lookup, c, d);
	return d;
}
