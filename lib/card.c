/*
 * Cards of the caller's merchant: finding one by id, QR payload or
 * barcode, the checks every write on a card makes, saving its counters,
 * tiers, and the transaction rows written on it. The card types' own
 * rules are beside this file: card_punch.c, card_cashback.c,
 * card_discount.c.
 */
#include <string.h>

#include "lc_core.h"

/*
 * The card types' table: one row each, by enum lc_ctype. A type's
 * behaviour is all in its own file (lc_card.h says what it provides).
 */
extern const struct lc_cardtype lc_cardtype_punch;
extern const struct lc_cardtype lc_cardtype_cashback;
extern const struct lc_cardtype lc_cardtype_discount;

static const struct lc_cardtype *const cardtypes[LC_CT__MAX] = {
	[LC_CT_PUNCH] = &lc_cardtype_punch,
	[LC_CT_CASHBACK] = &lc_cardtype_cashback,
	[LC_CT_DISCOUNT] = &lc_cardtype_discount,
};

const struct lc_cardtype *
lc_cardtype(enum lc_ctype t)
{
	return (int)t >= 0 && t < LC_CT__MAX ? cardtypes[t] : NULL;
}

const struct lc_cardtype *
lc_cardtype_or_none(enum lc_ctype t)
{
	static const struct lc_cardtype none = { .id = LC_CT__MAX, .name = "" };
	const struct lc_cardtype *ct = lc_cardtype(t);

	return ct != NULL ? ct : &none;
}

enum lc_ctype
lc_cardtype_id(const char *name)
{
	int i;

	for (i = 0; i < LC_CT__MAX; i++)
		if (cardtypes[i] != NULL && strcmp(cardtypes[i]->name, name) == 0)
			return (enum lc_ctype)i;
	return LC_CT__MAX;
}

const char *
lc_cardtype_name(enum lc_ctype t)
{
	const struct lc_cardtype *ct = lc_cardtype(t);

	return ct != NULL ? ct->name : "";
}

unsigned
lc_cardtype_cols(enum lc_ctype t)
{
	const struct lc_cardtype *ct = lc_cardtype(t);

	return ct != NULL ? ct->cols : 0;
}

const char *
lc_cardtype_names(void)
{
	static char buf[LC_CT__MAX * 24];
	size_t len = 0;
	int i;

	if (buf[0] != '\0')
		return buf;
	for (i = 0; i < LC_CT__MAX; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    i == 0 ? "" : i == LC_CT__MAX - 1 ? " or " : ", ",
		    lc_cardtype_name((enum lc_ctype)i));
	return buf;
}

/* Base64 a QR payload must be to name a card; anything else names none. */
static int
qr_decodable(const char *qr)
{
	unsigned char buf[256];

	return strlen(qr) <= LC_QR_MAX && lc_b64_decode(qr, buf, sizeof(buf)) >= 0;
}

int
lc_card_get(struct lc_dom *dom, enum lc_cardkey key, const char *value,
    struct lc_card *c)
{
	char qr[LC_QR_MAX + 1];
	const char *dot;
	int rc;

	/* The QR code of a card's page carries its current code after a
	 * '.' (card_code.c), which base64 never holds: the card is the
	 * payload before it, whoever scans it (a lookup, a purchase, an
	 * offline till's sync). */
	if (key == LC_CARDKEY_QR && (dot = strchr(value, '.')) != NULL &&
	    lc_card_code_form(dot + 1) && (size_t)(dot - value) <= LC_QR_MAX) {
		memcpy(qr, value, (size_t)(dot - value));
		qr[dot - value] = '\0';
		value = qr;
	}
	if (key == LC_CARDKEY_QR && !qr_decodable(value))
		return 0;
	if ((rc = lc_db_card_get(dom->db, key, dom->caller.merchant_id, value,
	    c)) == -1)
		return -1;
	if (rc == 0)
		return 0;
	if ((c->ops = lc_cardtype(c->program.type)) == NULL) {
		lc_log("card %s: unknown type %d", c->id, (int)c->program.type);
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	/* Inside a write: its tier before, for a tier.changed event. */
	lc_event_seen(dom, c);
	return 1;
}

int
lc_card_resolve(struct lc_dom *dom, const char *card_id, const char *qr,
    const char *barcode, struct lc_card *card)
{
	const char *vals[3] = { card_id, qr, barcode };
	static const char *const names[3] = { "card_instance_id",
	    "qr_code_data", "barcode_value" };
	struct lc_card other;
	int i, rc, found = 0;

	for (i = 0; i < 3; i++) {
		if (vals[i] == NULL)
			continue;
		rc = lc_card_get(dom, (enum lc_cardkey)i, vals[i],
		    found ? &other : card);
		if (rc == -1)
			return -1;
		if (rc == 0)
			return lc_dom_fail(dom, LC_E_CARD_NOT_FOUND, NULL, NULL);
		if (found && strcmp(other.id, card->id) != 0)
			return lc_dom_fail(dom, LC_E_VALIDATION, names[i],
			    "The card identifiers name different cards.");
		found = 1;
	}
	if (!found)
		return lc_dom_fail(dom, LC_E_VALIDATION, "card_instance_id",
		    "Send qr_code_data, card_instance_id or barcode_value.");
	return 0;
}

int
lc_card_for(struct lc_dom *dom, const char *card_id, enum lc_ctype want,
    struct lc_card *card)
{
	int rc;

	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, card_id, card)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_CARD_NOT_FOUND, NULL, NULL);
	if (strcmp(card->status, "active") != 0)
		return lc_dom_fail(dom, LC_E_CARD_INACTIVE, NULL, NULL);
	if (card->program.type != want)
		return lc_dom_fail(dom, LC_E_WRONG_CARD_TYPE, NULL,
		    "This is a %s card; this operation needs a %s card.",
		    card->ops->name, lc_cardtype_name(want));
	return 0;
}

int
lc_card_save(struct lc_dom *dom, const struct lc_card *c)
{
	if (lc_db_card_save(dom->db, c) == -1)
		return -1;
	lc_event_saved(dom, c);
	return 0;
}

int
lc_card_tier(const struct lc_card *c, int64_t spend)
{
	int i, t = 0;

	for (i = 0; i < c->program.ntiers; i++)
		if (spend >= c->program.tiers[i].min_spend)
			t = i;
	return t;
}

int64_t
lc_card_rate(const struct lc_card *c)
{
	return c->program.ntiers ?
	    c->program.tiers[lc_card_tier(c, c->lifetime_spend)].rate_bp : 0;
}

const char *
lc_card_tier_name(const struct lc_card *c)
{
	return c->program.ntiers ?
	    c->program.tiers[lc_card_tier(c, c->lifetime_spend)].name : "";
}

int64_t
lc_card_tiered_purchase(struct lc_card *c, int64_t amount, int *changed)
{
	int before = lc_card_tier(c, c->lifetime_spend);
	int64_t rate = lc_card_rate(c);

	c->lifetime_spend += amount;
	*changed = lc_card_tier(c, c->lifetime_spend) != before;
	return rate;
}

int64_t
lc_apply_rate(int64_t v, int64_t bp)
{
	/* Exact integers: v <= 10^8 cents and bp <= 10^4 cannot overflow. */
	return (v * bp + LC_RATE_MAX / 2) / LC_RATE_MAX;
}

int
lc_txn_new(struct lc_dom *dom, struct lc_txn *t, const struct lc_card *card,
    const char *location_id, const char *staff_user_id, const char *type,
    int64_t at)
{
	memset(t, 0, sizeof(*t));
	if (lc_uuid_at(t->id, at) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	t->merchant_id = card->merchant_id;
	t->card_id = card->id;
	t->location_id = location_id;
	t->staff_user_id = staff_user_id;
	t->type = type;
	t->punches_added = t->rate_bp = t->cashback_earned = -1;
	t->discount_amount = t->redeemed_amount = -1;
	t->created_at = at;
	return 0;
}

int
lc_txn_add(struct lc_dom *dom, const struct lc_txn *t)
{
	if (lc_db_txn_add(dom->db, t) == -1)
		return -1;
	/* The audit row of a write on a card names the card, where and
	 * from which till, and the transaction its key points at. */
	if (dom->audit.object_type != NULL &&
	    strcmp(dom->audit.object_type, "card") == 0)
		lc_audit_object(dom, t->card_id);
	lc_audit_where(dom, t->location_id, t->pos_term);
	if (dom->txn_id[0] == '\0') {
		memcpy(dom->txn_id, t->id, sizeof(dom->txn_id));
		lc_audit_txn(dom, t);
		lc_event_txn(dom, t);
	}
	return 0;
}
