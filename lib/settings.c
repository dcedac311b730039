/*
 * Installation settings, stored in the database; each has a default and a
 * range, so a typo cannot lock every till out. Most are whole numbers; a
 * few are text (the shop's currency symbol, its public address), checked
 * as strictly, since tills, printed cards and customers' pages show them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

static int currency_ok(const char *);
static int url_ok(const char *);
static int code_ok(const char *);
static int zone_ok(const char *);
static int language_ok(const char *);

/* The languages of the pages (htdocs/i18n/): a shop's default. */
static const char *const languages[] = { "en", "de", "fr", "es", "pt", "ja",
    "ar" };

static const struct lc_setting_info lc_settings[LC_SET__MAX] = {
	[LC_SET_ACCESS_TTL] = { "access_token_ttl", 3600, 60, 86400, 1 },
	[LC_SET_REFRESH_TTL] = { "refresh_token_ttl", 30 * 86400, 3600,
	    365 * 86400, 1 },
	[LC_SET_LOGIN_MAX_FAILURES] = { "login_max_failures", 5, 1, 1000, 1 },
	[LC_SET_LOGIN_WINDOW] = { "login_window_seconds", 15 * 60, 1, 86400, 1 },
	/* The shop's time for the days of reports: whole quarter hours, as
	 * every time zone of the world is. */
	[LC_SET_UTC_OFFSET] = { "utc_offset_minutes", 0, -720, 840, 15 },
	/* How far back a purchase captured offline may be dated: a till is
	 * rarely offline for days, and an old date must not replay a year of
	 * punches past every cooldown. */
	[LC_SET_SYNC_MAX_AGE] = { "sync_max_age_days", 30, 1, 3650, 1 },
	/* Whether staff, not only owners, issue cards at the till (1). */
	[LC_SET_STAFF_ENROLMENT] = { "staff_enrolment", 1, 0, 1, 1 },
	/* What the till and the customer's page write before an amount
	 * ("" for none). */
	[LC_SET_CURRENCY] = { "currency_symbol", 0, 0, LC_CURRENCY_MAX, 1,
	    LC_SETTING_TEXT, currency_ok, "0 to 8 characters, no control "
	    "characters", 0, 1, NULL },
	/* Where customers find their card online, printed on cards:
	 * https://shop.example/loyalty/ ("" for none: nothing printed). */
	[LC_SET_PUBLIC_URL] = { "public_url", 0, 0, LC_URL_MAX, 1,
	    LC_SETTING_TEXT, url_ok, "empty, or an address of up to 200 "
	    "characters that starts with http:// or https:// and ends with /",
	    0, 1, NULL },
	/* How long staff may void their own sale (minutes; 0: staff may
	 * not void). The owner voids any transaction at any time. */
	[LC_SET_VOID_WINDOW] = { "void_window_minutes", 30, 0, 1440, 1 },
	/* Whether a reward claim or a cashback redemption needs the current
	 * time-based code of the customer's card page (1), so that a
	 * photo of a printed card or a screenshot cannot spend (a copy of
	 * the link can: it shows the codes; re-draw it). */
	[LC_SET_CARD_CODE] = { "redeem_needs_card_code", 0, 0, 1, 1 },
	/* How long events and webhook deliveries are kept (days): the
	 * feed's clients and the delivery log look back this far. */
	[LC_SET_EVENT_RETENTION] = { "event_retention_days", 30, 1, 365, 1 },
	/* Whether webhooks may be sent to private, loopback and link-local
	 * addresses (and over plain http): a shop's own network, the tests.
	 * Off, a webhook's address is checked after resolution at every
	 * delivery, so a name cannot be turned on the server's own network.
	 * The server's owner decides, never a shop's. */
	[LC_SET_WEBHOOK_PRIVATE] = { "webhook_allow_private", 0, 0, 1, 1,
	    LC_SETTING_INT, NULL, NULL, 1, 0, NULL },
	/* The shop's ISO 4217 currency, whose minor unit every amount is
	 * counted in ("" : unnamed, two decimals, as before). */
	[LC_SET_CURRENCY_CODE] = { "currency", 0, 0, 3, 1, LC_SETTING_TEXT,
	    code_ok, "empty, or an active ISO 4217 currency code in upper "
	    "case, such as EUR, JPY or KWD", 0, 1, NULL },
	/* The shop's IANA time zone, for its days ("" : the installation's
	 * utc_offset_minutes). */
	[LC_SET_TIME_ZONE] = { "time_zone", 0, 0, 63, 1, LC_SETTING_TEXT,
	    zone_ok, "empty, or an IANA time zone name such as Europe/Berlin "
	    "or America/New_York", 0, 1, NULL },
	/* The language of the shop's pages when a browser prefers none of
	 * theirs. */
	[LC_SET_LANGUAGE] = { "language", 0, 0, 2, 1, LC_SETTING_TEXT,
	    language_ok, "one of en, de, fr, es, pt, ja, ar", 0, 1, "en" },
};

static int
currency_ok(const char *s)
{
	struct lc_error e;

	return lc_text_check(&e, "currency_symbol", s, LC_CURRENCY_MAX, 1) == 0;
}

static int
code_ok(const char *s)
{
	return s[0] == '\0' || lc_currency_find(s) != NULL;
}

static int
zone_ok(const char *s)
{
	return s[0] == '\0' || lc_tz_known(s);
}

static int
language_ok(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(languages) / sizeof(languages[0]); i++)
		if (strcmp(s, languages[i]) == 0)
			return 1;
	return 0;
}

/*
 * An address the link printed on a card is made of: <url>card.html#TOKEN.
 * Printable ASCII with no blank, quote or angle bracket (it is read aloud
 * from paper and pasted into pages), a host, no query or fragment of its
 * own, ending in '/'.
 */
static int
url_ok(const char *s)
{
	const unsigned char *p;
	size_t n = strlen(s), skip;

	if (n == 0)
		return 1;
	if (n > LC_URL_MAX || s[n - 1] != '/')
		return 0;
	if (strncmp(s, "https://", 8) == 0)
		skip = 8;
	else if (strncmp(s, "http://", 7) == 0)
		skip = 7;
	else
		return 0;
	if (s[skip] == '/' || s[skip] == '\0')
		return 0;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= ' ' || *p >= 0x7f || strchr("\"'<>`\\?#", *p) != NULL)
			return 0;
	return 1;
}

const struct lc_setting_info *
lc_setting_info(enum lc_setting s)
{
	return &lc_settings[s];
}

const char *
lc_setting_name(enum lc_setting s)
{
	return lc_settings[s].name;
}

int
lc_setting_lookup(const char *key)
{
	int i;

	for (i = 0; i < LC_SET__MAX; i++)
		if (strcmp(lc_settings[i].name, key) == 0)
			return i;
	return -1;
}

static int
parse(enum lc_setting s, const char *text, int64_t *v)
{
	const char *digits = text;
	char *end;
	long long n;

	/* Plain digits only, a '-' where the setting may be negative: the
	 * stored text is what setting get shows. */
	if (*digits == '-' && lc_settings[s].min < 0)
		digits++;
	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits) ||
	    strlen(digits) > 18)
		return -1;
	errno = 0;
	n = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' ||
	    n < lc_settings[s].min || n > lc_settings[s].max ||
	    n % lc_settings[s].step != 0)
		return -1;
	*v = n;
	return 0;
}

int64_t
lc_setting(struct lc_db *db, enum lc_setting s)
{
	int64_t v;

	if (lc_setting_read(db, s, &v) == -1)
		v = lc_settings[s].def;
	return v;
}

int
lc_setting_read(struct lc_db *db, enum lc_setting s, int64_t *v)
{
	char text[32];
	int rc = 0;

	*v = lc_settings[s].def;
	if (lc_settings[s].kind == LC_SETTING_INT &&
	    (rc = lc_db_setting_get(db, lc_settings[s].name, text,
	    sizeof(text))) == 1 && parse(s, text, v) == -1)
		*v = lc_settings[s].def;
	return rc == -1 ? -1 : 0;
}

const char *
lc_setting_text(struct lc_db *db, enum lc_setting s, char *buf, size_t size)
{
	char text[LC_BYTES(LC_URL_MAX)];

	if (size == 0)
		return buf;
	buf[0] = '\0';
	/* A stored value read back is checked again, as an integer is:
	 * one written past the rules (by hand) counts as unset. */
	if (lc_settings[s].kind == LC_SETTING_TEXT &&
	    lc_db_setting_get(db, lc_settings[s].name, text, sizeof(text)) == 1 &&
	    lc_settings[s].text_ok(text))
		snprintf(buf, size, "%s", text);
	else if (lc_settings[s].text_def != NULL)
		snprintf(buf, size, "%s", lc_settings[s].text_def);
	return buf;
}

/* Whether value is one the setting takes: 0, or -1 with dom->err. */
static int
check(struct lc_dom *dom, int s, const char *key, const char *value)
{
	int64_t v;

	if (lc_settings[s].kind == LC_SETTING_TEXT) {
		if (!lc_settings[s].text_ok(value))
			return lc_dom_fail(dom, LC_E_VALIDATION, "value",
			    "%s must be %s", key, lc_settings[s].text_rule);
	} else if (parse(s, value, &v) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "value",
		    "%s must be a whole number from %lld to %lld, a multiple "
		    "of %lld", key, (long long)lc_settings[s].min,
		    (long long)lc_settings[s].max, (long long)lc_settings[s].step);
	return 0;
}

int
lc_setting_check(struct lc_dom *dom, const char *key, const char *value)
{
	int s;

	if ((s = lc_setting_lookup(key)) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "key",
		    "unknown setting %s", key);
	return check(dom, s, key, value);
}

int
lc_setting_set(struct lc_dom *dom, const char *key, const char *value)
{
	int s;

	if ((s = lc_setting_lookup(key)) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "key",
		    "unknown setting %s", key);
	/* Money is counted in the shop's currency: no installation-wide
	 * one could follow each shop's books. */
	if (s == LC_SET_CURRENCY_CODE)
		return lc_dom_fail(dom, LC_E_VALIDATION, "key",
		    "currency is each shop's own: set it for a shop");
	if (check(dom, s, key, value) == -1 ||
	    lc_db_setting_set(dom->db, key, value) == -1)
		return -1;
	return 0;
}

int
lc_setting_per_shop(enum lc_setting s)
{
	return lc_settings[s].per_shop;
}

int64_t
lc_setting_shop(struct lc_db *db, const char *merchant_id, enum lc_setting s)
{
	char text[32];
	int64_t v;

	if (lc_settings[s].per_shop && lc_settings[s].kind == LC_SETTING_INT &&
	    merchant_id != NULL && merchant_id[0] != '\0' &&
	    lc_db_shop_setting_get(db, merchant_id, lc_settings[s].name, text,
	    sizeof(text)) == 1 && parse(s, text, &v) == 0)
		return v;
	return lc_setting(db, s);
}

const char *
lc_setting_shop_text(struct lc_db *db, const char *merchant_id,
    enum lc_setting s, char *buf, size_t size)
{
	char text[LC_BYTES(LC_URL_MAX)];

	if (size == 0)
		return buf;
	/* The shop's own row, checked again as the installation's is; an
	 * empty one is the shop's choice of "none", not a fallback. */
	if (lc_settings[s].per_shop && lc_settings[s].kind == LC_SETTING_TEXT &&
	    merchant_id != NULL && merchant_id[0] != '\0' &&
	    lc_db_shop_setting_get(db, merchant_id, lc_settings[s].name, text,
	    sizeof(text)) == 1 && lc_settings[s].text_ok(text)) {
		if (text[0] == '\0' && lc_settings[s].text_def != NULL)
			snprintf(buf, size, "%s", lc_settings[s].text_def);
		else
			snprintf(buf, size, "%s", text);
		return buf;
	}
	return lc_setting_text(db, s, buf, size);
}

/*
 * Money already recorded is counted in the shop's minor unit: a new
 * currency would change what every stored amount means. Once money has
 * moved, only naming the currency the amounts already are in (from
 * unnamed to one of two decimals) is taken.
 */
static int
currency_check(struct lc_dom *dom, const char *merchant_id, const char *value)
{
	struct lc_currency cur;
	const struct lc_currency *to;
	int moved;

	if (lc_currency_of(dom->db, merchant_id, &cur) == -1 ||
	    lc_db_merchant_money_moved(dom->db, merchant_id, &moved) == -1)
		return -1;
	if (strcmp(cur.code, value) == 0 || !moved)
		return 0;
	to = value[0] != '\0' ? lc_currency_find(value) : &lc_currency_unnamed;
	if (cur.code[0] == '\0' && to != NULL && to->exp == cur.exp &&
	    value[0] != '\0')
		return 0;
	if (cur.code[0] == '\0')
		return lc_dom_fail(dom, LC_E_CONFLICT, "currency",
		    "The shop's currency cannot change once money has moved: "
		    "its amounts are recorded with 2 decimals, so only a "
		    "currency with 2 decimals can name it.");
	return lc_dom_fail(dom, LC_E_CONFLICT, "currency",
	    "The shop's currency cannot change once money has moved: its "
	    "amounts are recorded in %s.", cur.code);
}

int
lc_setting_set_shop(struct lc_dom *dom, const char *merchant_id,
    const char *key, const char *value)
{
	int s;

	if (merchant_id == NULL || merchant_id[0] == '\0')
		return lc_setting_set(dom, key, value);
	if ((s = lc_setting_lookup(key)) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "key",
		    "unknown setting %s", key);
	if (!lc_settings[s].per_shop)
		return lc_setting_set(dom, key, value);
	if (check(dom, s, key, value) == -1)
		return -1;
	if (s == LC_SET_CURRENCY_CODE &&
	    currency_check(dom, merchant_id, value) == -1)
		return -1;
	return lc_db_shop_setting_set(dom->db, merchant_id, key, value) == -1 ?
	    -1 : 0;
}
