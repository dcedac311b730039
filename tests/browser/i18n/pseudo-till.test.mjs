/* The till in the pseudo-locale (?lang=qps): logged out, logged in, a
 * card looked up, a purchase made, the offline queue opened: every text a
 * cashier reads is from a catalog (pseudo.mjs says what counts). */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo, api } from '../lib/card-helpers.mjs';
import { lookupCard } from '../lib/till.mjs';
import { Found, shopData } from './pseudo.mjs';

const d = await freshDemo();
const owner = (await api('POST', 'auth/login', d.owner)).json.access_token;
const data = await shopData(owner, [d.staffLogin.email, d.owner.email]);
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900 });
const found = new Found();

t.step('the till in ?lang=qps shows only texts of the catalogs: login, card, purchase, queue', async () => {
	await t.goto(URL0 + '?lang=qps');
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	await found.add(t, 'login', data);
	await t.ev(`fill('#login-email', ${JSON.stringify(d.staffLogin.email)}) && fill('#login-password', ${JSON.stringify(d.staffLogin.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#pos-view') && !vis('#login-view')`);
	await found.add(t, 'logged in', data);
	await lookupCard(t, d.cash.barcode);
	await t.waitFor(`vis('#card-panel') && text('#card-title') !== '' && vis('#purchase-form')`);
	await t.waitFor(`!$('#history-panel').getAttribute('aria-busy')`).catch(() => {});
	await found.add(t, 'card looked up', data);
	await t.ev(`fill('#purchase-amount', '2.50') && submit('#purchase-submit')`);
	await t.waitFor(`vis('#result-panel') && text('#result') !== ''`);
	await found.add(t, 'purchase made', data);
	await t.ev(`(click('#queue-button'), true)`);
	await t.waitFor(`vis('#queue-panel')`);
	await found.add(t, 'queue', data);
	return found.check();
}, { timeout: 60000 });
