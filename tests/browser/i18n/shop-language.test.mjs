/* A shop whose language is German, and a browser preferring only Korean
 * (which the pages do not have): the card page and the till (once it
 * knows the shop, at the login) are in German. */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo, admin } from '../lib/card-helpers.mjs';
import { SHOWN_IN } from './pseudo.mjs';

const d = await freshDemo();
admin('setting', 'set', 'language', 'de');
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900, args: ['--lang=ko'], context: { locale: 'ko' } });

t.step('the card page of a German shop, in a browser preferring Korean, is in German', async () => {
	await t.goto(URL0 + 'card.html#' + d.cash.token);
	await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`, 15000);
	await t.waitFor(`document.documentElement.lang === 'de'`);
	return t.ev(SHOWN_IN('de'));
}, { timeout: 60000 });

t.step('the till of a German shop turns German at the login, in a browser preferring Korean', async () => {
	await t.goto(URL0);
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	await t.ev(`fill('#login-email', ${JSON.stringify(d.staffLogin.email)}) && fill('#login-password', ${JSON.stringify(d.staffLogin.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#pos-view') && document.documentElement.lang === 'de'`, 15000);
	return t.ev(SHOWN_IN('de'));
}, { timeout: 60000 });
