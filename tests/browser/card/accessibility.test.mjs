/* The card page's accessibility: alt texts, one h1, named controls,
 * landmarks, headings in order, contrast; keyboard focus visible. */
import { freshDemo, cardBrowser, open, cardShown, a11y, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('basic accessibility checks (light)', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card') + ` && imgOk('#qr-image') && imgOk('#barcode-image')`);
	await a11y(t);
});

t.step('keyboard focus is visible on the Refresh button', async () => {
	await t.ev(`(document.activeElement && document.activeElement.blur(), true)`);
	for (let i = 0; i < 12; i++) {
		await t.key('Tab', 'Tab', 9);
		if (await t.ev(`document.activeElement === $('#refresh-button')`)) break;
	}
	return t.ev(`document.activeElement === $('#refresh-button') && $('#refresh-button').matches(':focus-visible') &&
	    getComputedStyle($('#refresh-button')).outlineStyle !== 'none' && parseFloat(getComputedStyle($('#refresh-button')).outlineWidth) >= 2`);
});

tokenStep(t);
