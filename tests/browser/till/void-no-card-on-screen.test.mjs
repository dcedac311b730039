/* tests/browser/till/void-no-card-on-screen.test.mjs:
 * "Void last sale" opens its form with no card on screen (after a
 * reload, after Clear): the last sale is offered, with no note about
 * another customer, and the page throws nothing. */
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });
const dan = await demoCard('cashback', 'Dan Nocard');

async function openForm(shot) {
	await t.ev(`click('#void-open')`);
	await t.waitFor(`vis('#void-form') && document.activeElement === $('#void-reason')`);
	const st = await t.ev(`({ sale: text('#void-sale'), other: vis('#void-other') })`);
	if (!st.sale.includes('6.10') || !st.sale.includes('Dan Nocard') || st.other) throw new Error(JSON.stringify(st));
	if (shot) await t.shot(shot);
	await t.ev(`click('#void-cancel')`);
	return t.waitFor(`!vis('#void-form')`);
}

t.step('a sale, then the page reloaded: no card on screen, and the void form opens on the last sale', async () => {
	await tillReady(t);
	await lookupCard(t, dan.barcode);
	await t.waitFor(`text('#card-customer') === 'Dan Nocard' && document.activeElement === $('#purchase-amount')`);
	await t.ev(`fill('#purchase-amount', '6.10') && submit('#purchase-submit')`);
	await t.waitFor(`text('#result').includes('Cashback earned') && text('#void-sale').includes('6.10')`);
	await t.S('Page.reload');
	await t.waitFor(`vis('#pos-view') && vis('#void-open') && text('#void-sale').includes('6.10')`);
	if (await t.ev(`vis('#card-panel') && text('#card-customer') !== ''`)) throw new Error('a card is on screen after the reload');
	return openForm('void-no-card');
});

t.step('after Clear the void form opens too', async () => {
	await lookupCard(t, dan.barcode);
	await t.waitFor(`text('#card-customer') === 'Dan Nocard'`);
	await t.ev(`click('#lookup-clear')`);
	await t.waitFor(`document.activeElement === $('#lookup-code')`);
	return openForm();
});
