/* A box of cards without names: made from the issue form by number,
 * shown as "No name" in the list, the card and the issued list, printed
 * on one sheet, named later by Rename. */
import { freshShop, addProgram, PROGRAMS, ownerBrowser, ownerLogin, nav, ownerToken, api, a11y, postsStep } from '../lib/owner-helpers.mjs';
import { sleep } from '../lib/browser.mjs';

const shop = await freshShop();
await addProgram(shop, PROGRAMS.coffee);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('"No one yet" asks how many cards instead of names', async () => {
	await nav(t, 'cards');
	/* The button waits for the programs to be read. */
	await t.waitFor(`vis('#issue-form') && vis('#issue-names-field') && !vis('#issue-count-field') && !$('#issue-form button[type=submit]').disabled`);
	await t.ev(`(click('#issue-kind-blank'), true)`);
	await t.waitFor(`!vis('#issue-names-field') && vis('#issue-count-field')`);
	await a11y(t, 'issue without names');
	return true;
});

t.step('a number out of range is refused on the field', async () => {
	await t.ev(`fill('#issue-count', '101') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`text('#issue-form .form-msg').includes('1 to 100')`);
	return t.ev(`$('#issue-count').getAttribute('aria-invalid') === 'true'`);
});

t.step('12 cards without names are issued, each "No name"', async () => {
	await t.ev(`fill('#issue-count', '12') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`vis('#issued') && text('#issued-text').includes('12 cards without names issued')`);
	const items = await t.ev(`$$('#issued-list li').map((li) => li.textContent)`);
	if (items.length !== 12 || !items.every((x) => x.startsWith('No name'))) throw new Error(JSON.stringify(items));
	const r = await api('GET', 'admin/cards?page_size=50', undefined, await ownerToken(t));
	const names = r.json.data.cards.map((c) => c.customer_name);
	if (names.length !== 12 || names.some((n) => n !== '')) throw new Error(JSON.stringify(names));
	await t.shot('issued');
	return t.ev(`text('#issued-print') === 'Print these 12 cards'`);
});

t.step('the list shows them as "No name", and their sheet prints all 12', async () => {
	await t.waitFor(`$$('#cards-body tr').length >= 12 && $$('#cards-body tr').every((r) => r.textContent.includes('No name'))`);
	const [tab] = await Promise.all([t.context.waitForEvent('page', { timeout: 10000 }), t.ev(`click('#issued-print')`)]);
	let c = 0;
	for (let i = 0; i < 100 && c !== 12; i++) { c = await tab.evaluate(`document.querySelectorAll('.card').length`).catch(() => 0); await sleep(100); }
	await tab.close();
	return c === 12 || Promise.reject(new Error(c + ' cards on the sheet'));
});

t.step('a card without a name opens as "No name", and Rename names it', async () => {
	await t.ev(`click(btnIn($$('#cards-body tr')[0], 'View'))`);
	await t.waitFor(`vis('#card-detail') && text('#detail-title') === 'No name'`);
	await t.ev(`click('#detail-rename')`);
	await t.waitFor(`dlg() && text('dialog[open] h2').startsWith('Name the card without a name')`);
	await t.ev(`(dlg().querySelector('input').value = 'Walk In', click(dlg().querySelector('button[type=submit]')), true)`);
	await t.waitFor(`!dlg() && text('#detail-title') === 'Walk In' && rowOf('#cards-body', 'Walk In')`);
	return true;
});

postsStep(t);
