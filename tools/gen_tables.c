/*
 * Writes htdocs/js/server-tables.js, the pages' copy of the server's own
 * tables: the limits of lib/lc_limits.h a page checks or shows (a field's
 * maxlength, a money maximum, a batch size) and every row of lib/err.c's
 * error table (wire code, HTTP status, default message). It is compiled
 * against the very header and linked with the very table the service is,
 * so the file it writes cannot restate them wrongly; tests/page_tables.sh
 * fails when the committed file is not what it writes now.
 *
 * Usage: build/tools/gen_tables > htdocs/js/server-tables.js
 *        (tests/page_tables.sh compares its output with that file)
 */
#include <stdio.h>

#include "lc_limits.h"
#include "lcard.h"

/* One limit: its name in the pages, its value, what it bounds. */
struct limit {
	const char *name;
	long long value;
	const char *what;
};

#define L(name, value, what) { name, (long long)(value), what }

static const struct limit limits[] = {
	/* Text, in characters. */
	L("NAME_MAX", LC_NAME_MAX, "a name or a title, characters"),
	L("DESC_MAX", LC_DESC_MAX, "a reward's description, characters"),
	L("TIER_NAME_MAX", LC_TIER_NAME_MAX, "a tier's name, characters"),
	L("NOTES_MAX", LC_NOTES_MAX,
	    "a purchase's notes or a void's or an adjustment's reason, characters"),
	L("POSREF_MAX", LC_POSREF_MAX,
	    "pos_reference_id and pos_terminal_id, characters"),
	L("EMAIL_MAX", LC_EMAIL_MAX, "an e-mail address, bytes of ASCII"),
	L("CURRENCY_MAX", LC_CURRENCY_MAX, "the currency symbol, characters"),
	L("URL_MAX", LC_URL_MAX, "the public address, bytes of ASCII"),
	L("PASSWORD_MIN", LC_PASSWORD_MIN, "a new password, characters at least"),
	L("PASSWORD_MAX", LC_PASSWORD_MAX, "a password, bytes"),
	/* Identifiers. */
	L("ID_LEN", LC_ID_LEN, "an id (a UUID in text form), characters"),
	L("REF_MAX", LC_REF_MAX, "an id or a card code as read, characters"),
	L("KEY_MAX", LC_KEY_MAX, "an idempotency key, characters"),
	L("QR_MAX", LC_QR_MAX, "the text of a card's QR payload, characters"),
	L("SHARE_LEN", LC_SHARE_LEN, "a card page's share token, hex digits"),
	L("CODE_DIGITS", LC_CODE_DIGITS, "a card page's time-based code, digits"),
	L("CODE_STEP_SECONDS", LC_CODE_STEP_SECONDS,
	    "how long one time-based code lasts, seconds"),
	L("CODE_PAST_STEPS", LC_CODE_PAST_STEPS,
	    "how many earlier codes a till still takes"),
	/* Money and programs. */
	/* In the shop's currency's minor units (cents, yen, fils), whatever
	 * the names say: the pages already use them. */
	L("MONEY_MAX_CENTS", LC_MONEY_MAX, "an amount, in minor units"),
	L("SPEND_MAX_CENTS", LC_SPEND_MAX,
	    "a tier's minimum spend, in minor units"),
	L("RATE_MAX_BP", LC_RATE_MAX, "a rate, in basis points (10000 is 1)"),
	L("TIERS_MAX", LC_TIERS_MAX, "tiers of one program"),
	L("PUNCH_ADJUST_MAX", LC_PUNCH_ADJUST_MAX,
	    "punches added or taken off by one adjustment"),
	L("PUNCH_COUNT_MAX", LC_PUNCH_COUNT_MAX, "punches in one purchase"),
	L("PUNCHES_MAX", LC_PUNCHES_MAX, "a punch card's requirement"),
	L("COOLDOWN_MAX_S", LC_COOLDOWN_MAX, "seconds between punches, at most"),
	L("COOLDOWN_DEFAULT_S", LC_COOLDOWN_DEFAULT,
	    "seconds between punches, by default"),
	L("EXPIRY_DAYS_MAX", LC_EXPIRY_DAYS_MAX, "a cashback earning's term, days"),
	/* Requests. */
	L("BODY_MAX_BYTES", LC_BODY_MAX, "a request body, bytes"),
	L("BATCH_MAX", LC_BATCH_MAX, "purchases in one sync batch"),
	L("ISSUE_MAX", LC_ISSUE_MAX, "cards issued by one request"),
	L("SHEET_MAX", LC_SHEET_MAX, "cards on one printed sheet"),
	L("CARDS_PAGE_MAX", LC_CARDS_PAGE_MAX, "rows of a page of the card list"),
	L("HISTORY_PAGE_MAX", LC_HISTORY_PAGE_MAX,
	    "rows of a page of a card's history"),
	L("AUDIT_PAGE_MAX", LC_AUDIT_PAGE_MAX, "rows of a page of the audit trail"),
	L("TXN_PAGE_MAX", LC_TXN_PAGE_MAX,
	    "rows of a page of the report's transactions"),
	L("REQUEST_ID_MAX", LC_REQUEST_ID_MAX, "an X-Request-Id, characters"),
	/* Webhooks. */
	L("WEBHOOK_MAX", LC_WEBHOOK_MAX, "webhook endpoints of one shop"),
	L("WEBHOOK_URL_MAX", LC_WEBHOOK_URL_MAX,
	    "a webhook endpoint's URL, bytes of ASCII"),
	L("WEBHOOK_DESC_MAX", LC_WEBHOOK_DESC_MAX,
	    "a webhook endpoint's description, characters"),
	L("WEBHOOK_PAGE_MAX", LC_WEBHOOK_PAGE_MAX,
	    "rows of a page of a webhook's delivery log"),
	L("EVENTS_PAGE_MAX", LC_EVENTS_PAGE_MAX, "events of a page of the feed"),
	L("APITOKEN_MAX", LC_APITOKEN_MAX,
	    "live integration tokens of a merchant"),
};

/*
 * The server's own, which no page checks or shows (tests/page_tables.sh
 * fails on a limit of lc_limits.h that is neither above nor here, so a
 * new one is given to the pages or left out on purpose):
 *   LC_JSON_VALUES_MAX LC_TRIM_AFTER LC_CODE_SECRET_LEN LC_BYTES
 *   LC_LOGIN_STALE_MS LC_LOGIN_WAIT_MS LC_ADDR_MAX LC_SETUP_CODE_CAP
 *   LC_BUSY_TIMEOUT_MS LC_SYNC_DEADLINE_MS LC_AUDIT_NAMED_MAX
 *   LC_EVENTS_PAGE_DEFAULT LC_APITOKEN_LEN LC_APITOKEN_PREFIX_LEN
 *   LC_APITOKEN_TOUCH_MS
 */

/* s as a JavaScript string literal in single quotes. */
static void
js_str(const char *s)
{
	putchar('\'');
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('\'');
}

int
main(int argc, char **argv)
{
	size_t i;
	int e;

	(void)argv;
	if (argc != 1) {
		fputs("usage: gen_tables > htdocs/js/server-tables.js\n", stderr);
		return 2;
	}
	puts("/* The server's own tables, for the pages: the limits of lib/lc_limits.h\n"
	    " * and the error table of lib/err.c. Written by tools/gen_tables.c\n"
	    " * (build/tools/gen_tables > htdocs/js/server-tables.js): do not edit\n"
	    " * by hand; tests/page_tables.sh fails when it is not current. */\n");
	puts("/* Every limit a page checks or shows, by name. */");
	puts("export const LIMITS = Object.freeze({");
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		printf("\t%s: %lld,\t/* %s */\n", limits[i].name, limits[i].value,
		    limits[i].what);
	puts("});\n");
	puts("/* Every error code the service sends: its HTTP status and the server's\n"
	    " * default message (js/errors.js has the pages' own sentences). */");
	puts("export const ERRORS = Object.freeze({");
	for (e = LC_OK + 1; e < LC_E__MAX; e++) {
		const struct lc_errinfo *ei = lc_err_info((enum lc_err)e);

		printf("\t%s: Object.freeze({ status: %d, message: ", ei->code,
		    ei->status);
		js_str(ei->message);
		puts(" }),");
	}
	puts("});");
	return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
}
