/* The overview after the setup lists the next steps; a reload keeps the
 * session; the menu works from the keyboard. */
import { freshShop, ownerBrowser, ownerLogin, shots3, a11y } from '../lib/owner-helpers.mjs';

await freshShop();
const t = await ownerBrowser();
await ownerLogin(t);

t.step('the overview lists the next steps', async () => {
	await t.waitFor(`$$('#steps li').length === 6 && text('#steps').includes('1 location')`);
	const s = await t.ev(`text('#steps')`);
	for (const w of ['Add a login for each till', 'Create a loyalty program', 'Issue cards'])
		if (!s.includes(w)) throw new Error(s);
	return t.waitFor(`text('#today-figures').includes('Sales')`);
});
t.step('the overview fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'overview'));
t.step('the overview passes the accessibility pass', () => a11y(t, 'overview'));

t.step('a reload keeps the session (tokens in sessionStorage)', async () => {
	await t.page.reload({ waitUntil: 'commit' });
	await t.waitFor(`document.readyState === 'complete' && vis('#app-view') && vis('#sec-overview')`);
	return t.ev(`!vis('#login-view') && !vis('#setup-view')`);
});

t.step('the menu works from the keyboard', async () => {
	await t.ev(`($('#side-nav a[data-sec="locations"]').focus(), true)`);
	await t.pressEnter();
	await t.waitFor(`vis('#sec-locations') && !vis('#sec-overview')`);
	return t.ev(`document.activeElement === $('#h-locations') && $('#side-nav a[data-sec="locations"]').getAttribute('aria-current') === 'page' && location.hash === '#locations'`);
});
