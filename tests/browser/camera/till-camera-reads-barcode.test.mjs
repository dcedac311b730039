/* tests/browser/camera/till-camera-reads-barcode.test.mjs:
 * The till: the camera reads the card’s barcode. */
import { env as E } from '../lib/browser.mjs';
import { cameraBrowser, camOf, tillLogin, tillScan } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_BARCODE));

tab.step('the till: the camera reads the card\'s barcode; the card is looked up and shown, focus in the purchase amount, the camera off', async () => {
	await tillLogin(tab);
	return tillScan(tab, E.CARD_BARCODE);
});
