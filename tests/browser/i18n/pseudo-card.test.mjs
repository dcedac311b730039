/* The customer's card page in the pseudo-locale (?lang=qps): a punch
 * card and a cashback card, every text from a catalog. */
import { freshDemo, cardBrowser, api, PAGE } from '../lib/card-helpers.mjs';
import { Found, shopData } from './pseudo.mjs';

const d = await freshDemo();
const owner = (await api('POST', 'auth/login', d.owner)).json.access_token;
const data = await shopData(owner);
const t = await cardBrowser();
const found = new Found();

t.step('the card page in ?lang=qps shows only texts of the catalogs', async () => {
	for (const k of ['punch', 'cash', 'disc']) {
		await t.goto('about:blank');
		await t.goto(PAGE + '?lang=qps#' + d[k].token);
		await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`, 15000);
		await found.add(t, k + ' card', data);
	}
	return found.check();
}, { timeout: 60000 });
