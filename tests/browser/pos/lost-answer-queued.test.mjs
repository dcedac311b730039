/* tests/browser/pos/lost-answer-queued.test.mjs:
 * The server records the purchase but the answer is lost, or the
 * database is busy: queued with its key, sent once. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, server } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotal, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode };
await recordSale(E.DISC_BARCODE, 20.00);
before(async () => {
	await tillReady(tab);
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount'`);
});

/* The server records the purchase but the answer is lost: the page
 * queues it with its idempotency key and clears the form for the next
 * customer; the queue sends it with that key, so it counts once. */
let lostKey;
tab.step('a lost answer queues the purchase with its key and time', async () => {
	await historyTotal(tab);
	await tab.once('transactions/record', 'Response', (p) => tab.S('Fetch.failRequest', { requestId: p.requestId, errorReason: 'ConnectionReset' }));
	await tab.ev(`fill('#purchase-amount', '12.34') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Saved to the offline queue')`);
	const q = await tab.ev(`queue()`);
	if (q.length !== 1) throw new Error(JSON.stringify(q));
	const it = q[0].item;
	lostKey = it.idempotency_key;
	if (it.purchase_amount !== 12.34 || !it.card_instance_id || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(it.client_timestamp) ||
	    !/^[0-9a-f-]{36}$/.test(lostKey) || !it.location_id || !it.staff_user_id) throw new Error(JSON.stringify(it));
	return tab.ev(`text('#queue-count') === '1' && $('#purchase-amount').value === ''`);
});

tab.step('the queue sends the lost purchase with its key: recorded once', async () => {
	await tab.ev(`click('#sync-button')`);
	await tab.waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`);
	if (await tab.ev(`review().length`) !== 0) throw new Error('review: ' + JSON.stringify(await tab.ev(`review()`)));
	return (await historyTotal(tab)) === 2;
});

tab.step('DATABASE_ERROR queues the purchase; Sync now sends it', async () => {
	await tab.once('transactions/record', 'Request', (p) => tab.S('Fetch.fulfillRequest', {
		requestId: p.requestId, responseCode: 503,
		responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, { name: 'Retry-After', value: '1' }],
		body: Buffer.from(JSON.stringify({ success: false, error: { code: 'DATABASE_ERROR', message: 'The database is busy.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
	}));
	await tab.ev(`fill('#purchase-amount', '7.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Saved to the offline queue') && $('#result [data-code]').dataset.code === 'DATABASE_ERROR'`);
	if (await tab.ev(`queue().length`) !== 1) throw new Error('not queued');
	await tab.ev(`click('#sync-button')`);
	await tab.waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`);
	return (await historyTotal(tab)) === 3;
});
