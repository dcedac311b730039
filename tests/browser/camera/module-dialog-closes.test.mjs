/* tests/browser/camera/module-dialog-closes.test.mjs:
 * The camera dialog: formats, its size, Escape, Cancel, errors, the
 * torch. */
import { before } from 'node:test';
import { env as E, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, AIM, load, logOf, same } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_QR));
before(() => load(tab));

tab.step('formats: a QR code is never reported when only EAN-13 is asked for', async () => {
	await tab.ev(`(T.formats = ['ean_13'], T.log.length = 0, open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`, 10000);
	await sleep(2500);
	return tab.ev(`T.log.length === 0 && dlg().open && T.streams[T.streams.length - 1].getVideoTracks()[0].readyState === 'live'`);
});

tab.step('screenshots of the scanning dialog at 1280x800 and 390x844', async () => {
	await tab.viewport(1280, 800);
	await sleep(400);
	const a = await tab.shot('camera-scanning-1280');
	await tab.viewport(390, 844);
	// The new layout, not a fixed pause: a loaded machine lays out late.
	const fits = `(() => { const r = dlg().getBoundingClientRect(); return innerWidth === 390 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight && document.documentElement.scrollWidth <= innerWidth; })()`;
	let fit = true;
	try { await tab.waitFor(fits, 5000); } catch (e) { fit = false; note(e.message); }
	const b = await tab.shot('camera-scanning-390');
	note('screenshots: ' + a + ' ' + b);
	await tab.viewport(1280, 800);
	if (!fit) throw new Error('the dialog does not fit a 390x844 screen');
	return true;
});

tab.step('Escape closes it, stops the camera and gives the focus back to the opener', async () => {
	await tab.ev(`$('.cam-cancel').focus()`);
	await tab.key('Escape', 'Escape', 27);
	await tab.waitFor(`T.log.length === 1`);
	same(await logOf(tab), [{ ev: 'close', reason: 'cancel', focus: 'scan' }]);
	await tab.waitFor(`ended()`);
	return tab.ev(`!dlg() && document.activeElement === $('#scan')`);
});

tab.step('the Cancel button closes it; close() of the controller too', async () => {
	await tab.ev(`(T.log.length = 0, open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
	await tab.ev(`click('.cam-cancel')`);
	await tab.waitFor(`T.log.length === 1`);
	await tab.ev(`(T.log.length = 0, open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
	await tab.ev(`(T.ctl.close(), true)`);
	await tab.waitFor(`T.log.length === 1`);
	same(await logOf(tab), [{ ev: 'close', reason: 'closed', focus: 'scan' }]);
	return tab.waitFor(`ended() && !dlg()`);
});

tab.step('no camera (NotFoundError): said so, no Try again', async () => {
	await tab.ev(`(T.log.length = 0, T.fail = 'NotFoundError', open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'error'`);
	const s = await tab.ev(`text('.cam-status')`);
	if (!/No camera was found/.test(s)) throw new Error(s);
	return tab.ev(`!vis('.cam-retry') && !vis('.cam-dialog video') && document.activeElement === $('.cam-cancel')`);
});

tab.step('camera in use (NotReadableError): said so; Try again starts it once free', async () => {
	await tab.ev(`(click('.cam-cancel'), T.log.length = 0, T.fail = 'NotReadableError', open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'error'`);
	const s = await tab.ev(`text('.cam-status')`);
	if (!/another app or tab may be using it/.test(s)) throw new Error(s);
	if (!await tab.ev(`vis('.cam-retry') && document.activeElement === $('.cam-retry')`)) throw new Error('no Try again');
	await tab.ev(`(T.fail = null, click('.cam-retry'))`);
	await tab.waitFor(`dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`);
	await tab.ev(`click('.cam-cancel')`);
	same(await logOf(tab), [{ ev: 'close', reason: 'cancel', focus: 'scan' }]);
	return tab.waitFor(`ended()`);
});

tab.step('a torch button when the camera has one; it switches the torch', async () => {
	await load(tab, '?torch=1');
	await tab.ev(`(T.formats = ['ean_13'], open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'scanning' && vis('.cam-torch')`);
	await tab.ev(`click('.cam-torch')`);
	await tab.waitFor(`$('.cam-torch').getAttribute('aria-pressed') === 'true'`);
	await tab.ev(`click('.cam-torch')`);
	await tab.waitFor(`$('.cam-torch').getAttribute('aria-pressed') === 'false'`);
	same(await tab.ev(`T.torch`), [true, false]);
	await tab.ev(`click('.cam-cancel')`);
	return tab.waitFor(`ended()`);
});

tab.step('no torch button when the camera has none, no switch with one camera', async () => {
	await load(tab);
	await tab.ev(`(T.formats = ['ean_13'], open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
	await sleep(300);
	const r = await tab.ev(`!vis('.cam-torch') && !vis('.cam-switch')`);
	await tab.ev(`click('.cam-cancel')`);
	return r;
});
