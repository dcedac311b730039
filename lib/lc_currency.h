/*
 * Currencies (currency.c): the ISO 4217 codes a shop may name, each with
 * its minor unit, and money written and read by it. Money is always an
 * integer of the currency's minor unit (cents, yen, fils); a shop that
 * has named none has today's: two decimals.
 */
#ifndef LC_CURRENCY_H
#define LC_CURRENCY_H

#include <stdint.h>

struct lc_db;

struct lc_currency {
	char code[4];	/* "" : the shop named none */
	int exp;	/* decimals of the major unit: 0, 2 or 3 */
};

/* A currency's decimals: 2 for the unnamed one whatever its exp (a
 * zeroed struct lc_currency, or none (NULL), is the unnamed currency). */
#define lc_currency_exp(c) \
	((c) == NULL || (c)->code[0] == '\0' ? 2 : (c)->exp)

/* The active ISO 4217 currency of code (upper case); NULL: none. */
const struct lc_currency *lc_currency_find(const char *code);
/* The currency of a shop that named none: two decimals. */
extern const struct lc_currency lc_currency_unnamed;
/* The shop's currency (its setting, else unnamed): 0, or -1 when it
 * cannot be read. */
int lc_currency_of(struct lc_db *, const char *merchant_id,
    struct lc_currency *);
/* An amount's text with at most exp decimals, 0 to max minor units: 0,
 * or -1. */
int lc_money_parse(const char *text, int exp, int64_t max, int64_t *minor);
/* Minor units as text with exactly exp decimals: "12.50", "1500",
 * "1.250". */
void lc_money_fmt(int64_t minor, int exp, char out[32]);
/* "with at most 2 decimals", "with no decimals (JPY)", "with at most 3
 * decimals (KWD)": the rule of a currency's amounts for an error message
 * (NULL: the unnamed currency's). Returns buf. */
const char *lc_money_rule(const struct lc_currency *, char *buf, size_t size);

#endif /* LC_CURRENCY_H */
