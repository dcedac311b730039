/* tests/browser/pos/logout.test.mjs:
 * Log out. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS } from '../lib/browser.mjs';
import { tillReady, login } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);

before(async () => {
	await tillReady(tab);
});

tab.step('log out clears the tokens', async () => {
	await tab.ev(`click('#logout-button')`);
	await tab.waitFor(`vis('#login-form')`);
	return tab.ev(`!sessionStorage.getItem('pos.access_token') && !sessionStorage.getItem('pos.refresh_token') && !sessionStorage.getItem('pos.user')`);
});
