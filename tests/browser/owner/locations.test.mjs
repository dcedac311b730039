/* Adding a location and renaming one (in a dialog). */
import { freshShop, ownerBrowser, ownerLogin, nav, ownerToken, shots3, a11y, postsStep, api } from '../lib/owner-helpers.mjs';

await freshShop();
const t = await ownerBrowser();
await ownerLogin(t);
await nav(t, 'locations');

t.step('adding a location', async () => {
	await t.waitFor(`text('#locations-body').includes('High Street')`);
	await t.ev(`fill('#location-name', 'Harbour Kiosk') && click('#location-form button[type=submit]')`);
	await t.waitFor(`text('#locations-body').includes('Harbour Kiosk') && toast().includes('added')`);
	return t.ev(`$$('#locations-body tr').length === 2 && $('#location-name').value === ''`);
});

t.step('renaming a location (dialog)', async () => {
	await t.ev(`click(btnIn(rowOf('#locations-body', 'Harbour Kiosk'), 'Rename'))`);
	await t.waitFor(`dlg() && document.activeElement === dlg().querySelector('input')`);
	await a11y(t, 'rename dialog');
	await t.ev(`(dlg().querySelector('input').value = 'Harbour Kiosk East', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && text('#locations-body').includes('Harbour Kiosk East')`);
	const r = await api('GET', 'admin/locations', undefined, await ownerToken(t));
	const names = r.json.data.locations.map((l) => l.name).join();
	if (names !== 'High Street,Harbour Kiosk East') throw new Error(names);
});
t.step('the locations fit 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'locations'));
t.step('the locations pass the accessibility pass', () => a11y(t, 'locations'));

postsStep(t);
