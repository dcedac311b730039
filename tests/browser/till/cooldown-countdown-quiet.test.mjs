/* tests/browser/till/cooldown-countdown-quiet.test.mjs:
 * The cooldown countdown ticks outside the live region. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, sleep } from '../lib/browser.mjs';
import { tillReady, lookupCard, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { PUNCH_BARCODE: (await demoCard('punch')).barcode };
/* punched once already: the next purchase meets the cooldown */
await recordSale(E.PUNCH_BARCODE, 2.00);
before(async () => {
	await tillReady(tab);
});

/* 9. The countdown ticks outside the live region. */
tab.step('the cooldown countdown is not read out every second', async () => {
	await lookupCard(tab, E.PUNCH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Coffee Card'`);
	await tab.ev(`fill('#purchase-amount', '1.00') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#countdown') && text('#countdown').includes('second')`);
	const a = await tab.ev(`[text('#result'), text('#countdown')]`);
	await sleep(1300);
	const b = await tab.ev(`[text('#result'), text('#countdown')]`);
	if (a[1] === b[1]) throw new Error('the countdown does not tick');
	if (a[0] !== b[0]) throw new Error('the live region changed: ' + a[0] + ' / ' + b[0]);
	return tab.ev(`!$('#countdown').closest('[aria-live]') && !!$('#result').closest('[aria-live]')`);
});
