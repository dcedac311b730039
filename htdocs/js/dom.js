/* Building and showing elements, and a moment as the pages write it, for
 * every page: the till's and the back office's modules re-export these
 * from their own dom.js. */

import { formatDateTime } from './dates.js';

export const $ = (id) => document.getElementById(id);

/* Appends children (nodes, text, nested arrays; null, undefined and false
 * skipped). */
export function add(el, kids) {
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
/* h('p', {className: 'x'}, 'text', child, ...): builds an element; a prop
 * that is null or undefined is left at its default. */
export function h(tag, props, ...kids) {
	const el = document.createElement(tag);
	if (props)
		for (const k of Object.keys(props)) {
			const v = props[k];
			if (v === undefined || v === null) continue;
			if (k === 'dataset') Object.assign(el.dataset, v);
			else if (k.startsWith('aria-') || k === 'role' || k === 'for') el.setAttribute(k, v);
			else el[k] = v;
		}
	return add(el, kids);
}

export function show(el, on) { (typeof el === 'string' ? $(el) : el).hidden = !on; }

/* An ISO time as the pages write it: the short date and time in the
 * page's language and the shop's time zone (js/dates.js); what is no
 * time, as it came. */
export function when(iso) {
	const ms = iso ? new Date(iso).getTime() : NaN;
	if (!iso || isNaN(ms)) return iso ? String(iso) : '—';
	return formatDateTime(ms);
}
