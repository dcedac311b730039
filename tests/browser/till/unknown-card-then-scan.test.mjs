/* tests/browser/till/unknown-card-then-scan.test.mjs:
 * After an unknown card, the next scan replaces the code. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard, noCodes } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
before(async () => {
	await tillReady(tab);
});

/* 4. After an unknown card, the next scan replaces the code. */
tab.step('after an unknown card the next scan is not appended to the old code', async () => {
	await lookupCard(tab, '999999999');
	await tab.waitFor(`vis('#lookup-error')`);
	await noCodes(tab, '#lookup-error');
	await tab.scan(E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	return tab.ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)}`);
});
