/*
 * Setting up a shop: merchants, locations, users, programs and cards, the
 * things the POS API does not create. Each operation is a rule run inside
 * a write by its caller (the admin tool today), checking its input against
 * the limits so nothing the API later sends can be malformed.
 */
#include <string.h>

#include "lc_core.h"

int
lc_text_check(struct lc_error *e, const char *field, const char *s,
    size_t maxchars, int empty_ok)
{
	const unsigned char *p;

	if (!lc_utf8_valid(s))
		return lc_error_set(e, LC_E_VALIDATION, field,
		    "%s must be UTF-8 text", field);
	if ((!empty_ok && *s == '\0') || lc_utf8_chars(s) > maxchars)
		return lc_error_set(e, LC_E_VALIDATION, field,
		    "%s must be %d to %zu characters", field, empty_ok ? 0 : 1,
		    maxchars);
	/* Text every JSON answer carries: no control characters, C0, DEL
	 * or C1 (U+0080 to U+009F, UTF-8 C2 80 to C2 9F). */
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f ||
		    (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
			return lc_error_set(e, LC_E_VALIDATION, field,
			    "%s must not hold control characters", field);
	return 0;
}

static int
new_id(struct lc_dom *dom, char id[LC_ID_LEN + 1])
{
	if (lc_uuid(id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, "no randomness");
	/* The first thing a write makes is what its idempotency key names. */
	if (dom->txn_id[0] == '\0')
		memcpy(dom->txn_id, id, sizeof(dom->txn_id));
	return 0;
}

/* 1 when the caller may act on merchant_id's things: their own, or any
 * for the admin tool (which acts for the machine's owner). */
static int
own(const struct lc_dom *dom, const char *merchant_id)
{
	return dom->caller.merchant_id[0] == '\0' ||
	    strcmp(dom->caller.merchant_id, merchant_id) == 0;
}

static int
not_found(struct lc_dom *dom, const char *field, const char *what)
{
	return lc_dom_fail(dom, LC_E_NOT_FOUND, field, "No such %s.", what);
}

int
lc_shop_location(struct lc_dom *dom, const char *id, struct lc_location *l)
{
	int rc = lc_db_location_get(dom->db, id, l);

	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return rc == 0 || !own(dom, l->merchant_id) ?
	    not_found(dom, NULL, "location") : 0;
}

int
lc_shop_user(struct lc_dom *dom, const char *id, struct lc_user *u)
{
	int rc = lc_db_user_get(dom->db, id, u);

	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return rc == 0 || !own(dom, u->merchant_id) ?
	    not_found(dom, NULL, "user") : 0;
}

int
lc_shop_program(struct lc_dom *dom, const char *id, struct lc_program *p)
{
	int rc = lc_db_program_get(dom->db, id, p);

	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return rc == 0 || !own(dom, p->merchant_id) ?
	    not_found(dom, NULL, "program") : 0;
}

static int
merchant_known(struct lc_dom *dom, const char *mid)
{
	int rc = lc_db_merchant_exists(dom->db, mid);

	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, "merchant_id",
		    "no merchant %s", mid);
	return 0;
}

int
lc_shop_merchant_add(struct lc_dom *dom, const char *name,
    char id[LC_ID_LEN + 1])
{
	if (lc_text_check(&dom->err, "name", name, LC_NAME_MAX, 0) == -1 ||
	    new_id(dom, id) == -1)
		return -1;
	if (lc_db_merchant_add(dom->db, id, name, dom->now_ms) == -1)
		return -1;
	return 0;
}

int
lc_shop_location_add(struct lc_dom *dom, const char *merchant_id,
    const char *name, char id[LC_ID_LEN + 1])
{
	struct lc_location l;

	memset(&l, 0, sizeof(l));
	if (lc_text_check(&dom->err, "name", name, LC_NAME_MAX, 0) == -1 ||
	    merchant_known(dom, merchant_id) == -1 || new_id(dom, l.id) == -1)
		return -1;
	snprintf(l.merchant_id, sizeof(l.merchant_id), "%s", merchant_id);
	snprintf(l.name, sizeof(l.name), "%s", name);
	if (lc_db_location_add(dom->db, &l, dom->now_ms) == -1)
		return -1;
	memcpy(id, l.id, LC_ID_LEN + 1);
	return 0;
}

int
lc_shop_user_add(struct lc_dom *dom, const struct lc_user *in,
    char id[LC_ID_LEN + 1])
{
	struct lc_user u = *in;
	struct lc_location l;
	int rc;

	if (u.is_owner)
		u.location_id[0] = '\0';
	if (merchant_known(dom, u.merchant_id) == -1 ||
	    lc_text_check(&dom->err, "name", u.display_name, LC_NAME_MAX,
	    1) == -1)
		return -1;
	if (!lc_email_ok(u.email))
		return lc_dom_fail(dom, LC_E_VALIDATION, "email",
		    "not an e-mail address: %s", u.email);
	if (!u.is_owner && u.location_id[0] == '\0')
		return lc_dom_fail(dom, LC_E_VALIDATION, "location_id",
		    "a system_user needs a location");
	if (u.location_id[0] != '\0') {
		if ((rc = lc_db_location_get(dom->db, u.location_id, &l)) == -1)
			return -1;
		if (rc == 0 || strcmp(l.merchant_id, u.merchant_id) != 0)
			return not_found(dom, "location_id", "location");
	}
	if (u.password_hash[0] == '\0')
		return lc_dom_fail(dom, LC_E_VALIDATION, "password",
		    "a password is required");
	if (new_id(dom, u.id) == -1)
		return -1;
	if ((rc = lc_db_user_add(dom->db, &u, dom->now_ms)) == LC_DB_CONFLICT)
		return lc_dom_fail(dom, LC_E_CONFLICT, "email",
		    "A user with the e-mail %s exists already.", u.email);
	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	memcpy(id, u.id, LC_ID_LEN + 1);
	return 0;
}

int
lc_shop_user_change(struct lc_dom *dom, const char *verb, const char *uid,
    const char *hash)
{
	int rc;

	if (strcmp(verb, "passwd") == 0)
		rc = lc_db_user_set_password(dom->db, uid, hash);
	else
		rc = lc_db_user_set_disabled(dom->db, uid,
		    strcmp(verb, "disable") == 0);
	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, "user_id",
		    "no user %s", uid);
	/* Every session ends with the change, in the same transaction, so
	 * no login can slip between them (a login checks the hash it
	 * verified is still the user's when it commits). */
	if (strcmp(verb, "enable") != 0 &&
	    lc_db_tokens_revoke_user(dom->db, uid) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

static int
tiers_check(struct lc_dom *dom, const struct lc_tier *t, int n)
{
	int i;

	if (n < 1 || n > LC_TIERS_MAX)
		return lc_dom_fail(dom, LC_E_VALIDATION, "tiers",
		    "A cashback or discount program needs 1 to %d tiers.",
		    LC_TIERS_MAX);
	for (i = 0; i < n; i++) {
		if (lc_text_check(&dom->err, "tiers", t[i].name,
		    LC_TIER_NAME_MAX, 0) == -1)
			return -1;
		if (t[i].rate_bp < 0 || t[i].rate_bp > LC_RATE_MAX ||
		    t[i].min_spend < 0 || t[i].min_spend > LC_SPEND_MAX)
			return lc_dom_fail(dom, LC_E_VALIDATION, "tiers",
			    "A tier's rate or minimum spend is out of range.");
		if (i == 0 && t[i].min_spend != 0)
			return lc_dom_fail(dom, LC_E_VALIDATION, "tiers",
			    "The first tier's minimum spend must be 0.");
		if (i > 0 && t[i].min_spend <= t[i - 1].min_spend)
			return lc_dom_fail(dom, LC_E_VALIDATION, "tiers",
			    "Tiers must be in increasing minimum spend.");
	}
	return 0;
}

/* A term for earnings: 0 none, else 1 to LC_EXPIRY_DAYS_MAX days, on a
 * program of a type whose earnings expire (LC_CT_EXPIRES) only. */
static int
expiry_check(struct lc_dom *dom, const struct lc_program *p, int64_t days)
{
	if (days != 0 && (lc_cardtype_cols(p->type) & LC_CT_EXPIRES) == 0)
		return lc_dom_fail(dom, LC_E_VALIDATION, "expiry_days",
		    "Only a cashback program's earnings expire.");
	if (days < 0 || days > LC_EXPIRY_DAYS_MAX)
		return lc_dom_fail(dom, LC_E_VALIDATION, "expiry_days",
		    "expiry_days must be 1 to %d days, or null for never.",
		    LC_EXPIRY_DAYS_MAX);
	return 0;
}

int
lc_shop_program_add(struct lc_dom *dom, struct lc_program *p,
    char id[LC_ID_LEN + 1])
{
	const struct lc_cardtype *ct = lc_cardtype(p->type);

	if (lc_text_check(&dom->err, "title", p->title, LC_NAME_MAX, 0) == -1 ||
	    merchant_known(dom, p->merchant_id) == -1)
		return -1;
	if (ct == NULL)
		return lc_dom_fail(dom, LC_E_VALIDATION, "type",
		    "the type must be %s", lc_cardtype_names());
	/* Its tiers, its own fields (the type's checks), its term. */
	if ((ct->cols & LC_CT_TIERS) &&
	    tiers_check(dom, p->tiers, p->ntiers) == -1)
		return -1;
	if (ct->program_check != NULL && ct->program_check(dom, p, 1) == -1)
		return -1;
	if (expiry_check(dom, p, p->expiry_days) == -1)
		return -1;
	if ((ct->cols & LC_CT_TIERS) == 0)
		p->ntiers = 0;
	if (new_id(dom, p->id) == -1)
		return -1;
	if (lc_db_program_add(dom->db, p, dom->now_ms) == -1)
		return -1;
	memcpy(id, p->id, LC_ID_LEN + 1);
	return 0;
}

/* EAN-13 check digit of 12 digits. */
static char
ean13_check(const char *d)
{
	int i, sum = 0;

	for (i = 0; i < 12; i++)
		sum += (d[i] - '0') * (i % 2 ? 3 : 1);
	return (char)('0' + (10 - sum % 10) % 10);
}

int
lc_shop_card_issue(struct lc_dom *dom, const char *program_id,
    const char *customer, struct lc_card *c)
{
	return lc_shop_card_issue_at(dom, program_id, customer, NULL, c);
}

/*
 * A card: a random EAN-13 barcode in the in-store range (prefix 2), an
 * unguessable QR payload (192 random bits, base64) and share token (128
 * bits, hex), drawn again on the unlikely collision.
 */
int
lc_shop_card_issue_at(struct lc_dom *dom, const char *program_id,
    const char *customer, const char *location_id, struct lc_card *c)
{
	unsigned char rnd[24];
	int i, tries, rc;

	memset(c, 0, sizeof(*c));
	/* NULL: a card without a name (""), to be named later. */
	if (customer != NULL && lc_text_check(&dom->err, "customer_name",
	    customer, LC_NAME_MAX, 0) == -1)
		return -1;
	if (lc_shop_program(dom, program_id, &c->program) == -1) {
		snprintf(dom->err.field, sizeof(dom->err.field), "program_id");
		return -1;
	}
	memcpy(c->merchant_id, c->program.merchant_id, sizeof(c->merchant_id));
	snprintf(c->customer_name, sizeof(c->customer_name), "%s",
	    customer != NULL ? customer : "");
	if (new_id(dom, c->id) == -1)
		return -1;
	for (tries = 0; tries < 8; tries++) {
		if (lc_random(rnd, sizeof(rnd)) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
			    "no randomness");
		c->barcode[0] = '2';
		for (i = 1; i < 12; i++)
			c->barcode[i] = (char)('0' + rnd[i] % 10);
		c->barcode[12] = ean13_check(c->barcode);
		c->barcode[13] = '\0';
		if (lc_random(rnd, sizeof(rnd)) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
			    "no randomness");
		lc_b64_encode(rnd, sizeof(rnd), c->qr, 0);
		if (lc_share_token(c->share_token) == -1 ||
		    lc_card_secret(c->code_secret) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL,
			    "no randomness");
		if ((rc = lc_db_card_add(dom->db, c, dom->caller.user_id[0] ?
		    dom->caller.user_id : NULL, location_id,
		    dom->now_ms)) == 0) {
			lc_audit_where(dom, location_id, NULL);
			snprintf(c->status, sizeof(c->status), "active");
			lc_event_issued(dom, c);
			return 0;
		}
		if (rc != LC_DB_CONFLICT)
			break;
	}
	return lc_dom_fail(dom, LC_E_DATABASE, NULL, "cannot issue the card");
}

int
lc_shop_cards_issue(struct lc_dom *dom, const char *program_id,
    const char *const *names, size_t n, struct lc_card *cards)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lc_shop_card_issue(dom, program_id, names != NULL ?
		    names[i] : NULL, &cards[i]) == -1)
			return -1;
	lc_audit_cards(dom, cards, n);
	return 0;
}

int
lc_shop_card_status(struct lc_dom *dom, const char *card_id, int active)
{
	const char *status = active ? "active" : "inactive";
	struct lc_card c;
	int rc;

	/* As it was: a card.updated event only when it changes. */
	if ((rc = lc_db_card_any(dom->db, card_id, &c)) == 1)
		rc = lc_db_card_set_status(dom->db, card_id, status);
	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, "card_id",
		    "no card %s", card_id);
	if (strcmp(c.status, status) != 0)
		lc_event_changed(dom, &c, "status");
	return 0;
}

int
lc_shop_location_rename(struct lc_dom *dom, const char *id, const char *name,
    struct lc_location *l)
{
	if (lc_text_check(&dom->err, "name", name, LC_NAME_MAX, 0) == -1 ||
	    lc_shop_location(dom, id, l) == -1)
		return -1;
	if (lc_db_location_rename(dom->db, id, name) != 1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	snprintf(l->name, sizeof(l->name), "%s", name);
	return 0;
}

int
lc_shop_user_update(struct lc_dom *dom, const char *id,
    const struct lc_user_change *ch, struct lc_user *u)
{
	struct lc_location l;

	if (lc_shop_user(dom, id, u) == -1)
		return -1;
	if (ch->name != NULL) {
		if (lc_text_check(&dom->err, "name", ch->name, LC_NAME_MAX,
		    1) == -1)
			return -1;
		if (lc_db_user_set_name(dom->db, id, ch->name) != 1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	if (ch->location_id != NULL) {
		if (u->is_owner)
			return lc_dom_fail(dom, LC_E_VALIDATION, "location_id",
			    "An owner works at every location.");
		if (lc_shop_location(dom, ch->location_id, &l) == -1) {
			snprintf(dom->err.field, sizeof(dom->err.field),
			    "location_id");
			return -1;
		}
		if (lc_db_user_set_location(dom->db, id, l.id) != 1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	if (ch->disabled == 1 && strcmp(id, dom->caller.user_id) == 0)
		return lc_dom_fail(dom, LC_E_VALIDATION, "disabled",
		    "You cannot disable your own account.");
	if (ch->disabled != -1 && lc_shop_user_change(dom, ch->disabled ?
	    "disable" : "enable", id, NULL) == -1)
		return -1;
	if (ch->hash != NULL && lc_shop_user_change(dom, "passwd", id,
	    ch->hash) == -1)
		return -1;
	return lc_shop_user(dom, id, u);
}

int
lc_shop_program_update(struct lc_dom *dom, const char *id,
    const struct lc_program_change *ch, struct lc_program *p)
{
	unsigned cols;

	if (lc_shop_program(dom, id, p) == -1)
		return -1;
	cols = lc_cardtype_cols(p->type);
	if (ch->title != NULL)
		snprintf(p->title, sizeof(p->title), "%s", ch->title);
	if (lc_text_check(&dom->err, "title", p->title, LC_NAME_MAX, 0) == -1)
		return -1;
	if ((cols & LC_CT_REWARD) == 0 && (ch->reward_title != NULL ||
	    ch->reward_description != NULL || ch->reward_amount >= 0 ||
	    ch->cooldown_seconds >= 0 || ch->max_punches >= 0))
		return lc_dom_fail(dom, LC_E_VALIDATION, ch->reward_title ?
		    "reward_title" : ch->reward_description ?
		    "reward_description" : ch->reward_amount >= 0 ?
		    "reward_amount" : ch->cooldown_seconds >= 0 ?
		    "cooldown_seconds" : "max_punches_per_purchase",
		    "Only a punch program has a reward, a cooldown and a cap "
		    "of punches.");
	if ((cols & LC_CT_TIERS) == 0 && ch->ntiers > 0)
		return lc_dom_fail(dom, LC_E_VALIDATION, "tiers",
		    "A %s program has no tiers.", lc_cardtype_name(p->type));
	/* Earnings made before keep the expiry they were given. */
	if (ch->expiry_days >= 0) {
		if (expiry_check(dom, p, ch->expiry_days) == -1)
			return -1;
		p->expiry_days = ch->expiry_days;
	}
	if (ch->reward_title != NULL)
		snprintf(p->reward_title, sizeof(p->reward_title), "%s",
		    ch->reward_title);
	if (ch->reward_description != NULL)
		snprintf(p->reward_description, sizeof(p->reward_description),
		    "%s", ch->reward_description);
	if (ch->reward_amount >= 0)
		p->reward_amount = ch->reward_amount;
	if (ch->cooldown_seconds >= 0)
		p->cooldown_seconds = ch->cooldown_seconds;
	if (ch->max_punches >= 0)
		p->max_punches = ch->max_punches;
	if (lc_cardtype(p->type)->program_check != NULL &&
	    lc_cardtype(p->type)->program_check(dom, p, 0) == -1)
		return -1;
	if (ch->ntiers > 0) {
		if (tiers_check(dom, ch->tiers, ch->ntiers) == -1)
			return -1;
		memcpy(p->tiers, ch->tiers, sizeof(p->tiers));
		p->ntiers = ch->ntiers;
	} else
		p->ntiers = 0;	/* kept as they are */
	if (lc_db_program_update(dom->db, p) == -1)
		return -1;
	return lc_shop_program(dom, id, p);
}

int
lc_shop_card_update(struct lc_dom *dom, const char *id,
    const char *customer_name, int active, struct lc_card *c)
{
	int rc;

	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, id, c)) == -1)
		return -1;
	if (rc == 0)
		return not_found(dom, NULL, "card");
	if (customer_name != NULL && (lc_text_check(&dom->err,
	    "customer_name", customer_name, LC_NAME_MAX, 0) == -1 ||
	    lc_db_card_set_name(dom->db, c->id, customer_name) != 1))
		return dom->err.code != LC_OK ? -1 :
		    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (customer_name != NULL && strcmp(customer_name,
	    c->customer_name) != 0)
		lc_event_changed(dom, c, "customer_name");
	if (active != -1 && lc_shop_card_status(dom, c->id, active) == -1)
		return -1;
	return lc_card_get(dom, LC_CARDKEY_ID, id, c) == 1 ? 0 :
	    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
}
