/* Offline: with the network off, Refresh keeps the copy, marked as
 * possibly out of date; card-sw.js controls the page and keeps only its
 * files; with the server really stopped the page opens from the worker
 * with the kept copy and its codes, a card never opened here is "could
 * not be reached" (not "not found"); the server back, Refresh clears the
 * note. */
import path from 'node:path';
import { URL0, server, serverDown } from '../lib/browser.mjs';
import { freshDemo, cardBrowser, open, cardShown, record, shotStep, tokenStep, PAGE, UNKNOWN } from '../lib/card-helpers.mjs';
import { zbar, have, elementPng, shotsDir } from '../lib/owner-helpers.mjs';

const d = await freshDemo();
await record(d.punch.card, 4.5, 12);	/* a reward waiting */
const t = await cardBrowser();

t.step('network offline: Refresh keeps the copy, marked as possibly out of date', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card') + ` && imgOk('#qr-image') && imgOk('#barcode-image') && kept() && !!kept().cards[0].qr`);
	await t.S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`vis('#stale-note')`);
	const s = await t.ev(`({ note: text('#stale-note'), line: text('#progress-line'), cust: text('#customer-name'), upd: text('#updated-text') })`);
	await t.S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	if (!/^You are offline\. This is the copy from today at .* and may be out of date\.$/.test(s.note) ||
	    s.line !== 'Your reward is waiting: Free coffee.' || s.cust !== 'Ann Smith' || !s.upd.startsWith('Last updated'))
		throw new Error(JSON.stringify(s));
});

t.step('the page\u2019s own service worker (card-sw.js) controls card.html and keeps only the page\u2019s files', async () => {
	await t.waitFor(`navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL.endsWith('/card-sw.js')`, 15000);
	const c = await t.ev(`(async () => { const out = []; for (const n of await caches.keys())
		for (const r of await (await caches.open(n)).keys()) out.push(r.url); return out; })()`);
	if (!c.includes(PAGE) || !c.includes(URL0 + 'js/progress.js') || c.some((u) => u.includes('/api/') || u.includes('#')))
		throw new Error(c.join('\n'));
});

t.step('server stopped: the page opens from the worker with the kept copy and its codes', async () => {
	await server('stop');
	if (!await serverDown()) throw new Error('the server still answers');
	await open(t);
	await t.waitFor(cardShown('Coffee Card') + ` && vis('#stale-note')`, 15000);
	const s = await t.ev(`text('#stale-note')`);
	if (!/^(The shop\u2019s server could not be reached|You are offline)\. This is the copy from .* may be out of date\.$/.test(s)) throw new Error(s);
	await t.waitFor(`imgOk('#qr-image') && imgOk('#barcode-image')`);
	if (!have('zbarimg')) return true;
	const f = await elementPng(t, '.qr-box', path.join(shotsDir(), 'offline-qr.png'), 2);
	const got = zbar(f);
	if (got !== d.punch.qr) throw new Error('decoded offline ' + JSON.stringify(got));
});
shotStep(t, 'offline');

t.step('server stopped, a card never opened here: "could not be reached", not "not found"', async () => {
	await open(t, UNKNOWN);
	await t.waitFor(`vis('#message-view') && vis('#retry-button')`, 15000);
	const s = await t.ev(`$('main').innerText`);
	if (!s.includes('could not be reached') || s.includes('Card not found')) throw new Error(s);
	await open(t);
	await t.waitFor(cardShown('Coffee Card') + ` && vis('#stale-note')`, 15000);
});

t.step('the server back, Refresh clears the note', async () => {
	await server('start');
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`!vis('#stale-note') && text('#updated-text').startsWith('Updated')`, 15000);
});

tokenStep(t);
