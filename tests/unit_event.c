/*
 * The outbox's own pieces (event.c): event ids made and read back, the
 * table of types, the event object, and the card an event carries,
 * which never holds a card's secrets.
 */
#include <string.h>

#include "lc_core.h"
#include "tap.h"

static void
test_ids(void)
{
	static const char *const bad[] = {
		"", "evt_", "evt_000000000000004", "evt_00000000000000042",
		"evt_000000000000004x", "EVT_0000000000000042",
		"evt-0000000000000042", "evt_0000000000000000",
		"evt_-000000000000042", "evt_+000000000000042",
		"xevt_000000000000042", "evt_ 000000000000042", NULL
	};
	char id[LC_EVENT_ID_LEN + 1];
	int64_t seq;
	int i;

	lc_event_id(42, id);
	is_string(id, "evt_0000000000000042", "seq 42 is evt_ and 16 digits");
	ok(lc_event_id_parse(id, &seq) == 0 && seq == 42,
	    "evt_0000000000000042 reads back as 42");
	lc_event_id(9999999999999999LL, id);
	is_string(id, "evt_9999999999999999", "the largest seq of 16 digits");
	ok(lc_event_id_parse(id, &seq) == 0 && seq == 9999999999999999LL,
	    "... reads back");
	lc_event_id(9, id);
	ok(strcmp(id, "evt_0000000000000010") < 0,
	    "ids sort as text as their seqs do (9 before 10)");
	ok(lc_event_id_parse(NULL, &seq) == -1, "no id is not one");
	for (i = 0; bad[i] != NULL; i++) {
		seq = -7;
		ok(lc_event_id_parse(bad[i], &seq) == -1 && seq == -7,
		    "'%s' is not an event id, and nothing is read", bad[i]);
	}
}

static void
test_types(void)
{
	static const char *const want[] = {
		"transaction.recorded", "reward.earned", "reward.claimed",
		"cashback.redeemed", "transaction.voided", "card.adjusted",
		"cashback.expired", "card.enrolled", "card.issued",
		"card.updated", "tier.changed", NULL
	};
	size_t i;

	for (i = 0; want[i] != NULL; i++) {
		is_string(lc_event_type_at(i), want[i],
		    "type %zu of the table is %s", i, want[i]);
		ok(lc_event_type_known(want[i]), "%s is known", want[i]);
	}
	ok(lc_event_type_at(i) == NULL, "the table ends after %zu types", i);
	ok(lc_event_type_at(1000) == NULL, "far past its end: NULL");
	ok(!lc_event_type_known(LC_EVENT_TEST),
	    "webhook.test is no type of the feed");
	ok(!lc_event_type_known("transaction"), "a prefix is not a type");
	ok(!lc_event_type_known("Transaction.Recorded"),
	    "nor a type in other case");
	ok(!lc_event_type_known(""), "nor the empty name");
	ok(!lc_event_type_known(NULL), "nor none");
}

static void
test_object(void)
{
	json_object *o, *v;

	o = lc_event_object(42, "card.issued", 1700000000000LL, "m1",
	    "{\"card_instance_id\":\"c1\"}");
	ok(o != NULL, "an event object from a row");
	if (o == NULL)
		return;
	ok(json_object_object_get_ex(o, "id", &v) &&
	    strcmp(json_object_get_string(v), "evt_0000000000000042") == 0,
	    "its id is the seq's");
	ok(json_object_object_get_ex(o, "type", &v) &&
	    strcmp(json_object_get_string(v), "card.issued") == 0, "its type");
	ok(json_object_object_get_ex(o, "created_at", &v) &&
	    strcmp(json_object_get_string(v), "2023-11-14T22:13:20.000Z") == 0,
	    "its time as the API writes times");
	ok(json_object_object_get_ex(o, "merchant_id", &v) &&
	    strcmp(json_object_get_string(v), "m1") == 0, "its merchant");
	ok(json_object_object_get_ex(o, "data", &v) &&
	    json_object_is_type(v, json_type_object), "its data, an object");
	json_object_put(o);
	ok(lc_event_object(1, "card.issued", 0, "m1", "{broken") == NULL,
	    "data that is not JSON gives no object");
}

static void
test_card(void)
{
	struct lc_card c;
	const char *text;
	json_object *o;
	int t;

	for (t = 0; t < 3; t++) {
		memset(&c, 0, sizeof(c));
		c.program.type = (enum lc_ctype)t;
		snprintf(c.id, sizeof(c.id), "card-1");
		snprintf(c.customer_name, sizeof(c.customer_name), "Ann");
		snprintf(c.status, sizeof(c.status), "active");
		snprintf(c.barcode, sizeof(c.barcode), "2000000000008");
		snprintf(c.qr, sizeof(c.qr), "QRPAYLOADsecretQRPAYLOAD");
		snprintf(c.share_token, sizeof(c.share_token),
		    "0123456789abcdef0123456789abcdef");
		snprintf(c.code_secret, sizeof(c.code_secret),
		    "fedcba9876543210fedcba9876543210fedcba98");
		c.program.punch_requirement = 10;
		c.next_expiry_at = c.next_expiry_amount = -1;
		o = lc_view_card(&c, NULL);
		text = lc_json_text(o);
		ok(strstr(text, "\"card_instance_id\":\"card-1\"") != NULL,
		    "type %d: the event's card names the card", t);
		ok(strstr(text, c.share_token) == NULL &&
		    strstr(text, "share") == NULL &&
		    strstr(text, "card.html") == NULL,
		    "type %d: ... and holds no share token nor link", t);
		ok(strstr(text, c.qr) == NULL && strstr(text, c.barcode) ==
		    NULL && strstr(text, c.code_secret) == NULL,
		    "type %d: ... nor its QR payload, barcode or code secret",
		    t);
		json_object_put(o);
	}
}

int
main(void)
{
	test_ids();
	test_types();
	test_object();
	test_card();
	return done_testing();
}
