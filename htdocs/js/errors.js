/* The pages' sentences for the service's error codes: what a cashier or
 * a shop's owner reads, never a bare code. Keyed by the codes of
 * js/server-tables.js (ERRORS, written from lib/err.c's table), and
 * tests/js/errors.test.mjs holds them together: a sentence for a code the
 * server does not have, or a code of the server without one, fails it. */

import { ERRORS } from './server-tables.js';

export { ERRORS };

export const SENTENCES = Object.freeze({
	VALIDATION_ERROR: 'Some details are not valid.',
	UNAUTHORIZED: 'Your session has ended. Please log in again.',
	INVALID_CREDENTIALS: 'Wrong e-mail or password.',
	FORBIDDEN: 'Your account may not do this.',
	NOT_FOUND: 'The server does not know this request: the page may be newer or older than the server.',
	CARD_NOT_FOUND: 'No card with this number or code.',
	METHOD_NOT_ALLOWED: 'The server does not take this request: the page may be newer or older than the server.',
	CARD_INACTIVE: 'This card is not active.',
	NO_PENDING_REWARDS: 'No reward is waiting on this card.',
	PAYLOAD_TOO_LARGE: 'Too large for the server to take.',
	URI_TOO_LONG: 'Too long for the server to take.',
	HEADERS_TOO_LARGE: 'Too large for the server to take.',
	UNSUPPORTED_MEDIA_TYPE: 'The server did not understand the request: the page may be newer or older than the server.',
	INSUFFICIENT_BALANCE: 'The cashback balance is lower than that.',
	WRONG_CARD_TYPE: 'This card is not of the kind this needs.',
	CARD_CODE_REQUIRED: 'This shop needs the code on the customer\'s phone: scan the QR code of their card page (not the printed card).',
	CARD_CODE_INVALID: 'The code of the card page is too old or was used already: scan the QR code on the customer\'s phone again (it changes each minute).',
	COOLDOWN_ACTIVE: 'This card was punched a moment ago.',
	RATE_LIMITED: 'Too many requests: wait a moment, then try again.',
	CONFLICT: 'This clashes with something that exists already.',
	ALREADY_VOIDED: 'This sale has been voided already.',
	NOT_VOIDABLE: 'This cannot be voided.',
	EVENTS_PRUNED: 'The events after this one are older than the shop keeps them: read the feed again from the oldest event kept.',
	INTERNAL_ERROR: 'The server failed.',
	DATABASE_ERROR: 'The server is busy.',
	SERVICE_UNAVAILABLE: 'The server is busy or starting.',
	CONFIGURATION_ERROR: 'The server is not set up right: tell the shop\'s owner (the back office says what to fix).'
});

/* True for a code the service sends. */
export const isServerCode = (code) => typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);

/* The sentence of a code; else the message given (the server's own);
 * else a plain refusal. */
export function sentence(code, message) {
	return (isServerCode(code) && SENTENCES[code]) || message || 'The server refused it.';
}

/* The HTTP status the service sends a code with (null when unknown). */
export const statusOf = (code) => (isServerCode(code) ? ERRORS[code].status : null);
