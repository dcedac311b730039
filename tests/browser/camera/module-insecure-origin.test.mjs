/* tests/browser/camera/module-insecure-origin.test.mjs:
 * On plain http (not localhost) the camera is not offered. */
import { env as E, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, PAGE, logOf, same } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_QR));

tab.step('on plain http (not localhost) the camera is not offered, and the dialog says why', async () => {
	await tab.goto(PAGE.replace('127.0.0.1', 'cam.test'));
	await tab.waitFor(`document.readyState === 'complete' && window.camTest && camTest.ready`);
	if (await tab.ev(`window.isSecureContext || T.available !== false`)) throw new Error('cam.test is a secure context');
	await tab.ev(`open()`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'error'`);
	const s = await tab.ev(`text('.cam-status')`);
	if (!/only on a secure page/.test(s)) throw new Error(s);
	await tab.viewport(390, 844);
	await sleep(300);
	note('screenshot: ' + await tab.shot('camera-insecure-390'));
	await tab.viewport(1280, 800);
	await tab.ev(`click('.cam-cancel')`);
	return same(await logOf(tab), [{ ev: 'close', reason: 'error', focus: 'scan' }]);
});
