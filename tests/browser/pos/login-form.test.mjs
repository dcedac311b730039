/* tests/browser/pos/login-form.test.mjs:
 * The login form: shown first, a wrong password said as a sentence, the
 * cashier and the location after login. */
import { after } from 'node:test';
import { openBrowser, TILL_HELPERS, URL0, demo } from '../lib/browser.mjs';
import { login } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);

tab.step('the page loads and shows the login form', async () => {
	await tab.goto(URL0);
	await tab.waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
	const t = await tab.ev(`document.title`);
	if (t !== 'Loyalty POS') throw new Error('title ' + t);
	return tab.ev(`document.activeElement === $('#login-email')`);
});

tab.step('a wrong password shows INVALID_CREDENTIALS (as a sentence, the code kept for support)', async () => {
	await tab.ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'wrong-password') && click('#login-submit')`);
	await tab.waitFor(`vis('#login-error') && $('#login-error [data-code]') && $('#login-error [data-code]').dataset.code === 'INVALID_CREDENTIALS'`);
	if (await tab.ev(`text('#login-error').includes('INVALID_CREDENTIALS')`)) throw new Error('the bare code is shown');
	await tab.shot('pos-login-error');
	return tab.ev(`!sessionStorage.getItem('pos.access_token')`);
});

tab.step('staff login shows the cashier and the active location', async () => {
	await tab.ev(`fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
	await tab.waitFor(`vis('#pos-view') && !vis('#login-view')`);
	const who = await tab.ev(`text('#session-bar')`);
	if (!who.includes('Sam Staff') || !who.includes('Main Street')) throw new Error('session bar: ' + who);
	return tab.ev(`!!sessionStorage.getItem('pos.access_token') && !!sessionStorage.getItem('pos.refresh_token') && document.activeElement === $('#lookup-code')`);
});
