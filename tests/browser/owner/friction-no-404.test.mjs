/* Loading the back office of a set-up shop asks nothing that answers
 * 404 (the setup's GET did on every load, and the browser logs each
 * 404 in its console). A browser that never saw the shop still asks the
 * setup once (GET setup answers 404 for a set-up shop: only a server
 * change, a 200 with setup_needed false, would spare that one). Logged
 * in, reloads and every section ask nothing that answers 404 either. */
import { freshShop, emptyInstall, ownerBrowser, ownerLogin, openOwner } from '../lib/owner-helpers.mjs';

await freshShop();
const t = await ownerBrowser();
const bad = [];
t.page.on('response', (r) => { if (r.status() === 404) bad.push(r.url()); });

t.step('once this browser saw the shop, a logout and two loads later: no answer was a 404', async () => {
	await ownerLogin(t);
	bad.length = 0;
	await t.ev(`click('#logout-button')`);
	await t.waitFor(`vis('#login-form')`);
	await openOwner(t);
	await openOwner(t);
	await t.waitFor(`vis('#login-form')`);
	/* Every answer in, so a late 404 is counted too. */
	await t.idle();
	return bad.length === 0 || Promise.reject(new Error('404: ' + bad.join(', ')));
});

t.step('logged in, two reloads and every section visited: no answer was a 404', async () => {
	await ownerLogin(t);
	bad.length = 0;
	for (let i = 0; i < 2; i++) {
		await t.page.reload();
		await t.waitFor(`document.readyState === 'complete' && vis('#app-view')`);
	}
	for (const sec of ['overview', 'locations', 'staff', 'programs', 'cards', 'reports', 'backup', 'settings', 'integrations', 'audit']) {
		await t.ev(`(click('#side-nav a[data-sec="${sec}"]'), true)`);
		await t.waitFor(`vis('#sec-${sec}')`);
	}
	await t.idle();
	await t.ev(`click('#logout-button')`);
	await t.waitFor(`vis('#login-form')`);
	return bad.length === 0 || Promise.reject(new Error('404: ' + bad.join(', ')));
});

t.step('a shop started over still gets its setup form after a refused login', async () => {
	await emptyInstall();
	await openOwner(t);
	await t.waitFor(`vis('#login-form')`);
	await t.ev(`fill('#login-email', 'nobody@example.com') && fill('#login-password', 'wrong password') && click('#login-submit')`);
	return t.waitFor(`vis('#setup-form')`);
});
