/* Elements and formatting: building and showing elements, and money,
 * percentages, names, ids and dates as the cashier reads them. */
import { h } from '../js/dom.js';
import { formatDateTime } from '../js/dates.js';
import { locale, t } from '../js/i18n.js';
import { amountExample, amountLimit, formatMoney, isNum, minorStr, parseMoney, shopFormat, toMinor } from '../js/money.js';
import { expiryLine } from '../js/progress.js';
import { user } from './state.js';

export { $, h, setKids, show } from '../js/dom.js';

export const currency = () => (user && user.shop && typeof user.shop.currency_symbol === 'string' ? user.shop.currency_symbol : '');
export const money = (v) => formatMoney(v, currency());
/* Made per call: the page's language may change once the shop is known. */
export const pct = (v) => (isNum(v) ? new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 2 }).format(v) : '—');
const int = (v) => (Number.isInteger(v) ? String(v) : '—');
/* For js/cardtypes.js, which still words its counts itself. */
export const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
/* An ISO time as the cashier reads it: the page's language, the shop's
 * time zone (js/dates.js); what is no time, as it came. */
export function when(iso) {
	const ms = iso ? Date.parse(iso) : NaN;
	if (isNaN(ms)) return iso ? String(iso) : '—';
	return formatDateTime(ms);
}
/* A card's customer as the back office names them: a card issued
 * without a name (customer_name "") is "No name"; none said at all (a
 * card not checked), dflt. */
export const nameOf = (c, dflt) => (c && typeof c.customer_name === 'string' ? c.customer_name || t('till.card.no_name') : dflt || '');
/* js/txn.js shortRef: the id's random end, not its time-based start */
export { shortRef as shortId } from '../js/txn.js';
/* The formatters and builders js/cardtypes.js writes with. */
export const fmt = {
	money, pct, int, plural, expiry: (d) => expiryLine(d, currency()),
	p: (cls, ...kids) => h('p', cls ? { className: cls } : null, ...kids),
	strong: (s) => h('strong', null, s)
};

/* The shop's currency's decimals (0, 2 or 3): amounts typed and sent. */
export const decimals = () => shopFormat().currency_decimals;
/* An amount the cashier typed, in the shop's minor units: {value (sent
 * on the wire), minor}, or null (money.js parseMoney, by the shop's
 * currency_decimals). */
export function parseAmount(str) {
	const p = parseMoney(str);
	return p ? { value: p.value, minor: p.minor } : null;
}
/* Minor units of an amount the server sent; "12.50" of 1250 minor units
 * (the text a field is filled with, as a cashier would type it). */
export const minorOf = (v) => toMinor(v);
export { minorStr };
/* What a money field takes, said when it was refused: an example and
 * the limit, in the currency's decimals ("12.50", "1,000,000.00"). */
export function moneyHint(above0) {
	const d = decimals();
	const max = amountLimit(d), example = amountExample(d);
	return t(d ? (above0 ? 'till.money.hint_above0' : 'till.money.hint') : (above0 ? 'till.money.hint_whole_above0' : 'till.money.hint_whole'),
	    { n: d, example, max });
}
/* The placeholder of the money fields: "0.00", "0", "0.000". */
export const zeroAmount = () => minorStr(0);

export function busy(btn, on) {
	btn.disabled = on;
	btn.setAttribute('aria-busy', on ? 'true' : 'false');
}
