/* tests/browser/till/currency-and-expiry.test.mjs:
 * The shop's currency symbol with every amount; cashback that expires. */
import { execFileSync } from 'node:child_process';
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, admin, env } from '../lib/browser.mjs';
import { tillReady, lookupCard, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode, DB: env.LT_DB };
/* lifetime spend for the Gold tier (10%) */
await recordSale(E.CASH_BARCODE, 600.00);
after(() => admin('setting', 'set', 'currency_symbol', ''));
before(async () => {
	await tillReady(tab);
});

tab.step('the shop\'s currency symbol (a setting) is shown with every amount', async () => {
	admin('setting', 'set', 'currency_symbol', '€');
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.currency_symbol === '€'`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	const t = await tab.ev(`text('#card-balance')`);
	if (!/Cashback balance€\d/.test(t)) throw new Error(t);
	await tab.ev(`fill('#purchase-amount', '20.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned')`);
	const r = await tab.ev(`text('#result')`);
	if (!/Cashback earned: €2\.00/.test(r) || !r.includes('of €20.00')) throw new Error(r);
	return true;
});

tab.step('cashback that expires: the card shows how much and on which day', async () => {
	/* Noon UTC on 3 December of next year: that day in any time zone. */
	const year = new Date().getUTCFullYear() + 1;
	execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB, 'UPDATE cashback_earnings SET expires_at = ' +
	    Date.UTC(year, 11, 3, 12) + " WHERE remaining > 0 AND card_id = (SELECT id FROM cards WHERE barcode = '" +
	    E.CASH_BARCODE + "')"]);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-balance').includes('expires on')`);
	const t = await tab.ev(`text('#card-balance')`);
	if (!new RegExp('Next expiry€\\d+\\.\\d\\d expires on 3 Dec ' + year).test(t)) throw new Error(t);
	return true;
});

tab.step('expired cashback shows in the history: "Expiry", the amount taken off, done by no one', async () => {
	const sql = (q) => execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB, q], { encoding: 'utf8' }).trim();
	const card = "(SELECT id FROM cards WHERE barcode = '" + E.CASH_BARCODE + "')";
	const [id, cents] = sql('SELECT transaction_id, remaining FROM cashback_earnings WHERE remaining > 0 AND card_id = ' + card +
	    ' ORDER BY earned_at DESC LIMIT 1').split('|');
	sql('UPDATE cashback_earnings SET expires_at = ' + (Date.now() - 500) + " WHERE transaction_id = '" + id + "'");
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`!$('#history-panel').getAttribute('aria-busy') && $$('#history-body tr').some((r) => r.textContent.includes('Expiry'))`);
	const row = await tab.ev(`$$('#history-body tr').map((r) => r.textContent).find((t) => t.includes('Expiry'))`);
	const amount = (parseInt(cents, 10) / 100).toFixed(2);
	if (!row.includes('cashback expired −€' + amount) || !row.includes('Automatic') || /€0\.00/.test(row)) throw new Error(row);
	return true;
});
