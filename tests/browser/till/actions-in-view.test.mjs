/* tests/browser/till/actions-in-view.test.mjs:
 * The actions stay in view on a laptop. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
await recordSale(E.CASH_BARCODE, 100.00);
before(async () => {
	await tillReady(tab);
});

/* 11. The actions stay in view on a laptop. */
tab.step('at 1280x800 Record and "Pay with cashback" are in view after a cashback scan', async () => {
	await tab.ev(`scrollTo(0, 0) || true`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
	await tab.settle();
	await tab.ev(`scrollTo(0, 0) || true`);
	await tab.shot('till-1280-cashback');
	const r = await tab.ev(`[$('#purchase-submit').getBoundingClientRect().bottom, $('#redeem-submit').getBoundingClientRect().bottom, innerHeight]`);
	if (r[0] > r[2] || r[1] > r[2]) throw new Error('below the fold: ' + JSON.stringify(r));
	return true;
});
