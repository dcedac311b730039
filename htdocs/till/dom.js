/* Elements and formatting: building and showing elements, and money,
 * percentages, names, ids and dates as the cashier reads them. */
import { h } from '../js/dom.js';
import { formatMoney, isNum } from '../js/money.js';
import { expiryLine } from '../js/progress.js';
import { user } from './state.js';

export { $, h, setKids, show, when } from '../js/dom.js';

const pctFmt = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
export const currency = () => (user && user.shop && typeof user.shop.currency_symbol === 'string' ? user.shop.currency_symbol : '');
export const money = (v) => formatMoney(v, currency());
export const pct = (v) => (isNum(v) ? pctFmt.format(v) : '—');
const int = (v) => (Number.isInteger(v) ? String(v) : '—');
export const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
/* A card's customer as the back office names them: a card issued
 * without a name (customer_name "") is "No name"; none said at all (a
 * card not checked), dflt. */
export const nameOf = (c, dflt) => (c && typeof c.customer_name === 'string' ? c.customer_name || 'No name' : dflt || '');
export const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '—');
/* The formatters and builders js/cardtypes.js writes with. */
export const fmt = {
	money, pct, int, plural, expiry: (d) => expiryLine(d, currency()),
	p: (cls, ...kids) => h('p', cls ? { className: cls } : null, ...kids),
	strong: (t) => h('strong', null, t)
};
export const MONEY_HINT = 'Enter an amount such as 12.50: at most 2 decimals, up to 1,000,000.00.';

export function busy(btn, on) {
	btn.disabled = on;
	btn.setAttribute('aria-busy', on ? 'true' : 'false');
}
