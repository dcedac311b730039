/* Adjusting a card's cashback by hand: below zero refused with the
 * API's message (no bare code); an amount with a long reason added, the
 * reason kept whole a click away, its row still a row. */
import { cashbackShop, ownerBrowser, ownerLogin, openCard, postsStep } from '../lib/owner-helpers.mjs';

await cashbackShop();
const t = await ownerBrowser();
await ownerLogin(t);

t.step('adjusting the card: below zero is refused with the API\'s message; +2.50 with a reason is added and shown', async () => {
	await openCard(t, 'robert', 'Robert Brown');
	await t.ev(`click('#detail-adjust')`);
	await t.waitFor(`dlg() && dlg().querySelector('[data-field=cashback_amount]')`);
	await t.ev(`(dlg().querySelector('[data-field=cashback_amount]').value = '-1.00', dlg().querySelector('[data-field=reason]').value = 'Test', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('The cashback balance is 0.00')`);
	/* The message only: the code is kept for support, not shown. */
	const m = await t.ev(`text('dialog[open] .form-msg')`);
	if (/\(?[A-Z]{2,}_[A-Z_]{2,}\)?/.test(m) || !await t.ev(`!!$('dialog[open] .form-msg [data-code=INSUFFICIENT_BALANCE]')`)) throw new Error(m);
	/* A reason of 500 characters: its row stays a row, the whole reason
	 * a click away. */
	const long = ('Goodwill: coffee was cold, and the customer waited a long time for the second cup too. ').repeat(6).slice(0, 500);
	await t.ev(`(dlg().querySelector('[data-field=cashback_amount]').value = '+2.50', dlg().querySelector('[data-field=reason]').value = ${JSON.stringify(long)}, click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && /Cashback balance\\D*2\\.50/.test(text('#detail-balance'))`);
	await t.waitFor(`text('#dhist-body tr').includes('Adjustment') && /\\+\\D*2\\.50/.test(text('#dhist-body tr')) && text('#dhist-body tr').includes('Goodwill')`);
	for (const w of [1280, 390]) {
		await t.viewport(w, 900);
		const r = await t.ev(`(() => { const tr = $('#dhist-body tr'), d = tr.querySelector('details.reason-long');
			return { hi: tr.getBoundingClientRect().height, title: d && d.title, full: d && d.textContent }; })()`);
		if (r.title !== long || !r.full.includes(long)) throw new Error('the whole reason: ' + JSON.stringify(r));
		if (r.hi > 300) throw new Error('the row is ' + Math.round(r.hi) + ' px high at ' + w + ' px');
		await t.ev(`($('#dhist-body tr').scrollIntoView(), true)`);
		await t.shot('long-reason-' + w);
	}
	await t.viewport(1280, 900);
	return t.ev(`!$('#dhist-body tr').querySelector('.btn-void')`);
});

postsStep(t);
