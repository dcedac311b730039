/* tests/browser/till/anonymous-card-no-name.test.mjs:
 * A card issued without a name (customer_name "") is "No name" at the
 * till, as in the back office: on the card and in the sale's result,
 * never "Cashback Club — " with nothing after it. */
import { openBrowser, TILL_HELPERS, demoProgram, call, apiLogin, demo } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });
const owner = await apiLogin(demo.owner);
const issued = await call('POST', 'admin/cards', { program_id: await demoProgram('cashback'), count: 1 }, owner.token);
if (issued.status !== 200) throw new Error('issue: ' + JSON.stringify(issued.body));
const anon = issued.body.data.cards[0];
if (anon.customer_name !== '') throw new Error('not a card without a name: ' + JSON.stringify(anon));

t.step('a card without a name shows "No name" on the card and in the sale\'s result', async () => {
	await tillReady(t);
	await lookupCard(t, anon.barcode_value);
	await t.waitFor(`text('#card-customer') === 'No name' && document.activeElement === $('#purchase-amount')`);
	await t.ev(`fill('#purchase-amount', '4.20') && submit('#purchase-submit')`);
	await t.waitFor(`text('#result').includes('Cashback earned')`);
	const r = await t.ev(`text('#result')`);
	if (!r.includes(' — No name') || / — ( |·|$)/.test(r)) throw new Error(r);
	await t.shot('anonymous-card');
	return true;
});
