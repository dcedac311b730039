/* tests/browser/camera/module-reads-printed-card.test.mjs:
 * The whole printed card, filmed: one of its two codes. */
import { env as E, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, LONG, load, logOf } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_CARD));

tab.step('the whole printed card: one of its two codes, exactly', async () => {
	await load(tab);
	await tab.ev(`open()`);
	await tab.waitFor(`T.log.length >= 2`, LONG);
	const l = await logOf(tab);
	note('the whole card read as ' + l[0].format);
	if (!(l[0].format === 'qr_code' && l[0].text === E.CARD_QR) && !(l[0].format === 'ean_13' && l[0].text === E.CARD_BARCODE)) throw new Error(JSON.stringify(l));
	return tab.waitFor(`ended()`);
});
