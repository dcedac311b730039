/* tests/browser/camera/module-barcode-detector.test.mjs:
 * A BarcodeDetector (a stub) is used when it reads both formats; two
 * frames running; check digits; the frame rate; a failing detector. */
import { env as E, note } from '../lib/browser.mjs';
import { cameraBrowser, camOf, LONG, load, logOf, same } from '../lib/camera.mjs';

const tab = await cameraBrowser(camOf(E.Y4M_QR));

tab.step('BarcodeDetector with both formats is used instead of the library (stub)', async () => {
	await load(tab, '?bd=all');
	await tab.ev(`(T.seq.push([['2420887973927', 'ean_13']], [['2420887973927', 'ean_13']]), open())`);
	await tab.waitFor(`T.log.length === 2`);
	same(await logOf(tab), [{ ev: 'code', text: '2420887973927', format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	const r = await tab.ev(`({ kind: last().dataset.decoder, formats: T.bdFormats, lib: performance.getEntriesByType('resource').filter((e) => e.name.includes('zxing')).length, w: T.calls[0].w, h: T.calls[0].h })`);
	return same(r, { kind: 'native', formats: ['qr_code', 'ean_13'], lib: 0, w: 640, h: 360 });
});

tab.step('a code counts only when read in two frames running (stub)', async () => {
	await tab.ev(`(T.log.length = 0, T.calls.length = 0, T.seq.push([['AAA', 'qr_code']], [['BBB', 'qr_code']], [['AAA', 'qr_code']], [], [['AAA', 'qr_code']], [['BBB', 'qr_code'], ['AAA', 'qr_code']]), open())`);
	await tab.waitFor(`T.log.length === 2`);
	same(await logOf(tab), [{ ev: 'code', text: 'AAA', format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	return tab.ev(`T.calls.length === 6`);
});

tab.step('an EAN-13 with a wrong check digit is never reported (stub)', async () => {
	await tab.ev(`(T.log.length = 0, T.calls.length = 0, T.seq.push(...Array(5).fill([['2420887973928', 'ean_13']]), ...Array(4).fill([['24208879739', 'ean_13']]), [['2420887973927', 'ean_13']], [['2420887973927', 'ean_13']]), open())`);
	await tab.waitFor(`T.log.length === 2`);
	same(await logOf(tab), [{ ev: 'code', text: '2420887973927', format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	return tab.ev(`T.calls.length === 11`);
});

tab.step('frames are read at a modest rate: 6 to 10 a second (stub)', async () => {
	await tab.ev(`(T.log.length = 0, T.calls.length = 0, open())`);
	await tab.waitFor(`T.calls.length >= 16`);
	await tab.ev(`click('.cam-cancel')`);
	const r = await tab.ev(`(T.calls[15].at - T.calls[0].at) / 15`);
	note('ms between frames: ' + r.toFixed(1));
	return r >= 100 && r <= 300;	/* at most 8 a second; slower only on a loaded machine */
});

tab.step('a detector failing on every frame: an error after some 2 s, not a hang (stub)', async () => {
	await tab.ev(`(T.log.length = 0, T.calls.length = 0, T.broken = true, open())`);
	await tab.waitFor(`dlg() && dlg().dataset.state === 'error'`, 8000);
	const s = await tab.ev(`text('.cam-status')`);
	if (!/codes could not be read \(InvalidStateError\)/.test(s)) throw new Error(s);
	const n = await tab.ev(`T.calls.length`);
	if (n !== 17) throw new Error(n + ' frames tried');
	await tab.ev(`(T.broken = false, click('.cam-cancel'))`);
	same(await logOf(tab), [{ ev: 'close', reason: 'error', focus: 'scan' }]);
	return tab.waitFor(`ended()`);
});

tab.step('a BarcodeDetector without EAN-13 is not used: the library reads the QR code', async () => {
	await load(tab, '?bd=qr');
	await tab.ev(`open()`);
	await tab.waitFor(`T.log.length >= 2`, LONG);
	same(await logOf(tab), [{ ev: 'code', text: E.CARD_QR, format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	return tab.ev(`last().dataset.decoder === 'zxing' && T.calls.length === 0`);
});
