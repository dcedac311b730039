/*
 * The shop's time zone. A named zone is followed by the C library
 * (glibc, or musl in the static bundle): TZ is set to the zone and
 * localtime_r tells each instant's offset. The zone's TZif file from the
 * system (/usr/share/zoneinfo) when the host has it, so every year
 * follows the zone's history; else the zone's POSIX rule from
 * tz_rules.c (tools/tzrules, from Debian's tzdata), so a host without
 * zoneinfo (the static bundle's) still follows today's daylight-saving
 * rules: years before the zone's last change of rules may then be an
 * hour (or half an hour) off. A shop that named no zone has the
 * installation's fixed utc_offset_minutes.
 *
 * TZ is process-wide state. A process serves one request at a time (CGI,
 * or a FastCGI loop; loyalty-admin acts for one merchant at a time) and
 * nothing else in the service reads local time, so the zone set last is
 * the one in use; it is set only when it changes, because glibc's
 * tzset() parses the zone's file again each time.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lc_core.h"
#include "lc_tz.h"

#define DAY_MS 86400000LL
#define HOUR_MS 3600000LL
#define ZONEINFO "/usr/share/zoneinfo/"

static int rules_only = -1;	/* -1: the environment not read yet */
static char zone_last[64];	/* the name TZ was set for last */
static int zone_ok;		/* whether that worked */

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

static int
rule_cmp(const void *key, const void *elt)
{
	return strcmp(key, ((const struct lc_tz_rule *)elt)->name);
}

const char *
lc_tz_rule(const char *name)
{
	const struct lc_tz_rule *r;

	r = bsearch(name, lc_tz_rules, lc_tz_rules_n, sizeof(lc_tz_rules[0]),
	    rule_cmp);
	return r != NULL ? r->rule : NULL;
}

/* The table, not the host's files: the zones a shop may name are the
 * same on every host, and a name is never a path of our choosing. */
int
lc_tz_known(const char *name)
{
	return name != NULL && strlen(name) < sizeof(((struct lc_tz *)0)->name)
	    && lc_tz_rule(name) != NULL;
}

void
lc_tz_rules_only(int on)
{
	rules_only = on;
	zone_last[0] = '\0';	/* choose the source again */
}

static int
use_rules_only(void)
{
	if (rules_only == -1) {
#ifdef LC_TEST_CLOCK
		const char *e = getenv("LC_TZ_RULES_ONLY");

		rules_only = e != NULL && strcmp(e, "1") == 0;
#else
		rules_only = 0;
#endif
	}
	return rules_only;
}

/* Whether path is a TZif file (RFC 8536): what both C libraries read. */
static int
is_tzif(const char *path)
{
	char magic[4];
	int fd, ok;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return 0;
	ok = read(fd, magic, 4) == 4 && memcmp(magic, "TZif", 4) == 0;
	close(fd);
	return ok;
}

/* TZ for the zone name (one lc_tz_known accepts): 0, or -1. */
static int
use_zone(const char *name)
{
	char tz[128];
	const char *rule;

	if (strcmp(name, zone_last) == 0)
		return zone_ok ? 0 : -1;
	snprintf(zone_last, sizeof(zone_last), "%s", name);
	zone_ok = 0;
	if ((rule = lc_tz_rule(name)) == NULL)
		return -1;
	/* ":/path" is a file to both glibc and musl, whatever TZDIR. */
	snprintf(tz, sizeof(tz), ":" ZONEINFO "%s", name);
	if (use_rules_only() || !is_tzif(tz + 1))
		snprintf(tz, sizeof(tz), "%s", rule);
	if (setenv("TZ", tz, 1) == -1)
		return -1;
	tzset();
	zone_ok = 1;
	return 0;
}

int
lc_tz_of(struct lc_db *db, const char *merchant_id, struct lc_tz *tz)
{
	char name[64];
	int rc;

	memset(tz, 0, sizeof(*tz));
	if (lc_setting_read(db, LC_SET_UTC_OFFSET, &tz->fixed_ms) == -1)
		return -1;
	tz->fixed_ms *= 60000;
	/* The shop's zone, else the installation's, read here rather than
	 * through the settings' reader, which falls back when storage
	 * fails: a report by the wrong days is worse than none. */
	name[0] = '\0';
	rc = 0;
	if (merchant_id != NULL && merchant_id[0] != '\0' &&
	    (rc = lc_db_shop_setting_get(db, merchant_id,
	    lc_setting_name(LC_SET_TIME_ZONE), name, sizeof(name))) == -1)
		return -1;
	if (rc == 0 && lc_db_setting_get(db, lc_setting_name(LC_SET_TIME_ZONE),
	    name, sizeof(name)) == -1)
		return -1;
	/* A name this build does not know (stored by a build whose tzdata
	 * had it) falls back to the fixed offset, as no name does. */
	if (name[0] != '\0' && lc_tz_known(name))
		snprintf(tz->name, sizeof(tz->name), "%s", name);
	return 0;
}

int64_t
lc_tz_offset_ms(const struct lc_tz *tz, int64_t utc_ms)
{
	struct tm tm;
	time_t t;

	if (tz->name[0] == '\0' || use_zone(tz->name) == -1)
		return tz->fixed_ms;
	t = (time_t)floor_div(utc_ms, 1000);
	if (localtime_r(&t, &tm) == NULL)
		return tz->fixed_ms;
	return (int64_t)tm.tm_gmtoff * 1000;
}

int64_t
lc_tz_day_of(const struct lc_tz *tz, int64_t utc_ms)
{
	return floor_div(utc_ms + lc_tz_offset_ms(tz, utc_ms), DAY_MS);
}

int64_t
lc_tz_day_start(const struct lc_tz *tz, int64_t day)
{
	int64_t mid = day * DAY_MS, u, lo, hi;

	if (tz->name[0] == '\0')
		return mid - tz->fixed_ms;
	/* Midnight by the offset there: right unless an offset changes
	 * near it. */
	u = mid - lc_tz_offset_ms(tz, mid - lc_tz_offset_ms(tz, mid));
	if (lc_tz_day_of(tz, u) == day && lc_tz_day_of(tz, u - 1) < day)
		return u;
	/* Else the first instant of the day, bisected: offsets lie within
	 * a day of UTC, so lo is in an earlier day and hi in this or a
	 * later one. A day whose midnight does not exist (the clocks go
	 * from 23:59:59 to 01:00) starts at its first instant that does. */
	lo = mid - 26 * HOUR_MS;
	hi = mid + 26 * HOUR_MS;
	while (hi - lo > 1) {
		u = lo + (hi - lo) / 2;
		if (lc_tz_day_of(tz, u) >= day)
			hi = u;
		else
			lo = u;
	}
	return hi;
}

void
lc_tz_offset_text(int64_t offset_ms, char out[16])
{
	int64_t m = (offset_ms < 0 ? -offset_ms : offset_ms) / 60000;

	snprintf(out, 16, "UTC%c%02d:%02d", offset_ms < 0 ? '-' : '+',
	    (int)(m / 60 % 100), (int)(m % 60));
}
