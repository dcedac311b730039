/* tests/browser/camera/module-reads-barcode.test.mjs:
 * The card’s EAN-13 barcode, filmed, read exactly. */
import { env as E, sleep } from '../lib/browser.mjs';
import { cameraBrowser, camOf, LONG, load, logOf, same } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_BARCODE));

tab.step('the EAN-13 barcode is reported exactly (the card\'s barcode_value)', async () => {
	await load(tab);
	await tab.ev(`open()`);
	await tab.waitFor(`T.log.length >= 2`, LONG);
	await sleep(500);
	same(await logOf(tab), [{ ev: 'code', text: E.CARD_BARCODE, format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	return tab.ev(`last().dataset.decoder === 'zxing' && ended()`);
});
