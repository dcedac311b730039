/* tests/browser/camera/till-camera-reads-qr.test.mjs:
 * The till: the camera reads the card’s QR code. */
import { env as E, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, tillLogin, tillScan } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_QR));

tab.step('the till: the camera reads the card\'s QR code; the card is looked up and shown, focus in the purchase amount, the camera off', async () => {
	await tillLogin(tab);
	return tillScan(tab, E.CARD_QR);
});

tab.step('...a screenshot of the till after the scan at 390x844', async () => {
	await tab.viewport(390, 844);
	await sleep(300);
	note('screenshot: ' + await tab.shot('till-scanned-390'));
	await tab.viewport(1280, 800);
	return true;
});
