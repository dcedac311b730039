/* tests/browser/camera/module-reads-qr.test.mjs:
 * The camera module (js/camera.js) alone, in the harness: the dialog,
 * and the card’s QR code read by the ZXing library. */
import { env as E, sleep, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, AIM, LONG, load, logOf, same } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_QR));

tab.step('the harness loads under the till CSP; cameraAvailable() on 127.0.0.1', async () => {
	await load(tab);
	note('BarcodeDetector in this Chromium: ' + await tab.ev(`T.nativeDetector`));
	return tab.ev(`T.available === true`);
});

tab.step('open: a labelled modal dialog, focus inside, "Starting camera…" then the aim hint', async () => {
	await tab.ev(`open()`);
	await tab.waitFor(`dlg() && dlg().open`);
	const d = await tab.ev(`({ modal: dlg().matches(':modal'), title: $('#' + dlg().getAttribute('aria-labelledby')).textContent,
		focus: dlg().contains(document.activeElement), status: $('.cam-status').textContent,
		v: ['playsinline', 'muted', 'autoplay'].every((a) => $('.cam-dialog video').hasAttribute(a)) && $('.cam-dialog video').muted })`);
	if (!d.modal || d.title !== 'Scan a card' || !d.focus || !d.v) throw new Error(JSON.stringify(d));
	if (d.status !== 'Starting camera…' && d.status !== AIM) throw new Error('status ' + d.status);
	return true;
});

tab.step('the QR code is reported exactly (the card\'s qr_code_data), once, then the dialog closes', async () => {
	await tab.waitFor(`T.log.length >= 2`, LONG);
	await sleep(500);
	return same(await logOf(tab), [{ ev: 'code', text: E.CARD_QR, format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
});

tab.step('...read by the ZXing library (no BarcodeDetector here), loaded on first use, leaving no global', async () => {
	const r = await tab.ev(`({ kind: last().dataset.decoder, lib: performance.getEntriesByType('resource').filter((e) => e.name.includes('/vendor/zxing-library')).length,
		global: 'ZXing' in window, css: $$('link[rel=stylesheet]').filter((l) => l.href.endsWith('/js/camera.css')).length })`);
	return same(r, { kind: 'zxing', lib: 1, global: false, css: 1 });
});

tab.step('...from the rear camera (facingMode environment asked for)', async () => {
	const c = await tab.ev(`T.constraints[0].video`);
	if (!c.facingMode || c.facingMode.ideal !== 'environment') throw new Error(JSON.stringify(c));
	return true;
});

tab.step('after the read every camera track is stopped and the dialog is gone', async () => {
	await tab.waitFor(`ended()`);
	return tab.ev(`last().querySelector('video').srcObject === null && !dlg() && !last().isConnected`);
});
