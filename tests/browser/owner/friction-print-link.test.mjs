/* Printed cards carry no customer link while the address of the site
 * for customers (public_url) is empty: the Cards section says so
 * plainly, and sets the address from there. */
import { freshShop, addProgram, issueCards, PROGRAMS, ownerBrowser, ownerLogin, nav, ownerToken, openCard, api, a11y } from '../lib/owner-helpers.mjs';
import { URL0 } from '../lib/browser.mjs';

const shop = await freshShop();
const program = await addProgram(shop, PROGRAMS.coffee);
await issueCards(shop, program, ['Ann Smith']);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('without an address for customers, Cards warns that printed cards carry no link', async () => {
	await nav(t, 'cards');
	await t.waitFor(`vis('#print-link-warn') && text('#print-link-warn').includes('no link')`);
	await t.shot('warning');
	return t.ev(`vis('#print-link-set')`);
});

t.step('the card shown says its printed face carries no link', async () => {
	await openCard(t, 'Ann', 'Ann Smith');
	return t.ev(`vis('#detail-no-link') && text('#detail-no-link').includes('no link')`);
});

t.step('"Set the address…" offers this page\'s folder, saves it, and the warnings go', async () => {
	await t.ev(`click('#print-link-set')`);
	await t.waitFor(`dlg() && dlg().querySelector('input').value === ${JSON.stringify(URL0)}`);
	await a11y(t, 'public url dialog');
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && !vis('#print-link-warn') && toast().includes('carry their link')`);
	const r = await api('GET', 'admin/settings', undefined, await ownerToken(t));
	const v = r.json.data.settings.find((x) => x.key === 'public_url').value;
	if (v !== URL0) throw new Error('public_url is ' + JSON.stringify(v));
	if (await t.ev(`vis('#detail-no-link')`)) throw new Error('the card shown still says it carries no link');
	await openCard(t, 'Ann', 'Ann Smith');
	return t.waitFor(`!vis('#detail-no-link')`);
});

t.step('a wrong address is refused in the dialog, nothing saved', async () => {
	await api('PATCH', 'admin/settings', { public_url: '' }, await ownerToken(t));
	await t.ev(`location.reload(), true`);
	await t.waitFor(`vis('#app-view')`);
	await nav(t, 'cards');
	await t.waitFor(`vis('#print-link-warn')`);
	await t.ev(`click('#print-link-set')`);
	await t.waitFor(`dlg()`);
	await t.ev(`(dlg().querySelector('input').value = 'shop dot example', click(dlg().querySelector('button[type=submit]')), true)`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('https://')`);
	await t.ev(`click(Array.from(dlg().querySelectorAll('button')).find((b) => b.textContent === 'Cancel'))`);
	return t.waitFor(`!dlg() && vis('#print-link-warn')`);
});
