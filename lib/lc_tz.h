/*
 * The shop's time zone (tz.c): its IANA zone, whose offset from UTC
 * changes with daylight saving, or (a shop that named none) the
 * installation's fixed utc_offset_minutes. Days are the shop's calendar
 * days, numbered from 1970-01-01 as UTC's are.
 */
#ifndef LC_TZ_H
#define LC_TZ_H

#include <stdint.h>

struct lc_db;

struct lc_tz {
	char name[64];		/* IANA name; "" : the fixed offset */
	int64_t fixed_ms;	/* the fixed offset, when name is "" */
};

/* Whether name is an IANA zone this build can follow. */
int lc_tz_known(const char *name);
/* The shop's zone: 0, or -1 when it cannot be read. */
int lc_tz_of(struct lc_db *, const char *merchant_id, struct lc_tz *);
/* Local time minus UTC at the instant utc_ms. */
int64_t lc_tz_offset_ms(const struct lc_tz *, int64_t utc_ms);
/* The local day of an instant, and the first instant of a local day. */
int64_t lc_tz_day_of(const struct lc_tz *, int64_t utc_ms);
int64_t lc_tz_day_start(const struct lc_tz *, int64_t day);

#endif /* LC_TZ_H */
