/* The pages' words: every sentence a page shows comes from a catalog,
 * one file per language (i18n/<lang>.json, a flat object of key to text),
 * never from the code. English is the reference: every other catalog has
 * exactly its keys (tests/js/i18n.test.mjs).
 *
 * A text may hold {name} placeholders, filled from params; a text that
 * depends on a count is an object of Intl.PluralRules categories
 * ({"one": "{n} card", "other": "{n} cards"}), chosen by params.n.
 *
 * The language: the one chosen with the switch (kept in localStorage),
 * else the first of the browser's preferences that we have, else the
 * shop's default (setShopLanguage, once the page knows the shop), else
 * English. ?lang=qps on a page's address shows the pseudo-locale: every
 * text of the English catalog wrapped in ⟦ ⟧ with accented letters, so a
 * sentence left in the code stands out (tests/browser/i18n/).
 *
 * Static text of a page is marked in its HTML: data-i18n="key" sets the
 * element's text; data-i18n-attr="placeholder:key;aria-label:key2" sets
 * attributes. applyI18n(root) fills both, at the start and for any part
 * the page builds from a template. Text is only ever set as text. */

export const LANGS = Object.freeze(['en', 'de', 'fr', 'es', 'pt', 'ja', 'ar']);
/* Each language's name in itself, for the switch. */
export const LANG_NAMES = Object.freeze({
	en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español',
	pt: 'Português', ja: '日本語', ar: 'العربية'
});
const RTL = new Set(['ar']);
export const PSEUDO = 'qps';
const STORE_KEY = 'loyalty.lang';

const catalogs = new Map();	/* lang -> object */
let current = 'en';
let chosenBy = 'default';	/* 'switch', 'browser', 'shop', 'default', 'url' */

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function storedChoice() {
	try {
		const v = globalThis.localStorage ? globalThis.localStorage.getItem(STORE_KEY) : null;
		return LANGS.includes(v) ? v : null;
	} catch (e) {
		return null;
	}
}

function urlChoice() {
	try {
		const q = new URLSearchParams(globalThis.location ? globalThis.location.search : '');
		const v = q.get('lang');
		return v === PSEUDO || LANGS.includes(v) ? v : null;
	} catch (e) {
		return null;
	}
}

/* The first of the browser's languages we have ("de-AT" is German). */
export function browserLanguage(prefs) {
	const list = prefs || (globalThis.navigator ? (globalThis.navigator.languages || [globalThis.navigator.language]) : []);
	for (const p of list) {
		const primary = String(p || '').toLowerCase().split('-')[0];
		if (LANGS.includes(primary)) return primary;
	}
	return null;
}

/* Which language a page starts in, and why. shopLang: the shop's default
 * when known (else null). */
export function pickLanguage(shopLang, prefs) {
	const u = urlChoice();
	if (u) return { lang: u, by: 'url' };
	const s = storedChoice();
	if (s) return { lang: s, by: 'switch' };
	const b = browserLanguage(prefs);
	if (b) return { lang: b, by: 'browser' };
	if (LANGS.includes(shopLang)) return { lang: shopLang, by: 'shop' };
	return { lang: 'en', by: 'default' };
}

/* The pseudo-locale of a catalog: accented letters between ⟦ ⟧, the
 * placeholders kept. */
const ACCENT = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', c: 'ç', n: 'ñ' };
function pseudoText(s) {
	let out = '', depth = 0;
	for (const ch of s) {
		if (ch === '{') depth++;
		out += depth === 0 && ACCENT[ch] ? ACCENT[ch] : ch;
		if (ch === '}' && depth > 0) depth--;
	}
	return '⟦' + out + '⟧';
}
export function pseudoCatalog(en) {
	const out = {};
	for (const [k, v] of Object.entries(en)) {
		if (typeof v === 'string') out[k] = pseudoText(v);
		else {
			out[k] = {};
			for (const [c, s] of Object.entries(v)) out[k][c] = pseudoText(s);
		}
	}
	return out;
}

/* Installs a catalog (the tests, and load below). */
export function useCatalog(lang, obj) {
	catalogs.set(lang, obj);
}

async function fetchCatalog(lang) {
	const file = lang === PSEUDO ? 'en' : lang;
	const r = await fetch(new URL('../i18n/' + file + '.json', import.meta.url), { cache: 'no-cache' });
	if (!r.ok) throw new Error('catalog ' + file + ': HTTP ' + r.status);
	const obj = await r.json();
	return lang === PSEUDO ? pseudoCatalog(obj) : obj;
}

/* Loads English (every missing text falls back to it) and the chosen
 * language, and marks the document: lang, dir. Call once, before the
 * page shows anything; returns the language. A catalog that cannot be
 * loaded (offline, no cache) leaves English. */
export async function initI18n(shopLang) {
	const pick = pickLanguage(shopLang);
	try {
		if (!catalogs.has('en')) useCatalog('en', await fetchCatalog('en'));
	} catch (e) {
		if (!catalogs.has('en')) useCatalog('en', {});
	}
	current = 'en';
	chosenBy = pick.by;
	if (pick.lang !== 'en') {
		try {
			if (!catalogs.has(pick.lang)) useCatalog(pick.lang, await fetchCatalog(pick.lang));
			current = pick.lang;
		} catch (e) {
			chosenBy = 'default';
		}
	}
	markDocument();
	return current;
}

function markDocument() {
	if (!globalThis.document) return;
	const el = globalThis.document.documentElement;
	el.lang = current === PSEUDO ? 'en' : current;
	el.dir = RTL.has(current) ? 'rtl' : 'ltr';
}

export const lang = () => current;
/* The language's tag for Intl (the pseudo-locale formats as English).
 * Arabic with Latin digits: the amount fields take Latin digits, and
 * Intl's default digits for "ar" differ between ICU versions, so every
 * number on an Arabic page is written one way (js/money.js says more). */
export const locale = () => (current === PSEUDO ? 'en' : current === 'ar' ? 'ar-u-nu-latn' : current);
export const isRTL = () => RTL.has(current);
export const chosenHow = () => chosenBy;

/* Once the page knows the shop: when nothing chose the language yet (no
 * switch, no browser preference we have), the shop's default, loaded;
 * returns true when the language changed (the page applies it again). */
export async function setShopLanguage(shopLang) {
	if (chosenBy !== 'default' || !LANGS.includes(shopLang) || shopLang === current) return false;
	try {
		if (!catalogs.has(shopLang)) useCatalog(shopLang, await fetchCatalog(shopLang));
	} catch (e) {
		return false;
	}
	current = shopLang;
	chosenBy = 'shop';
	markDocument();
	return true;
}

/* A value ending in "." before a sentence's own "." gives one full stop,
 * not two: the dinar's symbol ends in one ("1.250 د.ك.") and a sentence
 * "…{amount}. …" would show "د.ك.. ". */
function fill(s, params) {
	return s.replace(/\{([A-Za-z0-9_]+)\}/g, (m, name, at) => {
		if (!(params && has(params, name) && params[name] !== undefined && params[name] !== null)) return m;
		const v = String(params[name]);
		return v.endsWith('.') && s.charAt(at + m.length) === '.' ? v.slice(0, -1) : v;
	});
}

function lookup(key) {
	const c = catalogs.get(current);
	if (c && has(c, key)) return c[key];
	const en = catalogs.get('en');
	if (en && has(en, key)) return en[key];
	return null;
}

/* The text of key in the page's language, its placeholders filled. A key
 * no catalog has is shown as itself, so it is seen and fixed. */
export function t(key, params) {
	const v = lookup(key);
	if (v === null) return key;
	if (typeof v === 'string') return fill(v, params);
	const n = params && typeof params.n === 'number' ? params.n : 0;
	let cat = 'other';
	try {
		cat = new Intl.PluralRules(locale()).select(n);
	} catch (e) { /* other */ }
	const s = has(v, cat) ? v[cat] : (has(v, 'other') ? v.other : '');
	return fill(s, params);
}

/* Whether a catalog has key (a page's optional texts). */
export const hasText = (key) => lookup(key) !== null;

/* Fills the marked text of root (the document by default). */
export function applyI18n(root) {
	const r = root || globalThis.document;
	if (!r || !r.querySelectorAll) return;
	const all = (sel) => {
		const list = Array.from(r.querySelectorAll(sel));
		if (r.matches && r.matches(sel)) list.unshift(r);
		return list;
	};
	for (const el of all('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n'));
	for (const el of all('[data-i18n-attr]')) {
		for (const pair of el.getAttribute('data-i18n-attr').split(';')) {
			const i = pair.indexOf(':');
			if (i > 0) el.setAttribute(pair.slice(0, i).trim(), t(pair.slice(i + 1).trim()));
		}
	}
}

/* The language switch: a <select> of the languages, each in its own
 * name, the current one chosen; a choice is kept and the page loaded
 * again in it (the simplest way every part, built or not, is in it). */
export function langSwitcher(select) {
	const doc = globalThis.document;
	select.textContent = '';
	for (const l of LANGS) {
		const o = doc.createElement('option');
		o.value = l;
		o.lang = l;
		/* a language's own name, the same on every page: not ours to
		 * translate (and the pseudo-locale test skips it) */
		o.setAttribute('translate', 'no');
		o.textContent = LANG_NAMES[l];
		if (l === current) o.selected = true;
		select.appendChild(o);
	}
	select.setAttribute('aria-label', t('common.language'));
	select.addEventListener('change', () => {
		try {
			globalThis.localStorage.setItem(STORE_KEY, select.value);
		} catch (e) { /* kept for this load only */ }
		const u = new URL(globalThis.location.href);
		u.searchParams.delete('lang');
		if (u.href === globalThis.location.href) globalThis.location.reload();
		else globalThis.location.replace(u.href);
	});
}
