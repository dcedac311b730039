/*
 * JSON (json.c): strict parsing, UTF-8, the typed readers of a request's
 * fields and the exact numbers of answers. No HTTP here: the readers
 * report through a struct lc_error.
 */
#ifndef LC_JSON_H
#define LC_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "lc_card.h"
#include "lc_currency.h"

struct lc_error;

/* 1 when s is well-formed UTF-8 (shortest forms, no surrogates). */
int lc_utf8_valid(const char *s);
size_t lc_utf8_chars(const char *s);
/* Strict RFC 8259 check of a whole buffer holding one value. 0 or -1. */
int lc_json_check(const char *buf, size_t len);
/* Parses one strict JSON value; NULL on any error. Caller owns result. */
json_object *lc_json_parse(const char *buf, size_t len);
/* The same; on a failure e says why (VALIDATION_ERROR: malformed, over a
 * limit of values or nesting, or the member holding a number out of
 * range). */
json_object *lc_json_parse_ex(const char *buf, size_t len, struct lc_error *e);
/* Compact text of o, owned by o. */
const char *lc_json_text(json_object *o);
/* Typed readers: on a wrong or missing field they set e to
 * VALIDATION_ERROR with the field and return -1. A field that is absent
 * and not required leaves *present 0 (present may be NULL). */
int lc_in_str(struct lc_error *, json_object *obj, const char *name,
    int required, size_t maxlen, const char **out);
int lc_in_int(struct lc_error *, json_object *obj, const char *name,
    int required, int64_t min, int64_t max, int64_t *out, int *present);
/* An amount of the currency cur (NULL or zeroed: the unnamed one, two
 * decimals): a JSON number whose value has at most the currency's
 * decimals, 0 to LC_MONEY_MAX minor units, into *minor. The message of a
 * wrong one names the currency's rule ("with no decimals (JPY)"). */
int lc_in_money(struct lc_error *, json_object *obj, const char *name,
    int required, const struct lc_currency *cur, int64_t *minor,
    int *present);
int lc_in_bool(struct lc_error *, json_object *obj, const char *name,
    int required, int *out, int *present);
/* A rate as a fraction (0.05) into basis points. */
int lc_in_rate(struct lc_error *, json_object *obj, const char *name,
    int required, int64_t *bp, int *present);
/* The optional card_code of a claim or a redemption: NULL when absent,
 * else LC_CODE_DIGITS digits (VALIDATION_ERROR otherwise). 0 or -1. */
int lc_in_card_code(struct lc_error *, json_object *obj, const char **code);
/* An idempotency_key: 1 to LC_KEY_MAX printable ASCII. */
int lc_in_key(struct lc_error *, json_object *obj, int required,
    const char **key);
/* Exact JSON numbers: minor units of a currency with exp decimals,
 * exactly exp written ("1500", "12.50", "1.250"); basis points as
 * "0.05". */
json_object *lc_json_money_exp(int64_t minor, int exp);
/* The same in the currency cur (NULL or zeroed: two decimals). */
json_object *lc_json_money_of(const struct lc_currency *cur, int64_t minor);
json_object *lc_json_rate(int64_t bp);
json_object *lc_json_time(int64_t ms);
json_object *lc_json_str_or_null(const char *s);
/* A time, or null for a negative ms (none). */
json_object *lc_json_time_or_null(int64_t ms);
/* A card type's fields (struct lc_fields) added to o as its members, its
 * amounts in the currency cur: lc_json_fields(&j, o, cur) returns the
 * fields to hand to the type. */
#define LC_JSON_FIELDS_DEPTH 4
struct lc_json_fields {
	struct lc_fields f;	/* first: the type writes to it */
	json_object *stack[LC_JSON_FIELDS_DEPTH];
	int depth;
	int exp;		/* the decimals of its amounts */
};
struct lc_fields *lc_json_fields(struct lc_json_fields *, json_object *o,
    const struct lc_currency *cur);
/* Calls a type's field slot fn (when it has it) on arg, into o, amounts
 * in the currency cur. */
#define LC_JSON_TYPE_FIELDS(fn, arg, o, cur) do {			\
	struct lc_json_fields jf_;					\
									\
	if ((fn) != NULL)						\
		(fn)((arg), lc_json_fields(&jf_, (o), (cur)));		\
} while (0)

#endif /* LC_JSON_H */
