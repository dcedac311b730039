/* tests/browser/till/amount-guardrails.test.mjs:
 * Guardrails on the amount: 0.00 refused, a large one confirmed. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotal } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
/* The sales the page starts, counted as it starts them (the sale button
 * goes busy before its request is sent), so a slow sale counts at once. */
const SALES_SENT = `(('__sales' in window) || (window.__sales = 0, new MutationObserver(() => {
	if ($('#purchase-submit').getAttribute('aria-busy') === 'true') window.__sales++;
}).observe($('#purchase-submit'), { attributes: true, attributeFilter: ['aria-busy'] })), true)`;
const salesSent = () => tab.ev(`window.__sales`);
/* The history's total once it says n. */
const historySays = (n) => tab.waitFor(`!$('#history-panel').getAttribute('aria-busy') && (text('#history-page').match(/(\\d+) transactions?/) || [])[1] === '${n}'`);
before(async () => {
	await tillReady(tab);
	await tab.ev(SALES_SENT);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount')`);
});

/* 7. Guardrails. */
tab.step('0.00 is refused as an amount', async () => {
	await tab.ev(`fill('#purchase-amount', '0.00') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#purchase-amount-error')`);
	return tab.ev(`!vis('#result-panel') && text('#purchase-amount-error').includes('above 0')`);
});

tab.step('999,999.00 needs a confirmation; "Change it" records nothing', async () => {
	const before = await historyTotal(tab);
	await tab.ev(`fill('#purchase-amount', '999999.00') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#purchase-confirm') && !vis('#purchase-submit')`);
	const t = await tab.ev(`text('#purchase-confirm-text')`);
	if (!t.includes('999,999.00')) throw new Error(t);
	if (await tab.ev(`document.activeElement !== $('#purchase-no')`)) throw new Error('focus not on "Change it"');
	const sent = await salesSent();
	await tab.ev(`click('#purchase-no')`);
	await tab.waitFor(`!vis('#purchase-confirm') && vis('#purchase-submit') && document.activeElement === $('#purchase-amount')`);
	if (await salesSent() !== sent) throw new Error('a sale was sent');
	return (await historyTotal(tab)) === before;
});

tab.step('Enter pressed twice on a large amount does not say yes', async () => {
	const before = await historyTotal(tab);
	await tab.ev(`fill('#purchase-amount', '') && $('#purchase-amount').focus()`);
	await tab.typeKeysTimed('9999.00', 90);
	const sent = await salesSent();
	await tab.pressEnter();
	await tab.waitFor(`vis('#purchase-confirm') && document.activeElement === $('#purchase-no')`);
	await tab.pressEnter();
	/* The second Enter is "Change it": the box goes, the amount stays to be corrected. */
	await tab.waitFor(`!vis('#purchase-confirm') && document.activeElement === $('#purchase-amount') && $('#purchase-amount').value === '9999.00'`);
	if (await salesSent() !== sent) throw new Error('a sale was sent');
	if (await tab.ev(`text('#result').includes('Cashback earned')`)) throw new Error('recorded');
	return (await historyTotal(tab)) === before;
});

tab.step('a confirmed large amount is recorded once', async () => {
	const before = await historyTotal(tab);
	const sent = await salesSent();
	await tab.ev(`fill('#purchase-amount', '1500.00') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#purchase-confirm')`);
	await tab.ev(`click('#purchase-yes')`);
	await tab.waitFor(`text('#result').includes('Cashback earned')`);
	if (await salesSent() !== sent + 1) throw new Error('sales sent: ' + ((await salesSent()) - sent));
	await historySays(before + 1);
	return true;
});
