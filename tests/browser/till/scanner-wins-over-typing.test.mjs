/* tests/browser/till/scanner-wins-over-typing.test.mjs:
 * The scanner and the keyboard at a busy counter: keys typed during a
 * slow lookup, Enter before the answer, a scan with the focus anywhere. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, call, demo } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotalOf, noCodes, otherTill } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { DISC_BARCODE: (await demoCard('discount')).barcode, CASH_BARCODE: (await demoCard('cashback')).barcode,
	PUNCH_BARCODE: (await demoCard('punch')).barcode, LOCATION: demo.location };
/* The sales the page starts, counted as it starts them (the sale button
 * goes busy before its request is sent), so a slow sale counts at once. */
const SALES_SENT = `(('__sales' in window) || (window.__sales = 0, new MutationObserver(() => {
	if ($('#purchase-submit').getAttribute('aria-busy') === 'true') window.__sales++;
}).observe($('#purchase-submit'), { attributes: true, attributeFilter: ['aria-busy'] })), true)`;
const salesSent = () => tab.ev(`window.__sales`);
before(async () => {
	await tillReady(tab);
	await tab.ev(SALES_SENT);
});

/* 1. A scan, then "4.50" at 110 ms a key while the lookup takes
 * 250 ms: the keys typed meanwhile land in the amount. */
tab.step('typing during a slow lookup: the amount gets every key, the card field none', async () => {
	await tab.slowDown('cards/lookup', 250);
	await tab.ev(`(document.activeElement.blur(), true)`);
	await tab.scan(E.DISC_BARCODE);
	await tab.typeKeysTimed('4.50', 110);
	await tab.waitFor(`text('#card-title') === 'Member Discount' || text('#card-title').length > 0`);
	await tab.waitFor(`$('#purchase-amount').value === '4.50'`, 3000);
	const code = await tab.ev(`$('#lookup-code').value`);
	if (code !== E.DISC_BARCODE) throw new Error('card field: ' + code);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Charge the customer')`);
	const t = await tab.ev(`text('#result')`);
	if (!/Purchase 4\.50/.test(t)) throw new Error(t);
	return true;
});

tab.step('Enter typed before the lookup answers is held, and records the typed amount', async () => {
	await tab.clearIntercepts();
	await tab.slowDown('cards/lookup', 900);
	await tab.ev(`(document.activeElement.blur(), true)`);
	await tab.scan(E.DISC_BARCODE);
	await tab.typeKeysTimed('6.20', 110);
	await tab.pressEnter();
	if (await tab.ev(`text('#result').includes('6.20')`)) throw new Error('recorded before the card was known');
	await tab.waitFor(`text('#result').includes('Charge the customer') && text('#result').includes('6.20')`, 5000);
	await tab.clearIntercepts();
	return tab.ev(`$('#lookup-code').value === ${JSON.stringify(E.DISC_BARCODE)}`);
});

/* 2. The scanner wins wherever the focus is. */
tab.step('a scan with the focus in the amount (looked up, nothing bought) is a new card', async () => {
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`document.activeElement === $('#purchase-amount')`);
	await tab.scan(E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	return tab.ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)} && $('#purchase-amount').value === ''`);
});

tab.step('a scan after a cooldown refusal: no "3.2026…" in the amount, the new card shown', async () => {
	await lookupCard(tab, E.PUNCH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Coffee Card' && document.activeElement === $('#purchase-amount')`);
	await tab.ev(`fill('#purchase-amount', '3.20') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Purchase recorded')`);
	await tab.ev(`fill('#purchase-amount', '3.20') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Purchase not recorded')`);
	await noCodes(tab, '#result');
	await tab.ev(`$('#purchase-amount').focus()`);
	await tab.scan(E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	const v = await tab.ev(`$('#purchase-amount').value`);
	if (v !== '') throw new Error('amount field: ' + v);
	return true;
});

tab.step('an amount typed with no field focused goes into the amount of the card shown', async () => {
	await lookupCard(tab, E.DISC_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Member Discount' && document.activeElement === $('#purchase-amount')`);
	await tab.ev(`(document.activeElement.blur(), true)`);
	await tab.typeKeysTimed('3.10', 90);
	return tab.ev(`$('#purchase-amount').value === '3.10' && $('#lookup-code').value === ${JSON.stringify(E.DISC_BARCODE)}`);
});

/* A sale in flight, the next card scanned and its amount typed with
 * Enter while its lookup runs: one sale each, and the late answer of
 * the first says whose it is. */
tab.step('a slow sale\'s answer does not clear what is typed for the next card, nor start it twice', async () => {
	const tok = (await otherTill()).token;
	const cashId = (await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok)).body.data.card_instance_id;
	const before = await historyTotalOf(cashId, tok);
	await tab.slowDown('transactions/record', 2500);
	await tab.ev(`fill('#purchase-amount', '2.00') && submit('#purchase-submit')`);
	await tab.waitFor(`$('#purchase-submit').getAttribute('aria-busy') === 'true'`);
	const started = await salesSent();
	await tab.slowDown('cards/lookup', 300);
	await tab.ev(`(document.activeElement.blur(), true)`);
	await tab.scan(E.CASH_BARCODE);
	await tab.typeKeysTimed('5.55', 40);
	await tab.pressEnter();
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount') && $('#purchase-amount').value === '5.55'`);
	await tab.waitFor(`text('#result').includes('Charge the customer')`, 8000);
	const r = await tab.ev(`text('#result')`);
	if (!r.startsWith('Previous sale: Member Discount')) throw new Error('not marked as the previous card\'s: ' + r);
	await tab.clearIntercepts();
	const v = await tab.ev(`[$('#purchase-amount').value, document.activeElement.id]`);
	if (v[0] !== '5.55' || v[1] !== 'purchase-amount') throw new Error(JSON.stringify(v));
	/* the held Enter did not start a second sale beside the first: the
	 * card was shown (the held keys released) and no sale began since */
	if (await salesSent() !== started) throw new Error('a sale on the new card started by itself');
	if (await historyTotalOf(cashId, tok) !== before) throw new Error('a sale on the new card was recorded by itself');
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Cashback earned') && document.activeElement === $('#result-panel')`);
	/* a second Enter (a double press) lands on the result, which stays;
	 * a sale it started would have made the button busy as the key was
	 * handled (the key's dispatch returns once the page has handled it) */
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#result-panel') && text('#result').includes('Cashback earned') && $('#purchase-submit').getAttribute('aria-busy') !== 'true'`);
	if (await salesSent() !== started + 1) throw new Error('sales started on the new card: ' + ((await salesSent()) - started));
	const after = await historyTotalOf(cashId, tok);
	if (after !== before + 1) throw new Error('sales on the new card: ' + (after - before));
	return true;
});

tab.step('Enter alone while a card is looked up records nothing', async () => {
	const n = await salesSent();
	await tab.slowDown('cards/lookup', 400);
	await tab.ev(`(document.activeElement.blur(), true)`);
	await tab.scan(E.DISC_BARCODE);
	await tab.pressEnter();
	await tab.waitFor(`text('#card-title') === 'Member Discount' && document.activeElement === $('#purchase-amount')`);
	await tab.clearIntercepts();
	/* The card is shown and its held keys released: no sale began, no error. */
	return tab.ev(`window.__sales === ${n} && !vis('#purchase-amount-error') && $('#purchase-amount').value === ''`);
});
