/* The owner's session: an expired access token is refreshed once and
 * the call retried; a refused refresh goes back to the login form. */
import { freshShop, addLocation, ownerBrowser, ownerLogin, nav } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
await addLocation(shop, 'Harbour Kiosk East');
const t = await ownerBrowser();
await ownerLogin(t);

t.step('an expired access token is refreshed once and the call retried', async () => {
	const before = await t.ev(`sessionStorage.getItem('pos.refresh_token')`);
	await t.ev(`(sessionStorage.setItem('pos.access_token', 'not-a-valid-token'), true)`);
	await nav(t, 'locations');
	await t.waitFor(`sessionStorage.getItem('pos.access_token') !== 'not-a-valid-token' && !$('#locations-body').closest('[aria-busy=true]')`);
	await t.waitFor(`text('#locations-body').includes('Harbour Kiosk East')`);
	const st = await t.ev(`({ access: sessionStorage.getItem('pos.access_token'), refresh: sessionStorage.getItem('pos.refresh_token'), app: vis('#app-view'), err: text('#locations-error') })`);
	if (st.access === 'not-a-valid-token' || st.refresh === before || !st.app || st.err) throw new Error(JSON.stringify(st) + ' before: ' + before);
});

t.step('a refused refresh goes back to the login form', async () => {
	await t.ev(`(sessionStorage.setItem('pos.access_token', 'bad'), sessionStorage.setItem('pos.refresh_token', 'bad'), true)`);
	await nav(t, 'staff');
	await t.waitFor(`vis('#login-form') && !vis('#app-view')`);
	return t.ev(`text('#login-notice').includes('session has ended') && !sessionStorage.getItem('pos.access_token')`);
});
