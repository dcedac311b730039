/*
 * Unit tests of lib/currency.c and the money of lib/json.c by currency:
 * the ISO 4217 table (every active code found with its minor unit,
 * nothing else), amounts read with at most the currency's decimals and
 * written with exactly them, the rule each message names, and rounding
 * to the minor unit. One behaviour per test point, named after the case.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"
#include "tap.h"

/*
 * ISO 4217 list one as of amendment 180 (2025), with Bulgaria in the
 * euro from 2026-01-01: the national currencies and their minor units,
 * without the funds codes, units of account and metals the table leaves
 * out (lib/currency.c says which). Written out again here, from the
 * list, not from the table, so a code dropped, added or mis-sorted
 * there (bsearch then misses it) fails.
 */
static const struct {
	const char *code;
	int exp;
} iso[] = {
	{ "AED", 2 }, { "AFN", 2 }, { "ALL", 2 }, { "AMD", 2 }, { "AOA", 2 },
	{ "ARS", 2 }, { "AUD", 2 }, { "AWG", 2 }, { "AZN", 2 }, { "BAM", 2 },
	{ "BBD", 2 }, { "BDT", 2 }, { "BHD", 3 }, { "BIF", 0 }, { "BMD", 2 },
	{ "BND", 2 }, { "BOB", 2 }, { "BRL", 2 }, { "BSD", 2 }, { "BTN", 2 },
	{ "BWP", 2 }, { "BYN", 2 }, { "BZD", 2 }, { "CAD", 2 }, { "CDF", 2 },
	{ "CHF", 2 }, { "CLP", 0 }, { "CNY", 2 }, { "COP", 2 }, { "CRC", 2 },
	{ "CUP", 2 }, { "CVE", 2 }, { "CZK", 2 }, { "DJF", 0 }, { "DKK", 2 },
	{ "DOP", 2 }, { "DZD", 2 }, { "EGP", 2 }, { "ERN", 2 }, { "ETB", 2 },
	{ "EUR", 2 }, { "FJD", 2 }, { "FKP", 2 }, { "GBP", 2 }, { "GEL", 2 },
	{ "GHS", 2 }, { "GIP", 2 }, { "GMD", 2 }, { "GNF", 0 }, { "GTQ", 2 },
	{ "GYD", 2 }, { "HKD", 2 }, { "HNL", 2 }, { "HTG", 2 }, { "HUF", 2 },
	{ "IDR", 2 }, { "ILS", 2 }, { "INR", 2 }, { "IQD", 3 }, { "IRR", 2 },
	{ "ISK", 0 }, { "JMD", 2 }, { "JOD", 3 }, { "JPY", 0 }, { "KES", 2 },
	{ "KGS", 2 }, { "KHR", 2 }, { "KMF", 0 }, { "KPW", 2 }, { "KRW", 0 },
	{ "KWD", 3 }, { "KYD", 2 }, { "KZT", 2 }, { "LAK", 2 }, { "LBP", 2 },
	{ "LKR", 2 }, { "LRD", 2 }, { "LSL", 2 }, { "LYD", 3 }, { "MAD", 2 },
	{ "MDL", 2 }, { "MGA", 2 }, { "MKD", 2 }, { "MMK", 2 }, { "MNT", 2 },
	{ "MOP", 2 }, { "MRU", 2 }, { "MUR", 2 }, { "MVR", 2 }, { "MWK", 2 },
	{ "MXN", 2 }, { "MYR", 2 }, { "MZN", 2 }, { "NAD", 2 }, { "NGN", 2 },
	{ "NIO", 2 }, { "NOK", 2 }, { "NPR", 2 }, { "NZD", 2 }, { "OMR", 3 },
	{ "PAB", 2 }, { "PEN", 2 }, { "PGK", 2 }, { "PHP", 2 }, { "PKR", 2 },
	{ "PLN", 2 }, { "PYG", 0 }, { "QAR", 2 }, { "RON", 2 }, { "RSD", 2 },
	{ "RUB", 2 }, { "RWF", 0 }, { "SAR", 2 }, { "SBD", 2 }, { "SCR", 2 },
	{ "SDG", 2 }, { "SEK", 2 }, { "SGD", 2 }, { "SHP", 2 }, { "SLE", 2 },
	{ "SOS", 2 }, { "SRD", 2 }, { "SSP", 2 }, { "STN", 2 }, { "SVC", 2 },
	{ "SYP", 2 }, { "SZL", 2 }, { "THB", 2 }, { "TJS", 2 }, { "TMT", 2 },
	{ "TND", 3 }, { "TOP", 2 }, { "TRY", 2 }, { "TTD", 2 }, { "TWD", 2 },
	{ "TZS", 2 }, { "UAH", 2 }, { "UGX", 0 }, { "USD", 2 }, { "UYU", 2 },
	{ "UZS", 2 }, { "VED", 2 }, { "VES", 2 }, { "VND", 0 }, { "VUV", 0 },
	{ "WST", 2 }, { "XAF", 0 }, { "XCD", 2 }, { "XCG", 2 }, { "XOF", 0 },
	{ "XPF", 0 }, { "YER", 2 }, { "ZAR", 2 }, { "ZMW", 2 }, { "ZWG", 2 },
};
#define NISO (sizeof(iso) / sizeof(iso[0]))

static const struct lc_currency *
cur(const char *code)
{
	const struct lc_currency *c = lc_currency_find(code);

	if (c == NULL)
		bail("no currency %s", code);
	return c;
}

static void
test_table(void)
{
	const struct lc_currency *c;
	char code[4];
	size_t i, bad = 0, found = 0;

	for (i = 0; i < NISO; i++) {
		c = lc_currency_find(iso[i].code);
		if (c == NULL || strcmp(c->code, iso[i].code) != 0 ||
		    c->exp != iso[i].exp) {
			diag("%s: %s", iso[i].code, c == NULL ? "not found" :
			    "another minor unit");
			bad++;
		}
	}
	ok(bad == 0, "table: every active ISO 4217 code found, with its minor "
	    "unit (%zu codes)", NISO);
	/* Every three capitals: none found but the list's. */
	code[3] = '\0';
	for (code[0] = 'A'; code[0] <= 'Z'; code[0]++)
		for (code[1] = 'A'; code[1] <= 'Z'; code[1]++)
			for (code[2] = 'A'; code[2] <= 'Z'; code[2]++)
				found += lc_currency_find(code) != NULL;
	is_int(found, NISO, "table: no code but the list's is found");
	ok(lc_currency_find("ANG") == NULL, "table: ANG withdrawn (XCG)");
	ok(lc_currency_find("BGN") == NULL, "table: BGN withdrawn (the euro "
	    "from 2026-01-01)");
	ok(lc_currency_find("HRK") == NULL && lc_currency_find("CUC") == NULL &&
	    lc_currency_find("SLL") == NULL && lc_currency_find("ZWL") == NULL,
	    "table: HRK, CUC, SLL and ZWL withdrawn");
	ok(lc_currency_find("XDR") == NULL && lc_currency_find("XAU") == NULL &&
	    lc_currency_find("CLF") == NULL && lc_currency_find("XAD") == NULL,
	    "table: no unit of account, metal or funds code");
	ok(lc_currency_find("jpy") == NULL, "find: lower case is no code");
	ok(lc_currency_find("") == NULL && lc_currency_find(NULL) == NULL &&
	    lc_currency_find("JPYX") == NULL && lc_currency_find("JP") == NULL,
	    "find: empty, NULL and a wrong length are no code");
	is_int(lc_currency_exp(&lc_currency_unnamed), 2,
	    "exp: the unnamed currency has 2 decimals");
	ok(lc_currency_exp((const struct lc_currency *)NULL) == 2,
	    "exp: NULL is the unnamed currency");
}

static void
rule_is(const struct lc_currency *c, const char *want)
{
	char buf[48];

	is_string(lc_money_rule(c, buf, sizeof(buf)), want, "rule: %s", want);
}

static void
test_rule(void)
{
	struct lc_currency zero;

	memset(&zero, 0, sizeof(zero));
	rule_is(NULL, "with at most 2 decimals");
	rule_is(&zero, "with at most 2 decimals");
	rule_is(cur("JPY"), "with no decimals (JPY)");
	rule_is(cur("EUR"), "with at most 2 decimals (EUR)");
	rule_is(cur("KWD"), "with at most 3 decimals (KWD)");
}

static void
fmt_is(int64_t minor, int exp, const char *want)
{
	char buf[32];
	json_object *o = lc_json_money_exp(minor, exp);

	lc_money_fmt(minor, exp, buf);
	is_string(buf, want, "fmt: %lld at %d decimals is %s",
	    (long long)minor, exp, want);
	is_string(lc_json_text(o), want, "json: %lld at %d decimals is %s",
	    (long long)minor, exp, want);
	json_object_put(o);
}

static void
test_fmt(void)
{
	json_object *o;

	fmt_is(1500, 0, "1500");
	fmt_is(0, 0, "0");
	fmt_is(100000000, 0, "100000000");
	fmt_is(-1500, 0, "-1500");
	fmt_is(1250, 2, "12.50");
	fmt_is(0, 2, "0.00");
	fmt_is(-5, 2, "-0.05");
	fmt_is(1250, 3, "1.250");
	fmt_is(100, 3, "0.100");
	fmt_is(0, 3, "0.000");
	fmt_is(-1, 3, "-0.001");
	fmt_is(100000000, 3, "100000.000");
	/* A reader of the object (a webhook's filter) gets its value. */
	o = lc_json_money_of(cur("KWD"), 1999);
	ok(json_object_get_double(o) == 1.999, "json: 1999 fils read back "
	    "as 1.999");
	json_object_put(o);
	o = lc_json_money_of(NULL, 1250);
	is_string(lc_json_text(o), "12.50", "json: NULL currency writes 2 "
	    "decimals");
	json_object_put(o);
}

/* text's member m read in currency c: minor units, or -1 refused (msg
 * then holds the message). */
static int64_t
read_in(const struct lc_currency *c, const char *text, char *msg, size_t sz)
{
	struct lc_error e;
	json_object *o = lc_json_parse(text, strlen(text));
	int64_t v = -1;
	int present = 0;

	if (o == NULL)
		bail("bad JSON %s", text);
	memset(&e, 0, sizeof(e));
	if (lc_in_money(&e, o, "purchase_amount", 1, c, &v, &present) == -1)
		v = -1;
	else if (!present)
		v = -2;
	if (msg != NULL)
		snprintf(msg, sz, "%s", v == -1 ? lc_error_msg(&e) : "");
	json_object_put(o);
	return v;
}

static const char *
name(const struct lc_currency *c)
{
	return c != NULL ? c->code : "unnamed";
}

#define READS(c, text, want) \
	is_int(read_in((c), "{\"purchase_amount\":" text "}", NULL, 0), \
	    (want), "read %s: %s is %lld", name(c), text, (long long)(want))
#define REFUSES(c, text, why) \
	is_int(read_in((c), "{\"purchase_amount\":" text "}", NULL, 0), -1, \
	    "read %s: refuses %s (%s)", name(c), text, why)

static void
test_read(void)
{
	const struct lc_currency *jpy = cur("JPY"), *kwd = cur("KWD");
	const struct lc_currency *eur = cur("EUR");
	char msg[256];

	READS(jpy, "1500", 1500);
	READS(jpy, "2000000", 2000000);
	READS(jpy, "100000000", 100000000);
	READS(jpy, "0", 0);
	READS(jpy, "1.5e3", 1500);
	/* A JSON number is its value: 1500.0 is 1500 yen, as 12.340 is
	 * 12.34 of a two-decimal currency (v1). */
	READS(jpy, "1500.0", 1500);
	REFUSES(jpy, "1500.5", "a decimal of a yen");
	REFUSES(jpy, "0.1", "a tenth of a yen");
	REFUSES(jpy, "100000001", "one yen above the limit");
	REFUSES(jpy, "-1", "negative");
	READS(kwd, "1.999", 1999);
	READS(kwd, "1.25", 1250);
	READS(kwd, "100000.000", 100000000);
	READS(kwd, "0.001", 1);
	REFUSES(kwd, "1.9995", "a tenth of a fils");
	REFUSES(kwd, "100000.001", "one fils above the limit");
	READS(eur, "12.34", 1234);
	REFUSES(eur, "12.345", "three decimals of a euro");
	READS(NULL, "12.34", 1234);
	READS(NULL, "1000000.00", 100000000);
	REFUSES(NULL, "12.345", "three decimals, unnamed");

	read_in(jpy, "{\"purchase_amount\":1500.5}", msg, sizeof(msg));
	is_string(msg, "purchase_amount must be an amount from 0 to 100000000 "
	    "with no decimals (JPY)", "message: JPY names its rule");
	read_in(kwd, "{\"purchase_amount\":1.9995}", msg, sizeof(msg));
	is_string(msg, "purchase_amount must be an amount from 0 to "
	    "100000.000 with at most 3 decimals (KWD)",
	    "message: KWD names its rule");
	read_in(eur, "{\"purchase_amount\":12.345}", msg, sizeof(msg));
	is_string(msg, "purchase_amount must be an amount from 0 to "
	    "1000000.00 with at most 2 decimals (EUR)",
	    "message: EUR names its rule");
	read_in(NULL, "{\"purchase_amount\":12.345}", msg, sizeof(msg));
	is_string(msg, "purchase_amount must be an amount from 0 to "
	    "1000000.00 with at most 2 decimals",
	    "message: the unnamed currency's is v1's");
}

static void
test_rounding(void)
{
	/* Half away from zero, to the minor unit: the amounts are in it. */
	is_int(lc_apply_rate(1499, 500), 75, "round: 5 %% of 1499 yen is 75 "
	    "(74.95)");
	is_int(lc_apply_rate(1999, 500), 100, "round: 5 %% of 1.999 KWD is "
	    "0.100 (0.09995)");
	is_int(lc_apply_rate(1490, 500), 75, "round: 5 %% of 1490 yen is 75 "
	    "(74.5, half away from zero)");
	is_int(lc_apply_rate(1489, 500), 74, "round: 5 %% of 1489 yen is 74 "
	    "(74.45)");
	is_int(lc_apply_rate(100000000, 10000), 100000000, "round: the whole "
	    "of the largest amount is exact");
}

int
main(void)
{
	test_table();
	test_rule();
	test_fmt();
	test_read();
	test_rounding();
	return done_testing();
}
