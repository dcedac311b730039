/* The pages' sentences for the service's error codes: what a cashier or
 * a shop's owner reads, never a bare code, in the page's language. The
 * API's own messages stay English (for integrators); each code's sentence
 * is the catalogs' error.<CODE> (js/i18n.js), keyed by the codes of
 * js/server-tables.js (ERRORS, written from lib/err.c's table), and
 * tests/js/errors.test.mjs holds them together: a sentence for a code the
 * server does not have, or a code of the server without one, fails it. */

import { ERRORS } from './server-tables.js';
import { t, hasText } from './i18n.js';

export { ERRORS };

/* True for a code the service sends. */
export const isServerCode = (code) => typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERRORS, code);

/* The catalog key of a code's sentence. */
export const sentenceKey = (code) => 'error.' + code;

/* The sentence of a code; else the message given (the server's own);
 * else a plain refusal. */
export function sentence(code, message) {
	if (isServerCode(code) && hasText(sentenceKey(code))) return t(sentenceKey(code));
	return message || t('api.refused');
}

/* The HTTP status the service sends a code with (null when unknown). */
export const statusOf = (code) => (isServerCode(code) ? ERRORS[code].status : null);
