/* Printing cards: the selected ones, or a program's, on a sheet that
 * opens in a new tab and renders with its own style sheet. */
import path from 'node:path';
import { freshShop, addProgram, issueCards, PROGRAMS, ownerBrowser, ownerLogin, nav, shotsDir } from '../lib/owner-helpers.mjs';
import { sleep } from '../lib/browser.mjs';

const shop = await freshShop();
const coffee = await addProgram(shop, PROGRAMS.coffee);
const cashback = await addProgram(shop, PROGRAMS.cashback);
const discount = await addProgram(shop, PROGRAMS.discount);
await issueCards(shop, cashback, ['Ann Smith', 'Robert Brown', 'Cy Doe']);
await issueCards(shop, coffee, ['Dan Punch']);
await issueCards(shop, discount, ['Eve Discount']);
const t = await ownerBrowser();
await ownerLogin(t);

/* The tab the click in expr opens. */
async function popup(expr) {
	const [p] = await Promise.all([t.context.waitForEvent('page', { timeout: 10000 }), t.ev(expr)]);
	return p;
}

t.step('printing the selected cards: a sheet opens in a new tab and renders', async () => {
	await nav(t, 'cards');
	await t.ev(`fill('#search-q', '') && pick('#search-program', '') && click('#search-form button[type=submit]')`);
	await t.waitFor(`$$('#cards-body tr').length === 5`);
	await t.ev(`(click('#select-page'), true)`);
	await t.waitFor(`text('#select-count') === '5 cards selected.' && !$('#print-selected').disabled`);
	await t.ev(`(click(rowOf('#cards-body', 'Eve Discount').querySelector('input')), true)`);
	await t.waitFor(`text('#select-count') === '4 cards selected.'`);
	const tab = await popup(`click('#print-selected')`);
	await t.waitFor(`text('#sheet-note').includes('4 cards opened in a new tab')`);
	const end = Date.now() + 10000;
	let r;
	while (Date.now() < end) {
		r = await tab.evaluate(`(() => { const c = Array.from(document.querySelectorAll('.card'));
		    return document.readyState === 'complete' && c.length ? { n: c.length, w: c[0].getBoundingClientRect().width, title: document.title,
		    bg: getComputedStyle(document.body).backgroundColor, text: document.body.textContent } : null; })()`).catch(() => null);
		if (r) break;
		await sleep(100);
	}
	if (!r) throw new Error('the sheet did not load');
	/* 85 mm is 321 CSS px: the sheet's own style sheet applies. */
	if (r.n !== 4 || Math.abs(r.w - 321.26) > 1 || r.bg !== 'rgb(238, 238, 238)') throw new Error(JSON.stringify(r).slice(0, 300));
	for (const w of ['Corner Cafe', 'Robert Brown', 'Ann Smith', 'Dan Punch', 'Cashback Club Plus']) if (!r.text.includes(w)) throw new Error('sheet lacks ' + w);
	await tab.setViewportSize({ width: 900, height: 1200 });
	await tab.screenshot({ path: path.join(shotsDir(), 'cards-print-sheet.png'), fullPage: true });
	await tab.close();
});

t.step('printing a program\'s cards', async () => {
	await t.ev(`pickText('#sheet-program', 'Cashback Club Plus')`);
	const tab = await popup(`click('#program-sheet-form button[type=submit]')`);
	await t.waitFor(`text('#sheet-note').includes('3 cards opened')`);
	const end = Date.now() + 10000;
	let c = 0;
	while (Date.now() < end && c !== 3) { c = await tab.evaluate(`document.querySelectorAll('.card').length`).catch(() => 0); await sleep(100); }
	await tab.close();
	if (c !== 3) throw new Error(c + ' cards on the sheet');
});
