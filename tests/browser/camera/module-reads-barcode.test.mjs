/* tests/browser/camera/module-reads-barcode.test.mjs: The card’s EAN-13 barcode, filmed, read exactly. */
import { before } from 'node:test';
import { URL0, ORIGIN, env as E, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, PAGE, AIM, LONG, load, logOf, same, tillLogin, mouseClick, tillScan } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_BARCODE));


tab.step('the EAN-13 barcode is reported exactly (the card\'s barcode_value)', async () => {
	await load(tab);
	await tab.ev(`open()`);
	await tab.waitFor(`T.log.length >= 2`, LONG);
	await sleep(500);
	same(await logOf(tab), [{ ev: 'code', text: E.CARD_BARCODE, format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	return tab.ev(`last().dataset.decoder === 'zxing' && ended()`);
});
