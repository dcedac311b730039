/* Small helpers of the back office with no state of the page: building
 * elements, formatting figures and dates, storage, saving a file. */
import { formatDate } from '../js/dates.js';
import { add, h } from '../js/dom.js';
import { locale, t } from '../js/i18n.js';
import { formatMoney, isNum, minorStr, toMinor } from '../js/money.js';
import { storage } from '../js/store.js';
import { shortRef } from '../js/txn.js';


/* ---- small helpers ---------------------------------------------------- */

export { $, add, h, setKids, show, when } from '../js/dom.js';
export const SVG_NS = 'http://www.w3.org/2000/svg';
export function s(tag, attrs, ...kids) {
	const el = document.createElementNS(SVG_NS, tag);
	if (attrs) for (const k of Object.keys(attrs)) el.setAttribute(k, String(attrs[k]));
	return add(el, kids);
}

export let uidSeq = 0;
export const uid = (p) => (p || 'u') + '-' + (++uidSeq);

export const ss = storage('sessionStorage', window);
export const ls = storage('localStorage', window);

/* ---- formatting ------------------------------------------------------- */

/* In the page's language, made when used (the language is known once
 * the catalogs are loaded). */
export const pctFmt = { format: (v) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 2 }).format(v) };
/* Amounts as the reports show them: no currency symbol. */
export const money = (v) => formatMoney(v);
export const pct = (v) => (isNum(v) ? pctFmt.format(v) : '—');
export const int = (v) => (Number.isInteger(v) ? String(v) : '—');
/* English only, for a caller not yet on the catalog; count(key, n) is
 * the catalog's plural (a text of Intl.PluralRules categories). */
export const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
export const count = (key, n) => t(key, { n });
/* A date of the server (ISO) as the shop's calendar has it. */
export function day(iso) {
	const d = new Date(iso);
	if (!iso || isNaN(d)) return iso ? String(iso) : '—';
	return formatDate(d.getTime());
}
export function bytes(n) {
	if (!isNum(n)) return '';
	if (n < 1024) return count('owner.n.bytes', n);
	const nf = (v, d) => new Intl.NumberFormat(locale(), { maximumFractionDigits: d, minimumFractionDigits: d }).format(v);
	if (n < 1048576) return t('owner.size.kb', { n: nf(n / 1024, 0) });
	return t('owner.size.mb', { n: nf(n / 1048576, 1) });
}
/* An id's short form, as the till shows it (js/txn.js: its random end). */
export const shortId = shortRef;

/* A rate typed in percent ("5", "2.5", "12,75"), 0 to 100 with at most 2
 * decimals: the fraction the API takes (at most 4 decimals), or null. */
export function parsePercent(str) {
	const t = String(str).trim().replace(',', '.').replace(/\s*%$/, '');
	if (!/^(\d{1,3}|\d{0,3}\.\d{1,2})$/.test(t)) return null;
	const [i, f = ''] = t.split('.');
	const hundredths = parseInt(i || '0', 10) * 100 + parseInt((f + '00').slice(0, 2), 10);
	return hundredths > 10000 ? null : hundredths / 10000;
}
export const percentText = (rate) => (isNum(rate) ? String(Math.round(rate * 10000) / 100) : '');
/* An amount as a field is filled with: the shop's currency's decimals. */
export const moneyText = (v) => (isNum(v) ? minorStr(toMinor(v)) : '');
export function parseIntIn(str, min, max) {
	const t = String(str).trim();
	if (!/^-?\d{1,10}$/.test(t)) return null;
	const n = parseInt(t, 10);
	return n >= min && n <= max ? n : null;
}
export function looksLikeEmail(e) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e); }

/* ---- dates (the shop's calendar) --------------------------------------- */

/* Dates are handled as UTC midnights, so no local time zone gets in. */
export const ymd = (d) => d.toISOString().slice(0, 10);
export const parseYmd = (t) => (/^\d{4}-\d\d-\d\d$/.test(t) && !isNaN(Date.parse(t + 'T00:00:00Z')) ? new Date(t + 'T00:00:00Z') : null);
export const addDays = (d, n) => new Date(d.getTime() + n * 86400000);

/* Saves a Blob as a file named name. */
export function saveBlob(blob, name) {
	const url = URL.createObjectURL(blob);
	const a = h('a', { href: url, download: name, hidden: true });
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 60000);
}
export function dispositionName(headers, def) {
	const cd = headers && headers.get('Content-Disposition');
	const m = cd && /filename="?([^";]+)"?/i.exec(cd);
	return m ? m[1].replace(/[\\/]/g, '_') : def;
}
