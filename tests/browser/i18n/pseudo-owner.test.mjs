/* The back office in the pseudo-locale (?lang=qps): the setup form of a
 * new installation, the login form, and each section of a demo shop:
 * every text an owner reads is from a catalog. */
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, nav } from '../lib/owner-helpers.mjs';
import { freshDemo, api } from '../lib/card-helpers.mjs';
import { Found, shopData } from './pseudo.mjs';

const SECTIONS = ['overview', 'cards', 'programs', 'reports', 'locations', 'staff', 'settings', 'integrations', 'audit', 'backup'];
const t = await ownerBrowser();
const found = new Found();

t.step('the setup form of a new installation in ?lang=qps shows only texts of the catalogs', async () => {
	await emptyInstall();
	await t.goto(URL0 + 'owner.html?lang=qps');
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form')`);
	await found.add(t, 'setup form', []);
	return found.check();
});

t.step('the back office in ?lang=qps shows only texts of the catalogs, in every section', async () => {
	found.list.clear();
	const d = await freshDemo();
	const owner = (await api('POST', 'auth/login', d.owner)).json.access_token;
	const data = await shopData(owner, [d.owner.email, d.staffLogin.email]);
	await t.goto(URL0 + 'owner.html?lang=qps');
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	await found.add(t, 'login', data);
	await t.ev(`fill('#login-email', ${JSON.stringify(d.owner.email)}) && fill('#login-password', ${JSON.stringify(d.owner.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#app-view') && !vis('#login-view')`);
	for (const s of SECTIONS) {
		await nav(t, s);
		await t.idle();
		await found.add(t, s, data);
	}
	return found.check();
}, { timeout: 120000 });
