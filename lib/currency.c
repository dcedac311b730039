/*
 * ISO 4217's active currencies with their minor units (list one, as of
 * amendment 180: XCG for ANG from 2025-03-31, ZWG for ZWL, SLE for SLL;
 * BGN withdrawn when Bulgaria took the euro on 2026-01-01; CUC and HRK
 * gone), less the funds codes and units of account no till takes (BOV,
 * CHE, CHW, CLF, COU, MXV, USN, UYI, UYW, XAD) and those without a minor
 * unit (the metals, XDR, XSU, XUA). Sorted by code: looked up by bsearch
 * (tests/unit_currency.c checks the order). A code withdrawn here reads
 * as unset on a shop that had it (lc_currency_of): money keeps its minor
 * units, shown with two decimals, until the owner names the new one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"
#include "lc_currency.h"

static const struct lc_currency table[] = {
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

const struct lc_currency lc_currency_unnamed = { "", 2 };

static int
cmp(const void *k, const void *e)
{
	return strcmp(k, ((const struct lc_currency *)e)->code);
}

const struct lc_currency *
lc_currency_find(const char *code)
{
	if (code == NULL || strlen(code) != 3)
		return NULL;
	return bsearch(code, table, sizeof(table) / sizeof(table[0]),
	    sizeof(table[0]), cmp);
}

int
lc_currency_of(struct lc_db *db, const char *merchant_id,
    struct lc_currency *out)
{
	char code[8];
	const struct lc_currency *c;

	*out = lc_currency_unnamed;
	/* Read here, not through the settings' reader, which falls back
	 * when storage fails: a yen shop read as unnamed would take "1500"
	 * as 150000 yen, so a failed read is a failure. The currency has
	 * no installation value; an unknown code reads as unset. */
	if (merchant_id == NULL || merchant_id[0] == '\0')
		return 0;
	code[0] = '\0';
	if (lc_db_shop_setting_get(db, merchant_id,
	    lc_setting_name(LC_SET_CURRENCY_CODE), code, sizeof(code)) == -1)
		return -1;
	if (code[0] != '\0' && (c = lc_currency_find(code)) != NULL)
		*out = *c;
	return 0;
}

int
lc_money_parse(const char *text, int exp, int64_t max, int64_t *minor)
{
	return lc_decimal_parse(text, exp, max, minor);
}

void
lc_money_fmt(int64_t minor, int exp, char out[32])
{
	lc_decimal_fmt(minor, exp, 1, out);
}

const char *
lc_money_rule(const struct lc_currency *c, char *buf, size_t size)
{
	if (c == NULL)
		c = &lc_currency_unnamed;
	if (lc_currency_exp(c) == 0)
		snprintf(buf, size, "with no decimals");
	else
		snprintf(buf, size, "with at most %d decimals",
		    lc_currency_exp(c));
	if (c->code[0] != '\0') {
		size_t n = strlen(buf);

		snprintf(buf + n, size - n, " (%s)", c->code);
	}
	return buf;
}
