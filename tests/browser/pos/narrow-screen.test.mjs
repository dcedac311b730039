/* tests/browser/pos/narrow-screen.test.mjs:
 * The till on a narrow screen. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotal } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const E = { PUNCH_BARCODE: (await demoCard('punch')).barcode };
before(async () => {
	await tillReady(tab);
});

tab.step('narrow screen layout', async () => {
	await lookupCard(tab, E.PUNCH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Coffee Card'`);
	await tab.viewport(480, 900);
	await historyTotal(tab);
	await tab.shot('pos-narrow');
	const w = await tab.ev(`document.documentElement.scrollWidth`);
	await tab.viewport(1280, 900);
	if (w > 480) throw new Error('the page scrolls sideways: ' + w + 'px wide');
});
