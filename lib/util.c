/*
 * Small utilities: randomness, ids, time, base64 and exact decimals.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "lc_core.h"

int
lc_random(void *buf, size_t len)
{
	unsigned char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
lc_random_hex(char *out, size_t nhex)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[64];
	size_t i;

	if (nhex % 2 != 0 || nhex / 2 > sizeof(b) ||
	    lc_random(b, nhex / 2) == -1)
		return -1;
	for (i = 0; i < nhex / 2; i++) {
		out[2 * i] = hex[b[i] >> 4];
		out[2 * i + 1] = hex[b[i] & 0x0f];
	}
	out[nhex] = '\0';
	return 0;
}

/* The 8-4-4-4-12 hex form, by hand: every request makes an id (its
 * request id), and snprintf's sixteen conversions showed in a lookup's
 * profile. */
static void
uuid_format(const unsigned char b[16], char out[LC_ID_LEN + 1])
{
	static const char hex[] = "0123456789abcdef";
	char *p = out;
	int i;

	for (i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			*p++ = '-';
		*p++ = hex[b[i] >> 4];
		*p++ = hex[b[i] & 0x0f];
	}
	*p = '\0';
}

int
lc_uuid(char out[LC_ID_LEN + 1])
{
	unsigned char b[16];

	if (lc_random(b, sizeof(b)) == -1)
		return -1;
	lc_uuid_text(b, out);
	return 0;
}

/*
 * A time-ordered id (UUID version 7, RFC 9562): the first 48 bits are
 * the milliseconds at, the other 74 random. For the rows written on
 * every purchase: ids that grow with time go in at the end of their
 * indexes, on a page the last purchase already wrote, where random ids
 * would read and write a page anywhere in the index each time.
 */
int
lc_uuid_at(char out[LC_ID_LEN + 1], int64_t at)
{
	unsigned char b[16];
	int i;

	if (lc_random(b, sizeof(b)) == -1)
		return -1;
	for (i = 0; i < 6; i++)
		b[i] = (unsigned char)((uint64_t)at >> (40 - 8 * i));
	b[6] = (b[6] & 0x0f) | 0x70;	/* version 7 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	uuid_format(b, out);
	return 0;
}

void
lc_uuid_text(unsigned char b[16], char out[LC_ID_LEN + 1])
{
	b[6] = (b[6] & 0x0f) | 0x40;	/* version 4 */
	b[8] = (b[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	uuid_format(b, out);
}

#ifdef LC_TEST_CLOCK
/* Test builds only (configure --enable-test-clock): the time set for the
 * request being served, or -1 for the real clock. A test of a time rule
 * then never depends on how fast the machine answers it. */
static int64_t test_now_ms = -1;

void
lc_test_clock_set(const char *ms)
{
	char *end;
	long long v;

	test_now_ms = -1;
	if (ms == NULL || *ms < '0' || *ms > '9')
		return;
	errno = 0;
	v = strtoll(ms, &end, 10);
	if (errno == 0 && *end == '\0')
		test_now_ms = v;
}
#endif

int64_t
lc_now_ms(void)
{
	struct timespec ts;

#ifdef LC_TEST_CLOCK
	if (test_now_ms >= 0)
		return test_now_ms;
#endif
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* For lengths of time: never set, never jumps (NTP on a Pi without a
 * clock of its own). */
int64_t
lc_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant). */
static int64_t
days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static void
civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

void
lc_time_fmt(int64_t ms, char out[32])
{
	int64_t secs, days, rem;
	int y;
	unsigned mo, d;

	secs = ms >= 0 ? ms / 1000 : (ms - 999) / 1000;
	days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400;
	rem = secs - days * 86400;
	civil_from_days(days, &y, &mo, &d);
	/* Years past 9999 are not produced: inputs are clamped to now. */
	snprintf(out, 32, "%04d-%02u-%02uT%02u:%02u:%02u.%03uZ", y % 10000, mo % 13u,
	    d % 32u, (unsigned)(rem / 3600) % 24u, (unsigned)(rem / 60 % 60),
	    (unsigned)(rem % 60), (unsigned)(ms - secs * 1000) % 1000u);
}

/* Reads exactly n digits at *p into *v; advances. 0 or -1. */
static int
digits(const char **p, int n, int *v)
{
	int i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return -1;
		*v = *v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	return 0;
}

static int
days_in_month(int y, int m)
{
	static const int dm[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return dm[m - 1];
}

int
lc_time_parse(const char *s, int64_t *ms, int *date_only)
{
	const char *p = s;
	int y, mo, d, h = 0, mi = 0, sec = 0, frac = 0, oh, om, sign;
	int64_t off = 0;

	if (digits(&p, 4, &y) == -1 || *p++ != '-' ||
	    digits(&p, 2, &mo) == -1 || *p++ != '-' ||
	    digits(&p, 2, &d) == -1)
		return -1;
	if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo))
		return -1;
	if (*p == '\0') {
		*date_only = 1;
		*ms = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400000LL;
		return 0;
	}
	*date_only = 0;
	if (*p++ != 'T' || digits(&p, 2, &h) == -1 || *p++ != ':' ||
	    digits(&p, 2, &mi) == -1 || *p++ != ':' ||
	    digits(&p, 2, &sec) == -1)
		return -1;
	if (h > 23 || mi > 59 || sec > 59)
		return -1;
	if (*p == '.') {
		int n = 0;

		p++;
		if (!isdigit((unsigned char)*p))
			return -1;
		/* Milliseconds: further digits are truncated. */
		while (isdigit((unsigned char)*p)) {
			if (n < 3) {
				frac = frac * 10 + (*p - '0');
				n++;
			}
			p++;
		}
		while (n++ < 3)
			frac *= 10;
	}
	if (*p == 'Z')
		p++;
	else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (digits(&p, 2, &oh) == -1 || *p++ != ':' ||
		    digits(&p, 2, &om) == -1 || oh > 23 || om > 59)
			return -1;
		off = sign * (oh * 3600LL + om * 60LL) * 1000;
	} else
		return -1;
	if (*p != '\0')
		return -1;
	*ms = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400000LL +
	    (h * 3600LL + mi * 60LL + sec) * 1000 + frac - off;
	return 0;
}

static const char b64std[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

size_t
lc_b64_encode(const unsigned char *in, size_t len, char *out, int url)
{
	const char *a = url ? b64url : b64std;
	size_t i, o = 0;
	uint32_t v;

	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		out[o++] = a[v >> 6 & 63];
		out[o++] = a[v & 63];
	}
	if (i < len) {
		v = (uint32_t)in[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)in[i + 1] << 8;
		out[o++] = a[v >> 18 & 63];
		out[o++] = a[v >> 12 & 63];
		if (i + 1 < len)
			out[o++] = a[v >> 6 & 63];
		else if (!url)
			out[o++] = '=';
		if (!url)
			out[o++] = '=';
	}
	out[o] = '\0';
	return o;
}

long
lc_b64_decode(const char *in, unsigned char *out, size_t outsz)
{
	size_t len = strlen(in), i, o = 0;
	uint32_t v = 0;
	int n = 0, pad = 0;
	const char *c;

	if (len == 0 || len % 4 != 0)
		return -1;
	for (i = 0; i < len; i++) {
		if (in[i] == '=') {
			/* Padding only in the last two places. */
			if (i < len - 2)
				return -1;
			pad++;
			v <<= 6;
		} else {
			if (pad > 0 || (c = strchr(b64std, in[i])) == NULL ||
			    in[i] == '\0')
				return -1;
			v = v << 6 | (uint32_t)(c - b64std);
		}
		if (++n == 4) {
			if (o + 3 - (size_t)pad > outsz)
				return -1;
			out[o++] = v >> 16 & 0xff;
			if (pad < 2)
				out[o++] = v >> 8 & 0xff;
			if (pad < 1)
				out[o++] = v & 0xff;
			v = 0;
			n = 0;
		}
	}
	return (long)o;
}

int
lc_decimal_parse(const char *s, int scale, int64_t max, int64_t *out)
{
	char digs[64];
	int nd = 0, point = -1, exp = 0, esign = 1, i, shift;
	const char *p = s;
	int64_t v = 0;

	if (*p == '-') {
		/* Only a negative zero passes, as zero. */
		p++;
	}
	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
		if (*p == '.') {
			if (point >= 0)
				return -1;
			point = nd;
			continue;
		}
		if (nd == 0 && *p == '0' && point < 0)
			continue;	/* leading zero */
		if (nd >= (int)sizeof(digs) - 1)
			return -1;
		digs[nd++] = *p;
	}
	/* A point needs a digit after it ("1." is not a number). */
	if (point >= 0 && !isdigit((unsigned char)p[-1]))
		return -1;
	if (point < 0)
		point = nd;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			esign = *p++ == '-' ? -1 : 1;
		if (!isdigit((unsigned char)*p))
			return -1;
		for (; isdigit((unsigned char)*p); p++) {
			exp = exp * 10 + (*p - '0');
			if (exp > 1000)
				return -1;
		}
	}
	if (*p != '\0')
		return -1;
	/* value = 0.digs * 10^(point + esign*exp); we want value * 10^scale. */
	shift = point + esign * exp + scale;	/* digits before the point */
	for (i = 0; i < nd; i++) {
		if (i >= shift) {
			if (digs[i] != '0')
				return -1;	/* too many decimals */
			continue;
		}
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (digs[i] - '0');
	}
	for (i = nd; i < shift; i++) {
		if (v > INT64_MAX / 10)
			return -1;
		v *= 10;
	}
	if (s[0] == '-' && v != 0)
		return -1;
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

void
lc_decimal_fmt(int64_t v, int scale, int keep_scale, char out[32])
{
	int64_t div = 1, ip, fp;
	int i, n;
	char *end;

	for (i = 0; i < scale; i++)
		div *= 10;
	ip = v / div;
	fp = v % div;
	if (fp < 0)
		fp = -fp;
	if (scale == 0) {
		snprintf(out, 32, "%lld", (long long)v);
		return;
	}
	n = snprintf(out, 32, "%s%lld.%0*lld", v < 0 && ip == 0 ? "-" : "",
	    (long long)ip, scale, (long long)fp);
	if (keep_scale || n <= 0)
		return;
	end = out + n - 1;
	while (*end == '0')
		*end-- = '\0';
	if (*end == '.')
		end[1] = '0';	/* "1." becomes "1.0": still a JSON number */
}

int
lc_is_printable_ascii(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}
