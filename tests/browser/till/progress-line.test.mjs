/* tests/browser/till/progress-line.test.mjs:
 * The customer's progress line after a purchase. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, newProgram, issueCard } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const quick = newProgram({ type: 'punch', title: 'Quick Stamp', punches: 10, reward: 'Free muffin', cooldown: 10 });
const E = { PUNCH3_BARCODE: issueCard(quick, 'Claire Claim').barcode };
before(async () => {
	await tillReady(tab);
});

/* What cashiers of other systems have: the customer's progress line,
 * the shop's currency, enrolment at the counter. */
tab.step('after a purchase the result has a line for the customer', async () => {
	await lookupCard(tab, E.PUNCH3_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Quick Stamp'`);
	await tab.ev(`fill('#purchase-amount', '3.00') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#result .progress-line')`);
	const t = await tab.ev(`text('#result .progress-line')`);
	if (!/1 punch added: 1 of 10\. 9 more for a free muffin\./.test(t)) throw new Error(t);
	return true;
});
