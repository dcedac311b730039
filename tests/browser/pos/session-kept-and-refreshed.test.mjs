/* tests/browser/pos/session-kept-and-refreshed.test.mjs:
 * The session: kept over a reload, an expired access token refreshed. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, call } from '../lib/browser.mjs';
import { tillReady, login, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const cash = await demoCard('cashback');
const E = { CASH_QR: cash.qr };
before(async () => {
	await tillReady(tab);
});

tab.step('a reload keeps the session (tokens in sessionStorage)', async () => {
	await tab.S('Page.reload');
	await tab.waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#who-name') === 'Sam Staff'`);
	return tab.ev(`!vis('#card-panel') && !vis('#login-view')`);
});

tab.step('an expired access token is refreshed once and the call retried', async () => {
	const before = await tab.ev(`sessionStorage.getItem('pos.refresh_token')`);
	await tab.ev(`(sessionStorage.setItem('pos.access_token', 'not-a-valid-token'), true)`);
	await lookupCard(tab, E.CASH_QR);	/* a QR payload this time */
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	return tab.ev(`sessionStorage.getItem('pos.access_token') !== 'not-a-valid-token' && sessionStorage.getItem('pos.refresh_token') !== ${JSON.stringify(before)} && vis('#pos-view')`);
});
