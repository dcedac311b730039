/* tests/browser/pos/cashback-earn-and-redeem.test.mjs:
 * A cashback card: balance, rate and tier; earning; redeeming. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const cash = await demoCard('cashback');
const E = { CASH_QR: cash.qr, CASH_BARCODE: cash.barcode };
before(async () => {
	await tillReady(tab);
	await lookupCard(tab, E.CASH_QR);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
});

tab.step('cashback card: balance, rate and tier', async () => {
	const t = await tab.ev(`text('#card-panel')`);
	if (!['Cashback balance', '0.00', '2%', 'Bronze', 'Lifetime cashback'].every((w) => t.includes(w))) throw new Error(t);
	return tab.ev(`vis('#redeem-panel') && !vis('#punch-field') && !vis('#claim-panel')`);
});

tab.step('cashback purchase shows the cashback earned', async () => {
	await tab.ev(`fill('#purchase-amount', '20') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned')`);
	const t = await resultText();
	if (!t.includes('Cashback earned: 0.40') || !t.includes('New balance 0.40')) throw new Error(t);
	return tab.waitFor(`text('#card-balance').includes('Cashback balance0.40')`);
});

tab.step('redeeming cashback with earn on remainder', async () => {
	await tab.ev(`fill('#redeem-purchase', '10.00') && click('#redeem-max')`);
	if (await tab.ev(`$('#redeem-amount').value`) !== '0.40') throw new Error('max gave ' + await tab.ev(`$('#redeem-amount').value`));
	await tab.ev(`submit('#redeem-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback used')`);
	const t = await resultText();
	for (const w of ['Charge the customer', '9.60', 'Cashback used 0.40', 'Cashback used from 1 earning', 'Also earned 0.19'])
		if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
	return tab.ev(`$$('#result table.mini tbody tr').length === 1`);
});

tab.step('redeeming more than the balance is refused in the page', async () => {
	await tab.waitFor(`text('#card-balance').includes('Cashback balance0.19')`);
	await tab.ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '5') && submit('#redeem-submit')`);
	return tab.waitFor(`vis('#redeem-amount-error') && text('#redeem-amount-error').includes('0.19')`);
});

/* The till's profile read again (a reload asks auth/me): the shop's
 * card_code_required as the setting now is. */
