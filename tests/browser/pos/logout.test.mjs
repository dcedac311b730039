/* tests/browser/pos/logout.test.mjs: Log out. */
import { execFileSync } from 'node:child_process';
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, URL0, demoCard, newProgram, issueCard, admin, call, demo, sleep, note, env, server, serverDown } from '../lib/browser.mjs';
import { openTill, tillReady, login, lookupCard, historyTotal, noCodes, recordSale } from '../lib/till.mjs';

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
