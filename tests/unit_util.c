/*
 * Unit tests of lib/util.c: ids, time, base64, exact decimals.
 * One behaviour per test point, named after the case.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"
#include "tap.h"

/* ---- lc_uuid ---- */

static int
uuid_well_formed(const char *u)
{
	static const int dash[] = { 8, 13, 18, 23 };
	size_t i;
	int d = 0;

	if (strlen(u) != LC_ID_LEN)
		return 0;
	for (i = 0; i < LC_ID_LEN; i++) {
		if (d < 4 && (int)i == dash[d]) {
			if (u[i] != '-')
				return 0;
			d++;
		} else if (!((u[i] >= '0' && u[i] <= '9') ||
		    (u[i] >= 'a' && u[i] <= 'f')))
			return 0;
	}
	return 1;
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

static void
test_uuid(void)
{
	char u[LC_ID_LEN + 1];
	static char many[1000][LC_ID_LEN + 1];
	int i, bad_form = 0, bad_version = 0, bad_variant = 0, dups = 0;

	is_int(lc_uuid(u), 0, "uuid: returns 0");
	ok(uuid_well_formed(u), "uuid: is 8-4-4-4-12 lowercase hex (%s)", u);
	is_int(u[14], '4', "uuid: version nibble is 4");
	ok(strchr("89ab", u[19]) != NULL, "uuid: variant nibble is 8, 9, a or b");

	for (i = 0; i < 1000; i++) {
		if (lc_uuid(many[i]) != 0 || !uuid_well_formed(many[i]))
			bad_form++;
		if (many[i][14] != '4')
			bad_version++;
		if (strchr("89ab", many[i][19]) == NULL)
			bad_variant++;
	}
	is_int(bad_form, 0, "uuid: 1000 ids are all well formed");
	is_int(bad_version, 0, "uuid: 1000 ids all have version 4");
	is_int(bad_variant, 0, "uuid: 1000 ids all have the RFC 4122 variant");
	qsort(many, 1000, sizeof(many[0]), cmpstr);
	for (i = 1; i < 1000; i++)
		if (strcmp(many[i - 1], many[i]) == 0)
			dups++;
	is_int(dups, 0, "uuid: 1000 ids are distinct");
}

/* lc_uuid_at: version 7, the time first, so ids sort by time. */
static void
test_uuid_at(void)
{
	char u[LC_ID_LEN + 1], prev[LC_ID_LEN + 1];
	/* 2026-11-23 (UTC), in milliseconds */
	const int64_t at = INT64_C(1795410000123);
	char want[13];
	int i, bad = 0, unsorted = 0;

	is_int(lc_uuid_at(u, at), 0, "uuid_at: returns 0");
	ok(uuid_well_formed(u), "uuid_at: is 8-4-4-4-12 lowercase hex (%s)", u);
	is_int(u[14], '7', "uuid_at: version nibble is 7");
	ok(strchr("89ab", u[19]) != NULL,
	    "uuid_at: variant nibble is 8, 9, a or b");
	snprintf(want, sizeof(want), "%012llx", (unsigned long long)at);
	ok(strncmp(u, want, 8) == 0 && strncmp(u + 9, want + 8, 4) == 0,
	    "uuid_at: the first 48 bits are the milliseconds (%.13s, %s)", u,
	    want);
	is_int(lc_uuid_at(prev, at), 0, "uuid_at: again");
	ok(strcmp(u, prev) != 0, "uuid_at: two ids of one millisecond differ");
	for (i = 1; i <= 1000; i++) {
		if (lc_uuid_at(u, at + i * 997) != 0 || !uuid_well_formed(u) ||
		    u[14] != '7')
			bad++;
		if (strcmp(prev, u) >= 0)
			unsorted++;
		memcpy(prev, u, sizeof(u));
	}
	is_int(bad, 0, "uuid_at: 1000 ids are well formed, version 7");
	is_int(unsorted, 0, "uuid_at: ids of later times sort after");
}

/* ---- lc_time_fmt ---- */

static void
fmt_is(int64_t ms, const char *want, const char *name)
{
	char out[32];

	memset(out, 'X', sizeof(out));
	lc_time_fmt(ms, out);
	is_string(out, want, "time_fmt: %s gives %s", name, want);
}

static void
test_time_fmt(void)
{
	fmt_is(0, "1970-01-01T00:00:00.000Z", "epoch 0");
	fmt_is(1700000000123LL, "2023-11-14T22:13:20.123Z",
	    "known instant with milliseconds");
	fmt_is(1700000000001LL, "2023-11-14T22:13:20.001Z",
	    "one millisecond is zero-padded");
	fmt_is(1772323199999LL, "2026-02-28T23:59:59.999Z",
	    "last millisecond of 2026-02-28");
	fmt_is(1772323200000LL, "2026-03-01T00:00:00.000Z",
	    "2026-02-28 is followed by 03-01 (not a leap year)");
	fmt_is(1709164799999LL, "2024-02-28T23:59:59.999Z",
	    "last millisecond of 2024-02-28");
	fmt_is(1709164800000LL, "2024-02-29T00:00:00.000Z",
	    "2024-02-29 exists (leap year)");
	fmt_is(1709251199999LL, "2024-02-29T23:59:59.999Z",
	    "last millisecond of 2024-02-29");
	fmt_is(1709251200000LL, "2024-03-01T00:00:00.000Z",
	    "2024-03-01 follows 02-29");
	fmt_is(951782400000LL, "2000-02-29T00:00:00.000Z",
	    "2000-02-29 exists (divisible by 400)");
	fmt_is(946684799999LL, "1999-12-31T23:59:59.999Z",
	    "year end 1999");
}

/* ---- lc_time_parse ---- */

static void
parse_is(const char *s, int64_t want, int want_date_only)
{
	int64_t ms = -12345;
	int d = -1, rc;

	rc = lc_time_parse(s, &ms, &d);
	is_int(rc, 0, "time_parse: \"%s\" is accepted", s);
	is_int(ms, want, "time_parse: \"%s\" gives %lld ms", s,
	    (long long)want);
	is_int(d, want_date_only, "time_parse: \"%s\" date_only is %d", s,
	    want_date_only);
}

static void
parse_rejects(const char *s, const char *why)
{
	int64_t ms = 0;
	int d = 0;

	is_int(lc_time_parse(s, &ms, &d), -1, "time_parse: rejects %s (\"%s\")",
	    why, s);
}

static void
test_time_parse(void)
{
	/* Date only: midnight UTC, date_only set. */
	parse_is("2026-11-01", 1793491200000LL, 1);
	parse_is("1970-01-01", 0, 1);
	parse_is("2024-02-29", 1709164800000LL, 1);
	parse_is("2000-02-29", 951782400000LL, 1);

	/* Date-time in UTC. */
	parse_is("2026-11-01T12:34:56Z", 1793536496000LL, 0);
	parse_is("2026-11-01T00:00:00Z", 1793491200000LL, 0);

	/* Fractions of 1 to 9 digits, truncated to milliseconds. */
	parse_is("2026-11-01T12:34:56.1Z", 1793536496100LL, 0);
	parse_is("2026-11-01T12:34:56.12Z", 1793536496120LL, 0);
	parse_is("2026-11-01T12:34:56.123Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.1239Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.12399Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.999999Z", 1793536496999LL, 0);
	parse_is("2026-11-01T12:34:56.1234567Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.12345678Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.123456789Z", 1793536496123LL, 0);
	parse_is("2026-11-01T12:34:56.000Z", 1793536496000LL, 0);

	/* Offsets converted to UTC. */
	parse_is("2026-11-01T14:34:56+02:00", 1793536496000LL, 0);
	parse_is("2026-11-01T07:04:56-05:30", 1793536496000LL, 0);
	parse_is("2026-11-01T12:34:56+00:00", 1793536496000LL, 0);
	parse_is("2026-11-01T12:34:56-00:00", 1793536496000LL, 0);
	parse_is("2026-11-01T14:34:56.500+02:00", 1793536496500LL, 0);
	/* An offset that crosses midnight moves the date. */
	parse_is("2026-11-02T01:00:00+02:00", 1793574000000LL, 0);
	parse_is("2026-10-31T22:00:00-05:00", 1793502000000LL, 0);

	parse_rejects("2026-13-01", "month 13");
	parse_rejects("2026-00-01", "month 0");
	parse_rejects("2026-01-00", "day 0");
	parse_rejects("2026-01-32", "January 32");
	parse_rejects("2026-04-31", "April 31");
	parse_rejects("2026-02-30", "February 30");
	parse_rejects("2025-02-29", "February 29 of a common year");
	parse_rejects("2100-02-29", "February 29 of 2100 (not a leap year)");
	parse_rejects("2026-01-01T24:00:00Z", "hour 24");
	parse_rejects("2026-01-01T10:60:00Z", "minute 60");
	parse_rejects("2026-01-01T10:00:60Z", "second 60");
	parse_rejects("2026-01-01T10:00Z", "missing seconds");
	parse_rejects("2026-01-01t10:00:00Z", "lowercase t");
	parse_rejects("2026-01-01T10:00:00z", "lowercase z");
	parse_rejects("2026-01-01 10:00:00Z", "a space instead of T");
	parse_rejects("2026-01-01T10:00:00", "a date-time without zone");
	parse_rejects("2026-01-01T10:00:00Zx", "trailing junk after Z");
	parse_rejects("2026-01-01T10:00:00+02:00x",
	    "trailing junk after an offset");
	parse_rejects("2026-01-01x", "trailing junk after a date");
	parse_rejects("2026-01-01T", "a T with nothing after it");
	parse_rejects("", "the empty string");
	parse_rejects("2026-1-01", "a one-digit month");
	parse_rejects("2026-01-1", "a one-digit day");
	parse_rejects("26-01-01", "a two-digit year");
	parse_rejects("2026/01/01", "slashes");
	parse_rejects("2026-01-01T10:00:00+0200", "an offset without colon");
	parse_rejects("2026-01-01T10:00:00+02", "an offset without minutes");
	parse_rejects("2026-01-01T10:00:00+24:00", "offset hour 24");
	parse_rejects("2026-01-01T10:00:00+02:60", "offset minute 60");
	parse_rejects("2026-01-01T10:00:00.Z", "a point without fraction digits");
	parse_rejects("2026-01-01T1:00:00Z", "a one-digit hour");
	/* History may ask for "everything since 1900": dates before the
	 * epoch parse to negative milliseconds. */
	parse_is("1969-12-31", -86400000LL, 1);
	parse_is("1900-01-01", -2208988800000LL, 1);
	parse_rejects("0000-01-01", "year 0");
}

static void
test_time_roundtrip(void)
{
	static const int64_t v[] = { 0, 1, 999, 1000, 86399999, 86400000,
	    1700000000123LL, 1709164800000LL, 1772323199999LL,
	    253402300799999LL /* 9999-12-31T23:59:59.999Z */ };
	char buf[32];
	int64_t ms;
	size_t i;
	int d, bad = 0;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		lc_time_fmt(v[i], buf);
		ms = -1;
		if (lc_time_parse(buf, &ms, &d) != 0 || ms != v[i] || d != 0) {
			diag("round trip of %lld: \"%s\" gave %lld",
			    (long long)v[i], buf, (long long)ms);
			bad++;
		}
	}
	is_int(bad, 0, "time: fmt then parse gives back fixed instants");

	bad = 0;
	for (i = 0; i < 1000; i++) {
		uint64_t r;
		int64_t t;

		if (lc_random(&r, sizeof(r)) != 0)
			bail("lc_random failed");
		t = (int64_t)(r % 253402300800000ULL);
		lc_time_fmt(t, buf);
		if (lc_time_parse(buf, &ms, &d) != 0 || ms != t)
			bad++;
	}
	is_int(bad, 0, "time: fmt then parse gives back 1000 random instants");
}

/* ---- base64 ---- */

static void
b64_vector(const char *plain, const char *std, const char *url)
{
	char out[64];
	unsigned char dec[64];
	size_t n = strlen(plain);
	long dn;

	is_int(lc_b64_encode((const unsigned char *)plain, n, out, 0),
	    strlen(std), "b64: encode \"%s\" returns length %zu", plain,
	    strlen(std));
	is_string(out, std, "b64: encode \"%s\" is \"%s\"", plain, std);
	is_int(lc_b64_encode((const unsigned char *)plain, n, out, 1),
	    strlen(url), "b64url: encode \"%s\" returns length %zu", plain,
	    strlen(url));
	is_string(out, url, "b64url: encode \"%s\" is unpadded \"%s\"", plain,
	    url);
	if (*std == '\0')
		return;
	memset(dec, 0, sizeof(dec));
	dn = lc_b64_decode(std, dec, sizeof(dec));
	is_int(dn, (long)n, "b64: decode \"%s\" returns %zu bytes", std, n);
	ok(dn == (long)n && memcmp(dec, plain, n) == 0,
	    "b64: decode \"%s\" gives \"%s\"", std, plain);
}

static void
b64_rejects(const char *in, size_t outsz, const char *why)
{
	unsigned char dec[64];

	is_int(lc_b64_decode(in, dec, outsz), -1, "b64: decode rejects %s (\"%s\")",
	    why, in);
}

static void
test_b64(void)
{
	static const unsigned char hi[] = { 0xfb, 0xff, 0xbf };
	static const unsigned char all[] = { 0x00, 0x10, 0x83, 0x10, 0x51, 0x87,
	    0x20, 0x92, 0x8b, 0x30, 0xd3, 0x8f, 0x41, 0x14, 0x93, 0x51, 0x55,
	    0x97, 0x61, 0x96, 0x9b, 0x71, 0xd7, 0x9f, 0x82, 0x18, 0xa3, 0x92,
	    0x59, 0xa7, 0xa2, 0x9a, 0xab, 0xb2, 0xdb, 0xaf, 0xc3, 0x1c, 0xb3,
	    0xd3, 0x5d, 0xb7, 0xe3, 0x9e, 0xbb, 0xf3, 0xdf, 0xbf };
	char out[128];
	unsigned char dec[64];

	/* RFC 4648 section 10. */
	b64_vector("", "", "");
	b64_vector("f", "Zg==", "Zg");
	b64_vector("fo", "Zm8=", "Zm8");
	b64_vector("foo", "Zm9v", "Zm9v");
	b64_vector("foob", "Zm9vYg==", "Zm9vYg");
	b64_vector("fooba", "Zm9vYmE=", "Zm9vYmE");
	b64_vector("foobar", "Zm9vYmFy", "Zm9vYmFy");

	lc_b64_encode(hi, 2, out, 0);
	is_string(out, "+/8=", "b64: standard alphabet uses + and /");
	lc_b64_encode(hi, 2, out, 1);
	is_string(out, "-_8", "b64url: alphabet uses - and _ instead of + and /");
	lc_b64_encode(hi, 3, out, 1);
	is_string(out, "-_-_", "b64url: 0xfbffbf is -_-_");
	lc_b64_encode(all, sizeof(all), out, 0);
	is_string(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/", "b64: every standard character in order");
	lc_b64_encode(all, sizeof(all), out, 1);
	is_string(out, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_", "b64url: every url-safe character in order");
	memset(dec, 0, sizeof(dec));
	ok(lc_b64_decode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789+/", dec, sizeof(dec)) == (long)sizeof(all) &&
	    memcmp(dec, all, sizeof(all)) == 0,
	    "b64: decode of every standard character gives the bytes back");

	b64_rejects("Zm9v!A==", sizeof(dec), "a character outside the alphabet");
	b64_rejects("Zm 9", sizeof(dec), "a space");
	b64_rejects("Zm9v-_8=", sizeof(dec), "url-safe characters");
	b64_rejects("Zg=a", sizeof(dec), "a character after padding");
	b64_rejects("=Zg=", sizeof(dec), "padding at the start");
	b64_rejects("Z===", sizeof(dec), "padding in the second place");
	b64_rejects("Zg==Zm8=", sizeof(dec), "padding in the middle");
	b64_rejects("Zg", sizeof(dec), "missing padding (length 2)");
	b64_rejects("Zg=", sizeof(dec), "length 3");
	b64_rejects("Zm9vY", sizeof(dec), "length 5");
	b64_rejects("Zm9v", 2, "an out buffer one byte too small");
	b64_rejects("Zm9vYg==", 3, "an out buffer too small for the last group");
	b64_rejects("Zg==", 0, "an out buffer of size 0");

	is_int(lc_b64_decode("Zm9v", dec, 3), 3,
	    "b64: decode into an out buffer of exactly the size");
	is_int(lc_b64_decode("Zm9vYg==", dec, 4), 4,
	    "b64: padded decode into an out buffer of exactly the size");
}

/* ---- lc_decimal_parse ---- */

static void
dec_is(const char *s, int scale, int64_t max, int64_t want)
{
	int64_t v = -777;

	ok(lc_decimal_parse(s, scale, max, &v) == 0 && v == want,
	    "decimal_parse: \"%s\" at scale %d is %lld", s, scale,
	    (long long)want);
	if (v != want)
		diag("got %lld", (long long)v);
}

static void
dec_rejects(const char *s, int scale, int64_t max, const char *why)
{
	int64_t v = -777;

	ok(lc_decimal_parse(s, scale, max, &v) == -1 && v == -777,
	    "decimal_parse: rejects %s (\"%s\", scale %d)", why, s, scale);
	if (v != -777)
		diag("accepted as %lld", (long long)v);
}

static void
test_decimal_parse(void)
{
	const int64_t M = LC_MONEY_MAX;

	dec_is("12.5", 2, M, 1250);
	dec_is("12.50", 2, M, 1250);
	dec_is("12", 2, M, 1200);
	dec_is("0.01", 2, M, 1);
	dec_is("0", 2, M, 0);
	dec_is("0.00", 2, M, 0);
	dec_is("19.99", 2, M, 1999);
	dec_is("1000000.00", 2, M, 100000000);
	dec_is("1000000", 2, M, 100000000);
	dec_is("12.340", 2, M, 1234);
	dec_is("12.3400000", 2, M, 1234);
	dec_is("-0", 2, M, 0);
	dec_is("-0.00", 2, M, 0);
	dec_is("1e2", 2, M, 10000);
	dec_is("1E2", 2, M, 10000);
	dec_is("1e+2", 2, M, 10000);
	dec_is("1.5e1", 2, M, 1500);
	dec_is("1e-2", 2, M, 1);
	dec_is("1250e-2", 2, M, 1250);
	dec_is("0.1e1", 2, M, 100);
	dec_is("1e6", 2, M, 100000000);

	dec_rejects("1000000.01", 2, M, "one cent above the maximum");
	dec_rejects("1e7", 2, M, "an exponent above the maximum");
	dec_rejects("12.345", 2, M, "three decimals");
	dec_rejects("0.001", 2, M, "a tenth of a cent");
	dec_rejects("-1", 2, M, "a negative number");
	dec_rejects("-0.01", 2, M, "a negative cent");
	dec_rejects("1e-3", 2, M, "an exponent giving three decimals");
	dec_rejects("abc", 2, M, "letters");
	dec_rejects("", 2, M, "the empty string");
	dec_rejects("1.", 2, M, "a point with no digits after it");
	dec_rejects(".5", 2, M, "a point with no digits before it");
	dec_rejects("1..2", 2, M, "two points");
	dec_rejects("1.2.3", 2, M, "two separated points");
	dec_rejects("+1", 2, M, "a plus sign");
	dec_rejects("--1", 2, M, "two minus signs");
	dec_rejects(" 1", 2, M, "leading space");
	dec_rejects("1 ", 2, M, "trailing space");
	dec_rejects("12a", 2, M, "trailing letters");
	dec_rejects("1e", 2, M, "an exponent with no digits");
	dec_rejects("1e+", 2, M, "an exponent sign with no digits");
	dec_rejects("1e999", 2, M, "a huge exponent");
	dec_rejects("1e99999", 2, M, "an exponent over 1000");
	dec_rejects("1e-99999", 2, M, "a huge negative exponent");
	dec_rejects("99999999999999999999999", 2, INT64_MAX,
	    "a value beyond int64");
	dec_rejects("NaN", 2, M, "NaN");
	dec_rejects("Infinity", 2, M, "Infinity");
	dec_rejects("0x10", 2, M, "hexadecimal");

	/* Rates in basis points. */
	dec_is("0.05", 4, 10000, 500);
	dec_is("0.0125", 4, 10000, 125);
	dec_is("1", 4, 10000, 10000);
	dec_is("0", 4, 10000, 0);
	dec_is("0.0001", 4, 10000, 1);
	dec_rejects("0.00001", 4, 10000, "a fifth decimal");
	dec_rejects("1.0001", 4, 10000, "a rate above 1");
}

/* ---- lc_decimal_fmt ---- */

static void
decfmt_is(int64_t v, int scale, int keep, const char *want)
{
	char out[32];

	memset(out, 'X', sizeof(out));
	lc_decimal_fmt(v, scale, keep, out);
	is_string(out, want, "decimal_fmt: %lld at scale %d%s is \"%s\"",
	    (long long)v, scale, keep ? " keeping scale" : "", want);
}

static void
test_decimal_fmt(void)
{
	decfmt_is(1250, 2, 1, "12.50");
	decfmt_is(5, 2, 1, "0.05");
	decfmt_is(0, 2, 1, "0.00");
	decfmt_is(1999, 2, 1, "19.99");
	decfmt_is(100000000, 2, 1, "1000000.00");
	decfmt_is(500, 4, 0, "0.05");
	decfmt_is(125, 4, 0, "0.0125");
	decfmt_is(10000, 4, 0, "1.0");
	decfmt_is(0, 4, 0, "0.0");
	decfmt_is(1, 4, 0, "0.0001");
	decfmt_is(1250, 2, 0, "12.5");
}

/* ---- lc_is_printable_ascii ---- */

static void
test_printable(void)
{
	is_int(lc_is_printable_ascii("abc-123_XYZ ~!"), 1,
	    "printable_ascii: letters, digits, space and punctuation pass");
	is_int(lc_is_printable_ascii(""), 1, "printable_ascii: empty passes");
	is_int(lc_is_printable_ascii(" "), 1, "printable_ascii: space (0x20) passes");
	is_int(lc_is_printable_ascii("~"), 1, "printable_ascii: tilde (0x7e) passes");
	is_int(lc_is_printable_ascii("a\tb"), 0, "printable_ascii: tab fails");
	is_int(lc_is_printable_ascii("a\nb"), 0, "printable_ascii: newline fails");
	is_int(lc_is_printable_ascii("a\x1f"), 0, "printable_ascii: 0x1f fails");
	is_int(lc_is_printable_ascii("a\x7f"), 0, "printable_ascii: DEL fails");
	is_int(lc_is_printable_ascii("caf\xc3\xa9"), 0,
	    "printable_ascii: UTF-8 multi-byte fails");
	is_int(lc_is_printable_ascii("\xff"), 0, "printable_ascii: 0xff fails");
}

/* lc_csv_text of s, as written (not last in its row). */
static void
csv_is(const char *s, const char *want, const char *desc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		bail("open_memstream");
	lc_csv_text(f, s, 0);
	if (fclose(f) == EOF)
		bail("fclose");
	is_string(buf, want, "csv: %s", desc);
	free(buf);
}

static void
test_csv(void)
{
	csv_is("Bob", "Bob,", "plain text as it is");
	csv_is("a,b", "\"a,b\",", "a comma quoted");
	csv_is("say \"hi\"", "\"say \"\"hi\"\"\",", "quotes doubled");
	csv_is("=1+1", "\"'=1+1\",", "a formula's first character gets a '");
	csv_is("Bob;Ann", "\"Bob;Ann\",", "a semicolon quoted (a separator in some countries)");
	csv_is("Bob;=cmd", "\"Bob;'=cmd\",", "a formula character after a semicolon gets a '");
	csv_is("a;;-1;@x", "\"a;;'-1;'@x\",", "each of them");
	csv_is("=a;+b", "\"'=a;'+b\",", "both at once");
	csv_is("a;\"=b", "\"a;'\"\"=b\",", "a quote after a semicolon gets a ' (it would open a cell)");
}

/* Random hex: its length, its alphabet, two draws differing; odd and
 * oversized lengths refused. */
static void
test_random_hex(void)
{
	char a[129], b[129], c[4];

	is_int(lc_random_hex(a, 40), 0, "random hex: 40 made");
	is_int((int)strlen(a), 40, "random hex: 40 characters");
	is_int((int)strspn(a, "0123456789abcdef"), 40,
	    "random hex: lowercase hex only");
	is_int(lc_random_hex(b, 40), 0, "random hex: another");
	ok(strcmp(a, b) != 0, "random hex: two draws differ");
	is_int(lc_random_hex(a, 128), 0, "random hex: 128 made");
	is_int(lc_random_hex(c, 3), -1, "random hex: an odd length refused");
	is_int(lc_random_hex(a, 130), -1, "random hex: over 128 refused");
}

/* A card's time-based code (lib/card_code.c): the codes of steps 0 to 9
 * (the first ten minutes of 1970) for the secret "12345678901234567890",
 * by Python's hashlib.scrypt, not ours:
 *   d = hashlib.scrypt(secret, salt=b"loyalty-pos card code v1" +
 *       struct.pack(">Q", step), n=2, r=1, p=1, dklen=4)
 *   "%06d" % ((int.from_bytes(d, "big") & 0x7fffffff) % 1000000) */
static void
test_card_code(void)
{
	static const char *const rfc[] = { "484659", "686031", "024831",
	    "781013", "720978", "738445", "146696", "815276", "259484",
	    "232768" };
	const char *secret = "3132333435363738393031323334353637383930";
	char code[LC_CODE_DIGITS + 1], s1[LC_CODE_SECRET_LEN + 1];
	char s2[LC_CODE_SECRET_LEN + 1];
	int i;

	for (i = 0; i < 10; i++) {
		is_int(lc_card_code_at(secret, i, code), 0,
		    "card code: step %d is made", i);
		is_string(code, rfc[i], "card code: step %d as Python has it", i);
	}
	is_int(lc_card_code_step(59999), 0, "card code: 59.999 s is step 0");
	is_int(lc_card_code_step(60000), 1, "card code: 60 s is step 1");
	is_int(lc_card_code_step(545000), 9, "card code: 9 min 5 s is step 9");
	is_int(lc_card_code_at("3132", 1, code), -1,
	    "card code: a short secret makes none");
	is_int(lc_card_code_at("3132333435363738393031323334353637383G30", 1,
	    code), -1, "card code: a secret that is not hex makes none");
	ok(lc_card_code_form("012345"), "card code: 6 digits are one");
	ok(!lc_card_code_form("01234") && !lc_card_code_form("0123456") &&
	    !lc_card_code_form("01234a") && !lc_card_code_form(""),
	    "card code: 5 or 7 digits, a letter, nothing are not");
	ok(lc_card_secret(s1) == 0 && lc_card_secret(s2) == 0 &&
	    strlen(s1) == LC_CODE_SECRET_LEN &&
	    strspn(s1, "0123456789abcdef") == LC_CODE_SECRET_LEN &&
	    strcmp(s1, s2) != 0, "card code: secrets are 40 hex digits, random");
}

int
main(void)
{
	test_random_hex();
	test_card_code();
	test_csv();
	test_uuid();
	test_uuid_at();
	test_time_fmt();
	test_time_parse();
	test_time_roundtrip();
	test_b64();
	test_decimal_parse();
	test_decimal_fmt();
	test_printable();
	return done_testing();
}
