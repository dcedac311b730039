/*
 * Utilities of every room (util.c): randomness, identifiers, the clock,
 * time and decimal text, base64, the log.
 */
#ifndef LC_UTIL_H
#define LC_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "lc_limits.h"

int lc_random(void *buf, size_t len);			/* 0 or -1 */
/* nhex random lowercase hex characters (an even number, at most 128) and
 * a NUL into out: 0, or -1. */
int lc_random_hex(char *out, size_t nhex);
int lc_uuid(char out[LC_ID_LEN + 1]);			/* 0 or -1 */
/* A version 4 UUID's text of 16 bytes (its version and variant set). */
void lc_uuid_text(unsigned char b[16], char out[LC_ID_LEN + 1]);
int lc_uuid_at(char out[LC_ID_LEN + 1], int64_t at);
int64_t lc_now_ms(void);
int64_t lc_mono_ms(void);	/* a monotonic clock, for lengths of time */
/* Test builds only (configure --enable-test-clock): the clock of the
 * requests that follow, milliseconds since 1970 as decimal digits, or
 * NULL (or anything else) for the real one. */
void lc_test_clock_set(const char *ms);
void lc_time_fmt(int64_t ms, char out[32]);		/* YYYY-MM-DDTHH:MM:SS.mmmZ */
/* ISO 8601 date or date-time. 0 or -1. *date_only set when only a date
 * was given. */
int lc_time_parse(const char *s, int64_t *ms, int *date_only);
/* Base64 (url: URL-safe alphabet, no padding). Returns length written. */
size_t lc_b64_encode(const unsigned char *in, size_t len, char *out, int url);
/* Strict standard base64 decode; returns decoded length or -1. */
long lc_b64_decode(const char *in, unsigned char *out, size_t outsz);
/*
 * Exact decimal text to a scaled integer: "12.5" with scale 2 gives 1250.
 * Accepts an optional exponent. -1 when not a plain non-negative number,
 * more decimals than scale allows, or above max.
 */
int lc_decimal_parse(const char *s, int scale, int64_t max, int64_t *out);
/* Scaled integer to the shortest exact decimal text ("0.05", "12.50" with
 * keep_scale). out must hold 32 bytes. */
void lc_decimal_fmt(int64_t v, int scale, int keep_scale, char out[32]);
int lc_is_printable_ascii(const char *s);
/* Logs to stderr (the server's error log). */
void lc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* LC_UTIL_H */
