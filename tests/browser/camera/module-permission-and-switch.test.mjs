/* tests/browser/camera/module-permission-and-switch.test.mjs:
 * No fake UI: the permission is the test’s to give or refuse. Two fake
 * cameras (a moving test pattern) for the camera switch. */
import { ORIGIN, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, load } from '../lib/camera.mjs';

const tab = await cameraBrowser(['--use-fake-device-for-media-stream=device-count=2']);

tab.step('camera permission refused: the dialog says how to allow it', async () => {
	await tab.S('Browser.setPermission', { permission: { name: 'camera' }, setting: 'denied', origin: ORIGIN });
	await load(tab);
	await tab.ev(`open()`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'error'`);
	const s = await tab.ev(`text('.cam-status')`);
	if (!/blocked for this page.*set Camera to Allow/.test(s)) throw new Error(s);
	await tab.viewport(390, 844);
	await sleep(300);
	const a = await tab.shot('camera-denied-390');
	await tab.viewport(1280, 800);
	await sleep(300);
	const b = await tab.shot('camera-denied-1280');
	note('screenshots: ' + a + ' ' + b);
	return tab.ev(`vis('.cam-retry') && T.streams.length === 0`);
});

tab.step('permission given, Try again starts the camera; two cameras: a switch', async () => {
	await tab.S('Browser.setPermission', { permission: { name: 'camera' }, setting: 'granted', origin: ORIGIN });
	await tab.ev(`click('.cam-retry')`);
	await tab.waitFor(`dlg().dataset.state === 'scanning' && vis('.cam-switch')`);
	const first = await tab.ev(`T.streams[0].getVideoTracks()[0].getSettings().deviceId`);
	await tab.ev(`click('.cam-switch')`);
	await tab.waitFor(`T.streams.length === 2 && dlg().dataset.state === 'scanning'`);
	const r = await tab.ev(`({ old: T.streams[0].getVideoTracks()[0].readyState, now: T.streams[1].getVideoTracks()[0].getSettings().deviceId, live: T.streams[1].getVideoTracks()[0].readyState })`);
	if (r.old !== 'ended' || r.live !== 'live' || r.now === first) throw new Error(JSON.stringify(r) + ' first ' + first);
	await tab.viewport(390, 844);
	await sleep(400);
	note('screenshot: ' + await tab.shot('camera-switch-390'));
	await tab.viewport(1280, 800);
	await tab.ev(`click('.cam-cancel')`);
	return tab.waitFor(`ended()`);
});
