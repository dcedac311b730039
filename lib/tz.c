/*
 * Time zones. (First cut by the lead: only lc_tz_known, so settings can
 * check a name; the zone's arithmetic follows.)
 */
#include <string.h>
#include <unistd.h>

#include "lc_core.h"
#include "lc_tz.h"

int
lc_tz_known(const char *name)
{
	char path[128];
	size_t n = strlen(name);

	if (n == 0 || n > 63 || name[0] == '/' || strstr(name, "..") != NULL ||
	    strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/_+-") != n)
		return 0;
	snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", name);
	return access(path, R_OK) == 0;
}
