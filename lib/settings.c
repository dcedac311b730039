/*
 * Installation settings, stored in the database; each has a default and a
 * range, so a typo cannot lock every till out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lc_int.h"

static const struct lc_setting_info lc_settings[LC_SET__MAX] = {
	[LC_SET_ACCESS_TTL] = { "access_token_ttl", 3600, 60, 86400, 1 },
	[LC_SET_REFRESH_TTL] = { "refresh_token_ttl", 30 * 86400, 3600,
	    365 * 86400, 1 },
	[LC_SET_LOGIN_MAX_FAILURES] = { "login_max_failures", 5, 1, 1000, 1 },
	[LC_SET_LOGIN_WINDOW] = { "login_window_seconds", 15 * 60, 1, 86400, 1 },
	/* The shop's time for the days of reports: whole quarter hours, as
	 * every time zone of the world is. */
	[LC_SET_UTC_OFFSET] = { "utc_offset_minutes", 0, -720, 840, 15 },
	/* How far back a purchase captured offline may be dated: a till is
	 * rarely offline for days, and an old date must not replay a year of
	 * punches past every cooldown. */
	[LC_SET_SYNC_MAX_AGE] = { "sync_max_age_days", 30, 1, 3650, 1 },
};

const struct lc_setting_info *
lc_setting_info(enum lc_setting s)
{
	return &lc_settings[s];
}

const char *
lc_setting_name(enum lc_setting s)
{
	return lc_settings[s].name;
}

int
lc_setting_lookup(const char *key)
{
	int i;

	for (i = 0; i < LC_SET__MAX; i++)
		if (strcmp(lc_settings[i].name, key) == 0)
			return i;
	return -1;
}

static int
parse(enum lc_setting s, const char *text, int64_t *v)
{
	const char *digits = text;
	char *end;
	long long n;

	/* Plain digits only, a '-' where the setting may be negative: the
	 * stored text is what setting get shows. */
	if (*digits == '-' && lc_settings[s].min < 0)
		digits++;
	if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits) ||
	    strlen(digits) > 18)
		return -1;
	errno = 0;
	n = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' ||
	    n < lc_settings[s].min || n > lc_settings[s].max ||
	    n % lc_settings[s].step != 0)
		return -1;
	*v = n;
	return 0;
}

int64_t
lc_setting(struct lc_db *db, enum lc_setting s)
{
	char text[32];
	int64_t v = lc_settings[s].def;

	if (lc_db_setting_get(db, lc_settings[s].name, text, sizeof(text)) == 1 &&
	    parse(s, text, &v) == -1)
		v = lc_settings[s].def;
	return v;
}

int
lc_setting_set(struct lc_dom *dom, const char *key, const char *value)
{
	int s;
	int64_t v;

	if ((s = lc_setting_lookup(key)) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "key",
		    "unknown setting %s", key);
	if (parse(s, value, &v) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "value",
		    "%s must be a whole number from %lld to %lld, a multiple "
		    "of %lld", key, (long long)lc_settings[s].min,
		    (long long)lc_settings[s].max, (long long)lc_settings[s].step);
	if (lc_db_setting_set(dom->db, key, value) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}
