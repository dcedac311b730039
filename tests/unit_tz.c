/*
 * lib/tz.c: offsets and day starts across the 2026 daylight-saving
 * changes, by the system's zoneinfo files and by the POSIX rules of
 * lib/tz_rules.c alone (a host without zoneinfo, the static bundle's),
 * the fixed offset, and tz_rules.c against the machine's tzdata.
 *
 * The expected instants were worked out by hand from the zones' rules
 * (tzdata 2025b), e.g. Europe/Berlin "CET-1CEST,M3.5.0,M10.5.0/3": the
 * last Sunday of March 2026 is the 29th, 02:00 CET = 01:00 UTC.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lc_core.h"
#include "tap.h"

#define H 3600000LL
#define M 60000LL
#define DAY 86400000LL

/* Days since 1970-01-01 of a (proleptic Gregorian) date. */
static int64_t
days(int y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* UTC ms of a UTC date and time. */
static int64_t
utc(int y, int mo, int d, int h, int mi)
{
	return days(y, mo, d) * DAY + h * H + mi * M;
}

static struct lc_tz
zone(const char *name)
{
	struct lc_tz tz;

	memset(&tz, 0, sizeof(tz));
	snprintf(tz.name, sizeof(tz.name), "%s", name);
	return tz;
}

/* A day's first instant, its length and the offsets either side. */
static void
day_is(const char *name, int y, int mo, int d, int64_t start,
    int64_t hours, const char *how)
{
	struct lc_tz tz = zone(name);
	int64_t day = days(y, mo, d);

	is_int(lc_tz_day_start(&tz, day), start, "%s %04d-%02d-%02d starts "
	    "at the UTC instant worked out (%s)", name, y, mo, d, how);
	is_int(lc_tz_day_start(&tz, day + 1) - start, hours * H,
	    "%s %04d-%02d-%02d has %lld hours", name, y, mo, d,
	    (long long)hours);
	is_int(lc_tz_day_of(&tz, start), day, "%s: its first instant is in "
	    "the day", name);
	is_int(lc_tz_day_of(&tz, start - 1), day - 1, "%s: the ms before is "
	    "in the day before", name);
}

static void
offset_is(const char *name, int64_t at, int64_t want, const char *how)
{
	struct lc_tz tz = zone(name);

	is_int(lc_tz_offset_ms(&tz, at), want, "%s offset %s", name, how);
}

static void
zones(const char *path)
{
	diag("by %s", path);
	/* Berlin: 29 March 01:00 UTC the clocks go from 02:00 CET to 03:00
	 * CEST; 25 October 01:00 UTC from 03:00 CEST back to 02:00 CET.
	 * 29 March starts at 00:00 CET = 28 March 23:00 UTC and ends at
	 * 00:00 CEST 30 March = 29 March 22:00 UTC: 23 hours. 25 October:
	 * 24 October 22:00 UTC to 25 October 23:00 UTC: 25 hours. */
	offset_is("Europe/Berlin", utc(2026, 3, 29, 1, 0) - 1, 1 * H,
	    "the ms before the spring change: CET");
	offset_is("Europe/Berlin", utc(2026, 3, 29, 1, 0), 2 * H,
	    "at the spring change: CEST");
	offset_is("Europe/Berlin", utc(2026, 10, 25, 1, 0) - 1, 2 * H,
	    "the ms before the autumn change: CEST");
	offset_is("Europe/Berlin", utc(2026, 10, 25, 1, 0), 1 * H,
	    "at the autumn change: CET");
	day_is("Europe/Berlin", 2026, 3, 28, utc(2026, 3, 27, 23, 0), 24,
	    "00:00 CET");
	day_is("Europe/Berlin", 2026, 3, 29, utc(2026, 3, 28, 23, 0), 23,
	    "00:00 CET, 23 hours");
	day_is("Europe/Berlin", 2026, 3, 30, utc(2026, 3, 29, 22, 0), 24,
	    "00:00 CEST");
	day_is("Europe/Berlin", 2026, 10, 25, utc(2026, 10, 24, 22, 0), 25,
	    "00:00 CEST, 25 hours");
	day_is("Europe/Berlin", 2026, 10, 26, utc(2026, 10, 25, 23, 0), 24,
	    "00:00 CET");

	/* New York "EST5EDT,M3.2.0,M11.1.0": 8 March 02:00 EST = 07:00
	 * UTC to 03:00 EDT; 1 November 02:00 EDT = 06:00 UTC back to 01:00
	 * EST. 8 March: 05:00 UTC (00:00 EST) to 9 March 04:00 UTC (00:00
	 * EDT), 23 hours; 1 November: 04:00 UTC (00:00 EDT) to 2 November
	 * 05:00 UTC (00:00 EST), 25 hours. */
	offset_is("America/New_York", utc(2026, 3, 8, 7, 0) - 1, -5 * H,
	    "before the spring change: EST");
	offset_is("America/New_York", utc(2026, 3, 8, 7, 0), -4 * H,
	    "at the spring change: EDT");
	offset_is("America/New_York", utc(2026, 11, 1, 6, 0) - 1, -4 * H,
	    "before the autumn change: EDT");
	offset_is("America/New_York", utc(2026, 11, 1, 6, 0), -5 * H,
	    "at the autumn change: EST");
	day_is("America/New_York", 2026, 3, 8, utc(2026, 3, 8, 5, 0), 23,
	    "00:00 EST, 23 hours");
	day_is("America/New_York", 2026, 11, 1, utc(2026, 11, 1, 4, 0), 25,
	    "00:00 EDT, 25 hours");
	day_is("America/New_York", 2026, 11, 2, utc(2026, 11, 2, 5, 0), 24,
	    "00:00 EST");

	/* Kolkata +05:30 and Kathmandu +05:45 all year: 1 July starts at
	 * 30 June 18:30 and 18:15 UTC. */
	offset_is("Asia/Kolkata", utc(2026, 7, 1, 0, 0), 5 * H + 30 * M,
	    "+05:30");
	day_is("Asia/Kolkata", 2026, 7, 1, utc(2026, 6, 30, 18, 30), 24,
	    "00:00 IST");
	offset_is("Asia/Kathmandu", utc(2026, 1, 1, 0, 0), 5 * H + 45 * M,
	    "+05:45");
	day_is("Asia/Kathmandu", 2026, 1, 1, utc(2025, 12, 31, 18, 15), 24,
	    "00:00 +0545");

	/* Lord Howe "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0": half an hour
	 * of daylight saving. 5 April 02:00 +11 (4 April 15:00 UTC) back
	 * to 01:30 +1030: 5 April runs from 4 April 13:00 UTC (00:00 +11)
	 * to 5 April 13:30 UTC (00:00 +1030), 24.5 hours; 4 October 02:00
	 * +1030 (3 October 15:30 UTC) on to 02:30 +11: 4 October runs from
	 * 3 October 13:30 UTC to 4 October 13:00 UTC, 23.5 hours. */
	offset_is("Australia/Lord_Howe", utc(2026, 4, 4, 15, 0) - 1,
	    11 * H, "before April's change: +11");
	offset_is("Australia/Lord_Howe", utc(2026, 4, 4, 15, 0),
	    10 * H + 30 * M, "at April's change: +10:30");
	offset_is("Australia/Lord_Howe", utc(2026, 10, 3, 15, 30),
	    11 * H, "at October's change: +11");
	{
		struct lc_tz tz = zone("Australia/Lord_Howe");

		is_int(lc_tz_day_start(&tz, days(2026, 4, 5)),
		    utc(2026, 4, 4, 13, 0), "Lord Howe 5 April starts at "
		    "00:00 +11");
		is_int(lc_tz_day_start(&tz, days(2026, 4, 6)) -
		    lc_tz_day_start(&tz, days(2026, 4, 5)), 24 * H + 30 * M,
		    "Lord Howe 5 April has 24.5 hours");
		is_int(lc_tz_day_start(&tz, days(2026, 10, 5)) -
		    lc_tz_day_start(&tz, days(2026, 10, 4)), 23 * H + 30 * M,
		    "Lord Howe 4 October has 23.5 hours");
	}

	/* Havana "CST5CDT,M3.2.0/0,M11.1.0/1": daylight saving starts at
	 * midnight. On 8 March at 00:00 CST (05:00 UTC) the clocks go to
	 * 01:00 CDT: the day's midnight does not exist, it starts at its
	 * first instant, 01:00 CDT = 05:00 UTC, and has 23 hours (to 9
	 * March 00:00 CDT = 04:00 UTC). On 1 November at 01:00 CDT (05:00
	 * UTC) back to 00:00 CST: midnight comes twice, the day starts at
	 * the first (04:00 UTC) and has 25 hours. */
	offset_is("America/Havana", utc(2026, 3, 8, 5, 0) - 1, -5 * H,
	    "before the change at midnight: CST");
	offset_is("America/Havana", utc(2026, 3, 8, 5, 0), -4 * H,
	    "at the change at midnight: CDT");
	day_is("America/Havana", 2026, 3, 7, utc(2026, 3, 7, 5, 0), 24,
	    "00:00 CST");
	day_is("America/Havana", 2026, 3, 8, utc(2026, 3, 8, 5, 0), 23,
	    "no midnight: 01:00 CDT");
	day_is("America/Havana", 2026, 11, 1, utc(2026, 11, 1, 4, 0), 25,
	    "the first of two midnights");
}

/* tz_rules.c is the machine's tzdata, when it is the same version. */
static void
rules_current(void)
{
	char line[512], name[128], want[512], path[256], ver[32] = "";
	FILE *zi, *f;
	size_t i, n = 0, missing = 0, differ = 0;

	for (i = 1; i < lc_tz_rules_n; i++)
		if (strcmp(lc_tz_rules[i - 1].name, lc_tz_rules[i].name) >= 0)
			break;
	is_int(i, lc_tz_rules_n, "tz_rules.c's names are sorted, each once");
	ok(lc_tz_rules_n > 500, "tz_rules.c has every zone (%zu names)",
	    lc_tz_rules_n);
	if ((zi = fopen("/usr/share/zoneinfo/tzdata.zi", "r")) == NULL) {
		printf("ok %d # SKIP no /usr/share/zoneinfo/tzdata.zi "
		    "(Debian's tzdata) to compare tz_rules.c with\n", ++tap_n);
		return;
	}
	if (fgets(line, sizeof(line), zi) != NULL)
		sscanf(line, "# version %31s", ver);
	if (strcmp(ver, lc_tz_rules_version) != 0) {
		printf("ok %d # SKIP the machine's tzdata is %s, tz_rules.c's "
		    "%s (tools/tzrules > lib/tz_rules.c to update it)\n",
		    ++tap_n, ver, lc_tz_rules_version);
		fclose(zi);
		return;
	}
	/* Every zone and link of tzdata.zi, with its file's footer. */
	while (fgets(line, sizeof(line), zi) != NULL) {
		if (sscanf(line, "Z %127s", name) != 1 &&
		    sscanf(line, "L %*s %127s", name) != 1)
			continue;
		n++;
		if (lc_tz_rule(name) == NULL) {
			diag("%s is not in tz_rules.c", name);
			missing++;
			continue;
		}
		snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", name);
		want[0] = '\0';
		if ((f = fopen(path, "r")) != NULL) {
			while (fgets(line, sizeof(line), f) != NULL)
				snprintf(want, sizeof(want), "%s", line);
			fclose(f);
		}
		want[strcspn(want, "\n")] = '\0';
		if (strcmp(want, lc_tz_rule(name)) != 0) {
			diag("%s: the file says %s, tz_rules.c %s", name, want,
			    lc_tz_rule(name));
			differ++;
		}
	}
	fclose(zi);
	is_int(missing, 0, "every one of tzdata %s's %zu names is in "
	    "tz_rules.c", ver, n);
	is_int(differ, 0, "each with its file's rule");
	is_int(n, lc_tz_rules_n, "and tz_rules.c has no other name");
}

int
main(void)
{
	struct lc_tz fixed, berlin = zone("Europe/Berlin");
	int64_t summer75 = utc(1975, 7, 1, 12, 0);

	ok(lc_tz_known("Europe/Berlin"), "Europe/Berlin is known");
	ok(lc_tz_known("US/Eastern"), "a link (US/Eastern) is known");
	ok(lc_tz_known("UTC"), "UTC is known");
	ok(!lc_tz_known("Europe/Atlantis"), "a zone tzdata lacks is not");
	ok(!lc_tz_known("../../etc/passwd") && !lc_tz_known("/etc/localtime")
	    && !lc_tz_known("") && !lc_tz_known("europe/berlin"),
	    "nor a path, nothing, or a name in the wrong case");
	is_string(lc_tz_rule("Europe/Berlin"), "CET-1CEST,M3.5.0,M10.5.0/3",
	    "Berlin's rule");

	/* The fixed offset: no zone, no daylight saving. */
	memset(&fixed, 0, sizeof(fixed));
	fixed.fixed_ms = -210 * M;
	is_int(lc_tz_offset_ms(&fixed, utc(2026, 7, 1, 0, 0)), -210 * M,
	    "the fixed offset is the offset");
	is_int(lc_tz_day_start(&fixed, days(2026, 3, 8)),
	    utc(2026, 3, 8, 3, 30), "its day starts at midnight by it");
	is_int(lc_tz_day_of(&fixed, utc(2026, 3, 8, 3, 29)), days(2026, 3, 7),
	    "the minute before is the day before");
	is_int(lc_tz_day_of(&fixed, -1), -1, "days before 1970 are negative");

	lc_tz_rules_only(0);
	if (access("/usr/share/zoneinfo/Europe/Berlin", R_OK) == 0) {
		zones("the system's zoneinfo files");
		/* A file knows the past: West Germany kept no summer time
		 * from 1950 to 1979. */
		is_int(lc_tz_offset_ms(&berlin, summer75), 1 * H,
		    "Berlin in July 1975 by its file: CET, no summer time");
	} else
		printf("ok %d # SKIP no /usr/share/zoneinfo on this host\n",
		    ++tap_n);

	lc_tz_rules_only(1);
	zones("the POSIX rules of tz_rules.c alone");
	/* A rule knows today's rules only: 1975 as if they held then (the
	 * documented limit of a host without zoneinfo). */
	is_int(lc_tz_offset_ms(&berlin, summer75), 2 * H,
	    "Berlin in July 1975 by today's rule: CEST");
	lc_tz_rules_only(0);

	rules_current();
	return done_testing();
}
