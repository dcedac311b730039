/* tests/browser/till/balance-spent-elsewhere.test.mjs:
 * Another till spends the balance first; the focus after Redeem. */
import { randomUUID } from 'node:crypto';
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, call, demo } from '../lib/browser.mjs';
import { tillReady, lookupCard, noCodes, otherTill, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode, LOCATION: demo.location };
/* a balance to spend: 2% of 100.00, then 5% of 500.00 */
await recordSale(E.CASH_BARCODE, 100.00);
await recordSale(E.CASH_BARCODE, 500.00);
before(async () => {
	await tillReady(tab);
});

/* 6. Another till spends the balance first. */
tab.step('after INSUFFICIENT_BALANCE the card shows the balance as it is now, and Max uses it', async () => {
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
	const shown = await tab.ev(`text('#card-balance')`);
	const other = await otherTill(), tok = other.token;
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const bal = lk.body.data.cashback_balance;
	if (!(bal > 1)) throw new Error('balance ' + bal + ' ' + shown);
	const spend = Math.round((bal - 1) * 100) / 100;
	const r = await call('POST', 'cashback/redeem', { card_instance_id: lk.body.data.card_instance_id, redemption_amount: spend,
		purchase_amount: spend, location_id: E.LOCATION, staff_user_id: other.id, earn_on_remainder: false, idempotency_key: randomUUID() }, tok);
	if (r.status !== 200) throw new Error('redeem ' + JSON.stringify(r.body));
	await tab.ev(`fill('#redeem-purchase', '500.00') && click('#redeem-max')`);
	const max1 = await tab.ev(`$('#redeem-amount').value`);
	await tab.ev(`click('#redeem-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback not redeemed')`);
	await noCodes(tab, '#result');
	await tab.waitFor(`text('#card-balance').includes('1.00')`);
	await tab.ev(`click('#redeem-max')`);
	const max2 = await tab.ev(`$('#redeem-amount').value`);
	if (max2 !== '1.00' || max1 === max2) throw new Error('Max: ' + max1 + ' then ' + max2);
	return true;
});

/* 8. Focus after Redeem. */
tab.step('after Redeem the focus is on the result, not the page body', async () => {
	await tab.ev(`fill('#redeem-purchase', '10.00') && fill('#redeem-amount', '1.00') && click('#redeem-submit')`);
	await tab.waitFor(`text('#result').includes('Charge the customer')`);
	return tab.ev(`document.activeElement !== document.body && document.activeElement.id === 'result-panel'`);
});
