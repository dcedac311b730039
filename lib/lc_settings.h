/*
 * The installation's and each shop's settings (settings.c): stored in
 * the database, each with its default and its bounds.
 */
#ifndef LC_SETTINGS_H
#define LC_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "lc_dom.h"

/* Settings (settings.c), stored in the database with defaults. */
enum lc_setting {
	LC_SET_ACCESS_TTL,
	LC_SET_REFRESH_TTL,
	LC_SET_LOGIN_MAX_FAILURES,
	LC_SET_LOGIN_WINDOW,
	LC_SET_UTC_OFFSET,
	LC_SET_SYNC_MAX_AGE,
	LC_SET_STAFF_ENROLMENT,
	LC_SET_CURRENCY,
	LC_SET_PUBLIC_URL,
	LC_SET_VOID_WINDOW,
	LC_SET_CARD_CODE,
	LC_SET_EVENT_RETENTION,
	LC_SET_WEBHOOK_PRIVATE,
	LC_SET_CURRENCY_CODE,
	LC_SET_TIME_ZONE,
	LC_SET_LANGUAGE,
	LC_SET__MAX
};
enum lc_setting_kind { LC_SETTING_INT, LC_SETTING_TEXT };
struct lc_setting_info {
	const char *name;
	int64_t def, min, max, step;	/* a text's max: characters */
	enum lc_setting_kind kind;
	/* A text setting, "" by default: 1 when the text is one it takes,
	 * and what it must be, for the error. */
	int (*text_ok)(const char *);
	const char *text_rule;
	/* Set with loyalty-admin on the server only, never by the owner's
	 * API (which shows it): what guards the installation itself. */
	int tool_only;
	/* Each shop's own (shop_settings), also on an installation serving
	 * several; the installation's row is then the shops' fallback. */
	int per_shop;
	/* A text setting's value when neither the shop nor the installation
	 * set one (NULL: ""). */
	const char *text_def;
};
const struct lc_setting_info *lc_setting_info(enum lc_setting);
/* The setting's value; its default when unset or unreadable. */
int64_t lc_setting(struct lc_db *, enum lc_setting);
/* The same, for a caller that must not take a default for a failed
 * read: 0 (*v the value or default), or -1 when storage failed. */
int lc_setting_read(struct lc_db *, enum lc_setting, int64_t *v);
/* A text setting's value into buf (truncated to size), returned; "" when
 * unset or unreadable. */
const char *lc_setting_text(struct lc_db *, enum lc_setting, char *buf,
    size_t size);
const char *lc_setting_name(enum lc_setting);
int lc_setting_lookup(const char *key);	/* enum value or -1 */
/* Checks and stores the installation's value (inside a write): 0, or -1
 * with dom->err. */
int lc_setting_set(struct lc_dom *, const char *key, const char *value);
/* Whether value is one the setting key takes, stored nowhere: 0, or -1
 * with dom->err (field "key" or "value"). */
int lc_setting_check(struct lc_dom *, const char *key, const char *value);

/*
 * The shop's view of the settings: a per-shop setting reads the shop's
 * own value, else the installation's, else the default; any other reads
 * as lc_setting. merchant_id NULL or "": the installation's.
 */
int lc_setting_per_shop(enum lc_setting);
int64_t lc_setting_shop(struct lc_db *, const char *merchant_id,
    enum lc_setting);
const char *lc_setting_shop_text(struct lc_db *, const char *merchant_id,
    enum lc_setting, char *buf, size_t size);
/* Checks and stores a value for the shop (a per-shop setting) or the
 * installation (any other, or merchant_id ""): 0, or -1 with dom->err. A
 * shop's currency cannot change once its money has moved (CONFLICT). */
int lc_setting_set_shop(struct lc_dom *, const char *merchant_id,
    const char *key, const char *value);

#endif /* LC_SETTINGS_H */
