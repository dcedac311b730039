/*
 * JSON in and out. json-c alone accepts NaN, Infinity, single quotes and
 * saturates huge integers, so every body is first checked against RFC 8259
 * here, then parsed by json-c; readers then refuse any coercion.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

#define JSON_MAX_DEPTH 32

struct jscan {
	const unsigned char *p, *end;
	int depth;
	const unsigned char *key;	/* the current top-level member's name */
	size_t keylen;
	int range;			/* failed on a number out of range */
	size_t values;			/* values read so far */
	int toomany, toodeep;		/* failed on a limit */
	int surrogate;			/* failed on a lone surrogate escape */
	int nul;			/* the last string held \\u0000 */
};

static void
ws(struct jscan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' ||
	    *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static int
hex(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F');
}

/* One UTF-8 sequence at s->p (first byte >= 0x80): well-formed, shortest
 * form, no surrogates, at most U+10FFFF. */
static int
utf8(struct jscan *s)
{
	const unsigned char *p = s->p;
	unsigned c = *p, n, i, cp, min;

	if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 0x1f; min = 0x80; }
	else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 0x0f; min = 0x800; }
	else if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 0x07; min = 0x10000; }
	else return -1;
	if (s->end - p <= (long)n)
		return -1;
	for (i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	s->p += n + 1;
	return 0;
}

/* The UTF-16 code unit of a \\u escape whose four hex digits are at p. */
static unsigned
unit(const unsigned char *p)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v = v << 4 | (unsigned)(p[i] <= '9' ? p[i] - '0' :
		    (p[i] | 0x20) - 'a' + 10);
	return v;
}

static int
string(struct jscan *s)
{
	int i;
	unsigned u;

	s->p++;	/* opening quote */
	s->nul = 0;
	while (s->p < s->end) {
		unsigned c = *s->p;

		if (c == '"') {
			s->p++;
			return 0;
		}
		if (c < 0x20)
			return -1;
		if (c == '\\') {
			if (++s->p >= s->end)
				return -1;
			switch (*s->p) {
			case '"': case '\\': case '/': case 'b': case 'f':
			case 'n': case 'r': case 't':
				s->p++;
				break;
			case 'u':
				for (i = 1; i <= 4; i++)
					if (s->p + i >= s->end || !hex(s->p[i]))
						return -1;
				u = unit(s->p + 1);
				s->p += 5;
				if (u == 0)
					s->nul = 1;
				/* A surrogate only as the first half of a pair
				 * whose second half follows: json-c would make a
				 * lone one U+FFFD, text nobody sent. */
				if (u >= 0xdc00 && u <= 0xdfff)
					return s->surrogate = 1, -1;
				if (u >= 0xd800 && u <= 0xdbff) {
					if (s->end - s->p < 6 || s->p[0] != '\\' ||
					    s->p[1] != 'u')
						return s->surrogate = 1, -1;
					for (i = 2; i < 6; i++)
						if (!hex(s->p[i]))
							return -1;
					u = unit(s->p + 2);
					if (u < 0xdc00 || u > 0xdfff)
						return s->surrogate = 1, -1;
					s->p += 6;
				}
				break;
			default:
				return -1;
			}
		} else if (c >= 0x80) {
			if (utf8(s) == -1)
				return -1;
		} else
			s->p++;
	}
	return -1;
}

static int
number(struct jscan *s)
{
	const unsigned char *start = s->p;
	char buf[512];
	int isint = 1;
	size_t len;

	if (*s->p == '-')
		s->p++;
	if (s->p >= s->end)
		return -1;
	if (*s->p == '0')
		s->p++;
	else if (*s->p >= '1' && *s->p <= '9')
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	else
		return -1;
	if (s->p < s->end && *s->p == '.') {
		isint = 0;
		s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return -1;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
		isint = 0;
		s->p++;
		if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
			s->p++;
		if (s->p >= s->end || *s->p < '0' || *s->p > '9')
			return -1;
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9')
			s->p++;
	}
	len = (size_t)(s->p - start);
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, start, len);
	buf[len] = '\0';
	errno = 0;
	if (isint)
		(void)strtoll(buf, NULL, 10);
	else if (!isfinite(strtod(buf, NULL)))
		return s->range = 1, -1;
	return errno == ERANGE && isint ? (s->range = 1, -1) : 0;
}

static int value(struct jscan *);

static int
container(struct jscan *s, int obj)
{
	unsigned char close = obj ? '}' : ']';

	if (++s->depth > JSON_MAX_DEPTH)
		return s->toodeep = 1, -1;
	s->p++;
	ws(s);
	if (s->p < s->end && *s->p == close) {
		s->p++;
		s->depth--;
		return 0;
	}
	for (;;) {
		if (obj) {
			const unsigned char *k;

			ws(s);
			k = s->p;
			if (s->p >= s->end || *s->p != '"' || string(s) == -1)
				return -1;
			/* json-c would cut the name at a NUL: "a\u0000b" would
			 * be read as "a". (Not "a\\u0000": an escaped
			 * backslash, then text.) */
			if (s->nul)
				return -1;
			if (s->depth == 1) {
				s->key = k + 1;
				s->keylen = (size_t)(s->p - k - 2);
			}
			ws(s);
			if (s->p >= s->end || *s->p++ != ':')
				return -1;
		}
		if (value(s) == -1)
			return -1;
		ws(s);
		if (s->p >= s->end)
			return -1;
		if (*s->p == ',') {
			s->p++;
			continue;
		}
		if (*s->p++ != close)
			return -1;
		s->depth--;
		return 0;
	}
}

static int
literal(struct jscan *s, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int
value(struct jscan *s)
{
	/* Counted before json-c builds anything: 100,000 tiny members would
	 * cost megabytes of objects for nothing. */
	if (++s->values > LC_JSON_VALUES_MAX)
		return s->toomany = 1, -1;
	ws(s);
	if (s->p >= s->end)
		return -1;
	switch (*s->p) {
	case '{': return container(s, 1);
	case '[': return container(s, 0);
	case '"': return string(s);
	case 't': return literal(s, "true");
	case 'f': return literal(s, "false");
	case 'n': return literal(s, "null");
	default: return number(s);
	}
}

int
lc_utf8_valid(const char *str)
{
	struct jscan s;

	memset(&s, 0, sizeof(s));
	s.p = (const unsigned char *)str;
	s.end = s.p + strlen(str);
	while (s.p < s.end) {
		if (*s.p < 0x80)
			s.p++;
		else if (utf8(&s) == -1)
			return 0;
	}
	return 1;
}

/* The check; on a failure, e (when given) says why: the member holding
 * a number out of range, a limit, or malformed JSON. */
static int
check(const char *buf, size_t len, struct lc_error *e)
{
	struct jscan s;
	char field[64];

	memset(&s, 0, sizeof(s));
	s.p = (const unsigned char *)buf;
	s.end = s.p + len;
	if (value(&s) == 0) {
		ws(&s);
		if (s.p == s.end)
			return 0;
	}
	if (e == NULL)
		return -1;
	if (s.toomany)
		return lc_error_set(e, LC_E_VALIDATION, NULL, "The body holds more "
		    "than %d values.", LC_JSON_VALUES_MAX);
	if (s.toodeep)
		return lc_error_set(e, LC_E_VALIDATION, NULL, "The body nests "
		    "deeper than %d levels.", JSON_MAX_DEPTH);
	if (s.surrogate)
		return lc_error_set(e, LC_E_VALIDATION, NULL, "The body holds a "
		    "lone UTF-16 surrogate escape (\\ud800 to \\udfff without "
		    "its pair), which stands for no character.");
	/* A plain member name only: it is echoed in the error. */
	if (s.range && s.key != NULL && s.keylen < sizeof(field) &&
	    memchr(s.key, '\\', s.keylen) == NULL) {
		memcpy(field, s.key, s.keylen);
		field[s.keylen] = '\0';
		return lc_error_set(e, LC_E_VALIDATION, field,
		    "%s holds a number out of range", field);
	}
	return lc_error_set(e, LC_E_VALIDATION, NULL,
	    "The body is not valid JSON.");
}

int
lc_json_check(const char *buf, size_t len)
{
	return check(buf, len, NULL);
}

json_object *
lc_json_parse(const char *buf, size_t len)
{
	return lc_json_parse_ex(buf, len, NULL);
}

json_object *
lc_json_parse_ex(const char *buf, size_t len, struct lc_error *e)
{
	struct json_tokener *tok;
	json_object *o;

	if (len > INT32_MAX) {
		if (e != NULL)
			lc_error_set(e, LC_E_VALIDATION, NULL,
			    "The body is not valid JSON.");
		return NULL;
	}
	if (check(buf, len, e) == -1)
		return NULL;
	if ((tok = json_tokener_new_ex(JSON_MAX_DEPTH + 1)) == NULL) {
		if (e != NULL)
			lc_error_set(e, LC_E_INTERNAL, NULL, NULL);
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, buf, (int)len);
	/* A bare number or word at the very end waits for a delimiter:
	 * feed json-c the end of input. */
	if (o == NULL && json_tokener_get_error(tok) == json_tokener_continue)
		o = json_tokener_parse_ex(tok, "", 1);
	if (json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		o = NULL;
		if (e != NULL)
			lc_error_set(e, LC_E_VALIDATION, NULL,
			    "The body is not valid JSON.");
	}
	json_tokener_free(tok);
	return o;
}

/* The field's value, NULL when absent or JSON null. */
static json_object *
field(json_object *obj, const char *name)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(obj, name, &v))
		return NULL;
	return v;
}

static int
missing(struct lc_error *e, const char *name)
{
	return lc_error_set(e, LC_E_VALIDATION, name, "%s is required", name);
}

size_t
lc_utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

int
lc_in_str(struct lc_error *e, json_object *obj, const char *name,
    int required, size_t maxlen, const char **out)
{
	json_object *v = field(obj, name);
	const char *s;

	*out = NULL;
	if (v == NULL)
		return required ? missing(e, name) : 0;
	if (!json_object_is_type(v, json_type_string))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be a string", name);
	s = json_object_get_string(v);
	if ((size_t)json_object_get_string_len(v) != strlen(s))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must not contain NUL characters", name);
	if (required && *s == '\0')
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must not be empty", name);
	if (lc_utf8_chars(s) > maxlen)
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be at most %zu characters", name, maxlen);
	*out = s;
	return 0;
}

int
lc_in_int(struct lc_error *e, json_object *obj, const char *name,
    int required, int64_t min, int64_t max, int64_t *out, int *present)
{
	json_object *v = field(obj, name);
	int64_t n;

	if (present != NULL)
		*present = 0;
	if (v == NULL)
		return required ? missing(e, name) : 0;
	if (!json_object_is_type(v, json_type_int))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be an integer", name);
	n = json_object_get_int64(v);
	if (n < min || n > max)
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be from %lld to %lld", name, (long long)min,
		    (long long)max);
	*out = n;
	if (present != NULL)
		*present = 1;
	return 0;
}

int
lc_in_money(struct lc_error *e, json_object *obj, const char *name,
    int required, const struct lc_currency *cur, int64_t *minor, int *present)
{
	json_object *v = field(obj, name);
	char max[32], rule[48];
	int exp = lc_currency_exp(cur);

	if (present != NULL)
		*present = 0;
	if (v == NULL)
		return required ? missing(e, name) : 0;
	if (!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be a number", name);
	/* json-c keeps a parsed number's text: exact, no double rounding.
	 * The amount is the number's value, as JSON means it: 1500.0 yen is
	 * 1500 yen, as 12.340 is 12.34 of a two-decimal currency (v1). */
	if (lc_money_parse(json_object_get_string(v), exp, LC_MONEY_MAX,
	    minor) == -1) {
		lc_money_fmt(LC_MONEY_MAX, exp, max);
		/* The unnamed currency's message is v1's to the byte. */
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be an amount from 0 to %s %s", name, max,
		    lc_money_rule(cur, rule, sizeof(rule)));
	}
	if (present != NULL)
		*present = 1;
	return 0;
}

int
lc_in_rate(struct lc_error *e, json_object *obj, const char *name,
    int required, int64_t *bp, int *present)
{
	json_object *v = field(obj, name);

	if (present != NULL)
		*present = 0;
	if (v == NULL)
		return required ? missing(e, name) : 0;
	if ((!json_object_is_type(v, json_type_int) &&
	    !json_object_is_type(v, json_type_double)) ||
	    lc_decimal_parse(json_object_get_string(v), 4, LC_RATE_MAX, bp) == -1)
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be a fraction from 0 to 1 with at most 4 decimals "
		    "(0.05 is 5 %%)", name);
	if (present != NULL)
		*present = 1;
	return 0;
}

int
lc_in_bool(struct lc_error *e, json_object *obj, const char *name,
    int required, int *out, int *present)
{
	json_object *v = field(obj, name);

	if (present != NULL)
		*present = 0;
	if (v == NULL)
		return required ? missing(e, name) : 0;
	if (!json_object_is_type(v, json_type_boolean))
		return lc_error_set(e, LC_E_VALIDATION, name,
		    "%s must be true or false", name);
	*out = json_object_get_boolean(v);
	if (present != NULL)
		*present = 1;
	return 0;
}

int
lc_in_key(struct lc_error *e, json_object *obj, int required, const char **key)
{
	if (lc_in_str(e, obj, "idempotency_key", required, LC_KEY_MAX, key) == -1)
		return -1;
	if (*key != NULL && (**key == '\0' || !lc_is_printable_ascii(*key)))
		return lc_error_set(e, LC_E_VALIDATION, "idempotency_key",
		    "idempotency_key must be 1 to %d printable ASCII characters",
		    LC_KEY_MAX);
	return 0;
}

int
lc_in_card_code(struct lc_error *e, json_object *obj, const char **code)
{
	/* Any length read, so a wrong one gets the message below. */
	if (lc_in_str(e, obj, "card_code", 0, LC_QR_MAX, code) == -1)
		return -1;
	if (*code != NULL && !lc_card_code_form(*code))
		return lc_error_set(e, LC_E_VALIDATION, "card_code",
		    "card_code must be the %d digits after the '.' of the "
		    "QR code on the customer's card page", LC_CODE_DIGITS);
	return 0;
}

const char *
lc_json_text(json_object *o)
{
	return json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE);
}

json_object *
lc_json_money_exp(int64_t minor, int exp)
{
	char buf[32];
	double div = 1.0;
	int i;

	for (i = 0; i < exp; i++)
		div *= 10.0;
	lc_money_fmt(minor, exp, buf);
	/* The text is what is written; the double is what json-c hands a
	 * reader of the object (a test, a webhook's filter). */
	return json_object_new_double_s((double)minor / div, buf);
}

json_object *
lc_json_money_of(const struct lc_currency *cur, int64_t minor)
{
	return lc_json_money_exp(minor, lc_currency_exp(cur));
}

json_object *
lc_json_rate(int64_t bp)
{
	char buf[32];

	lc_decimal_fmt(bp, 4, 0, buf);
	return json_object_new_double_s((double)bp / 10000.0, buf);
}

json_object *
lc_json_time(int64_t ms)
{
	char buf[32];

	lc_time_fmt(ms, buf);
	return json_object_new_string(buf);
}

json_object *
lc_json_str_or_null(const char *s)
{
	return s == NULL ? NULL : json_object_new_string(s);
}

json_object *
lc_json_time_or_null(int64_t ms)
{
	return ms >= 0 ? lc_json_time(ms) : NULL;
}

/* A card type's fields (lc_card.h) as JSON members. */

static json_object *
jf_top(struct lc_fields *f)
{
	struct lc_json_fields *j = (struct lc_json_fields *)(void *)f;

	return j->stack[j->depth];
}

static void
jf_add(struct lc_fields *f, const char *key, json_object *v)
{
	json_object_object_add(jf_top(f), key, v);
}

static void
jf_num(struct lc_fields *f, const char *key, int64_t v)
{
	jf_add(f, key, json_object_new_int64(v));
}

static void
jf_money(struct lc_fields *f, const char *key, int64_t v)
{
	struct lc_json_fields *j = (struct lc_json_fields *)(void *)f;

	jf_add(f, key, lc_json_money_exp(v, j->exp));
}

static void
jf_rate(struct lc_fields *f, const char *key, int64_t v)
{
	jf_add(f, key, lc_json_rate(v));
}

static void
jf_time(struct lc_fields *f, const char *key, int64_t v)
{
	jf_add(f, key, lc_json_time(v));
}

static void
jf_str(struct lc_fields *f, const char *key, const char *v)
{
	jf_add(f, key, lc_json_str_or_null(v));
}

static void
jf_flag(struct lc_fields *f, const char *key, int v)
{
	jf_add(f, key, json_object_new_boolean(v));
}

static void
jf_null(struct lc_fields *f, const char *key)
{
	jf_add(f, key, NULL);
}

static void
jf_open(struct lc_fields *f, const char *key)
{
	struct lc_json_fields *j = (struct lc_json_fields *)(void *)f;
	json_object *o = json_object_new_object();

	jf_add(f, key, o);
	/* A type's objects are shallow; deeper is a bug, kept at the top. */
	if (j->depth + 1 < LC_JSON_FIELDS_DEPTH)
		j->stack[++j->depth] = o;
}

static void
jf_close(struct lc_fields *f)
{
	struct lc_json_fields *j = (struct lc_json_fields *)(void *)f;

	if (j->depth > 0)
		j->depth--;
}

struct lc_fields *
lc_json_fields(struct lc_json_fields *j, json_object *o,
    const struct lc_currency *cur)
{
	static const struct lc_fields ops = { jf_num, jf_money, jf_rate,
	    jf_time, jf_str, jf_flag, jf_null, jf_open, jf_close };

	j->f = ops;
	j->stack[0] = o;
	j->depth = 0;
	j->exp = lc_currency_exp(cur);
	return &j->f;
}
