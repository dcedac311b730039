/* tests/browser/pos/owner-picks-location.test.mjs:
 * An owner at the till picks the location. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, demo } from '../lib/browser.mjs';
import { openTill, login, lookupCard, historyTotal } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode };
before(async () => {
	await openTill(tab);
});

tab.step('an owner picks the location; the purchase is recorded there', async () => {
	await tab.ev(`fill('#login-email', 'owner@demo.example') && fill('#login-password', 'demo-owner-pass') && click('#login-submit')`);
	await tab.waitFor(`vis('#pos-view') && vis('#where-pick')`);
	const opts = await tab.ev(`$$('#location-select option').map((o) => o.textContent)`);
	if (opts.join() !== 'Main Street,Harbour Kiosk') throw new Error('locations: ' + opts);
	await tab.ev(`($('#location-select').value = $$('#location-select option')[1].value, $('#location-select').dispatchEvent(new Event('change')), true)`);
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount'`);
	await historyTotal(tab);
	await tab.ev(`fill('#purchase-amount', '3') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Charge the customer')`);
	await tab.waitFor(`text('#history-body tr').includes('3.00')`);
	const row = await tab.ev(`text('#history-body tr')`);
	if (!row.includes('Harbour Kiosk') || !row.includes('Olivia Owner')) throw new Error(row);
	return true;
});
