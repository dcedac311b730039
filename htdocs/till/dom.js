/* Elements and formatting: building and showing elements, and money,
 * percentages, names, ids and dates as the cashier reads them. */
import { formatMoney, isNum } from '../js/money.js';
import { expiryLine } from '../js/progress.js';
import { user } from './state.js';

export const $ = (id) => document.getElementById(id);

/* Appends children (nodes, text, nested arrays; null and false skipped). */
function add(el, kids) {
	for (const c of kids)
		if (Array.isArray(c)) add(el, c);
		else if (c !== null && c !== undefined && c !== false)
			el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
	return el;
}
/* Replaces the children of el (Element.replaceChildren is too new for
 * some till browsers). */
export function setKids(el, ...kids) {
	el.textContent = '';
	return add(el, kids);
}
/* h('p', {className: 'x'}, 'text', child, ...): builds an element. */
export function h(tag, props, ...kids) {
	const el = document.createElement(tag);
	if (props)
		for (const k of Object.keys(props)) {
			if (k === 'dataset') Object.assign(el.dataset, props[k]);
			else if (k.startsWith('aria-') || k === 'role') el.setAttribute(k, props[k]);
			else el[k] = props[k];
		}
	return add(el, kids);
}

export function show(el, on) { (typeof el === 'string' ? $(el) : el).hidden = !on; }

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
export function when(iso) {
	const d = new Date(iso);
	if (!iso || isNaN(d)) return iso ? String(iso) : '—';
	try {
		return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
	} catch (e) { return d.toLocaleString(); }
}
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
