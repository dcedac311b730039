/*
 * The shop's time zone (tz.c): its IANA zone, whose offset from UTC
 * changes with daylight saving, or (a shop that named none) the
 * installation's fixed utc_offset_minutes. Days are the shop's calendar
 * days, numbered from 1970-01-01 as UTC's are.
 */
#ifndef LC_TZ_H
#define LC_TZ_H

#include <stddef.h>
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
/* The zone's offset as text for a person: "UTC+02:00", "UTC-03:30". */
void lc_tz_offset_text(int64_t offset_ms, char out[16]);

/* tz_rules.c (tools/tzrules, from Debian's tzdata): every zone and link
 * name, sorted by strcmp, with its POSIX TZ rule (today's rule: what a
 * host without /usr/share/zoneinfo follows). */
struct lc_tz_rule {
	const char *name, *rule;
};
extern const struct lc_tz_rule lc_tz_rules[];
extern const size_t lc_tz_rules_n;
extern const char lc_tz_rules_version[];	/* "2025b" */
/* The rule of a name, NULL when tzdata has no such zone. */
const char *lc_tz_rule(const char *name);
/* Tests: 1 follows every zone by its POSIX rule alone, as on a host
 * without /usr/share/zoneinfo (also LC_TZ_RULES_ONLY=1 in the
 * environment of a test-clock build). */
void lc_tz_rules_only(int);

#endif /* LC_TZ_H */
