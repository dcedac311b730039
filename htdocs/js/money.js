/* Money on the pages: amounts as the cashier types them, and as shown.
 * The API carries money as JSON numbers with at most 2 decimals; here
 * every comparison and sum is done in integer cents, never in floats. */

import { LIMITS } from './server-tables.js';
import { locale } from './i18n.js';

/* The shop's currency and time zone, as the server gives them (the login
 * answer's user.shop, the card page's answer): formatMoney, parseMoney
 * and js/dates.js follow it. currency null: an unnamed currency with 2
 * decimals, the symbol only (as before shops named theirs). */
let shop = { currency: null, currency_decimals: 2, currency_symbol: '', time_zone: null, utc_offset_minutes: 0 };
export function setShopFormat(o) {
	const d = o && Number.isInteger(o.currency_decimals) && o.currency_decimals >= 0 && o.currency_decimals <= 3 ? o.currency_decimals : 2;
	shop = {
		currency: o && typeof o.currency === 'string' && /^[A-Z]{3}$/.test(o.currency) ? o.currency : null,
		currency_decimals: d,
		currency_symbol: o && typeof o.currency_symbol === 'string' ? o.currency_symbol : '',
		time_zone: o && typeof o.time_zone === 'string' && o.time_zone ? o.time_zone : null,
		utc_offset_minutes: o && Number.isInteger(o.utc_offset_minutes) ? o.utc_offset_minutes : 0
	};
}
export const shopFormat = () => shop;

/* The largest amount a till accepts (the API's limit, lib/lc_limits.h):
 * 1,000,000.00. */
export const MAX_MONEY_CENTS = LIMITS.MONEY_MAX_CENTS;

/* A money amount typed by a person: digits with at most 2 decimals
 * ("12", "12.5", "12,50", ".5"), 0 to max cents. Returns {value, cents}
 * (value is the number sent on the wire) or null. */
export function parseMoney(str, max = MAX_MONEY_CENTS) {
	const s = String(str === null || str === undefined ? '' : str).trim().replace(',', '.');
	if (!/^(\d{1,7}|\d{0,7}\.\d{1,2})$/.test(s)) return null;
	const [i, f = ''] = s.split('.');
	const cents = parseInt(i || '0', 10) * 100 + parseInt((f + '00').slice(0, 2), 10);
	if (cents > max) return null;
	return { value: cents / 100, cents };
}

export const isNum = (v) => typeof v === 'number' && isFinite(v);

/* Cents of an amount the server sent (at most 2 decimals). */
export const toCents = (v) => (isNum(v) ? Math.round(v * 100) : 0);

/* "12.50" of 1250 cents: the text a field is filled with. */
export function centsStr(c) {
	const n = Math.abs(c);
	return (c < 0 ? '-' : '') + Math.floor(n / 100) + '.' + String(n % 100).padStart(2, '0');
}

const fmt = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/* An amount for people: grouped digits, 2 decimals, and the shop's
 * currency symbol (a setting, "" for none): "€" and "$" go before the
 * number as they are, a word such as "CHF" with a space. */
export function formatMoney(v, symbol) {
	if (!isNum(v)) return '—';
	const n = fmt.format(v);
	const s = typeof symbol === 'string' ? symbol.trim() : '';
	if (!s) return n;
	const neg = n.startsWith('-') || n.startsWith('\u2212');
	const body = neg ? n.slice(1) : n;
	return (neg ? '-' : '') + s + (/[\p{L}]$/u.test(s) ? '\u00a0' : '') + body;
}
