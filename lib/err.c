/*
 * The one table of errors: wire code, HTTP status and default message
 * of every endpoint. Every failure maps to exactly one row.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lc_core.h"

static const struct lc_errinfo lc_errs[LC_E__MAX] = {
	[LC_OK] = { "OK", 200, "OK" },
	[LC_E_VALIDATION] = { "VALIDATION_ERROR", 400, "The request is not valid." },
	[LC_E_UNAUTHORIZED] = { "UNAUTHORIZED", 401, "A valid access token is required." },
	[LC_E_INVALID_CREDENTIALS] = { "INVALID_CREDENTIALS", 401, "Invalid e-mail or password." },
	[LC_E_FORBIDDEN] = { "FORBIDDEN", 403, "This is outside your scope." },
	[LC_E_NOT_FOUND] = { "NOT_FOUND", 404, "No such endpoint." },
	[LC_E_CARD_NOT_FOUND] = { "CARD_NOT_FOUND", 404, "Card not found." },
	[LC_E_METHOD_NOT_ALLOWED] = { "METHOD_NOT_ALLOWED", 405, "Method not allowed." },
	[LC_E_CARD_INACTIVE] = { "CARD_INACTIVE", 409, "The card is deactivated." },
	[LC_E_NO_PENDING_REWARDS] = { "NO_PENDING_REWARDS", 409, "The card has no pending reward." },
	[LC_E_PAYLOAD_TOO_LARGE] = { "PAYLOAD_TOO_LARGE", 413, "The request body is over 1 MiB." },
	/* The web server's own refusals (lc_h_notfound answers them). */
	[LC_E_URI_TOO_LONG] = { "URI_TOO_LONG", 414, "The request's URL is too long for this server." },
	[LC_E_HEADERS_TOO_LARGE] = { "HEADERS_TOO_LARGE", 431, "The request's headers are too large for this server." },
	[LC_E_UNSUPPORTED_MEDIA_TYPE] = { "UNSUPPORTED_MEDIA_TYPE", 415, "The body must be application/json." },
	[LC_E_INSUFFICIENT_BALANCE] = { "INSUFFICIENT_BALANCE", 422, "The cashback balance is too low." },
	[LC_E_WRONG_CARD_TYPE] = { "WRONG_CARD_TYPE", 422, "The card is not of the right type." },
	/* The owner's redeem_needs_card_code: a claim or a redemption
	 * needs the current code of the card's page (card_code.c). */
	[LC_E_CARD_CODE_REQUIRED] = { "CARD_CODE_REQUIRED", 422, "This shop needs the current code of the customer's card page: scan the QR code on their phone." },
	[LC_E_CARD_CODE_INVALID] = { "CARD_CODE_INVALID", 422, "The card's code is wrong, too old or used already: scan the QR code on the customer's phone again." },
	[LC_E_COOLDOWN_ACTIVE] = { "COOLDOWN_ACTIVE", 429, "The card was punched too recently." },
	[LC_E_RATE_LIMITED] = { "RATE_LIMITED", 429, "Too many failed logins; try again later." },
	[LC_E_CONFLICT] = { "CONFLICT", 409, "This conflicts with what exists." },
	[LC_E_ALREADY_VOIDED] = { "ALREADY_VOIDED", 409, "This transaction has been voided already." },
	[LC_E_NOT_VOIDABLE] = { "NOT_VOIDABLE", 409, "This transaction cannot be voided." },
	/* The feed asked for what follows an event pruned after the
	 * retention: the events in between are lost to it. */
	[LC_E_EVENTS_PRUNED] = { "EVENTS_PRUNED", 410, "Events after this one have been pruned; start again from the oldest kept." },
	[LC_E_INTERNAL] = { "INTERNAL_ERROR", 500, "Unexpected server error." },
	[LC_E_UNAVAILABLE] = { "SERVICE_UNAVAILABLE", 503, "The service is starting or overloaded; retry." },
	[LC_E_DATABASE] = { "DATABASE_ERROR", 503, "The database is busy or failed; retry." },
	/* Not to retry: the server's set-up is wrong until someone fixes
	 * it (a database this user may not open or write, a bad
	 * loyalty.conf); no Retry-After. */
	[LC_E_CONFIG] = { "CONFIGURATION_ERROR", 500, "The service is not set up right; the server's error log says what to fix." },
};

const struct lc_errinfo *
lc_err_info(enum lc_err e)
{
	if ((int)e < 0 || e >= LC_E__MAX)
		e = LC_E_INTERNAL;
	return &lc_errs[e];
}

int
lc_error_set(struct lc_error *err, enum lc_err e, const char *field,
    const char *fmt, ...)
{
	va_list ap;

	err->code = e;
	err->field[0] = '\0';
	err->msg[0] = '\0';
	if (field != NULL)
		snprintf(err->field, sizeof(err->field), "%s", field);
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	if (e == LC_E_DATABASE && err->retry_after == 0)
		err->retry_after = 1;
	return -1;
}

const char *
lc_error_msg(const struct lc_error *err)
{
	return err->msg[0] != '\0' ? err->msg : lc_err_info(err->code)->message;
}

/* One write a line: a web server that logs each read of a CGI program's
 * stderr as a line of its own (Apache's mod_cgi) keeps it whole. */
void
lc_log(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	size_t n;

	memcpy(buf, "loyalty: ", 9);
	va_start(ap, fmt);
	(void)vsnprintf(buf + 9, sizeof(buf) - 10, fmt, ap);
	va_end(ap);
	n = strlen(buf);
	buf[n++] = '\n';
	(void)fwrite(buf, 1, n, stderr);
	(void)fflush(stderr);
}
