/*
 * Unit tests of lib/json.c (strict JSON, typed readers, exact numbers),
 * the error table and lc_error_set (lib/err.c) and lc_query_get (lib/http_request.c).
 * One behaviour per test point, named after the case.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"
#include "tap.h"

/* A literal with its exact length, embedded NULs included. */
#define L(s) (s), (sizeof(s) - 1)

/* ---- strict JSON: accepted ---- */

/* Both the checker and the parser take buf; the parser gives a value. */
static void
accepts(const char *buf, size_t len, const char *name)
{
	json_object *o;
	int rc = lc_json_check(buf, len);

	o = lc_json_parse(buf, len);
	ok(rc == 0 && o != NULL, "json: accepts %s", name);
	if (rc != 0 || o == NULL)
		diag("lc_json_check %d, lc_json_parse %s", rc, o ? "ok" : "NULL");
	json_object_put(o);
}

/* Both the checker and the parser refuse buf. */
static void
rejects(const char *buf, size_t len, const char *name)
{
	json_object *o;
	int rc = lc_json_check(buf, len);

	o = lc_json_parse(buf, len);
	ok(rc == -1 && o == NULL, "json: rejects %s", name);
	if (rc != -1 || o != NULL)
		diag("lc_json_check %d, lc_json_parse %s", rc, o ? "a value" : "NULL");
	json_object_put(o);
}

static void
test_json_accepts(void)
{
	accepts(L("{}"), "an empty object");
	accepts(L("[]"), "an empty array");
	accepts(L("{\"a\":1,\"b\":\"x\",\"c\":true,\"d\":false,\"e\":null}"),
	    "an object of every scalar type");
	accepts(L("[1,\"x\",true,false,null,1.5,{}]"), "an array of mixed values");
	accepts(L("{\"a\":{\"b\":[1,[2,{\"c\":[]}]]}}"), "nested objects and arrays");
	accepts(L(" \t\r\n{ \"a\" : [ 1 , 2 ] }\n\t\r "),
	    "JSON whitespace everywhere it is allowed");
	accepts(L("[0,-0,1,-1,0.5,-0.5,1e2,1E2,1e+2,1e-2,1.5e10,-1.5E-10]"),
	    "numbers in every valid form");
	accepts(L("[9223372036854775807]"), "INT64_MAX");
	accepts(L("[-9223372036854775808]"), "INT64_MIN");
	accepts(L("[\"\\ud83d\\ude00\"]"), "an escaped surrogate pair");
	accepts(L("[\"\\uD83D\\uDE00\"]"), "an escaped surrogate pair in capitals");
	accepts(L("[\"a\\\\ud800b\"]"), "an escaped backslash before ud800 (no escape)");
	accepts(L("{\"\\ud83d\\ude00\":1}"), "a surrogate pair in a member's name");
	accepts(L("{\"x\\\\u0000\":1}"), "a name with an escaped backslash before u0000 (no NUL)");
	accepts(L("[1.7976931348623157e308]"), "the largest double");
	accepts(L("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]"), "every short escape");
	accepts(L("[\"\\u0041\\u00e9\\u00E9\\u20ac\"]"), "\\u escapes, both cases");
	accepts(L("[\"\\ud83d\\ude00\"]"), "a \\u surrogate pair");
	accepts(L("[\"caf\xc3\xa9\"]"), "2-byte UTF-8");
	accepts(L("[\"\xe2\x82\xac\"]"), "3-byte UTF-8");
	accepts(L("[\"\xf0\x9f\x98\x80\"]"), "4-byte UTF-8");
	accepts(L("[\"\xed\x9f\xbf\"]"), "U+D7FF, just below the surrogates");
	accepts(L("[\"\xee\x80\x80\"]"), "U+E000, just above the surrogates");
	accepts(L("[\"\xef\xbf\xbf\"]"), "U+FFFF");
	accepts(L("[\"\xf4\x8f\xbf\xbf\"]"), "U+10FFFF, the last code point");
	accepts(L("[\"\x7f\"]"), "a raw DEL in a string");
	accepts(L("\"x\""), "a top-level string");
	accepts(L("{\"\xc3\xa9\":1}"), "a UTF-8 key");
}

static void
test_json_parse_values(void)
{
	json_object *o, *v;

	o = lc_json_parse(L("{\"s\":\"\\u00e9\\ud83d\\ude00\\n\"}"));
	ok(o != NULL && json_object_object_get_ex(o, "s", &v) &&
	    strcmp(json_object_get_string(v), "\xc3\xa9\xf0\x9f\x98\x80\n") == 0,
	    "json: \\u escapes decode to UTF-8");
	json_object_put(o);

	o = lc_json_parse(L("{\"n\":-9223372036854775808}"));
	ok(o != NULL && json_object_object_get_ex(o, "n", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) == INT64_MIN,
	    "json: INT64_MIN parses as an exact integer");
	json_object_put(o);

	/* The parser reads only len bytes: what follows is not its business. */
	o = lc_json_parse("{}garbage", 2);
	ok(o != NULL && json_object_is_type(o, json_type_object),
	    "json: bytes past len are not read");
	json_object_put(o);

	/* RFC 8259 allows any value at the top: lc_json_check does. */
	o = lc_json_parse(L("1"));
	ok(o != NULL && json_object_is_type(o, json_type_int) &&
	    json_object_get_int64(o) == 1,
	    "json: lc_json_parse gives a top-level number 1 like lc_json_check");
	json_object_put(o);
	o = lc_json_parse(L("true"));
	ok(o != NULL && json_object_is_type(o, json_type_boolean),
	    "json: lc_json_parse gives a top-level true like lc_json_check");
	json_object_put(o);
}

/* ---- strict JSON: refused ---- */

static void
test_json_rejects(void)
{
	rejects(L("[\"\\ud800\"]"), "a lone high surrogate escape");
	rejects(L("[\"\\udc00\"]"), "a lone low surrogate escape");
	rejects(L("[\"\\udc00\\ud800\"]"), "a surrogate pair the wrong way round");
	rejects(L("[\"\\ud800\\ud800\"]"), "a high surrogate followed by another");
	rejects(L("[\"\\ud800x\"]"), "a high surrogate followed by a character");
	rejects(L("[\"\\ud800\\u00"), "input ending inside a surrogate pair");
	rejects(L("{\"\\ud800\":1}"), "a lone surrogate in a member's name");
	/* Syntax. */
	rejects(L(""), "empty input");
	rejects(L("   \n\t"), "whitespace only");
	rejects(L("[1,]"), "a trailing comma in an array");
	rejects(L("{\"a\":1,}"), "a trailing comma in an object");
	rejects(L("[,1]"), "a leading comma");
	rejects(L("[1,,2]"), "two commas");
	rejects(L("[1 2]"), "a missing comma");
	rejects(L("{\"a\" 1}"), "a missing colon");
	rejects(L("{\"a\":}"), "a missing member value");
	rejects(L("{\"a\"}"), "a key without value");
	rejects(L("{a:1}"), "an unquoted key");
	rejects(L("{1:1}"), "a number as key");
	rejects(L("{'a':1}"), "single-quoted keys");
	rejects(L("['a']"), "single-quoted strings");
	rejects(L("{\"a\":1"), "an unclosed object");
	rejects(L("[1"), "an unclosed array");
	rejects(L("[1}"), "mismatched brackets");
	rejects(L("[\"abc"), "an unterminated string");
	rejects(L("{/*c*/}"), "a block comment");
	rejects(L("{}//c"), "a line comment after the value");
	rejects(L("//c\n{}"), "a line comment before the value");
	rejects(L("#c\n{}"), "a hash comment");
	rejects(L("\f{}"), "form feed as whitespace");
	rejects(L("\xc2\xa0{}"), "no-break space as whitespace");
	rejects(L("\xef\xbb\xbf{}"), "a byte order mark");
	rejects(L("[tru]"), "a truncated literal");
	rejects(L("[True]"), "a capitalised literal");
	rejects(L("[NULL]"), "an upper-case null");
	rejects(L("[undefined]"), "undefined");

	/* Numbers. */
	rejects(L("[NaN]"), "NaN");
	rejects(L("[Infinity]"), "Infinity");
	rejects(L("[-Infinity]"), "-Infinity");
	rejects(L("[1e999]"), "1e999 (beyond double)");
	rejects(L("[-1e999]"), "-1e999 (beyond double)");
	rejects(L("[9223372036854775808]"), "INT64_MAX + 1");
	rejects(L("[-9223372036854775809]"), "INT64_MIN - 1");
	rejects(L("[99999999999999999999]"), "a 20-digit integer");
	rejects(L("[01]"), "a leading zero");
	rejects(L("[-01]"), "a negative leading zero");
	rejects(L("[00]"), "a double zero");
	rejects(L("[1.]"), "a point without fraction digits");
	rejects(L("[.5]"), "a point without integer digits");
	rejects(L("[+1]"), "a plus sign");
	rejects(L("[-]"), "a lone minus");
	rejects(L("[--1]"), "two minus signs");
	rejects(L("[1e]"), "an exponent without digits");
	rejects(L("[1e+]"), "an exponent sign without digits");
	rejects(L("[1.e2]"), "a point then an exponent");
	rejects(L("[0x10]"), "hexadecimal");
	rejects(L("01"), "a top-level leading zero");

	/* Strings. */
	rejects(L("[\"a\tb\"]"), "a raw tab in a string");
	rejects(L("[\"a\nb\"]"), "a raw newline in a string");
	rejects(L("[\"a\x1f" "b\"]"), "a raw 0x1f in a string");
	rejects(L("[\"a\0b\"]"), "a raw NUL in a string");
	rejects(L("[\"\\x41\"]"), "the escape \\x");
	rejects(L("[\"\\'\"]"), "the escape \\'");
	rejects(L("[\"\\U0041\"]"), "the escape \\U");
	rejects(L("[\"\\u12\"]"), "a truncated \\u12");
	rejects(L("[\"\\u12G4\"]"), "a non-hex \\u digit");
	rejects(L("[\"\\"), "a backslash at the end of input");

	/* UTF-8. */
	rejects(L("[\"\xc0\x80\"]"), "overlong C0 80");
	rejects(L("[\"\xc1\xbf\"]"), "overlong C1 BF");
	rejects(L("[\"\xe0\x80\x80\"]"), "overlong 3-byte E0 80 80");
	rejects(L("[\"\xf0\x80\x80\x80\"]"), "overlong 4-byte F0 80 80 80");
	rejects(L("[\"\xed\xa0\x80\"]"), "the surrogate ED A0 80");
	rejects(L("[\"\xed\xbf\xbf\"]"), "the surrogate ED BF BF");
	rejects(L("[\"\xf4\x90\x80\x80\"]"), "F4 90 80 80, above U+10FFFF");
	rejects(L("[\"\xf5\x80\x80\x80\"]"), "the lead byte F5");
	rejects(L("[\"\xff\"]"), "the byte FF");
	rejects(L("[\"\x80\"]"), "a lone continuation byte 80");
	rejects(L("[\"\xe2\x82\"]"), "a truncated 3-byte sequence");
	rejects(L("[\"\xf0\x9f\x98\"]"), "a truncated 4-byte sequence");
	rejects(L("[\"\xc3"), "a sequence cut by the end of input");
	rejects(L("{\"\xc0\x80\":1}"), "invalid UTF-8 in a key");

	/* Bytes after the value. */
	rejects(L("{} x"), "garbage after the value ({} x)");
	rejects(L("{}{}"), "two values ({}{})");
	rejects(L("[] []"), "two arrays");
	rejects(L("{}\0"), "a NUL after the value");
	rejects(L("[1]]"), "an extra closing bracket");
}

/* ---- depth: JSON_MAX_DEPTH is 32 nested containers ---- */

static char *
nest(int depth, const char *open, const char *inner, const char *close)
{
	size_t lo = strlen(open), li = strlen(inner), lc = strlen(close);
	char *s = malloc((size_t)depth * (lo + lc) + li + 1), *p;
	int i;

	if (s == NULL)
		bail("out of memory");
	p = s;
	for (i = 0; i < depth; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, inner, li);
	p += li;
	for (i = 0; i < depth; i++, p += lc)
		memcpy(p, close, lc);
	*p = '\0';
	return s;
}

static void
test_json_depth(void)
{
	char *s;

	s = nest(32, "[", "", "]");
	accepts(s, strlen(s), "32 nested empty arrays");
	free(s);
	s = nest(33, "[", "", "]");
	rejects(s, strlen(s), "33 nested empty arrays");
	free(s);
	s = nest(32, "[", "1", "]");
	accepts(s, strlen(s), "32 nested arrays around a number");
	free(s);
	s = nest(33, "[", "1", "]");
	rejects(s, strlen(s), "33 nested arrays around a number");
	free(s);
	s = nest(32, "{\"a\":", "1", "}");
	accepts(s, strlen(s), "32 nested objects");
	free(s);
	s = nest(31, "{\"a\":", "{}", "}");
	accepts(s, strlen(s), "31 nested objects around an empty object");
	free(s);
	s = nest(32, "{\"a\":", "{}", "}");
	rejects(s, strlen(s), "33 nested objects");
	free(s);
	s = nest(16, "[{\"a\":", "[]", "}]");
	rejects(s, strlen(s), "33 nested arrays and objects mixed");
	free(s);
	s = nest(16, "[{\"a\":", "1", "}]");
	accepts(s, strlen(s), "32 nested arrays and objects mixed");
	free(s);
	/* Depth is nesting, not count: siblings do not add up. */
	{
		char *a = nest(31, "[", "", "]"), *b;
		size_t n = strlen(a);

		if ((b = malloc(2 * n + 4)) == NULL)
			bail("out of memory");
		snprintf(b, 2 * n + 4, "[%s,%s]", a, a);
		accepts(b, strlen(b), "two sibling arrays of depth 31 in one array");
		free(a);
		free(b);
	}
}

/* ---- typed readers ---- */

static json_object *
obj(const char *text)
{
	json_object *o = lc_json_parse(text, strlen(text));

	if (o == NULL)
		bail("test body does not parse: %s", text);
	return o;
}

/* The reader failed with VALIDATION_ERROR naming field. */
static int
failed_on(const struct lc_error *ctx, const char *field)
{
	return ctx->code == LC_E_VALIDATION && strcmp(ctx->field, field) == 0 &&
	    ctx->msg[0] != '\0';
}

static void
test_in_str(void)
{
	struct lc_error ctx;
	json_object *o;
	const char *s;
	char *big;
	size_t i;

	o = obj("{\"name\":\"Ann\",\"n\":5,\"e\":\"\",\"z\":null,"
	    "\"nul\":\"a\\u0000b\",\"b\":true,\"a\":[\"x\"],\"u\":\"\xc3\xa9t\xc3\xa9\"}");

	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "name", 1, 100, &s) == 0 && s != NULL &&
	    strcmp(s, "Ann") == 0 && ctx.code == LC_OK,
	    "in_str: a present string is returned");
	memset(&ctx, 0, sizeof(ctx));
	s = "sentinel";
	ok(lc_in_str(&ctx, o, "missing", 1, 100, &s) == -1 &&
	    failed_on(&ctx, "missing"),
	    "in_str: a missing required field is VALIDATION_ERROR naming it");
	memset(&ctx, 0, sizeof(ctx));
	s = "sentinel";
	ok(lc_in_str(&ctx, o, "missing", 0, 100, &s) == 0 && s == NULL &&
	    ctx.code == LC_OK, "in_str: a missing optional field gives NULL");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "z", 1, 100, &s) == -1 && failed_on(&ctx, "z"),
	    "in_str: a null required field counts as missing");
	memset(&ctx, 0, sizeof(ctx));
	s = "sentinel";
	ok(lc_in_str(&ctx, o, "z", 0, 100, &s) == 0 && s == NULL &&
	    ctx.code == LC_OK, "in_str: a null optional field counts as absent");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "n", 1, 100, &s) == -1 && failed_on(&ctx, "n"),
	    "in_str: a number is refused, not coerced");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "n", 0, 100, &s) == -1 && failed_on(&ctx, "n"),
	    "in_str: a number is refused even when optional");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "b", 1, 100, &s) == -1 && failed_on(&ctx, "b"),
	    "in_str: a boolean is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "a", 1, 100, &s) == -1 && failed_on(&ctx, "a"),
	    "in_str: an array is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "e", 1, 100, &s) == -1 && failed_on(&ctx, "e"),
	    "in_str: an empty string is refused when required");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "e", 0, 100, &s) == 0 && s != NULL && *s == '\0',
	    "in_str: an empty string is accepted when optional");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "nul", 1, 100, &s) == -1 && failed_on(&ctx, "nul"),
	    "in_str: a string holding \\u0000 is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "u", 1, 3, &s) == 0,
	    "in_str: 3 characters of 5 bytes pass a maximum of 3");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "u", 1, 2, &s) == -1 && failed_on(&ctx, "u"),
	    "in_str: 3 characters fail a maximum of 2");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "name", 1, 3, &s) == 0,
	    "in_str: a string of exactly the maximum passes");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "name", 1, 2, &s) == -1 && failed_on(&ctx, "name"),
	    "in_str: a string one over the maximum fails");
	json_object_put(o);

	/* 500 two-byte characters (1000 bytes): characters are counted. */
	big = malloc(32 + 501 * 2);
	if (big == NULL)
		bail("out of memory");
	strcpy(big, "{\"t\":\"");
	for (i = 0; i < 500; i++)
		strcat(big, "\xc3\xa9");
	strcat(big, "\"}");
	o = obj(big);
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "t", 1, 500, &s) == 0 && s != NULL &&
	    strlen(s) == 1000,
	    "in_str: 500 two-byte characters pass a maximum of 500");
	json_object_put(o);
	strcpy(big, "{\"t\":\"");
	for (i = 0; i < 501; i++)
		strcat(big, "\xc3\xa9");
	strcat(big, "\"}");
	o = obj(big);
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "t", 1, 500, &s) == -1 && failed_on(&ctx, "t"),
	    "in_str: 501 two-byte characters fail a maximum of 500");
	json_object_put(o);
	free(big);

	/* Four-byte characters count once too. */
	o = obj("{\"t\":\"\xf0\x9f\x98\x80\xf0\x9f\x98\x80\"}");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_str(&ctx, o, "t", 1, 2, &s) == 0,
	    "in_str: two 4-byte characters pass a maximum of 2");
	json_object_put(o);
}

static void
test_in_int(void)
{
	struct lc_error ctx;
	json_object *o;
	int64_t v;
	int present;

	o = obj("{\"i\":7,\"d\":2.0,\"s\":\"1\",\"z\":null,\"neg\":-3,"
	    "\"max\":9223372036854775807,\"b\":true,\"e\":1e2}");

	memset(&ctx, 0, sizeof(ctx));
	v = 0;
	present = 0;
	ok(lc_in_int(&ctx, o, "i", 1, 1, 100, &v, &present) == 0 && v == 7 &&
	    present == 1, "in_int: an integer in range is returned, present 1");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "d", 1, 1, 100, &v, &present) == -1 &&
	    failed_on(&ctx, "d"), "in_int: 2.0 is refused as not an integer");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "e", 1, 1, 1000, &v, &present) == -1 &&
	    failed_on(&ctx, "e"), "in_int: 1e2 is refused as not an integer");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "s", 1, 1, 100, &v, &present) == -1 &&
	    failed_on(&ctx, "s"), "in_int: the string \"1\" is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "b", 1, 0, 100, &v, &present) == -1 &&
	    failed_on(&ctx, "b"), "in_int: true is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "x", 1, 1, 100, &v, &present) == -1 &&
	    failed_on(&ctx, "x"), "in_int: a missing required field is refused");
	memset(&ctx, 0, sizeof(ctx));
	present = 1;
	v = 42;
	ok(lc_in_int(&ctx, o, "x", 0, 1, 100, &v, &present) == 0 &&
	    present == 0 && v == 42 && ctx.code == LC_OK,
	    "in_int: a missing optional field gives present 0, value untouched");
	memset(&ctx, 0, sizeof(ctx));
	present = 1;
	ok(lc_in_int(&ctx, o, "z", 0, 1, 100, &v, &present) == 0 &&
	    present == 0, "in_int: a null optional field counts as absent");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "z", 1, 1, 100, &v, &present) == -1 &&
	    failed_on(&ctx, "z"), "in_int: a null required field counts as missing");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "i", 1, 1, 100, &v, NULL) == 0 && v == 7,
	    "in_int: present may be NULL");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "i", 1, 7, 7, &v, NULL) == 0 && v == 7,
	    "in_int: a value equal to min and max passes");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "i", 1, 8, 100, &v, NULL) == -1 &&
	    failed_on(&ctx, "i"), "in_int: a value below min is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "i", 1, 1, 6, &v, NULL) == -1 &&
	    failed_on(&ctx, "i"), "in_int: a value above max is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "neg", 1, 1, 100, &v, NULL) == -1 &&
	    failed_on(&ctx, "neg"), "in_int: a negative value below min 1 is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "max", 1, 0, INT64_MAX, &v, NULL) == 0 &&
	    v == INT64_MAX, "in_int: INT64_MAX passes an INT64_MAX maximum");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_int(&ctx, o, "max", 1, 1, 100, &v, NULL) == -1 &&
	    failed_on(&ctx, "max"), "in_int: INT64_MAX fails a maximum of 100");
	json_object_put(o);
}

static void
money_is(const char *text, int64_t want)
{
	struct lc_error ctx;
	json_object *o = obj(text);
	int64_t c = -1;
	int present = 0;

	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_money(&ctx, o, "m", 1, NULL, &c, &present) == 0 && c == want &&
	    present == 1, "in_money: %s gives %lld cents", text, (long long)want);
	if (c != want)
		diag("got %lld", (long long)c);
	json_object_put(o);
}

static void
money_rejects(const char *text, const char *why)
{
	struct lc_error ctx;
	json_object *o = obj(text);
	int64_t c = -1;

	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_money(&ctx, o, "m", 1, NULL, &c, NULL) == -1 && failed_on(&ctx, "m"),
	    "in_money: refuses %s (%s)", why, text);
	json_object_put(o);
}

static void
test_in_money(void)
{
	struct lc_error ctx;
	json_object *o;
	int64_t c;
	int present;

	money_is("{\"m\":12.5}", 1250);
	money_is("{\"m\":12.50}", 1250);
	money_is("{\"m\":19.99}", 1999);
	money_is("{\"m\":0.1}", 10);
	money_is("{\"m\":0.01}", 1);
	money_is("{\"m\":0}", 0);
	money_is("{\"m\":12}", 1200);
	money_is("{\"m\":1000000}", 100000000);
	money_is("{\"m\":1000000.00}", 100000000);
	money_is("{\"m\":1e2}", 10000);
	money_is("{\"m\":1.5E+1}", 1500);
	money_is("{\"m\":12.340}", 1234);
	money_is("{\"m\":-0}", 0);

	money_rejects("{\"m\":12.345}", "three decimals");
	money_rejects("{\"m\":0.001}", "a tenth of a cent");
	money_rejects("{\"m\":\"1.00\"}", "a string");
	money_rejects("{\"m\":-1}", "a negative integer");
	money_rejects("{\"m\":-0.01}", "a negative cent");
	money_rejects("{\"m\":1000000.01}", "one cent above 1000000.00");
	money_rejects("{\"m\":1000001}", "an integer above 1000000");
	money_rejects("{\"m\":1e308}", "a huge double");
	money_rejects("{\"m\":true}", "a boolean");
	money_rejects("{\"m\":[1]}", "an array");
	money_rejects("{\"m\":{}}", "an object");
	money_rejects("{\"m\":null}", "null when required");
	money_rejects("{}", "a missing required amount");

	o = obj("{\"m\":null}");
	memset(&ctx, 0, sizeof(ctx));
	present = 1;
	c = 77;
	ok(lc_in_money(&ctx, o, "m", 0, NULL, &c, &present) == 0 && present == 0 &&
	    c == 77 && ctx.code == LC_OK,
	    "in_money: a null optional amount counts as absent");
	json_object_put(o);
}

static void
test_in_bool(void)
{
	struct lc_error ctx;
	json_object *o;
	int v, present;

	o = obj("{\"t\":true,\"f\":false,\"one\":1,\"s\":\"true\",\"z\":null}");
	memset(&ctx, 0, sizeof(ctx));
	v = 0;
	ok(lc_in_bool(&ctx, o, "t", 1, &v, &present) == 0 && v == 1 &&
	    present == 1, "in_bool: true gives 1");
	memset(&ctx, 0, sizeof(ctx));
	v = 1;
	ok(lc_in_bool(&ctx, o, "f", 1, &v, &present) == 0 && v == 0 &&
	    present == 1, "in_bool: false gives 0");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_bool(&ctx, o, "one", 1, &v, &present) == -1 &&
	    failed_on(&ctx, "one"), "in_bool: 1 is refused, not coerced");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_bool(&ctx, o, "s", 1, &v, &present) == -1 &&
	    failed_on(&ctx, "s"), "in_bool: the string \"true\" is refused");
	memset(&ctx, 0, sizeof(ctx));
	ok(lc_in_bool(&ctx, o, "x", 1, &v, &present) == -1 &&
	    failed_on(&ctx, "x"), "in_bool: a missing required field is refused");
	memset(&ctx, 0, sizeof(ctx));
	present = 1;
	ok(lc_in_bool(&ctx, o, "z", 0, &v, &present) == 0 && present == 0 &&
	    ctx.code == LC_OK, "in_bool: a null optional field counts as absent");
	json_object_put(o);
}

/* ---- exact numbers out ---- */

static void
out_is(json_object *o, const char *want, const char *name)
{
	is_string(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
	    want, "json out: %s serialises as %s", name, want);
	json_object_put(o);
}

static void
test_json_out(void)
{
	json_object *o;

	out_is(lc_json_money_exp(1250, 2), "12.50", "lc_json_money_exp(1250, 2)");
	out_is(lc_json_money_exp(5, 2), "0.05", "lc_json_money_exp(5, 2)");
	out_is(lc_json_money_exp(0, 2), "0.00", "lc_json_money_exp(0, 2)");
	out_is(lc_json_money_exp(1999, 2), "19.99", "lc_json_money_exp(1999, 2)");
	out_is(lc_json_money_exp(100000000, 2), "1000000.00", "lc_json_money_exp(100000000, 2)");
	out_is(lc_json_rate(500), "0.05", "lc_json_rate(500)");
	out_is(lc_json_rate(125), "0.0125", "lc_json_rate(125)");
	out_is(lc_json_rate(10000), "1.0", "lc_json_rate(10000)");
	out_is(lc_json_rate(0), "0.0", "lc_json_rate(0)");
	out_is(lc_json_time(1700000000123LL), "\"2023-11-14T22:13:20.123Z\"",
	    "lc_json_time");
	out_is(lc_json_str_or_null("x"), "\"x\"", "lc_json_str_or_null(\"x\")");
	ok(lc_json_str_or_null(NULL) == NULL,
	    "json out: lc_json_str_or_null(NULL) is JSON null");

	o = json_object_new_object();
	json_object_object_add(o, "amount", lc_json_money_exp(1250, 2));
	json_object_object_add(o, "rate", lc_json_rate(500));
	out_is(o, "{\"amount\":12.50,\"rate\":0.05}",
	    "an object of money and rate");

	o = lc_json_money_exp(1250, 2);
	ok(json_object_is_type(o, json_type_double),
	    "json out: money is a JSON number, not a string");
	json_object_put(o);
}

/* ---- lc_error_set and the error table ---- */

static void
test_fail(void)
{
	struct lc_error ctx;

	memset(&ctx, 0, sizeof(ctx));
	is_int(lc_error_set(&ctx, LC_E_CARD_NOT_FOUND, NULL, NULL), -1,
	    "lc_error_set: returns -1");
	is_int(ctx.code, LC_E_CARD_NOT_FOUND, "lc_error_set: records the code");
	is_string(lc_error_msg(&ctx), lc_err_info(LC_E_CARD_NOT_FOUND)->message,
	    "lc_error_set: a NULL format gives the code's default message");
	is_string(ctx.field, "", "lc_error_set: a NULL field leaves no field");
	is_int(ctx.retry_after, 0, "lc_error_set: no Retry-After for CARD_NOT_FOUND");

	memset(&ctx, 0, sizeof(ctx));
	lc_error_set(&ctx, LC_E_VALIDATION, "page", "page must be %d or more", 1);
	is_string(ctx.msg, "page must be 1 or more",
	    "lc_error_set: the format is applied");
	is_string(ctx.field, "page", "lc_error_set: the field is recorded");

	memset(&ctx, 0, sizeof(ctx));
	strcpy(ctx.field, "stale");
	lc_error_set(&ctx, LC_E_INTERNAL, NULL, NULL);
	is_string(ctx.field, "", "lc_error_set: a NULL field clears an earlier one");

	memset(&ctx, 0, sizeof(ctx));
	lc_error_set(&ctx, LC_E_DATABASE, NULL, NULL);
	is_int(ctx.retry_after, 1, "lc_error_set: DATABASE_ERROR sets Retry-After 1");

	memset(&ctx, 0, sizeof(ctx));
	ctx.retry_after = 30;
	lc_error_set(&ctx, LC_E_DATABASE, NULL, NULL);
	is_int(ctx.retry_after, 30,
	    "lc_error_set: DATABASE_ERROR keeps a Retry-After already set");
}

static void
test_err_table(void)
{
	static const struct {
		enum lc_err e;
		const char *code;
		int status;
	} want[] = {
		{ LC_E_VALIDATION, "VALIDATION_ERROR", 400 },
		{ LC_E_UNAUTHORIZED, "UNAUTHORIZED", 401 },
		{ LC_E_INVALID_CREDENTIALS, "INVALID_CREDENTIALS", 401 },
		{ LC_E_FORBIDDEN, "FORBIDDEN", 403 },
		{ LC_E_NOT_FOUND, "NOT_FOUND", 404 },
		{ LC_E_CARD_NOT_FOUND, "CARD_NOT_FOUND", 404 },
		{ LC_E_METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", 405 },
		{ LC_E_CARD_INACTIVE, "CARD_INACTIVE", 409 },
		{ LC_E_NO_PENDING_REWARDS, "NO_PENDING_REWARDS", 409 },
		{ LC_E_PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE", 413 },
		{ LC_E_URI_TOO_LONG, "URI_TOO_LONG", 414 },
		{ LC_E_HEADERS_TOO_LARGE, "HEADERS_TOO_LARGE", 431 },
		{ LC_E_UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE", 415 },
		{ LC_E_INSUFFICIENT_BALANCE, "INSUFFICIENT_BALANCE", 422 },
		{ LC_E_WRONG_CARD_TYPE, "WRONG_CARD_TYPE", 422 },
		{ LC_E_CARD_CODE_REQUIRED, "CARD_CODE_REQUIRED", 422 },
		{ LC_E_CARD_CODE_INVALID, "CARD_CODE_INVALID", 422 },
		{ LC_E_COOLDOWN_ACTIVE, "COOLDOWN_ACTIVE", 429 },
		{ LC_E_RATE_LIMITED, "RATE_LIMITED", 429 },
		{ LC_E_CONFLICT, "CONFLICT", 409 },
		{ LC_E_ALREADY_VOIDED, "ALREADY_VOIDED", 409 },
		{ LC_E_NOT_VOIDABLE, "NOT_VOIDABLE", 409 },
		{ LC_E_EVENTS_PRUNED, "EVENTS_PRUNED", 410 },
		{ LC_E_UNAVAILABLE, "SERVICE_UNAVAILABLE", 503 },
		{ LC_E_INTERNAL, "INTERNAL_ERROR", 500 },
		{ LC_E_DATABASE, "DATABASE_ERROR", 503 },
		{ LC_E_CONFIG, "CONFIGURATION_ERROR", 500 },
	};
	const struct lc_errinfo *ei;
	size_t i;
	int e, incomplete = 0;

	is_int(sizeof(want) / sizeof(want[0]), LC_E__MAX - 1,
	    "err table: the test covers every error of the enum");
	for (e = 0; e < LC_E__MAX; e++) {
		ei = lc_err_info((enum lc_err)e);
		if (ei == NULL || ei->code == NULL || *ei->code == '\0' ||
		    ei->message == NULL || *ei->message == '\0' ||
		    ei->status < 200 || ei->status > 599) {
			diag("enum value %d has no complete row", e);
			incomplete++;
		}
	}
	is_int(incomplete, 0, "err table: every enum value has code, status, message");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ei = lc_err_info(want[i].e);
		is_string(ei->code, want[i].code, "err table: %s has its code",
		    want[i].code);
		is_int(ei->status, want[i].status, "err table: %s is HTTP %d",
		    want[i].code, want[i].status);
	}
	is_string(lc_err_info(LC_E__MAX)->code, "INTERNAL_ERROR",
	    "err table: LC_E__MAX maps to INTERNAL_ERROR");
	is_string(lc_err_info((enum lc_err)-1)->code, "INTERNAL_ERROR",
	    "err table: -1 maps to INTERNAL_ERROR");
	is_string(lc_err_info((enum lc_err)1000)->code, "INTERNAL_ERROR",
	    "err table: 1000 maps to INTERNAL_ERROR");
}

/* ---- lc_query_get ---- */

static void
query_is(const char *q, const char *name, int want_rc, const char *want,
    const char *why)
{
	char out[64];
	int rc;

	strcpy(out, "untouched");
	rc = lc_query_get(q, name, out, sizeof(out));
	if (want_rc == 1)
		ok(rc == 1 && strcmp(out, want) == 0,
		    "query_get: %s (\"%s\" %s = \"%s\")", why, q, name, want);
	else
		ok(rc == want_rc, "query_get: %s (\"%s\" %s gives %d)", why, q,
		    name, want_rc);
	if (rc != want_rc || (want_rc == 1 && strcmp(out, want) != 0))
		diag("got %d \"%s\"", rc, out);
}

static void
test_query(void)
{
	char small[4];

	query_is("page=2", "page", 1, "2", "a lone parameter is found");
	query_is("page=2&page_size=10", "page_size", 1, "10",
	    "a later parameter is found");
	query_is("page=2", "page_size", 0, NULL, "an absent parameter gives 0");
	query_is("", "page", 0, NULL, "an empty query gives 0");
	query_is("page=", "page", 1, "", "an empty value is found as \"\"");
	query_is("page=&x=1", "page", 1, "", "an empty value before & is \"\"");
	query_is("page", "page", 1, "", "a name without = is found as \"\"");
	query_is("x=1&page", "page", 1, "", "a last name without = is found");
	query_is("q=a%20b", "q", 1, "a b", "%20 decodes to a space");
	query_is("q=%41%62%2B", "q", 1, "Ab+", "percent escapes in both cases");
	query_is("q=caf%C3%A9", "q", 1, "caf\xc3\xa9", "a UTF-8 percent escape");
	query_is("q=a+b+c", "q", 1, "a b c", "+ decodes to a space");
	query_is("q=a%3Db%26c", "q", 1, "a=b&c", "escaped = and & stay in the value");
	query_is("q=a=b", "q", 1, "a=b", "a raw = after the first is in the value");
	query_is("q=%zz", "q", -1, NULL, "%zz is bad");
	query_is("q=%4", "q", -1, NULL, "a truncated %4 is bad");
	query_is("q=%", "q", -1, NULL, "a lone % is bad");
	query_is("q=%4&x=1", "q", -1, NULL, "%4 before & is bad");
	query_is("q=%00", "q", -1, NULL, "%00 is bad");
	query_is("page=1&page=2", "page", 1, "1", "the first of duplicates wins");
	query_is("page_size=10&page=3", "page", 1, "3",
	    "a name that another begins with is matched exactly");
	query_is("page_size=10", "page", 0, NULL,
	    "page is not found in page_size");
	query_is("page=3", "page_size", 0, NULL,
	    "page_size is not found in page");
	query_is("xpage=3", "page", 0, NULL, "a name ending in page is not page");
	query_is("&&page=4&", "page", 1, "4", "empty segments are skipped");
	query_is("Page=1", "page", 0, NULL, "names are case-sensitive");

	ok(lc_query_get("q=abcdef", "q", small, sizeof(small)) == -1,
	    "query_get: a value longer than the out buffer is bad");
	ok(lc_query_get("q=abc", "q", small, sizeof(small)) == 1 &&
	    strcmp(small, "abc") == 0,
	    "query_get: a value that just fits the out buffer is found");
	/* Found by tests/fuzz: an empty value into no room at all wrote its
	 * terminator past the buffer. */
	small[0] = 'x';
	ok(lc_query_get("=", "", small, 0) == -1 && small[0] == 'x',
	    "query_get: no room at all is bad, and nothing is written");
}

int
main(void)
{
	test_json_accepts();
	test_json_parse_values();
	test_json_rejects();
	test_json_depth();
	test_in_str();
	test_in_int();
	test_in_money();
	test_in_bool();
	test_json_out();
	test_fail();
	test_err_table();
	test_query();
	return done_testing();
}
