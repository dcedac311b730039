/* tests/browser/pos/inactive-card.test.mjs:
 * An inactive card at the till. */
import { execFileSync } from 'node:child_process';
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, env } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const cash = await demoCard('cashback');
const E = { CASH_BARCODE: cash.barcode, CASH_ID: cash.id, POS_ADMIN: env.LT_ADMIN, POS_DB: env.LT_DB };
before(async () => {
	await tillReady(tab);
});

tab.step('an inactive card is shown as such and takes no purchase', async () => {
	execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'card', 'deactivate', E.CASH_ID], { stdio: 'ignore' });
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	if (!await tab.ev(`vis('#card-inactive') && text('#card-status') === 'Inactive' && $('#card-panel').classList.contains('is-inactive')`))
		throw new Error(await tab.ev(`text('#card-panel')`));
	await tab.shot('pos-inactive');
	return tab.ev(`!vis('#purchase-panel') && !vis('#redeem-panel') && vis('#history-panel')`);
});
