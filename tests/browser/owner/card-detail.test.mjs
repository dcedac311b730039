/* A card's detail: balance, QR code and barcode (decoded with zbarimg,
 * as Chromium shows them and as the API's SVGs), deactivated and
 * activated, a new customer link, renamed. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freshShop, addProgram, issueCards, PROGRAMS, ownerBrowser, ownerLogin, nav, ownerToken, shots3, a11y, postsStep, api,
	zbar, have, elementPng, shotsDir } from '../lib/owner-helpers.mjs';
import { env as E } from '../lib/browser.mjs';

const shop = await freshShop();
const cashback = await addProgram(shop, PROGRAMS.cashback);
await issueCards(shop, cashback, ['Ann Smith', 'Bob Brown', 'Cy Doe']);
const t = await ownerBrowser();
await ownerLogin(t);
const bob = (await api('GET', 'admin/cards?q=bob', undefined, shop.token)).json.data.cards[0];
const haveZbar = have('zbarimg'), haveRsvg = have('rsvg-convert');

t.step('a card\'s detail: balance, QR and barcode shown from blob: URLs', async () => {
	await nav(t, 'cards');
	await t.ev(`fill('#search-q', 'bob') && click('#search-form button[type=submit]')`);
	await t.waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Bob Brown')`);
	await t.ev(`click(btnIn(rowOf('#cards-body', 'Bob Brown'), 'View'))`);
	await t.waitFor(`vis('#card-detail') && text('#detail-title') === 'Bob Brown' && $('#detail-qr').complete && $('#detail-qr').naturalWidth > 0 && $('#detail-barcode').complete && $('#detail-barcode').naturalWidth > 0`);
	/* The history comes in a request of its own, slower under the
	 * sanitizers. */
	await t.waitFor(`text('#card-detail').includes('No transactions yet')`);
	const s = await t.ev(`text('#card-detail')`);
	for (const w of ['Cashback Club Plus', 'Cashback balance', '0.00', 'Bronze', bob.barcode_value, bob.qr_code_data, 'No transactions yet'])
		if (!s.includes(w)) throw new Error('missing ' + w + ' in ' + s);
	return t.ev(`$('#detail-qr').src.startsWith('blob:') && $('#detail-barcode').src.startsWith('blob:') && $('#detail-qr').alt.includes('Bob Brown')`);
});
t.step('the cards with a card\'s detail fit 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'cards'));
t.step('the cards with a card\'s detail pass the accessibility pass', () => a11y(t, 'cards'));

t.step('the QR image, as Chromium shows it, decodes to the card\'s qr_code_data', async () => {
	const f = await elementPng(t, '#detail-qr', path.join(shotsDir(), 'card-detail-qr.png'), 3);
	const got = zbar(f);
	if (got !== bob.qr_code_data) throw new Error('zbarimg: ' + got + ', want ' + bob.qr_code_data);
}, { skip: !haveZbar && 'zbarimg is not installed (apt-get install zbar-tools)' });

t.step('the barcode image decodes to the card\'s barcode_value (EAN-13)', async () => {
	const f = await elementPng(t, '#detail-barcode', path.join(shotsDir(), 'card-detail-barcode.png'), 3);
	const got = zbar(f, true);
	if (got !== 'EAN-13:' + bob.barcode_value) throw new Error('zbarimg: ' + got + ', want EAN-13:' + bob.barcode_value);
}, { skip: !haveZbar && 'zbarimg is not installed (apt-get install zbar-tools)' });

t.step('the QR and barcode SVGs of the API, converted by rsvg-convert, decode too', async () => {
	const tok = await ownerToken(t);
	for (const [what, want, typed] of [['qr', bob.qr_code_data, false], ['barcode', 'EAN-13:' + bob.barcode_value, true]]) {
		const r = await api('GET', 'admin/cards/' + bob.card_instance_id + '/' + what + '.svg', undefined, tok);
		if (r.status !== 200 || !r.text.includes('<svg')) throw new Error(what + ': ' + r.status + ' ' + r.text.slice(0, 200));
		const sf = path.join(E.BROWSER_RUN, what + '.svg'), pf = path.join(E.BROWSER_RUN, what + '.png');
		fs.writeFileSync(sf, r.text);
		execFileSync('rsvg-convert', ['-w', '600', '-b', 'white', '-o', pf, sf], { stdio: 'ignore' });
		const got = zbar(pf, typed);
		if (got !== want) throw new Error(what + ': zbarimg: ' + got + ', want ' + want);
	}
}, { skip: !(haveZbar && haveRsvg) && 'rsvg-convert or zbarimg is not installed (apt-get install librsvg2-bin zbar-tools)' });

t.step('deactivating a card (confirmed) and activating it again', async () => {
	await t.ev(`click('#detail-toggle')`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('Deactivate the card of Bob Brown')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && text('#detail-status') === 'Inactive' && text('#cards-body').includes('Inactive')`);
	const r = await api('GET', 'admin/cards/' + bob.card_instance_id, undefined, await ownerToken(t));
	if (r.json.data.card.status !== 'inactive') throw new Error(r.text);
	await t.shot('inactive');
	await t.ev(`click('#detail-toggle')`);
	await t.waitFor(`text('#detail-status') === 'Active' && text('#detail-toggle') === 'Deactivate'`);
});

t.step('a new link for a card (confirmed): the page shows it, the old link is 404, the new one the card', async () => {
	const old = (await t.ev(`text('#detail-page')`)).replace(/^.*#/, '');
	if (!/^[0-9a-f]{32}$/.test(old)) throw new Error('link ' + old);
	await t.ev(`click('#detail-redraw')`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('Make a new link for the card of Bob Brown')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && /#[0-9a-f]{32}$/.test(text('#detail-page')) && !text('#detail-page').endsWith('#${old}') && toast().includes('new link')`);
	const now = (await t.ev(`text('#detail-page')`)).replace(/^.*#/, '');
	const a = await api('GET', 'mycard/' + old), b = await api('GET', 'mycard/' + now);
	if (a.status !== 404 || b.status !== 200 || b.json.data.customer_name !== 'Bob Brown') throw new Error(a.status + ' ' + b.status);
});

t.step('renaming a card', async () => {
	await t.ev(`click('#detail-rename')`);
	await t.waitFor(`dlg()`);
	await t.ev(`(dlg().querySelector('input').value = 'Robert Brown', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && text('#detail-title') === 'Robert Brown'`);
	await t.ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
	await t.waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Robert Brown')`);
});

postsStep(t);
