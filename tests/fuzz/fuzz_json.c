/*
 * Fuzz target: the strict JSON check and parser (lc_json_check,
 * lc_json_parse_ex, lc_json_parse) and the typed field readers (lc_in_str,
 * lc_in_int, lc_in_money, lc_in_bool, lc_in_rate, lc_in_key) on what they
 * parse.
 *
 * Input: the whole input is one request body, as a handler's precheck
 * hands it to lc_json_parse_ex (a length, no NUL needed).
 *
 * Checks, beyond the sanitizers:
 * - nothing lc_json_check refuses is parsed: lc_json_parse_ex then gives
 *   NULL with a VALIDATION_ERROR, and lc_json_parse gives NULL too;
 * - what both accept re-serializes (lc_json_text) to text lc_json_check
 *   accepts;
 * - every reader, on the members the body has and on the names the
 *   handlers use, required or not: answers 0 or -1; -1 comes with
 *   VALIDATION_ERROR naming the field; 0 leaves the error unset and gives
 *   a value within the reader's contract (a string of at most maxlen
 *   characters, valid UTF-8 and without NUL; an integer within [min, max];
 *   money of 0 to LC_MONEY_MAX cents equal to the JSON number; a rate of 0
 *   to LC_RATE_MAX basis points; a key of 1 to LC_KEY_MAX printable ASCII;
 *   a boolean 0 or 1); on the body's object and the objects one level
 *   down (a sync batch's items).
 * With FUZZ_JSON_AGREE set in the environment, json-c refusing a body
 * that lc_json_check accepts is a failure too (not a bug by itself: the
 * body is then refused with VALIDATION_ERROR all the same).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"

static void __attribute__((noreturn))
die(const char *what, const char *name)
{
	fprintf(stderr, "fuzz_json: %s%s%s\n", what, name != NULL ? ": " : "",
	    name != NULL ? name : "");
	abort();
}

/* A reader's failure: VALIDATION_ERROR naming the field. */
static void
check_fail(const struct lc_error *e, const char *field, const char *reader)
{
	char want[sizeof(e->field)];

	snprintf(want, sizeof(want), "%s", field);
	if (e->code != LC_E_VALIDATION || strcmp(e->field, want) != 0)
		die("a reader failed without VALIDATION_ERROR on its field",
		    reader);
}

static void
check_ok(const struct lc_error *e, const char *reader)
{
	if (e->code != LC_OK)
		die("a reader succeeded with an error set", reader);
}

static void
read_str(json_object *o, const char *name, int req, size_t maxlen)
{
	struct lc_error e;
	const char *s = (const char *)&e;	/* must be overwritten */
	json_object *v = NULL;

	memset(&e, 0, sizeof(e));
	if (lc_in_str(&e, o, name, req, maxlen, &s) == -1) {
		check_fail(&e, name, "lc_in_str");
		if (s != NULL)
			die("lc_in_str failed but gave a string", name);
		return;
	}
	check_ok(&e, "lc_in_str");
	if (s == NULL) {
		if (req || (json_object_object_get_ex(o, name, &v) &&
		    v != NULL))
			die("lc_in_str gave nothing for a member", name);
		return;
	}
	if (!json_object_object_get_ex(o, name, &v) ||
	    !json_object_is_type(v, json_type_string))
		die("lc_in_str gave a string for no string member", name);
	if ((size_t)json_object_get_string_len(v) != strlen(s))
		die("lc_in_str gave a string holding NUL", name);
	if (req && *s == '\0')
		die("lc_in_str gave an empty required string", name);
	if (lc_utf8_chars(s) > maxlen)
		die("lc_in_str gave a string over maxlen", name);
	if (!lc_utf8_valid(s))
		die("lc_in_str gave a string that is not UTF-8", name);
}

static void
read_int(json_object *o, const char *name, int req, int64_t min, int64_t max)
{
	struct lc_error e;
	int64_t n = 0;
	int present = -1;

	memset(&e, 0, sizeof(e));
	if (lc_in_int(&e, o, name, req, min, max, &n, &present) == -1) {
		check_fail(&e, name, "lc_in_int");
		return;
	}
	check_ok(&e, "lc_in_int");
	if (present != 0 && present != 1)
		die("lc_in_int left present unset", name);
	if (present && (n < min || n > max))
		die("lc_in_int gave a number out of range", name);
	if (req && !present)
		die("lc_in_int gave nothing for a required field", name);
}

/* The JSON number's text equals units / 10^scale. */
static void
same_number(json_object *o, const char *name, int64_t units, double scale)
{
	json_object *v = NULL;
	double d;

	if (!json_object_object_get_ex(o, name, &v) || v == NULL)
		die("a number read from no member", name);
	d = strtod(json_object_get_string(v), NULL);
	if (fabs(d * scale - (double)units) > 1e-6 * (fabs(d * scale) + 1))
		die("a number read differs from its JSON text", name);
}

static void
read_money(json_object *o, const char *name, int req)
{
	struct lc_error e;
	int64_t c = -1;
	int present = -1;
	char buf[32], *end;

	memset(&e, 0, sizeof(e));
	if (lc_in_money(&e, o, name, req, NULL, &c, &present) == -1) {
		check_fail(&e, name, "lc_in_money");
		return;
	}
	check_ok(&e, "lc_in_money");
	if (present != 0 && present != 1)
		die("lc_in_money left present unset", name);
	if (!present) {
		if (req)
			die("lc_in_money gave nothing for a required field",
			    name);
		return;
	}
	if (c < 0 || c > LC_MONEY_MAX)
		die("lc_in_money gave an amount out of range", name);
	same_number(o, name, c, 100.0);
	/* And the amount goes back out as the same number. */
	lc_decimal_fmt(c, 2, 1, buf);
	if ((int64_t)llround(strtod(buf, &end) * 100.0) != c || *end != '\0')
		die("lc_decimal_fmt of an amount is another amount", name);
}

static void
read_rate(json_object *o, const char *name, int req)
{
	struct lc_error e;
	int64_t bp = -1;
	int present = -1;

	memset(&e, 0, sizeof(e));
	if (lc_in_rate(&e, o, name, req, &bp, &present) == -1) {
		check_fail(&e, name, "lc_in_rate");
		return;
	}
	check_ok(&e, "lc_in_rate");
	if (present != 0 && present != 1)
		die("lc_in_rate left present unset", name);
	if (!present) {
		if (req)
			die("lc_in_rate gave nothing for a required field",
			    name);
		return;
	}
	if (bp < 0 || bp > LC_RATE_MAX)
		die("lc_in_rate gave a rate out of range", name);
	same_number(o, name, bp, 10000.0);
}

static void
read_bool(json_object *o, const char *name, int req)
{
	struct lc_error e;
	int b = -1, present = -1;

	memset(&e, 0, sizeof(e));
	if (lc_in_bool(&e, o, name, req, &b, &present) == -1) {
		check_fail(&e, name, "lc_in_bool");
		return;
	}
	check_ok(&e, "lc_in_bool");
	if (present != 0 && present != 1)
		die("lc_in_bool left present unset", name);
	if (present && b != 0 && b != 1)
		die("lc_in_bool gave neither 0 nor 1", name);
	if (req && !present)
		die("lc_in_bool gave nothing for a required field", name);
}

static void
read_key(json_object *o, int req)
{
	struct lc_error e;
	const char *k = (const char *)&e;	/* must be overwritten */
	size_t n;

	memset(&e, 0, sizeof(e));
	if (lc_in_key(&e, o, req, &k) == -1) {
		check_fail(&e, "idempotency_key", "lc_in_key");
		return;
	}
	check_ok(&e, "lc_in_key");
	if (k == NULL) {
		if (req)
			die("lc_in_key gave nothing for a required key", NULL);
		return;
	}
	n = strlen(k);
	if (n < 1 || n > LC_KEY_MAX || !lc_is_printable_ascii(k))
		die("lc_in_key gave a key out of its contract", k);
}

static void
read_all(json_object *o, const char *name)
{
	int req;

	for (req = 0; req <= 1; req++) {
		read_str(o, name, req, 0);
		read_str(o, name, req, 1);
		read_str(o, name, req, LC_NAME_MAX);
		read_int(o, name, req, 1, LC_PUNCH_COUNT_MAX);
		read_int(o, name, req, INT64_MIN, INT64_MAX);
		read_int(o, name, req, -5, -5);
		read_money(o, name, req);
		read_rate(o, name, req);
		read_bool(o, name, req);
	}
}

/* The readers on obj's own members and on the names the handlers use; the
 * same on the objects one level down (a sync batch's items). */
static void
read_object(json_object *obj, int depth)
{
	/* The names the handlers read, and a few that are not. */
	static const char *const names[] = { "purchase_amount", "amount",
	    "punch_count", "idempotency_key", "card_instance_id",
	    "qr_code_data",
	    "barcode_value", "email", "password", "active", "rate_bp",
	    "min_spend", "earn_on_remainder", "transaction_notes", "items",
	    "", "\xc3\xa9", "a\"b" };
	json_object *el;
	size_t i, n = 0, len;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		read_all(obj, names[i]);
	read_key(obj, 0);
	read_key(obj, 1);
	json_object_object_foreach(obj, key, val) {
		if (n++ >= 16)
			break;
		read_all(obj, key);
		if (depth > 0)
			continue;
		if (json_object_is_type(val, json_type_object))
			read_object(val, depth + 1);
		else if (json_object_is_type(val, json_type_array)) {
			len = json_object_array_length(val);
			for (i = 0; i < len && i < 4; i++) {
				el = json_object_array_get_idx(val, i);
				if (json_object_is_type(el, json_type_object))
					read_object(el, depth + 1);
			}
		}
	}
}

/* 1 when buf is the JSON null alone, blanks around it. */
static int
is_null(const char *buf, size_t len)
{
	while (len > 0 && strchr(" \t\r\n", buf[0]) != NULL)
		buf++, len--;
	while (len > 0 && strchr(" \t\r\n", buf[len - 1]) != NULL)
		len--;
	return len == 4 && memcmp(buf, "null", 4) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *text;
	struct lc_error e;
	json_object *o, *o2;
	int checked;

	checked = lc_json_check(buf, size);
	if (checked != 0 && checked != -1)
		die("lc_json_check answered out of range", NULL);
	memset(&e, 0, sizeof(e));
	o = lc_json_parse_ex(buf, size, &e);
	o2 = lc_json_parse(buf, size);
	if ((o == NULL) != (o2 == NULL))
		die("lc_json_parse and lc_json_parse_ex disagree", NULL);
	json_object_put(o2);
	if (checked == -1) {
		if (o != NULL)
			die("parsed what lc_json_check refuses", NULL);
		if (e.code != LC_E_VALIDATION)
			die("a refused body without VALIDATION_ERROR", NULL);
		return 0;
	}
	if (o == NULL) {
		/* JSON null parses to no object and no error; anything else
		 * the check let by and json-c refused must say so. */
		if (e.code == LC_OK && !is_null(buf, size))
			die("no object and no error", NULL);
		if (e.code != LC_OK && getenv("FUZZ_JSON_AGREE") != NULL)
			die("json-c refused what lc_json_check accepts", NULL);
		return 0;
	}
	if (e.code != LC_OK)
		die("an object and an error", NULL);
	text = lc_json_text(o);
	if (text == NULL || lc_json_check(text, strlen(text)) == -1)
		die("lc_json_text gave text lc_json_check refuses", text);
	/* Handlers read objects only: precheck refuses any other body. */
	if (json_object_is_type(o, json_type_object))
		read_object(o, 0);
	json_object_put(o);
	return 0;
}
