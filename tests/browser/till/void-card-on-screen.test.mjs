/* "Void last sale" with a card on screen is that card's last sale, not
 * the till's last (another customer's); with a card on screen that has
 * no sale here, the form says whose the last sale is, and the
 * confirmation names it, before anything is voided. */
import { openBrowser, TILL_HELPERS, demoCard, WIDTHS } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });
const ann = await demoCard('cashback', 'Ann Earlier');
const bob = await demoCard('cashback', 'Bob Later');
const cem = await demoCard('cashback', 'Cem Nothing');

async function sale(card, name, amount) {
	await lookupCard(t, card.barcode);
	await t.waitFor(`text('#card-customer') === ${JSON.stringify(name)} && document.activeElement === $('#purchase-amount')`);
	await t.ev(`fill('#purchase-amount', ${JSON.stringify(amount)}) && submit('#purchase-submit')`);
	await t.waitFor(`text('#result').includes('Cashback earned')`);
}

t.step('two customers\' sales, Ann\'s then Bob\'s', async () => {
	await tillReady(t);
	await sale(ann, 'Ann Earlier', '5.00');
	await sale(bob, 'Bob Later', '7.00');
	return t.waitFor(`vis('#void-open') && $('#void-sale').options.length >= 2`);
});

t.step('with Ann\'s card on screen, the button and the form are for Ann\'s sale, not Bob\'s later one', async () => {
	await lookupCard(t, ann.barcode);
	await t.waitFor(`text('#card-customer') === 'Ann Earlier' && text('#void-open').includes('this card')`);
	await t.ev(`click('#void-open')`);
	await t.waitFor(`vis('#void-form')`);
	const chosen = await t.ev(`$('#void-sale').selectedOptions[0].textContent`);
	if (!chosen.includes('5.00') || !chosen.includes('Ann Earlier')) throw new Error('chosen: ' + chosen);
	await t.shot('ann-on-screen');
	const ok = await t.ev(`!vis('#void-other')`);
	await t.ev(`click('#void-cancel')`);
	return ok;
});

t.step('with a card of no sale on screen, the last sale is offered as Bob\'s, said before and in the question', async () => {
	await lookupCard(t, cem.barcode);
	await t.waitFor(`text('#card-customer') === 'Cem Nothing' && text('#void-open') === 'Void last sale\u2026'`);
	await t.ev(`click('#void-open')`);
	await t.waitFor(`vis('#void-form') && vis('#void-other')`);
	const note = await t.ev(`text('#void-other')`);
	if (!note.includes('Not the card on screen') || !note.includes('Bob Later') || !note.includes('Cem Nothing')) throw new Error('note: ' + note);
	await t.ev(`fill('#void-reason', 'wrong customer') && click('#void-submit')`);
	await t.waitFor(`vis('#void-confirm')`);
	const q = await t.ev(`text('#void-confirm-text')`);
	if (!q.includes('Bob Later') || !q.includes('not the card on screen')) throw new Error('question: ' + q);
	for (const w of WIDTHS) {
		await t.viewport(w, 900);
		await t.shot('other-customer-' + w);
	}
	await t.viewport(1280, 900);
	await t.ev(`click('#void-no')`);
	return t.ev(`vis('#void-form') && !vis('#void-confirm')`);
});

t.step('picking Bob\'s sale while Ann is on screen says so too', async () => {
	await t.ev(`click('#void-cancel')`);
	await lookupCard(t, ann.barcode);
	await t.waitFor(`text('#card-customer') === 'Ann Earlier'`);
	await t.ev(`click('#void-open')`);
	await t.waitFor(`vis('#void-form') && !vis('#void-other')`);
	await t.ev(`pickText('#void-sale', 'Bob Later')`);
	await t.waitFor(`vis('#void-other') && text('#void-other').includes('Bob Later')`);
	await t.ev(`click('#void-cancel')`);
	return true;
});
