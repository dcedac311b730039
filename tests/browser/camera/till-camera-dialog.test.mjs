/* tests/browser/camera/till-camera-dialog.test.mjs:
 * The till’s "Scan with camera": offered on 127.0.0.1, the dialog,
 * Cancel. The camera is a moving test pattern, which holds no code. */
import { sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, AIM, same, tillLogin, mouseClick } from '../lib/camera.mjs';

const tab = await cameraBrowser(['--use-fake-ui-for-media-stream']);

tab.step('the till: the cashier logs in; "Scan with camera" is offered on 127.0.0.1 (a secure context), without the https hint', async () => {
	await tillLogin(tab);
	await tab.waitFor(`vis('#camera-button')`);
	return tab.ev(`window.isSecureContext && text('#camera-button') === 'Scan with camera' && !vis('#camera-hint')`);
});

tab.step('the till: the button opens the camera dialog (modal, "Scan a card", focus inside, the camera on and live)', async () => {
	await tab.viewport(390, 844);
	await mouseClick(tab, '#camera-button');
	await tab.waitFor(`dlg() && dlg().open && dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`, 10000);
	const d = await tab.ev(`({ modal: dlg().matches(':modal'), title: $('#' + dlg().getAttribute('aria-labelledby')).textContent,
		focus: dlg().contains(document.activeElement), live: tillCam.streams.length === 1 && tillCam.streams[0].getVideoTracks()[0].readyState === 'live',
		playing: $('.cam-dialog video').readyState >= 2 })`);
	return same(d, { modal: true, title: 'Scan a card', focus: true, live: true, playing: true });
});

tab.step('the till\'s camera dialog at 390x844: a screenshot; the dialog fits the screen', async () => {
	await sleep(400);
	note('screenshot: ' + await tab.shot('till-camera-390'));
	const fit = await tab.ev(`(() => { const r = dlg().getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight && document.documentElement.scrollWidth <= innerWidth; })()`);
	if (!fit) throw new Error('the dialog does not fit a 390x844 screen');
	return true;
});

tab.step('the till: Cancel closes the dialog, stops the camera, focus back on the button, no card looked up', async () => {
	await tab.ev(`click('.cam-cancel')`);
	await tab.waitFor(`!dlg() && tillEnded()`);
	await tab.viewport(1280, 800);
	return tab.ev(`document.activeElement === $('#camera-button') && !vis('#card-panel') && $('#lookup-code').value === ''`);
});
