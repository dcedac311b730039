/* tests/browser/i18n/pseudo.mjs: the pseudo-locale's check, shared by the
 * files of this folder. A page opened with ?lang=qps shows every text of
 * the catalogs between ⟦ ⟧ (js/i18n.js); leftovers() lists what a person
 * would read that is not: a text node with a letter outside every ⟦ ⟧,
 * or such an attribute (placeholder, aria-label, title, alt), and the
 * document's title. Not counted: elements with translate="no" (data the
 * page shows, fixed in its HTML, and the languages' own names), hidden
 * elements, the data the test made itself (names, e-mails it chose:
 * `data`), and the words Intl writes for a date or a currency (month and
 * day names, AM/PM, currency codes), which are formatting, not text. */

export const LEFTOVERS = `((data) => {
	const bad = [];
	const words = new Set(['AM', 'PM', 'am', 'pm']);
	for (const st of ['long', 'short', 'narrow']) {
		const m = new Intl.DateTimeFormat('en', { month: st, timeZone: 'UTC' });
		const w = new Intl.DateTimeFormat('en', { weekday: st, timeZone: 'UTC' });
		for (let i = 0; i < 12; i++) m.format(Date.UTC(2026, i, 15)).split(/\\W+/).forEach((x) => x && words.add(x));
		for (let i = 0; i < 7; i++) w.format(Date.UTC(2026, 0, 4 + i)).split(/\\W+/).forEach((x) => x && words.add(x));
	}
	const rest = (s) => {
		let r = String(s), prev;
		do { prev = r; r = r.replace(/⟦[^⟦⟧]*⟧/g, ' '); } while (r !== prev);
		for (const d of data) if (d) r = r.split(d).join(' ');
		r = r.split(/[^\\p{L}]+/u).filter((w) => w && !words.has(w) && !/^[A-Z]{3}$/.test(w)).join(' ');
		return /\\p{L}/u.test(r) ? r : '';
	};
	const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
	const skip = (el) => !!el.closest('[translate="no"], script, style, noscript, template');
	const where = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), seen = new Set();
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || skip(el) || !shown(el)) continue;
		/* a text with an amount in it (card.js withAmounts) is one text */
		const whole = el.querySelector(':scope > .amount') ? el : el.classList.contains('amount') ? el.parentElement : null;
		if (whole && seen.has(whole)) continue;
		if (whole) seen.add(whole);
		const txt = whole ? whole.textContent : n.nodeValue;
		const r = rest(txt);
		if (r) bad.push(where(whole || el) + ': ' + JSON.stringify(txt.trim().slice(0, 80)));
	}
	for (const el of document.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
		if (skip(el) || !(shown(el) || el.tagName === 'SELECT' || el.tagName === 'INPUT')) continue;
		for (const a of ['placeholder', 'aria-label', 'title', 'alt']) {
			const v = el.getAttribute(a);
			if (v !== null && rest(v)) bad.push(where(el) + ' [' + a + ']: ' + JSON.stringify(v.slice(0, 80)));
		}
	}
	if (rest(document.title)) bad.push('title: ' + JSON.stringify(document.title));
	return [...new Set(bad)];
})`;

/* The leftovers of the page shown now (data: the strings the test made). */
export const leftovers = (t, data) => t.ev(LEFTOVERS + '(' + JSON.stringify(data || []) + ')');

/* All that were found in a file, each once, with where the page was. */
export class Found {
	constructor() { this.list = new Map(); }
	async add(t, state, data) {
		for (const b of await leftovers(t, data))
			if (!this.list.has(b)) this.list.set(b, state);
	}
	/* a step's end: a failure naming every leftover */
	check() {
		if (!this.list.size) return true;
		throw new Error(this.list.size + ' texts not from a catalog (?lang=qps):\n' +
			[...this.list].map(([b, s]) => '  [' + s + '] ' + b).join('\n'));
	}
}

/* The shop's own words, which the pages show as data: every name, title,
 * description and e-mail in the API's answers for the shop's owner
 * (token), and the cashier's login answer. Enumerations ("punch",
 * "active") are not taken: a page showing one bare is a leftover. */
import { call } from '../lib/browser.mjs';
export async function shopData(token, more) {
	const out = new Set(more || []);
	const take = (v, k) => {
		if (Array.isArray(v)) v.forEach((x) => take(x, k));
		else if (v && typeof v === 'object') for (const [kk, x] of Object.entries(v)) take(x, kk);
		else if (typeof v === 'string' && /(name|title|description|email|customer|label|reason|notes)$/i.test(k || '') && v.trim()) out.add(v);
	};
	for (const p of ['auth/me', 'admin/programs', 'admin/cards?page_size=100', 'admin/locations', 'admin/staff', 'admin/settings']) {
		const r = await call('GET', p, undefined, token);
		if (r.status === 200) take(r.body);
	}
	return [...out].sort((a, b) => b.length - a.length);
}

/* In the page: the language switch (a select of the languages, each
 * option in its own language), wherever the page put it. */
export const SWITCH = `$$('select').find((s) => s.getClientRects().length > 0 && [...s.options].some((o) => o.value === 'de' && o.lang === 'de'))`;
/* In the page: whether it is shown in lang: the document marked so, and
 * every shown element marked data-i18n holds that catalog's text (at
 * least one, and one that differs from English, so English passes for
 * nothing else). */
export const SHOWN_IN = (lang) => `(async () => {
	if (document.documentElement.lang !== ${JSON.stringify(lang)}) return false;
	/* the pages are all at the site's top: index.html, owner.html, card.html */
	const cat = await (await fetch('i18n/${lang}.json')).json();
	const en = await (await fetch('i18n/en.json')).json();
	const els = $$('[data-i18n]').filter((e) => e.getClientRects().length > 0 && typeof cat[e.getAttribute('data-i18n')] === 'string');
	return els.length > 0 && els.every((e) => e.textContent === cat[e.getAttribute('data-i18n')]) &&
		els.some((e) => cat[e.getAttribute('data-i18n')] !== en[e.getAttribute('data-i18n')]);
})()`;
