/* Issuing cards (several customers, one a line), finding them by name,
 * barcode and id, and paging through many. */
import { freshShop, addProgram, PROGRAMS, ownerBrowser, ownerLogin, nav, ownerToken, postsStep, api } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
for (const p of ['coffee', 'cashback', 'discount']) await addProgram(shop, PROGRAMS[p]);
const t = await ownerBrowser();
await ownerLogin(t);
let bob;

t.step('issuing cards: several customers, one a line', async () => {
	await nav(t, 'cards');
	await t.waitFor(`vis('#sec-cards') && $$('#issue-program option').length === 3`);
	await t.ev(`pickText('#issue-program', 'Cashback Club Plus') && fill('#issue-names', 'Ann Smith\\nBob Brown\\n\\n  Cy Doe  ') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`vis('#issued') && $$('#issued-list li').length === 3`);
	if (!(await t.ev(`text('#issued-text')`)).includes('3 cards issued')) throw new Error(await t.ev(`text('#issued')`));
	await t.ev(`pickText('#issue-program', 'Coffee Card') && fill('#issue-names', 'Dan Punch') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`text('#issued-text').includes('1 card issued') && text('#issued-list').includes('Dan Punch')`);
	await t.ev(`pickText('#issue-program', 'Member Discount') && fill('#issue-names', 'Eve Discount') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`text('#issued-list').includes('Eve Discount')`);
	await t.waitFor(`text('#cards-page').includes('5 cards')`);
	const r = await api('GET', 'admin/cards?q=bob', undefined, await ownerToken(t));
	bob = r.json.data.cards[0];
	if (!bob || bob.customer_name !== 'Bob Brown' || bob.card_type !== 'cashback') throw new Error(r.text);
});

t.step('searching cards by name, barcode and id', async () => {
	for (const q of ['bob', bob.barcode_value, bob.card_instance_id]) {
		await t.ev(`fill('#search-q', ${JSON.stringify(q)}) && click('#search-form button[type=submit]')`);
		await t.waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Bob Brown') && text('#cards-page').includes('1 card')`);
	}
	await t.ev(`fill('#search-q', 'nobody-like-this') && click('#search-form button[type=submit]')`);
	await t.waitFor(`text('#cards-body').includes('No cards match')`);
});

t.step('paging through the cards (21 more issued at once)', async () => {
	const names = Array.from({ length: 21 }, (x, i) => 'Paging Customer ' + (i + 1)).join('\\n');
	await t.ev(`pickText('#issue-program', 'Coffee Card') && fill('#issue-names', '${names}') && click('#issue-form button[type=submit]')`);
	await t.waitFor(`text('#issued-text').includes('21 cards issued')`);
	await t.ev(`fill('#search-q', 'paging') && pick('#search-program', '') && click('#search-form button[type=submit]')`);
	await t.waitFor(`$$('#cards-body tr').length === 20 && text('#cards-page') === 'Page 1 of 2 · 21 cards' && !$('#cards-next').disabled && $('#cards-prev').disabled`);
	await t.ev(`click('#cards-next')`);
	await t.waitFor(`$$('#cards-body tr').length === 1 && text('#cards-page') === 'Page 2 of 2 · 21 cards' && $('#cards-next').disabled`);
	await t.ev(`click('#cards-prev')`);
	await t.waitFor(`$$('#cards-body tr').length === 20 && text('#cards-page').startsWith('Page 1 of 2')`);
});

postsStep(t);
