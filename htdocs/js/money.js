/* Money on the pages: amounts as the cashier types them, and as shown.
 * The API carries money as JSON numbers with exactly the shop's
 * currency's decimals (0 for JPY, 2 for EUR, 3 for KWD); here every
 * comparison and sum is done in integer minor units (cents, yen, fils),
 * never in floats.
 *
 * Digits: amounts are shown with Latin digits in every language, Arabic
 * too (js/i18n.js locale() asks Intl for ar-u-nu-latn). The fields a
 * cashier types in take Latin digits (they are dir="ltr"), the card's
 * codes and the receipts of the shop's other systems are Latin, and
 * Intl's default for "ar" has changed between ICU versions: one script of
 * digits on a screen, whatever the browser's age, is easier to check
 * against what was typed than a mix. */

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
/* The shop's currency's decimals (its minor unit's exponent). */
export const decimals = () => shop.currency_decimals;

/* The largest amount a till accepts, in minor units (the API's limit,
 * lib/lc_limits.h): 1,000,000.00 of a 2-decimal currency, 100,000,000
 * yen, 100,000.000 dinars. The limit keeps its name in minor units. */
export const MAX_MONEY_MINOR = LIMITS.MONEY_MAX_CENTS;
export const MAX_MONEY_CENTS = MAX_MONEY_MINOR;

const POW = [1, 10, 100, 1000];

/* Arabic-Indic (U+0660..) and Persian (U+06F0..) digits as Latin ones: a
 * cashier with an Arabic keyboard types them even in a dir="ltr" field. */
const latinDigits = (s) => s.replace(/[\u0660-\u0669\u06f0-\u06f9]/g,
	(c) => String((c.charCodeAt(0) & 0xf) % 10));

/* A separator of the locale's numbers: 'decimal' ("," in German, "." in
 * English) or 'group' ("," in English and Japanese, "." in German, a
 * narrow no-break space in French); dflt when Intl cannot say. */
function localeSep(type, dflt) {
	try {
		const p = new Intl.NumberFormat(locale()).formatToParts(1234567.5).find((x) => x.type === type);
		return p ? p.value : dflt;
	} catch (e) {
		return dflt;
	}
}

const escRe = (c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/* s without its grouping, when it is a whole number in well-formed groups
 * of three of the locale's group separator (or the Arabic one, "٬") that
 * cannot be a decimal: the page prints "￥1,500", so "1,500" is 1500 yen.
 * One group of a separator that also reads as a decimal ("1,500") is a
 * decimal when the currency has 3 decimals (1.500 dinars), grouping only
 * when that reading has more decimals than the currency takes ("1.500" in
 * German is 1500 €). Mixed ("1,234.50") stays refused rather than guessed. */
function ungroup(s, d, dec) {
	for (const g of new Set([localeSep('group', ''), '\u066c'])) {
		if (!g || !new RegExp('^\\d{1,3}(?:' + escRe(g) + '\\d{3})+$').test(s)) continue;
		const groups = s.split(g).length - 1;
		const asDecimal = ['.', ',', '\u066b', dec].includes(g);
		if (!asDecimal || groups > 1 || d < 3) return s.split(g).join('');
	}
	return s;
}

/* A money amount typed by a person: digits with at most the shop's
 * currency's decimals (d, by default the shop's; 0: whole numbers only),
 * the decimal separator ".", ",", "٫" or the locale's ("12", "12.5", "12,50",
 * ".5"; "1.250" for dinars), 0 to max minor units; a whole number may be
 * grouped as the locale groups it (ungroup above). Returns {value, minor,
 * cents} (value is the number sent on the wire, minor and its old name
 * cents the integer minor units) or null. */
export function parseMoney(str, max = MAX_MONEY_MINOR, d = shop.currency_decimals) {
	let s = latinDigits(String(str === null || str === undefined ? '' : str).trim());
	const dec = localeSep('decimal', '.');
	s = ungroup(s, d, dec);
	if (dec !== '.' && dec !== ',') s = s.split(dec).join('.');
	/* the Arabic decimal separator goes with Arabic-Indic digits */
	s = s.replace(',', '.').replace('\u066b', '.');
	const re = d === 0 ? /^\d{1,12}$/ : new RegExp('^(\\d{1,12}|\\d{0,12}\\.\\d{1,' + d + '})$');
	if (!re.test(s)) return null;
	const [i, f = ''] = s.split('.');
	const minor = parseInt(i || '0', 10) * POW[d] + (d ? parseInt((f + '000').slice(0, d), 10) : 0);
	if (!Number.isSafeInteger(minor) || minor > max) return null;
	return { value: minor / POW[d], minor, cents: minor };
}

export const isNum = (v) => typeof v === 'number' && isFinite(v);

/* Minor units of an amount the server sent (at most d decimals); 0 for
 * anything but a number. toCents is its old name (cents are a 2-decimal
 * currency's minor units). */
export const toMinor = (v, d = shop.currency_decimals) => (isNum(v) ? Math.round(v * POW[d]) : 0);
export const toCents = (v) => toMinor(v);

/* "12.50" of 1250 minor units ("1500" of yen, "1.250" of fils): the text
 * a field is filled with (Latin digits, "." always: fields are ltr and
 * parseMoney reads it in every language). centsStr is its old name. */
export function minorStr(c, d = shop.currency_decimals) {
	const n = Math.abs(c), p = POW[d];
	const int = String(Math.floor(n / p));
	return (c < 0 ? '-' : '') + (d ? int + '.' + String(n % p).padStart(d, '0') : int);
}
export const centsStr = (c) => minorStr(c);

/* What a money field takes, for the hint of a refused one, in the page's
 * language and the currency's decimals: an example ("12.50", "12,50" in
 * German, "12.500" of dinars, "1500" of yen: ungrouped, as simplest to
 * type) and the limit ("1,000,000.00", "1.000.000,00"). */
export function amountExample(d = shop.currency_decimals) {
	const v = d ? 12.5 : 1500;
	return numberFormat(locale(), { minimumFractionDigits: d, maximumFractionDigits: d, useGrouping: false }).format(v);
}
export function amountLimit(d = shop.currency_decimals) {
	return numberFormat(locale(), { minimumFractionDigits: d, maximumFractionDigits: d }).format(MAX_MONEY_MINOR / POW[d]);
}

const formats = new Map();
function numberFormat(loc, opts) {
	const k = loc + JSON.stringify(opts);
	let f = formats.get(k);
	if (!f) {
		try {
			f = new Intl.NumberFormat(loc, opts);
		} catch (e) {
			f = new Intl.NumberFormat('en', opts);	/* a tag this browser lacks */
		}
		formats.set(k, f);
	}
	return f;
}

const letterAt = (s, i) => /\p{L}/u.test(s.charAt(i < 0 ? s.length + i : i));
const isSpace = (p) => p.type === 'literal' && /^[\s\u00a0\u202f]+$/.test(p.value);

/* The parts of v in the currency cur (the shop's, or EUR as the pattern
 * for a shop whose currency has no name: € stands where a symbol goes in
 * the locale), its currency part replaced by sym. The space between
 * symbol and number is the locale's for a symbol (as it puts one beside
 * €: "12,50 €", "€12.50"), or a no-break space when the symbol's letter
 * would touch a digit ("CHF 12.50"). */
function withSymbol(v, d, cur, sym) {
	const loc = locale();
	const opts = { style: 'currency', currency: cur, minimumFractionDigits: d, maximumFractionDigits: d };
	const parts = numberFormat(loc, opts).formatToParts(v);
	const eur = numberFormat(loc, { style: 'currency', currency: 'EUR' }).formatToParts(1);
	const ci = eur.findIndex((p) => p.type === 'currency');
	const spaced = (ci > 0 && isSpace(eur[ci - 1])) || (ci >= 0 && ci + 1 < eur.length && isSpace(eur[ci + 1]));
	const at = parts.findIndex((p) => p.type === 'currency');
	if (at < 0) return parts.map((p) => p.value).join('');
	const before = parts.slice(0, at), after = parts.slice(at + 1);
	/* which side the number is on: the parts after hold a digit */
	const numAfter = after.some((p) => p.type === 'integer');
	if (numAfter) while (after.length && isSpace(after[0])) after.shift();
	else while (before.length && isSpace(before[before.length - 1])) before.pop();
	const gap = spaced || letterAt(sym, numAfter ? -1 : 0) ? '\u00a0' : '';
	const join = (l) => l.map((p) => p.value).join('');
	return numAfter ? join(before) + sym + gap + join(after) : join(before) + gap + sym + join(after);
}

/* An amount for people (v in major units, as the API sends it): grouped
 * digits in the page's language, exactly the currency's decimals, and a
 * symbol: symbol when given (the pages pass the shop's currency_symbol
 * setting; "" for none), else the shop's; when that is empty, the
 * currency's own in the language ("¥1,500", "1.500 ¥"), and none for a
 * shop whose currency has no name (as before: "12.50"). "—" for no
 * number. */
export function formatMoney(v, symbol) {
	if (!isNum(v)) return '—';
	const d = shop.currency_decimals;
	const s = (typeof symbol === 'string' ? symbol : shop.currency_symbol).trim();
	if (s) return withSymbol(v, d, shop.currency || 'EUR', s);
	if (shop.currency)
		return numberFormat(locale(), { style: 'currency', currency: shop.currency, minimumFractionDigits: d, maximumFractionDigits: d }).format(v);
	return numberFormat(locale(), { minimumFractionDigits: d, maximumFractionDigits: d }).format(v);
}

/* formatMoney of an amount in minor units (a sum the page made). */
export const formatMinor = (c, symbol) => (isNum(c) ? formatMoney(c / POW[shop.currency_decimals], symbol) : '—');
