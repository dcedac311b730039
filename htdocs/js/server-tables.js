/* The server's own tables, for the pages: the limits of lib/lc_limits.h
 * and the error table of lib/err.c. Written by tools/gen_tables.c
 * (build/tools/gen_tables > htdocs/js/server-tables.js): do not edit
 * by hand; tests/page_tables.sh fails when it is not current. */

/* Every limit a page checks or shows, by name. */
export const LIMITS = Object.freeze({
	NAME_MAX: 200,	/* a name or a title, characters */
	DESC_MAX: 500,	/* a reward's description, characters */
	TIER_NAME_MAX: 100,	/* a tier's name, characters */
	NOTES_MAX: 500,	/* a purchase's notes or a void's or an adjustment's reason, characters */
	POSREF_MAX: 64,	/* pos_reference_id and pos_terminal_id, characters */
	EMAIL_MAX: 254,	/* an e-mail address, bytes of ASCII */
	CURRENCY_MAX: 8,	/* the currency symbol, characters */
	URL_MAX: 200,	/* the public address, bytes of ASCII */
	PASSWORD_MIN: 8,	/* a new password, characters at least */
	PASSWORD_MAX: 1024,	/* a password, bytes */
	ID_LEN: 36,	/* an id (a UUID in text form), characters */
	REF_MAX: 255,	/* an id or a card code as read, characters */
	KEY_MAX: 255,	/* an idempotency key, characters */
	QR_MAX: 340,	/* the text of a card's QR payload, characters */
	SHARE_LEN: 32,	/* a card page's share token, hex digits */
	CODE_DIGITS: 6,	/* a card page's time-based code, digits */
	CODE_STEP_SECONDS: 60,	/* how long one time-based code lasts, seconds */
	CODE_PAST_STEPS: 4,	/* how many earlier codes a till still takes */
	MONEY_MAX_CENTS: 100000000,	/* an amount, in minor units */
	SPEND_MAX_CENTS: 100000000000,	/* a tier's minimum spend, in minor units */
	RATE_MAX_BP: 10000,	/* a rate, in basis points (10000 is 1) */
	TIERS_MAX: 16,	/* tiers of one program */
	PUNCH_ADJUST_MAX: 1000,	/* punches added or taken off by one adjustment */
	PUNCH_COUNT_MAX: 100,	/* punches in one purchase */
	PUNCHES_MAX: 1000,	/* a punch card's requirement */
	COOLDOWN_MAX_S: 86400,	/* seconds between punches, at most */
	COOLDOWN_DEFAULT_S: 60,	/* seconds between punches, by default */
	EXPIRY_DAYS_MAX: 3650,	/* a cashback earning's term, days */
	BODY_MAX_BYTES: 1048576,	/* a request body, bytes */
	BATCH_MAX: 100,	/* purchases in one sync batch */
	ISSUE_MAX: 100,	/* cards issued by one request */
	SHEET_MAX: 100,	/* cards on one printed sheet */
	CARDS_PAGE_MAX: 100,	/* rows of a page of the card list */
	HISTORY_PAGE_MAX: 100,	/* rows of a page of a card's history */
	AUDIT_PAGE_MAX: 500,	/* rows of a page of the audit trail */
	TXN_PAGE_MAX: 500,	/* rows of a page of the report's transactions */
	REQUEST_ID_MAX: 64,	/* an X-Request-Id, characters */
	WEBHOOK_MAX: 20,	/* webhook endpoints of one shop */
	WEBHOOK_URL_MAX: 2000,	/* a webhook endpoint's URL, bytes of ASCII */
	WEBHOOK_DESC_MAX: 200,	/* a webhook endpoint's description, characters */
	WEBHOOK_PAGE_MAX: 100,	/* rows of a page of a webhook's delivery log */
	EVENTS_PAGE_MAX: 500,	/* events of a page of the feed */
	APITOKEN_MAX: 50,	/* live integration tokens of a merchant */
});

/* Every error code the service sends: its HTTP status and the server's
 * default message (js/errors.js has the pages' own sentences). */
export const ERRORS = Object.freeze({
	VALIDATION_ERROR: Object.freeze({ status: 400, message: 'The request is not valid.' }),
	UNAUTHORIZED: Object.freeze({ status: 401, message: 'A valid access token is required.' }),
	INVALID_CREDENTIALS: Object.freeze({ status: 401, message: 'Invalid e-mail or password.' }),
	FORBIDDEN: Object.freeze({ status: 403, message: 'This is outside your scope.' }),
	NOT_FOUND: Object.freeze({ status: 404, message: 'No such endpoint.' }),
	CARD_NOT_FOUND: Object.freeze({ status: 404, message: 'Card not found.' }),
	METHOD_NOT_ALLOWED: Object.freeze({ status: 405, message: 'Method not allowed.' }),
	CARD_INACTIVE: Object.freeze({ status: 409, message: 'The card is deactivated.' }),
	NO_PENDING_REWARDS: Object.freeze({ status: 409, message: 'The card has no pending reward.' }),
	PAYLOAD_TOO_LARGE: Object.freeze({ status: 413, message: 'The request body is over 1 MiB.' }),
	URI_TOO_LONG: Object.freeze({ status: 414, message: 'The request\'s URL is too long for this server.' }),
	HEADERS_TOO_LARGE: Object.freeze({ status: 431, message: 'The request\'s headers are too large for this server.' }),
	UNSUPPORTED_MEDIA_TYPE: Object.freeze({ status: 415, message: 'The body must be application/json.' }),
	INSUFFICIENT_BALANCE: Object.freeze({ status: 422, message: 'The cashback balance is too low.' }),
	WRONG_CARD_TYPE: Object.freeze({ status: 422, message: 'The card is not of the right type.' }),
	CARD_CODE_REQUIRED: Object.freeze({ status: 422, message: 'This shop needs the current code of the customer\'s card page: scan the QR code on their phone.' }),
	CARD_CODE_INVALID: Object.freeze({ status: 422, message: 'The card\'s code is wrong, too old or used already: scan the QR code on the customer\'s phone again.' }),
	COOLDOWN_ACTIVE: Object.freeze({ status: 429, message: 'The card was punched too recently.' }),
	RATE_LIMITED: Object.freeze({ status: 429, message: 'Too many failed logins; try again later.' }),
	CONFLICT: Object.freeze({ status: 409, message: 'This conflicts with what exists.' }),
	ALREADY_VOIDED: Object.freeze({ status: 409, message: 'This transaction has been voided already.' }),
	NOT_VOIDABLE: Object.freeze({ status: 409, message: 'This transaction cannot be voided.' }),
	EVENTS_PRUNED: Object.freeze({ status: 410, message: 'Events after this one have been pruned; start again from the oldest kept.' }),
	INTERNAL_ERROR: Object.freeze({ status: 500, message: 'Unexpected server error.' }),
	DATABASE_ERROR: Object.freeze({ status: 503, message: 'The database is busy or failed; retry.' }),
	SERVICE_UNAVAILABLE: Object.freeze({ status: 503, message: 'The service is starting or overloaded; retry.' }),
	CONFIGURATION_ERROR: Object.freeze({ status: 500, message: 'The service is not set up right; the server\'s error log says what to fix.' }),
});
