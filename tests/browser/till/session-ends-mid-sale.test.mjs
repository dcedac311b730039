/* tests/browser/till/session-ends-mid-sale.test.mjs:
 * The session ends mid-sale: the cashier is disabled. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, admin } from '../lib/browser.mjs';
import { tillReady, login, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode };
/* The cashier enabled again whatever happens: the next files log in as them. */
let disabled = null;
after(() => { if (disabled) admin('user', 'enable', disabled); });
before(async () => {
	await tillReady(tab);
});

/* 3. The session ends mid-sale: the cashier is disabled. */
tab.step('a sale in flight when the session ends is kept in the queue and said so on the login form', async () => {
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	admin('user', 'disable', me.id);
	disabled = me.id;
	await tab.ev(`sessionStorage.setItem('pos.access_token', 'expired.token.x') || true`);
	await tab.ev(`fill('#purchase-amount', '8.40') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#login-view')`);
	/* the notice says the sale once it is in the queue: waited for */
	const said = `(text('#login-notice') + ' | ' + text('#login-queue'))`;
	await tab.waitFor(`${said}.includes('8.40') && ${said}.includes('offline queue')`, 5000).catch(async () => {
		throw new Error(await tab.ev(said));
	});
	const q = await tab.ev(`queue()`);
	if (q.length !== 1 || q[0].item.purchase_amount !== 8.4) throw new Error(JSON.stringify(q));
	admin('user', 'enable', me.id);
	disabled = null;
	await login(tab);
	await tab.waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
	return true;
});
