/* tests/browser/pos/refused-refresh-ends-session.test.mjs:
 * A refused refresh goes back to the login form. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, login, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
before(async () => {
	await tillReady(tab);
});

tab.step('a refused refresh goes back to the login form', async () => {
	await tab.ev(`(sessionStorage.setItem('pos.access_token', 'bad'), sessionStorage.setItem('pos.refresh_token', 'bad'), true)`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`vis('#login-form') && !vis('#pos-view')`);
	return tab.ev(`text('#login-notice').includes('session has ended') && !sessionStorage.getItem('pos.access_token')`);
});
