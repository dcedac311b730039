/* A purchase voided from the card's history: a reason required, the row
 * marked voided, the cashback taken back; a void done meanwhile in
 * another tab said in plain words. */
import { cashbackShop, ownerBrowser, ownerLogin, openCard, postsStep, api, record } from '../lib/owner-helpers.mjs';

const s = await cashbackShop(20);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('the card\'s history shows the purchase', async () => {
	await openCard(t, 'robert', 'Robert Brown');
	await t.waitFor(`text('#dhist-body').includes('20.00') && text('#detail-balance').includes('0.40')`);
	const row = await t.ev(`text('#dhist-body tr')`);
	if (!row.includes('Cashback') || !row.includes('earned 0.40') || !row.includes('Harbour Kiosk East')) throw new Error(row);
});

t.step('the owner voids the cashier\'s purchase from the card\'s history: a reason is required; the row shows voided, the cashback goes back', async () => {
	await t.waitFor(`vis('#card-detail') && text('#detail-balance').includes('0.40') && $('#dhist-body .btn-void')`);
	await t.ev(`click($('#dhist-body .btn-void'))`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('Void this transaction?') && document.activeElement === dlg().querySelector('[data-field=reason]')`);
	const intro = await t.ev(`text('dialog[open]')`);
	if (!intro.includes('20.00') || !intro.includes('Robert Brown')) throw new Error(intro);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('Enter the reason')`);
	await t.ev(`(dlg().querySelector('[data-field=reason]').value = 'Paid by another card', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && text('#dhist-body').includes('voided') && /Cashback balance\\D*0\\.00/.test(text('#detail-balance'))`);
	const rows = await t.ev(`$$('#dhist-body tr').map((r) => r.textContent)`);
	if (!/Void/.test(rows[0]) || !rows[0].includes('reason: Paid by another card') || !/cashback taken back \D*0\.40/.test(rows[0]) ||
	    !/voided/.test(rows[1])) throw new Error(rows.join(' | '));
	await t.shot('voided');
	return t.ev(`!$('#dhist-body .btn-void')`);
});

t.step('a void done meanwhile in another tab: said in plain words, no second "Void it", the history read again', async () => {
	const owner = { token: s.shop.token, id: s.shop.owner };
	const rec = await record(owner, s.shop.location, s.card.card_instance_id, 7.77);
	const id = rec.transaction_id;
	await t.ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
	await t.waitFor(`$('#dhist-body .btn-void[data-txn="${id}"]')`);
	await t.ev(`click($('#dhist-body .btn-void[data-txn="${id}"]'))`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('7.77')`);
	const other = await api('POST', 'transactions/void', { transaction_id: id, reason: 'other tab', location_id: s.shop.location, staff_user_id: s.shop.owner }, s.shop.token);
	if (other.status !== 200) throw new Error(other.text);
	await t.ev(`(dlg().querySelector('[data-field=reason]').value = 'Wrong card', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('Already voided, from another window or till.')`);
	const d = await t.ev(`text('dialog[open]')`);
	if (/ALREADY_VOIDED|[0-9a-f]{8}-[0-9a-f]{4}-/.test(d) || await t.ev(`!!dlg().querySelector('button[type=submit]')`)) throw new Error(d);
	await t.waitFor(`text('#dhist-body').includes('other tab') && !$('#dhist-body .btn-void[data-txn="${id}"]')`);
	await t.shot('void-twice');
	await t.ev(`click(Array.from(dlg().querySelectorAll('button')).find((b) => b.textContent === 'Close'))`);
	await t.waitFor(`!dlg()`);
});

postsStep(t);
