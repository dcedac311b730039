/* tests/browser/pos/browser-killed-keeps-queue.test.mjs:
 * A till’s browser killed just after an offline sale. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, URL0, demoCard, demo } from '../lib/browser.mjs';
import { tillReady, login, lookupCard, historyTotal } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode };
before(async () => {
	await tillReady(tab);
});

/* A till's browser killed (a crash, a power cut, or a close that
 * hangs on a loaded machine, after which browser.js kills it): the
 * queue must come back as the till last had it. Chromium keeps
 * localStorage writes in memory and writes them to disk 5 s later
 * at the soonest, and once a page has written a few times about
 * once a minute: killed just after "Saved to the offline queue",
 * the till came back without that sale, and with purchases it had
 * sent or set aside minutes before (one of them refused again: "1
 * need review"). */
tab.step('a browser killed just after an offline sale comes back with that sale, which is sent once after login', async () => {
	await tab.ev(`click('#lookup-clear')`);
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`vis('#purchase-panel') && text('#card-title') === 'Member Discount' && text('#card-status') === 'Active'`);
	await tab.S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await tab.ev(`fill('#purchase-amount', '8.00') && fill('#purchase-notes', 'browser killed') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Saved to the offline queue') && queue().length === 1`).catch(async (e) => {
		throw new Error(e.message + ': ' + await tab.ev(`text('#result') + ' | ' + text('#queue-panel')`));
	});
	const keys = `JSON.stringify({ queue: queue().map((x) => x.item.idempotency_key), review: review().map((x) => x.item.idempotency_key) })`;
	const had = await tab.ev(keys);
	await tab.kill();
	await tab.goto(URL0);
	await tab.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	/* The page may take a moment to bring the queue back (a browser
	 * just started on a loaded machine opens IndexedDB slowly). */
	await tab.waitFor(`${keys} === ${JSON.stringify(had)}`, 20000).catch(async () => {
		throw new Error('before the kill ' + had + ', after ' + await tab.ev(keys));
	});
	await tab.waitFor(`text('#login-queue').includes('1 purchase is waiting')`);
	await tab.ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
	await tab.waitFor(`vis('#pos-view')`);
	await tab.waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
	if (!(await tab.ev(`text('#queue-summary')`)).startsWith('1 purchase sent.') || await tab.ev(`review().length`) !== 0)
		throw new Error(await tab.ev(`text('#queue-panel')`));
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount'`);
	await historyTotal(tab);
	const row = await tab.ev(`text('#history-body tr')`);
	if (!row.includes('8.00') || !row.includes('browser killed')) throw new Error(row);
});
