import test from 'node:test';
import assert from 'node:assert/strict';
import {
	LANGS, LANG_NAMES, PSEUDO, pickLanguage, browserLanguage, initI18n, useCatalog, t, hasText,
	lang, locale, isRTL, chosenHow, setShopLanguage, pseudoCatalog, applyI18n
} from '../../htdocs/js/i18n.js';
import { memStore } from './helpers.mjs';

/* The browser's parts i18n.js reads: the address, localStorage, the
 * languages the browser prefers, the document's root. */
const store = memStore();
globalThis.localStorage = store;
globalThis.location = { search: '', href: 'http://shop.test/till/' };
let prefs = [];
Object.defineProperty(globalThis, 'navigator', { configurable: true, get: () => ({ languages: prefs, language: prefs[0] }) });
const root = { lang: '', dir: '' };
globalThis.document = { documentElement: root };
const browser = ({ url = '', stored = null, prefers = [] } = {}) => {
	globalThis.location = { search: url, href: 'http://shop.test/till/' + url };
	if (stored) store.setItem('loyalty.lang', stored);
	else store.removeItem('loyalty.lang');
	prefs = prefers;
};

/* Catalogs given here, not fetched: a fetch is a failure (offline). */
let fetched = [];
globalThis.fetch = async (u) => {
	fetched.push(String(u));
	throw new TypeError('offline');
};
const EN = {
	'common.save': 'Save',
	'till.greeting': 'Hello {name}',
	'till.cards': { one: '{n} card', other: '{n} cards' },
	'till.only_en': 'Only in English'
};
useCatalog('en', EN);
useCatalog('de', { 'common.save': 'Speichern', 'till.greeting': 'Hallo {name}', 'till.cards': { one: '{n} Karte', other: '{n} Karten' } });
useCatalog('fr', { 'till.cards': { one: '{n} carte', many: '{n} de cartes', other: '{n} cartes' } });
useCatalog('ja', { 'till.cards': { other: '{n} 枚' } });
useCatalog('ar', {
	'common.save': 'حفظ',
	'till.cards': { zero: 'لا بطاقات', one: 'بطاقة واحدة', two: 'بطاقتان', few: '{n} بطاقات', many: '{n} بطاقة', other: '{n} بطاقة' }
});

test('pickLanguage: the address first, then the switch, the browser, the shop, English', () => {
	browser({ url: '?lang=ja', stored: 'de', prefers: ['fr-CA'] });
	assert.deepEqual(pickLanguage('es'), { lang: 'ja', by: 'url' });
	browser({ url: '?lang=qps', stored: 'de' });
	assert.deepEqual(pickLanguage('es'), { lang: PSEUDO, by: 'url' });
	browser({ url: '?lang=xx', stored: 'de', prefers: ['fr-CA'] });
	assert.deepEqual(pickLanguage('es'), { lang: 'de', by: 'switch' }, 'an unknown ?lang is ignored');
	browser({ stored: 'de', prefers: ['fr-CA'] });
	assert.deepEqual(pickLanguage('es'), { lang: 'de', by: 'switch' });
	browser({ stored: 'tlh', prefers: ['fr-CA'] });
	assert.deepEqual(pickLanguage('es'), { lang: 'fr', by: 'browser' }, 'a stored language we lack is ignored');
	browser({ prefers: ['fr-CA', 'de'] });
	assert.deepEqual(pickLanguage('es'), { lang: 'fr', by: 'browser' });
	browser({ prefers: ['ko', 'zh-TW'] });
	assert.deepEqual(pickLanguage('de'), { lang: 'de', by: 'shop' });
	browser({ prefers: ['ko'] });
	assert.deepEqual(pickLanguage('xx'), { lang: 'en', by: 'default' });
	assert.deepEqual(pickLanguage(null), { lang: 'en', by: 'default' });
	/* prefs given win over the browser's */
	assert.deepEqual(pickLanguage(null, ['pt-BR']), { lang: 'pt', by: 'browser' });
});

test('browserLanguage takes the first preference we have, by its primary tag', () => {
	assert.equal(browserLanguage(['fr-CA']), 'fr');
	assert.equal(browserLanguage(['ko', 'de-AT', 'en']), 'de');
	assert.equal(browserLanguage(['EN-gb']), 'en');
	assert.equal(browserLanguage(['ar-EG']), 'ar');
	assert.equal(browserLanguage(['ko', 'zh']), null);
	assert.equal(browserLanguage([]), null);
	assert.equal(browserLanguage([undefined, '']), null);
});

test('initI18n marks the document: lang, and dir=rtl for Arabic only', async () => {
	/* (es and pt have no catalog here: the next tests load them, and fail) */
	for (const l of LANGS.filter((x) => x !== 'es' && x !== 'pt')) {
		browser({ stored: l });
		assert.equal(await initI18n(null), l);
		assert.equal(lang(), l);
		assert.equal(root.lang, l);
		assert.equal(root.dir, l === 'ar' ? 'rtl' : 'ltr');
		assert.equal(isRTL(), l === 'ar');
		assert.equal(chosenHow(), 'switch');
	}
	assert.equal(locale(), 'ar-u-nu-latn', 'Arabic with Latin digits');
	browser({ stored: 'de' });
	await initI18n(null);
	assert.equal(locale(), 'de');
	assert.deepEqual(Object.keys(LANG_NAMES).sort(), [...LANGS].sort());
});

test('a catalog that cannot be loaded leaves English', async () => {
	fetched = [];
	browser({ prefers: ['es'] });
	assert.equal(await initI18n(null), 'en');
	assert.equal(chosenHow(), 'default');
	assert.equal(fetched.length, 1);
	assert.match(fetched[0], /\/i18n\/es\.json$/);
	assert.equal(t('common.save'), 'Save');
	assert.equal(root.dir, 'ltr');
});

test('t fills placeholders, falls back to English, shows an unknown key as itself', async () => {
	browser({ stored: 'de' });
	await initI18n(null);
	assert.equal(t('common.save'), 'Speichern');
	assert.equal(t('till.greeting', { name: 'Ana' }), 'Hallo Ana');
	assert.equal(t('till.greeting'), 'Hallo {name}', 'a missing value leaves the placeholder, seen');
	assert.equal(t('till.greeting', { name: null }), 'Hallo {name}');
	assert.equal(t('till.greeting', { name: 0 }), 'Hallo 0');
	assert.equal(t('till.greeting', { name: '{n}' }), 'Hallo {n}', 'a value is not filled again');
	assert.equal(t('till.only_en'), 'Only in English', 'German lacks it: English');
	assert.equal(t('till.nothing'), 'till.nothing');
	assert.equal(hasText('till.only_en'), true);
	assert.equal(hasText('till.nothing'), false);
});

test('a value ending in "." before the sentence\'s "." gives one full stop', async () => {
	useCatalog('en', { ...EN, 'till.paid': 'Paid {amount}. Balance {balance}.', 'till.abbr': 'Ends {x}.{y}' });
	useCatalog('ar', {
		'common.save': 'حفظ',
		'till.cards': { zero: 'لا بطاقات', one: 'بطاقة واحدة', two: 'بطاقتان', few: '{n} بطاقات', many: '{n} بطاقة', other: '{n} بطاقة' },
		'till.paid': 'تم دفع {amount}. الرصيد {balance}.'
	});
	browser({ stored: 'ar' });
	await initI18n(null);
	assert.equal(t('till.paid', { amount: '1.250 د.ك.', balance: '0.050 د.ك.' }), 'تم دفع 1.250 د.ك. الرصيد 0.050 د.ك.');
	assert.equal(t('till.paid', { amount: '1.250 د.ك', balance: '2' }), 'تم دفع 1.250 د.ك. الرصيد 2.', 'no dot of its own: kept');
	browser({ stored: 'en' });
	await initI18n(null);
	assert.equal(t('till.paid', { amount: 'KWD 1.250', balance: 'etc.' }), 'Paid KWD 1.250. Balance etc.');
	assert.equal(t('till.abbr', { x: 'a.', y: 'b.' }), 'Ends a.b.', 'only a "." right after the placeholder');
	assert.equal(t('till.abbr', { x: 'a.', y: '.' }), 'Ends a..', 'the dot after {x} is the text\'s, not the next value\'s');
	useCatalog('en', EN);
});

test('plurals follow each language\'s rules', async () => {
	const cases = {
		en: [[0, '0 cards'], [1, '1 card'], [2, '2 cards']],
		de: [[0, '0 Karten'], [1, '1 Karte'], [21, '21 Karten']],
		fr: [[0, '0 carte'], [1, '1 carte'], [2, '2 cartes'], [1000000, '1000000 de cartes']],
		ja: [[0, '0 枚'], [1, '1 枚'], [2, '2 枚']],
		ar: [[0, 'لا بطاقات'], [1, 'بطاقة واحدة'], [2, 'بطاقتان'], [3, '3 بطاقات'], [10, '10 بطاقات'],
			[11, '11 بطاقة'], [99, '99 بطاقة'], [100, '100 بطاقة'], [102, '102 بطاقة']]
	};
	for (const [l, list] of Object.entries(cases)) {
		browser({ stored: l });
		await initI18n(null);
		for (const [n, want] of list) assert.equal(t('till.cards', { n }), want, l + ' ' + n);
	}
	browser({ stored: 'de' });
	await initI18n(null);
	assert.equal(t('till.cards'), '{n} Karten', 'no n: the form of 0');
});

test('setShopLanguage changes only a language nothing else chose', async () => {
	browser({ prefers: ['ko'] });
	await initI18n(null);
	assert.equal(chosenHow(), 'default');
	assert.equal(await setShopLanguage('xx'), false);
	assert.equal(await setShopLanguage('en'), false, 'already English');
	assert.equal(await setShopLanguage('ar'), true);
	assert.equal(lang(), 'ar');
	assert.equal(chosenHow(), 'shop');
	assert.equal(root.dir, 'rtl');
	assert.equal(await setShopLanguage('de'), false, 'once set, the shop\'s stays');
	browser({ prefers: ['ko'] });
	assert.equal(await initI18n('de'), 'de');
	assert.equal(chosenHow(), 'shop');
	browser({ prefers: ['fr'] });
	await initI18n(null);
	assert.equal(await setShopLanguage('de'), false, 'the browser\'s preference wins');
	assert.equal(lang(), 'fr');
	browser({ stored: 'ja', prefers: ['ko'] });
	await initI18n(null);
	assert.equal(await setShopLanguage('de'), false, 'the switch wins');
	browser({ prefers: ['ko'] });
	await initI18n(null);
	fetched = [];
	assert.equal(await setShopLanguage('pt'), false, 'a catalog it cannot load: English stays');
	assert.equal(lang(), 'en');
});

test('the pseudo-locale wraps every text, accented, its placeholders kept', async () => {
	const p = pseudoCatalog(EN);
	assert.deepEqual(Object.keys(p), Object.keys(EN));
	assert.equal(p['common.save'], '⟦Sávé⟧');
	assert.equal(p['till.greeting'], '⟦Hélló {name}⟧');
	assert.deepEqual(p['till.cards'], { one: '⟦{n} çárd⟧', other: '⟦{n} çárds⟧' });
	/* ?lang=qps: English's keys, English's numbers and plurals, ltr */
	useCatalog(PSEUDO, p);
	browser({ url: '?lang=qps', prefers: ['ar'] });
	assert.equal(await initI18n('ar'), PSEUDO);
	assert.equal(locale(), 'en');
	assert.equal(root.lang, 'en');
	assert.equal(root.dir, 'ltr');
	assert.equal(t('till.cards', { n: 1 }), '⟦1 çárd⟧');
	assert.equal(t('till.greeting', { name: 'Ana' }), '⟦Hélló Ana⟧');
	assert.equal(t('till.nothing'), 'till.nothing', 'a key no catalog has is not wrapped: the test sees it');
	assert.equal(await setShopLanguage('de'), false, 'the address chose it');
});

/* A tiny stand-in for the DOM: what applyI18n uses. */
function el(attrs) {
	const a = new Map(Object.entries(attrs || {}));
	return {
		textContent: 'old',
		getAttribute: (k) => (a.has(k) ? a.get(k) : null),
		setAttribute: (k, v) => { a.set(k, String(v)); },
		attrs: a
	};
}
function tree(list, self) {
	const r = self || {};
	r.querySelectorAll = (sel) => list.filter((e) => e.getAttribute(sel.slice(1, -1)) !== null);
	r.matches = (sel) => r.getAttribute !== undefined && r.getAttribute(sel.slice(1, -1)) !== null;
	return r;
}

test('applyI18n sets marked text and attributes, the root included', async () => {
	browser({ stored: 'de' });
	await initI18n(null);
	const a = el({ 'data-i18n': 'common.save' });
	const b = el({ 'data-i18n-attr': 'placeholder:till.only_en; aria-label : common.save;bad' });
	const c = el({});
	applyI18n(tree([a, b, c]));
	assert.equal(a.textContent, 'Speichern');
	assert.equal(b.attrs.get('placeholder'), 'Only in English');
	assert.equal(b.attrs.get('aria-label'), 'Speichern');
	assert.equal(b.attrs.has('bad'), false);
	assert.equal(b.textContent, 'old');
	assert.equal(c.textContent, 'old');
	const self = tree([], el({ 'data-i18n': 'common.save' }));
	applyI18n(self);
	assert.equal(self.textContent, 'Speichern');
	applyI18n(null);	/* no document's querySelectorAll: nothing */
});
