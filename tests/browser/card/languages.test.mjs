/* The card page in other languages: with ?lang=qps (the pseudo-locale:
 * every text of the catalogs wrapped in ⟦ ⟧) no text of ours is left
 * unwrapped, in the card, its attributes and the messages; Arabic is laid
 * out right to left and Japanese shows, at a phone's 390 px (screenshots);
 * the footer's switch keeps its choice. */
import { readFileSync } from 'node:fs';
import { freshDemo, cardBrowser, open, PAGE, UNKNOWN, shotStep, tokenStep } from '../lib/card-helpers.mjs';

/* The words expected, from the catalogs: a translator's better word
 * then changes no test, a page left in English still fails. */
const catalog = (l) => JSON.parse(readFileSync(new URL('../../../htdocs/i18n/' + l + '.json', import.meta.url), 'utf8'));
const ar = catalog('ar'), ja = catalog('ja'), fr = catalog('fr');

const d = await freshDemo();
const t = await cardBrowser();

/* Texts of the page (and its attributes) with letters outside ⟦ ⟧,
 * other than the shop's data: its names and titles, and what
 * translate="no" marks. */
const LEFTOVERS = (data) => `(() => {
	const data = ${JSON.stringify(data)};
	const bare = (s) => { let x = s.replace(/⟦[^⟧]*⟧/g, ''); for (const w of data) x = x.split(w).join(''); return /\\p{L}/u.test(x); };
	const out = [], seen = new Set();
	const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest('[translate="no"], script, style, #lang-select') || !el.getClientRects().length) continue;
		/* a text with an amount in it (card.js withAmounts) is one text */
		const whole = el.querySelector(':scope > .amount') ? el : el.classList.contains('amount') ? el.parentElement : null;
		if (whole && seen.has(whole)) continue;
		if (whole) seen.add(whole);
		const txt = whole ? whole.textContent : n.textContent;
		if (bare(txt)) out.push(txt.trim());
	}
	for (const el of document.querySelectorAll('[alt], [aria-label], [title], [placeholder]'))
		for (const a of ['alt', 'aria-label', 'title', 'placeholder'])
			if (el.hasAttribute(a) && bare(el.getAttribute(a))) out.push(a + '=' + el.getAttribute(a));
	if (bare(document.title)) out.push('title=' + document.title);
	return out;
})()`;
const DATA = ['Demo Coffee', 'Coffee Card', 'Cashback Club', 'Member Discount', 'Ann Smith', 'Bronze', 'Silver', 'Gold', 'Member', 'VIP', 'Free coffee', 'free coffee'];

async function openIn(lang, token) {
	await t.goto('about:blank');
	await t.goto(PAGE + '?lang=' + lang + (token ? '#' + token : ''));
	await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false'`, 15000);
}

t.step('with ?lang=qps every text of the punch card, the cashback card and the discount card is the catalogs\'', async () => {
	const left = [];
	for (const k of ['punch', 'cash', 'disc']) {
		await openIn('qps', d[k].token);
		await t.waitFor(`vis('#card-view') && $('#updated-text').textContent.includes('⟦')`);
		left.push(...await t.ev(LEFTOVERS(DATA)));
	}
	if (left.length) throw new Error('not from a catalog: ' + JSON.stringify(left));
});
shotStep(t, 'qps-card');

t.step('with ?lang=qps the messages (an unknown link, a malformed one) are the catalogs\'', async () => {
	const left = [];
	for (const h of [UNKNOWN, 'not-a-token']) {
		await openIn('qps', h);
		await t.waitFor(`vis('#message-view')`);
		left.push(...await t.ev(LEFTOVERS(DATA)));
	}
	return left.length === 0 || Promise.reject(new Error(JSON.stringify(left)));
});

t.step('in Arabic the page is right to left, its words Arabic, the card number left to right', async () => {
	await openIn('ar', d.punch.token);
	await t.waitFor(`vis('#card-view') && document.documentElement.dir === 'rtl'`);
	const s = await t.ev(`({ lang: document.documentElement.lang, h2: text('#scan-title'), line: text('#progress-line'), digits: getComputedStyle($('#barcode-digits')).direction, sel: $('#lang-select').value, wide: document.documentElement.scrollWidth <= innerWidth })`);
	if (s.lang !== 'ar' || s.h2 !== ar['card.scan_title'] || !/[\u0600-\u06ff]/.test(s.line) || s.digits !== 'ltr' || s.sel !== 'ar' || !s.wide)
		throw new Error(JSON.stringify(s));
});
shotStep(t, 'ar-390');

t.step('in Japanese the card shows its words in Japanese', async () => {
	await openIn('ja', d.cash.token);
	await t.waitFor(`vis('#card-view') && document.documentElement.lang === 'ja'`);
	const s = await t.ev(`({ h2: text('#progress-title'), bal: text('#balance'), wide: document.documentElement.scrollWidth <= innerWidth })`);
	if (s.h2 !== ja['card.progress_title'] || !s.bal.includes(ja['cardtype.cashback_balance']) || !s.wide) throw new Error(JSON.stringify(s));
});
shotStep(t, 'ja-390');

t.step('the language switch in the footer keeps the choice and loads the page in it', async () => {
	await open(t, d.punch.token);
	await t.waitFor(`vis('#card-view') && text('#scan-title') === 'Show this at the till'`);
	await t.page.selectOption('#lang-select', 'fr');
	await t.waitFor(`text('#scan-title') === ${JSON.stringify(fr['card.scan_title'])} && document.documentElement.lang === 'fr'`, 15000);
	const stored = await t.ev(`localStorage.getItem('loyalty.lang')`);
	await t.page.selectOption('#lang-select', 'en');
	await t.waitFor(`text('#scan-title') === 'Show this at the till'`, 15000);
	return stored === 'fr';
});
tokenStep(t);
