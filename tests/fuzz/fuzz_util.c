/*
 * Fuzz target: the small parsers of util.c, http_request.c and json.c:
 * lc_decimal_parse (with lc_decimal_fmt), lc_time_parse (with
 * lc_time_fmt), lc_query_get, lc_b64_decode (with lc_b64_encode) and
 * lc_utf8_valid (with lc_utf8_chars).
 *
 * Input layout:
 *
 *   byte 0   which function: byte 0 % 5 is 0 decimal, 1 time, 2 query,
 *            3 base64, 4 UTF-8
 *   byte 1   its parameter: decimal: scale (b % 5), the maximum (b / 5 %
 *            4: LC_MONEY_MAX, LC_RATE_MAX, LC_SPEND_MAX, INT64_MAX);
 *            query and base64: the size of the output buffer (0 to 255,
 *            allocated to exactly that size); time and UTF-8: unused
 *   the rest the text (a NUL in it ends it, as for a C string); for a
 *            query, the parameter's name, '\n', then the query string
 *
 * Checks, beyond the sanitizers:
 * - decimal: a parsed value is within [0, max], formats back (with and
 *   without keep_scale) to text that parses to the same value;
 * - time: a parsed date or date-time within years 1 to 9999 formats back
 *   to text that parses to the same instant, the same text when the input
 *   was already YYYY-MM-DDTHH:MM:SS.mmmZ, the same day for a date;
 * - query: 1, 0 or -1, a value found fits its buffer;
 * - base64: a decoded length within the buffer and the input's length,
 *   re-encoded to text of the input's length that decodes to the same
 *   bytes and differs from the input at most in the unused low bits of
 *   the last character before the padding;
 * - UTF-8: lc_utf8_valid agrees with a plain reference decoder and with
 *   lc_json_check on the text as a JSON string; lc_utf8_chars counts the
 *   code points of valid text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"

/* 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
#define TIME_MIN (-62135596800000LL)
#define TIME_MAX 253402300799999LL

static void __attribute__((noreturn))
die(const char *what, const char *s)
{
	fprintf(stderr, "fuzz_util: %s%s%s%s\n", what, s != NULL ? ": \"" : "",
	    s != NULL ? s : "", s != NULL ? "\"" : "");
	abort();
}

static void
fuzz_decimal(unsigned p, const char *s)
{
	static const int64_t maxes[] = { LC_MONEY_MAX, LC_RATE_MAX,
	    LC_SPEND_MAX, INT64_MAX };
	int scale = (int)(p % 5), keep;
	int64_t max = maxes[p / 5 % 4], v = -1, v2;
	char out[32];

	if (lc_decimal_parse(s, scale, max, &v) == -1)
		return;
	if (v < 0 || v > max)
		die("lc_decimal_parse gave a value out of range", s);
	if (s[0] == '-' && v != 0)
		die("lc_decimal_parse took a negative number", s);
	for (keep = 0; keep <= 1; keep++) {
		lc_decimal_fmt(v, scale, keep, out);
		if (memchr(out, '\0', sizeof(out)) == NULL)
			die("lc_decimal_fmt overran its text", s);
		v2 = -1;
		if (lc_decimal_parse(out, scale, INT64_MAX, &v2) == -1 ||
		    v2 != v) {
			fprintf(stderr, "fuzz_util: formatted \"%s\"\n", out);
			die("lc_decimal_fmt of a parsed value is another value",
			    s);
		}
	}
}

static void
fuzz_time(const char *s)
{
	char out[32];
	int64_t ms, ms2;
	int date_only = -1, date_only2 = -1;

	if (lc_time_parse(s, &ms, &date_only) == -1)
		return;
	if (date_only != 0 && date_only != 1)
		die("lc_time_parse left date_only unset", s);
	if (ms < TIME_MIN || ms > TIME_MAX)
		return;	/* lc_time_fmt writes years 1 to 9999 only */
	lc_time_fmt(ms, out);
	if (memchr(out, '\0', sizeof(out)) == NULL || strlen(out) != 24)
		die("lc_time_fmt gave text of another length", s);
	if (lc_time_parse(out, &ms2, &date_only2) == -1 || date_only2 != 0 ||
	    ms2 != ms) {
		fprintf(stderr, "fuzz_util: formatted \"%s\"\n", out);
		die("lc_time_fmt of a parsed time is another time", s);
	}
	if (date_only && (strncmp(out, s, 10) != 0 ||
	    strcmp(out + 10, "T00:00:00.000Z") != 0))
		die("lc_time_fmt of a date is another day", s);
	if (strlen(s) == 24 && s[19] == '.' && s[23] == 'Z' &&
	    strcmp(out, s) != 0) {
		fprintf(stderr, "fuzz_util: formatted \"%s\"\n", out);
		die("lc_time_fmt of a UTC date-time is other text", s);
	}
}

static void
fuzz_query(unsigned outsz, const char *s)
{
	const char *nl = strchr(s, '\n');
	char name[256], *out;
	size_t n;
	int rc;

	n = nl != NULL ? (size_t)(nl - s) : 0;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, s, n);
	name[n] = '\0';
	/* Exactly outsz bytes: a write past them is caught. */
	if ((out = malloc(outsz)) == NULL && outsz > 0)
		die("out of memory", NULL);
	rc = lc_query_get(nl != NULL ? nl + 1 : s, name, out, outsz);
	if (rc < -1 || rc > 1)
		die("lc_query_get answered out of range", s);
	if (rc == 1 && memchr(out, '\0', outsz) == NULL)
		die("lc_query_get gave a value that does not fit", s);
	free(out);
}

static void
fuzz_b64(unsigned outsz, const char *s)
{
	size_t len = strlen(s), pad, i, last;
	unsigned char *out, *again;
	char *enc;
	long n, n2;

	if ((out = malloc(outsz)) == NULL && outsz > 0)
		die("out of memory", NULL);
	n = lc_b64_decode(s, out, outsz);
	if (n < -1 || n > (long)outsz)
		die("lc_b64_decode gave a length out of range", s);
	if (n == -1) {
		free(out);
		return;
	}
	pad = len >= 1 && s[len - 1] == '=' ? (len >= 2 &&
	    s[len - 2] == '=' ? 2 : 1) : 0;
	if (len % 4 != 0 || (size_t)n != len / 4 * 3 - pad)
		die("lc_b64_decode gave a length the text cannot hold", s);
	if ((enc = malloc(len + 1)) == NULL)
		die("out of memory", NULL);
	if ((again = malloc((size_t)n + 1)) == NULL)
		die("out of memory", NULL);
	if (lc_b64_encode(out, (size_t)n, enc, 0) != len || enc[len] != '\0')
		die("lc_b64_encode of decoded bytes has another length", s);
	n2 = lc_b64_decode(enc, again, (size_t)n + 1);
	if (n2 != n || (n > 0 && memcmp(again, out, (size_t)n) != 0))
		die("decoded, re-encoded and decoded gives other bytes", s);
	/* Only the low bits of the last character before the padding are
	 * unused; everything else is the same text. */
	last = len - pad - 1;
	for (i = 0; i < len; i++)
		if (enc[i] != s[i] && !(pad > 0 && i == last))
			die("lc_b64_encode of decoded bytes is other text", s);
	(void)lc_b64_encode(out, (size_t)n, enc, 1);
	free(again);
	free(enc);
	free(out);
}

/* A plain UTF-8 check to compare with: shortest forms, no surrogates, at
 * most U+10FFFF. Counts the code points into *n. */
static int
utf8_ref(const unsigned char *s, size_t *n)
{
	uint32_t cp, min;
	int more, i;

	*n = 0;
	while (*s != '\0') {
		if (s[0] < 0x80) {
			s++;
			(*n)++;
			continue;
		}
		if ((s[0] & 0xe0) == 0xc0) {
			more = 1;
			cp = s[0] & 0x1f;
			min = 0x80;
		} else if ((s[0] & 0xf0) == 0xe0) {
			more = 2;
			cp = s[0] & 0x0f;
			min = 0x800;
		} else if ((s[0] & 0xf8) == 0xf0) {
			more = 3;
			cp = s[0] & 0x07;
			min = 0x10000;
		} else
			return 0;
		for (i = 1; i <= more; i++) {
			if ((s[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		s += more + 1;
		(*n)++;
	}
	return 1;
}

static void
fuzz_utf8(const char *s)
{
	size_t len = strlen(s), n, i;
	int valid = lc_utf8_valid(s), plain = 1;
	char *js;

	if (valid != utf8_ref((const unsigned char *)s, &n))
		die(valid ? "lc_utf8_valid took what is not UTF-8" :
		    "lc_utf8_valid refused UTF-8", NULL);
	if (valid && lc_utf8_chars(s) != n)
		die("lc_utf8_chars miscounted", s);
	/* As a JSON string, when nothing else in it is refused. */
	for (i = 0; i < len; i++)
		if (s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 0x20)
			plain = 0;
	if (!plain)
		return;
	if ((js = malloc(len + 2)) == NULL)
		die("out of memory", NULL);
	js[0] = '"';
	memcpy(js + 1, s, len);
	js[len + 1] = '"';
	if ((lc_json_check(js, len + 2) == 0) != valid)
		die("lc_json_check and lc_utf8_valid disagree", NULL);
	free(js);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size < 2)
		return 0;
	if ((s = malloc(size - 1)) == NULL)
		die("out of memory", NULL);
	memcpy(s, data + 2, size - 2);
	s[size - 2] = '\0';
	switch (data[0] % 5) {
	case 0:
		fuzz_decimal(data[1], s);
		break;
	case 1:
		fuzz_time(s);
		break;
	case 2:
		fuzz_query(data[1], s);
		break;
	case 3:
		fuzz_b64(data[1], s);
		break;
	default:
		fuzz_utf8(s);
		break;
	}
	free(s);
	return 0;
}
