/* tests/browser/pos/offline-unknown-card-review.test.mjs:
 * Offline, an unknown card is queued; refused by sync it goes to review. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);

before(async () => {
	await tillReady(tab);
});

tab.step('offline: an unknown card is queued, and refused by sync goes to review', async () => {
	await tab.S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await lookupCard(tab, '999999999');
	await tab.waitFor(`vis('#card-offline') && vis('#purchase-panel')`);
	await tab.ev(`fill('#purchase-amount', '5.55') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Saved to the offline queue')`);
	const q = await tab.ev(`queue()`);
	if (q.length !== 1 || q[0].item.barcode_value !== '999999999' || q[0].item.punch_count !== 1) throw new Error(JSON.stringify(q));
	if (!(await tab.ev(`text('#net-status')`)).includes('Offline')) throw new Error('no offline indicator');
	await tab.S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await tab.waitFor(`queue().length === 0 && review().length === 1`, 15000);
	const r = await tab.ev(`text('#review-list')`);
	if (!r.includes('No card with this number') || !r.includes('5.55') || r.includes('CARD_NOT_FOUND') ||
	    await tab.ev(`$('#review-list [data-code]').dataset.code`) !== 'CARD_NOT_FOUND') throw new Error(r);
	return true;
});
tab.step('screenshot of the review list is written', () => tab.shot('pos-review'));

tab.step('dismissing a review item', async () => {
	await tab.ev(`click('#review-list button:last-child')`);
	return tab.waitFor(`review().length === 0 && !vis('#review-box')`);
});
