/* tests/browser/till/offline-queue.test.mjs:
 * Offline: a queued purchase resets the form, a second offline punch
 * within the cooldown is refused at once, the queue syncs once each. */
import { randomUUID } from 'node:crypto';
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, newProgram, issueCard, demo, sleep } from '../lib/browser.mjs';
import { tillReady, lookupCard, noCodes } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const quick = newProgram({ type: 'punch', title: 'Quick Stamp', punches: 10, reward: 'Free muffin', cooldown: 10 });
const E = { PUNCH2_BARCODE: issueCard(quick, 'Rush Hour').barcode, CASH_BARCODE: (await demoCard('cashback')).barcode, LOCATION: demo.location };
let offlinePunchAt = 0;
before(async () => {
	await tillReady(tab);
});

/* 2. Offline: a queued purchase resets the form; 5. a second offline
 * punch on one card within the cooldown is refused at once. */
/* The card is looked up, then the connection drops: the till knows
 * it is a punch card and its cooldown. */
tab.step('offline: the purchase is queued and the form reset; the next scan is a new card', async () => {
	await lookupCard(tab, E.PUNCH2_BARCODE);
	await tab.waitFor(`text('#card-customer') === 'Rush Hour' && document.activeElement === $('#purchase-amount')`);
	await tab.S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await tab.typeKeysTimed('2.50', 60);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Saved to the offline queue')`);
	offlinePunchAt = Date.now();
	await noCodes(tab, '#result');
	if (await tab.ev(`$('#purchase-amount').value`) !== '') throw new Error('the form was not reset');
	if (await tab.ev(`queue().length`) !== 1) throw new Error('queue ' + JSON.stringify(await tab.ev('queue()')));
	return tab.ev(`queue()[0].card_type === 'punch' && text('#card-customer') === 'Rush Hour'`);
});

tab.step('offline: a second punch on that card within the cooldown is refused at the till', async () => {
	await tab.ev(`fill('#purchase-amount', '1.80') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Purchase not recorded')`);
	const t = await tab.ev(`text('#result')`);
	if (!/punched .* ago/.test(t)) throw new Error(t);
	await noCodes(tab, '#result');
	return tab.ev(`queue().length === 1 && vis('#countdown')`);
});

tab.step('offline: a card the till could not look up takes two sales in a row (it may be a cashback card)', async () => {
	await tab.ev(`$('#purchase-amount').focus()`);
	await tab.scan(E.CASH_BARCODE);
	await tab.waitFor(`vis('#card-offline') && $('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)} && $('#purchase-amount').value === ''`);
	await tab.ev(`fill('#purchase-amount', '4.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Saved to the offline queue') && queue().length === 2`);
	await tab.ev(`fill('#purchase-amount', '6.00') && submit('#purchase-submit')`);
	/* "Saved" comes once the queue's durable copy has the sale,
	 * after the queue itself: waited for, not read at once. */
	await tab.waitFor(`queue().length === 3 && text('#result').includes('Saved to the offline queue') && text('#result').includes('6.00')`);
	return true;
});

tab.step('back online, the queued purchases are recorded once each', async () => {
	await tab.S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
	await tab.ev(`click('#sync-button')`);
	await tab.waitFor(`queue().length === 0 && text('#queue-summary').includes('3 purchases sent')`);
	return tab.ev(`review().length === 0`);
});

tab.step('a punch refused for its cooldown offers "Record now" (not a Retry that cannot pass) and it records', async () => {
	/* as a till that was offline would have it: refused at sync */
	const item = { barcode_value: E.PUNCH2_BARCODE, location_id: E.LOCATION, staff_user_id: await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user')).id`),
		purchase_amount: 1.8, punch_count: 1, idempotency_key: randomUUID(), client_timestamp: new Date(Date.now() - 20000).toISOString() };
	await tab.ev(`(localStorage.setItem('pos.review.v1', JSON.stringify([{ item: ${JSON.stringify(item)}, label: 'Card', card_type: 'punch', merchant_id: 'm', error: 'COOLDOWN_ACTIVE', message: 'Wait.' }])), true)`);
	await tab.ev(`(window.dispatchEvent(new StorageEvent('storage', { key: 'pos.review.v1' })), true)`);
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#review-box')`);
	const t = await tab.ev(`text('#review-list')`);
	if (!t.includes('Record now') || t.includes('Retry')) throw new Error(t);
	await noCodes(tab, '#review-list');
	/* the program's cooldown (10 s) after the punch synced before */
	await sleep(Math.max(0, offlinePunchAt + 11000 - Date.now()));
	await tab.ev(`(window.confirm = () => true, true)`);
	await tab.ev(`click(Array.from(document.querySelectorAll('#review-list button')).find((b) => b.textContent === 'Record now'))`);
	await tab.waitFor(`review().length === 0 && queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
	return true;
});
