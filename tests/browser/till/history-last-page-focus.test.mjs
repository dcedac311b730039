/* tests/browser/till/history-last-page-focus.test.mjs:
 * "Older" disabled on the last page keeps the focus in the history. */
import { randomUUID } from 'node:crypto';
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, call, demo } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotal, otherTill } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode, LOCATION: demo.location };
before(async () => {
	await tillReady(tab);
});

/* 8. "Older" disabled on the last page. */
tab.step('when "Older" disables on the last page the focus stays in the history', async () => {
	const other = await otherTill();
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.DISC_BARCODE }, other.token);
	for (let i = 0; i < 11; i++) {
		const r = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id, purchase_amount: 2 + i,
			location_id: E.LOCATION, staff_user_id: other.id, idempotency_key: randomUUID() }, other.token);
		if (r.status !== 200) throw new Error(JSON.stringify(r.body));
	}
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount'`);
	const total = await historyTotal(tab);
	if (total <= 10) throw new Error('only ' + total + ' transactions');
	await tab.ev(`$('#history-next').focus()`);
	await tab.pressEnter();
	await tab.waitFor(`$('#history-next').disabled && text('#history-page').startsWith('Page 2')`);
	const f = await tab.ev(`focused()`);
	if (f === 'BODY' || f === 'none') throw new Error('focus fell to ' + f);
	return f === 'history-prev';
});
