/* tests/browser/pos/scan-without-focus.test.mjs:
 * A scan while no field has focus goes into the card field. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
before(async () => {
	await tillReady(tab);
});

tab.step('a scan while no field has focus goes into the card field', async () => {
	await tab.ev(`(document.activeElement && document.activeElement.blur(), true)`);
	await tab.scan(E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	return tab.ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)}`);
});
