/* The audit trail's Change column reads as words: field names as words,
 * known ids as names, lists counted ("10 cards"), with what was recorded
 * (names, ids, lists whole) behind Details. */
import { freshShop, addProgram, PROGRAMS, post, patch, ownerBrowser, ownerLogin, nav, shots3 } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
const program = await addProgram(shop, PROGRAMS.coffee);
const batch = await post('admin/cards', { program_id: program, count: 10 }, shop.token);
const ids = batch.cards.map((c) => c.card_instance_id);
await patch('admin/cards/' + ids[0], { customer_name: 'Ann Smith' }, shop.token);
await patch('admin/settings', { login_max_failures: 9 }, shop.token);
const t = await ownerBrowser();
await ownerLogin(t);

const row = (what) => `rowOf('#audit-body', ${JSON.stringify(what)})`;

t.step('ten cards issued at once read "10 cards", no id in the words', async () => {
	await nav(t, 'audit');
	await t.waitFor(`vis('#sec-audit') && ${row('Cards issued')}`);
	const words = await t.ev(`${row('Cards issued')}.querySelector('.chg-words').textContent`);
	if (!words.includes('Cards: 10 cards')) throw new Error(words);
	if (/[0-9a-f]{8}-[0-9a-f]{4}/.test(words)) throw new Error('an id in the words: ' + words);
	return true;
});

t.step('Details shows what was recorded, every card id', async () => {
	const d = `${row('Cards issued')}.querySelector('details.chg-raw')`;
	if (await t.ev(`${d}.open`)) throw new Error('open before asked');
	await t.ev(`(${d}.querySelector('summary').click(), true)`);
	const raw = await t.ev(`${d}.open && ${d}.querySelector('code').textContent`);
	const missing = ids.slice(1).filter((id) => !raw.includes(id));
	if (missing.length) throw new Error('Details lacks ' + missing.join(', ') + ': ' + raw);
	return true;
});

t.step('a card named later reads "Customer: No name → Ann Smith"', async () => {
	const words = await t.ev(`${row('Card changed')}.querySelector('.chg-words').textContent`);
	return words.includes('Customer: No name → Ann Smith') || Promise.reject(new Error(words));
});

t.step('a setting reads by its label, not its key', async () => {
	const words = await t.ev(`${row('Settings changed')}.querySelector('.chg-words').textContent`);
	if (!words.includes('Wrong passwords before a pause: 5 → 9') || words.includes('login_max_failures')) throw new Error(words);
	return true;
});

t.step('the program of a card reads by its title', async () => {
	const words = await t.ev(`${row('Cards issued')}.querySelector('.chg-words').textContent`);
	return words.includes('Program: Coffee Card') || Promise.reject(new Error(words));
});

t.step('the audit fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'audit-words'));
