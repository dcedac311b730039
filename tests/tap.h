/* A tiny TAP producer for the unit tests (automake's tap-driver reads it). */
#ifndef TAP_H
#define TAP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) do { \
	int ok_ = (cond) ? 1 : 0; \
	printf("%sok %d - ", ok_ ? "" : "not ", ++tap_n); \
	printf(__VA_ARGS__); \
	putchar('\n'); \
	if (!ok_) { tap_failed++; \
		printf("# failed at %s:%d\n", __FILE__, __LINE__); } \
} while (0)
#define is_int(got, want, ...) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	ok(g_ == w_, __VA_ARGS__); \
	if (g_ != w_) printf("#   got %lld, want %lld\n", g_, w_); \
} while (0)
#define is_string(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	int e_ = (g_ == NULL && w_ == NULL) || \
	    (g_ != NULL && w_ != NULL && strcmp(g_, w_) == 0); \
	ok(e_, __VA_ARGS__); \
	if (!e_) printf("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)", \
	    w_ ? w_ : "(null)"); \
} while (0)
#define diag(...) do { printf("# "); printf(__VA_ARGS__); putchar('\n'); } while (0)
#define bail(...) do { printf("Bail out! "); printf(__VA_ARGS__); \
	putchar('\n'); exit(1); } while (0)
#define done_testing() (printf("1..%d\n", tap_n), tap_failed ? 1 : 0)

#endif
