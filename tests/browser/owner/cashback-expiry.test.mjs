/* Cashback that expires: the card's detail shows the next expiry; once
 * expired, an "Expiry" row done by no one, in the card's history, the
 * report's list (beside a void) and the audit ("Automatic (expiry)"). */
import { cashbackShop, ownerBrowser, ownerLogin, openCard, nav, patch, post, record, sql } from '../lib/owner-helpers.mjs';

const s = await cashbackShop(20);
await post('transactions/void', { transaction_id: s.purchase.transaction_id, reason: 'Paid by another card',
	location_id: s.shop.location, staff_user_id: s.shop.owner }, s.shop.token);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('where the program lets cashback expire, the card\'s detail shows the next expiry', async () => {
	await patch('admin/programs/' + s.program, { expiry_days: 30 }, s.shop.token);
	await record({ token: s.shop.token, id: s.shop.owner }, s.shop.location, s.card.card_instance_id, 10.00);
	await openCard(t, 'robert', 'Robert Brown');
	await t.waitFor(`vis('#card-detail') && text('#detail-balance').includes('Next expiry')`);
	const b = await t.ev(`text('#detail-balance')`);
	const when = new Date(Date.now() + 30 * 86400000).toLocaleDateString(undefined, { dateStyle: 'medium' });
	if (!/Next expiry\D*0\.20 on /.test(b) || !b.includes(when)) throw new Error(b + ' / ' + when);
	await patch('admin/programs/' + s.program, { expiry_days: null }, s.shop.token);
});

t.step('expired cashback: an "Expiry" row with the amount taken off, done by no one; the history fits at 1280 px', async () => {
	sql('UPDATE cashback_earnings SET expires_at = ' + (Date.now() - 60000) +
	    " WHERE remaining > 0 AND expires_at IS NOT NULL AND card_id = (SELECT id FROM cards WHERE customer_name = 'Robert Brown')");
	await nav(t, 'locations');
	await openCard(t, 'robert', 'Robert Brown');
	await t.waitFor(`vis('#card-detail') && rowOf('#dhist-body', 'Expiry')`);
	const row = await t.ev(`rowOf('#dhist-body', 'Expiry').textContent`);
	if (!/cashback expired −\D*0\.20/.test(row) || !row.includes('Automatic') || row.includes('expiry') || row.includes('Harbour')) throw new Error(row);
	if (await t.ev(`!!rowOf('#dhist-body', 'Expiry').querySelector('.btn-void')`)) throw new Error('an expiry offers a void');
	/* Every column of the card's history inside its panel. */
	const fit = await t.ev(`(() => { const t = $('#dhist-table'), w = t.closest('.table-wrap');
		return { t: t.scrollWidth, w: w.clientWidth, cut: $$('#dhist-body td').filter((c) => c.scrollWidth > c.clientWidth + 1).length }; })()`);
	if (fit.t > fit.w || fit.cut) throw new Error('the history does not fit: ' + JSON.stringify(fit));
	await t.ev(`(rowOf('#dhist-body', 'Expiry').scrollIntoView(), true)`);
	await t.shot('expiry-1280');
});

t.step('the report\'s list shows the void beside the voided purchase', async () => {
	await nav(t, 'reports');
	await t.ev(`pick('#report-preset', 'today') && click('#report-form button[type=submit]')`);
	await t.waitFor(`text('#rtx-body').includes('Paid by another card') && text('#rtx-body').includes('voided')`);
	const row = await t.ev(`rowOf('#rtx-body', 'Expiry') ? rowOf('#rtx-body', 'Expiry').textContent : ''`);
	if (!/cashback expired −\D*0\.20/.test(row) || !row.includes('Robert Brown') || !row.includes('Automatic')) throw new Error('expiry row: ' + row);
});

t.step('the audit names the service\'s own expiry "Automatic (expiry)"', async () => {
	await nav(t, 'audit');
	await t.ev(`($('#audit-action').value = '', $('#audit-user').value = '', click('#audit-form button[type=submit]'))`);
	await t.waitFor(`rowOf('#audit-body', 'Automatic (expiry)')`);
});
