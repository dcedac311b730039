/* tests/browser/pos/discount-charge.test.mjs:
 * A discount card: the amount to charge. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode };
before(async () => {
	await tillReady(tab);
});

tab.step('discount card: purchase shows the amount to charge', async () => {
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount'`);
	const c = await tab.ev(`text('#card-panel')`);
	if (!['5%', 'Member', 'VIP at 250.00 spent', 'Lifetime spend'].every((w) => c.includes(w))) throw new Error(c);
	await tab.ev(`fill('#purchase-amount', '20.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Charge the customer')`);
	const t = await resultText();
	if (!/Charge the customer\s*19\.00/.test(t) || !t.includes('discount 5% (1.00)')) throw new Error(t);
});
