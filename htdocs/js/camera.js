/* Camera scanning for the till: a modal dialog that shows the camera and
 * reports the first card code it reads twice in a row (the card's QR code
 * payload or its EAN-13 barcode digits), then closes.
 *
 *   import { cameraAvailable, openCameraScan } from './js/camera.js';
 *   if (cameraAvailable()) openCameraScan({ onCode(text, format) {...} });
 *
 * Decoding uses the browser's BarcodeDetector where it reads every asked
 * format (Chromium on Android, macOS and ChromeOS, for one), otherwise the
 * ZXing library in ../vendor/, loaded on first use only: it is 360 KB
 * that a till with a keyboard-wedge scanner never needs. The library
 * needs neither eval nor workers, so the page's CSP (script-src 'self')
 * allows it. The dialog's look is in camera.css beside this file, linked
 * by the module itself. */

import { hasText, t } from './i18n.js';

const CSS_URL = new URL('camera.css', import.meta.url).href;
const ZXING_URL = new URL('../vendor/zxing-library-0.23.0.min.js', import.meta.url).href;

/* About 8 reads a second on a frame of at most 640 px: enough for a card
 * held up to the camera, and light enough for a Raspberry Pi or an old
 * tablet, which also run the rest of the till. */
const FRAME_MS = 125;
const MAX_SIDE = 640;

/* The dialog's words: the page's catalog (till.camera.<name>, js/i18n.js)
 * when it has them, else these (a page that loaded no catalog).
 * i18n-keys: till.camera.title till.camera.video till.camera.starting till.camera.aim
 * i18n-keys: till.camera.cancel till.camera.retry till.camera.torch till.camera.switchCamera
 * i18n-keys: till.camera.denied till.camera.noCamera till.camera.inUse till.camera.insecure
 * i18n-keys: till.camera.unsupported till.camera.noDecoder till.camera.failed
 * i18n-keys: till.camera.readFailed till.camera.unknownError */
const TEXT = {
	title: 'Scan a card',
	video: 'Camera preview',
	starting: 'Starting camera…',
	aim: "Point the camera at the card's QR code or barcode",
	cancel: 'Cancel',
	retry: 'Try again',
	torch: 'Light',
	switchCamera: 'Switch camera',
	denied: 'The camera is blocked for this page. To allow it, tap the camera or padlock icon next to the address, set Camera to Allow, then tap Try again. You can also type the card number.',
	noCamera: 'No camera was found on this device. Type the card number or use a barcode scanner instead.',
	inUse: 'The camera could not be started: another app or tab may be using it. Close it, then tap Try again.',
	insecure: 'The camera works only on a secure page (an https:// address, or localhost on this device). Type the card number or use a barcode scanner instead.',
	unsupported: 'This browser cannot use a camera here. Type the card number or use a barcode scanner instead.',
	noDecoder: 'The code reader could not be loaded. Check the connection, then tap Try again.',
	failed: 'The camera could not be started ({error}). Tap Try again, or type the card number.',
	readFailed: 'The codes could not be read ({error}). Tap Try again, or type the card number.',
	unknownError: 'unknown error',
};

function cameraText() {
	const out = {};
	/* The keys built here:
	 * i18n-keys: till.camera.aim till.camera.cancel till.camera.denied till.camera.failed
	 * i18n-keys: till.camera.inUse till.camera.insecure till.camera.load_failed till.camera.noCamera
	 * i18n-keys: till.camera.noDecoder till.camera.readFailed till.camera.retry till.camera.starting
	 * i18n-keys: till.camera.switchCamera till.camera.title till.camera.torch
	 * i18n-keys: till.camera.unknownError till.camera.unsupported till.camera.video */
	for (const k of Object.keys(TEXT)) out[k] = hasText('till.camera.' + k) ? t('till.camera.' + k) : TEXT[k];
	return out;
}

export function cameraAvailable() {
	return !!(window.isSecureContext && navigator.mediaDevices &&
	    typeof navigator.mediaDevices.getUserMedia === 'function');
}

/* A card number is an EAN-13; the decoders check the digit already, but a
 * misread that slipped through would be another customer's card. */
function ean13Ok(s) {
	if (!/^\d{13}$/.test(s)) return false;
	let sum = 0;
	for (let i = 0; i < 12; i++) sum += (s.charCodeAt(i) - 48) * (i % 2 ? 3 : 1);
	return (10 - sum % 10) % 10 === s.charCodeAt(12) - 48;
}

/* Control characters in a QR payload mean a damaged or foreign code, not
 * a card: the till would send them to the server as a card code. */
function plausible(text, format) {
	if (typeof text !== 'string' || text === '' || text.length > 2048) return false;
	if (format === 'ean_13') return ean13Ok(text);
	return !/[\u0000-\u001f\u007f]/.test(text);
}

let cssAdded = null;
function addCss() {
	if (!cssAdded) {
		const link = document.createElement('link');
		link.rel = 'stylesheet';
		link.href = CSS_URL;
		cssAdded = new Promise((resolve) => { link.onload = link.onerror = resolve; });
		document.head.appendChild(link);
	}
	/* Shown unstyled rather than not at all if the file is slow. */
	return Promise.race([cssAdded, new Promise((r) => setTimeout(r, 1000))]);
}

/* The UMD build sets a global ZXing; it is taken and removed at once so
 * the page keeps no globals of ours. A classic <script> (not import()) as
 * that is the build's documented use; CSP allows it, being 'self'. */
let zxing = null;
function loadZXing() {
	if (!zxing) {
		zxing = new Promise((resolve, reject) => {
			const s = document.createElement('script');
			s.src = ZXING_URL;
			s.onload = () => {
				const zx = globalThis.ZXing;
				try { delete globalThis.ZXing; } catch (e) { /* left as is */ }
				if (zx && zx.MultiFormatReader) resolve(zx);
				else reject(new Error('ZXing did not load'));
			};
			s.onerror = () => reject(new Error('cannot load ' + ZXING_URL));
			document.head.appendChild(s);
		});
		zxing.catch(() => { zxing = null; });	/* a retry loads it again */
	}
	return zxing;
}

/* A decoder: {kind, detect(canvas) → Promise<[{text, format}]>}, with the
 * BarcodeDetector format names ('qr_code', 'ean_13') either way. */
async function makeDecoder(formats) {
	const BD = globalThis.BarcodeDetector;
	if (typeof BD === 'function') {
		try {
			const have = await BD.getSupportedFormats();
			if (formats.every((f) => have.includes(f))) {
				const bd = new BD({ formats });
				return {
					kind: 'native',
					detect: async (img) => (await bd.detect(img)).map((r) => ({ text: r.rawValue, format: r.format })),
				};
			}
		} catch (e) { /* a broken detector: the library reads instead */ }
	}
	const zx = await loadZXing();
	/* The QR reader and the 1D readers are called one by one, not through
	 * MultiFormatReader: that one (0.23.0) logs a console warning for every
	 * frame without a barcode. Other 2D formats are not read here. */
	const oneD = formats.filter((f) => f !== 'qr_code')
	    .map((f) => zx.BarcodeFormat[f.toUpperCase()]).filter((v) => typeof v === 'number');
	const readers = [];
	if (oneD.length) {
		const hints = new Map([[zx.DecodeHintType.POSSIBLE_FORMATS, oneD]]);
		readers.push([new zx.MultiFormatOneDReader(hints), hints]);
	}
	if (formats.includes('qr_code')) readers.push([new zx.QRCodeReader(), null]);
	/* No TRY_HARDER: it made a 640x360 frame four times as slow to read
	 * (some 27 ms to 105 ms on a desktop core; a Pi is slower), for codes
	 * held askew, and the cashier holds the card up to the camera anyway. */
	return {
		kind: 'zxing',
		detect: async (canvas) => {
			const bitmap = new zx.BinaryBitmap(new zx.HybridBinarizer(new zx.HTMLCanvasElementLuminanceSource(canvas)));
			for (const [reader, hints] of readers) {
				try {
					const r = reader.decode(bitmap, hints);
					return [{ text: r.getText(), format: String(zx.BarcodeFormat[r.getBarcodeFormat()]).toLowerCase() }];
				} catch (e) {
					/* Not found, bad checksum, unreadable: not in this frame. */
					if (!(e instanceof zx.Exception)) throw e;
				} finally {
					reader.reset();
				}
			}
			return [];
		},
	};
}

function explain(err, T) {
	switch (err && err.name) {
	case 'NotAllowedError':
	case 'SecurityError': return T.denied;
	case 'NotFoundError':
	case 'OverconstrainedError': return T.noCamera;
	case 'NotReadableError':
	case 'AbortError': return T.inUse;
	default: return T.failed.replace('{error}', (err && (err.name || err.message)) || T.unknownError);
	}
}

function el(tag, attrs, text) {
	const e = document.createElement(tag);
	for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
	if (text) e.textContent = text;
	return e;
}

let seq = 0;
let current = null;	/* one scanner at a time: one camera */

/* Opens the scanner. onCode(text, format) is called once with the code,
 * after the dialog has closed and focus is back on the opener; then
 * onClose('scanned'). Otherwise onClose(reason): 'cancel' (Cancel or
 * Escape), 'error' (closed while showing an error), 'closed' (close()
 * or the page went away). */
export function openCameraScan({ onCode, onClose, formats = ['qr_code', 'ean_13'], labels } = {}) {
	if (current) current.close();
	const T = Object.assign(cameraText(), labels);
	const id = 'cam-' + (++seq);
	const opener = document.activeElement;

	const dlg = el('dialog', { class: 'cam-dialog', 'aria-labelledby': id + '-title', 'aria-describedby': id + '-status' });
	const title = el('h2', { id: id + '-title', class: 'cam-title' }, T.title);
	const view = el('div', { class: 'cam-view' });
	const video = el('video', { playsinline: '', muted: '', autoplay: '', 'aria-label': T.video });
	video.muted = true;	/* the attribute alone does not count for autoplay */
	view.append(video, el('div', { class: 'cam-aim', 'aria-hidden': 'true' }));
	const status = el('p', { id: id + '-status', class: 'cam-status', role: 'status', 'aria-live': 'polite' }, T.starting);
	const torch = el('button', { type: 'button', class: 'cam-btn cam-torch', 'aria-pressed': 'false', hidden: '' }, T.torch);
	const swap = el('button', { type: 'button', class: 'cam-btn cam-switch', hidden: '' }, T.switchCamera);
	const retry = el('button', { type: 'button', class: 'cam-btn cam-retry', hidden: '' }, T.retry);
	const cancel = el('button', { type: 'button', class: 'cam-btn cam-cancel' }, T.cancel);
	const actions = el('div', { class: 'cam-actions' });
	actions.append(torch, swap, retry, cancel);
	dlg.append(title, view, status, actions);

	let stream = null, timer = 0, closed = false, failed = false, decoder = null, run = 0, errors = 0;
	const canvas = document.createElement('canvas');
	const ctx = canvas.getContext('2d', { willReadFrequently: true });

	function say(text, isError) {
		status.textContent = text;
		status.classList.toggle('cam-status-error', !!isError);
		failed = !!isError;
	}
	function stopCamera() {
		clearTimeout(timer);
		run++;	/* a frame still being decoded is dropped */
		if (stream) for (const t of stream.getTracks()) t.stop();	/* the camera light goes off */
		stream = null;
		video.srcObject = null;
	}
	function fail(text) {
		stopCamera();
		say(text, true);
		torch.hidden = swap.hidden = true;
		retry.hidden = text === T.insecure || text === T.unsupported || text === T.noCamera;
		dlg.dataset.state = 'error';
		(retry.hidden ? cancel : retry).focus();
	}

	function finish(reason, code) {
		if (closed) return;
		closed = true;
		current = null;
		stopCamera();
		window.removeEventListener('pagehide', onPageHide);
		if (dlg.open) dlg.close();
		dlg.remove();
		if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus();
		try {
			if (code && onCode) onCode(code.text, code.format);
		} finally {
			if (onClose) onClose(reason);
		}
	}
	const onPageHide = () => finish('closed');

	/* A code counts once the same one is read in two frames running: one
	 * frame can catch a card half in view or blurred. */
	let previous = new Set();
	function take(found) {
		const ok = found.filter((c) => plausible(c.text, c.format));
		const keys = new Set(ok.map((c) => c.format + '\n' + c.text));
		const sure = ok.find((c) => previous.has(c.format + '\n' + c.text));
		previous = keys;
		if (sure) finish('scanned', sure);
	}

	async function scan(myRun) {
		if (myRun !== run || closed) return;
		const t0 = performance.now();
		if (video.readyState >= 2 && video.videoWidth) {
			const k = Math.min(1, MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
			const w = Math.round(video.videoWidth * k), h = Math.round(video.videoHeight * k);
			if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
			ctx.drawImage(video, 0, 0, w, h);
			let found = [];
			try {
				found = await decoder.detect(canvas);
				errors = 0;
			} catch (e) {
				/* A frame the detector refuses is a miss; a detector that
				 * refuses every frame for two seconds is broken. */
				if (++errors > 16) {
					if (myRun === run && !closed) fail(T.readFailed.replace('{error}', e.name || e.message));
					return;
				}
			}
			if (myRun !== run || closed) return;
			take(found);
			if (closed) return;
		}
		timer = setTimeout(() => scan(myRun), Math.max(10, FRAME_MS - (performance.now() - t0)));
	}

	async function start(deviceId) {
		stopCamera();
		const myRun = run;
		retry.hidden = true;
		delete dlg.dataset.state;
		say(T.starting);
		previous = new Set();
		errors = 0;
		if (!window.isSecureContext) return fail(T.insecure);
		if (!cameraAvailable()) return fail(T.unsupported);
		const video0 = deviceId ? { deviceId: { exact: deviceId } }
		    : { facingMode: { ideal: 'environment' } };	/* the rear camera of a phone or tablet */
		video0.width = { ideal: 1280 };
		video0.height = { ideal: 720 };
		/* Camera and decoder start together; the library loads meanwhile. */
		const dec = decoder ? Promise.resolve(decoder) : makeDecoder(formats);
		let s;
		try {
			s = await navigator.mediaDevices.getUserMedia({ video: video0, audio: false });
		} catch (e) {
			if (myRun === run && !closed) fail(explain(e, T));
			return;
		}
		if (myRun !== run || closed) { for (const t of s.getTracks()) t.stop(); return; }
		stream = s;
		video.srcObject = s;
		const track = s.getVideoTracks()[0];
		const settings = track.getSettings ? track.getSettings() : {};
		video.classList.toggle('cam-mirror', settings.facingMode === 'user');
		try { await video.play(); } catch (e) { /* autoplay of a muted video is allowed; frames come anyway */ }
		try {
			decoder = await dec;
		} catch (e) {
			if (myRun === run && !closed) fail(T.noDecoder);
			return;
		}
		if (myRun !== run || closed) return;
		dlg.dataset.decoder = decoder.kind;
		dlg.dataset.state = 'scanning';
		say(T.aim);
		const caps = track.getCapabilities ? track.getCapabilities() : {};
		torch.hidden = !caps.torch;
		torch.setAttribute('aria-pressed', 'false');
		/* Device labels and the full list come only once permission is given. */
		navigator.mediaDevices.enumerateDevices().then((all) => {
			if (myRun === run && !closed)
				swap.hidden = all.filter((d) => d.kind === 'videoinput').length < 2;
		}, () => {});
		scan(myRun);
	}

	torch.addEventListener('click', async () => {
		const track = stream && stream.getVideoTracks()[0];
		if (!track) return;
		const on = torch.getAttribute('aria-pressed') !== 'true';
		try {
			await track.applyConstraints({ advanced: [{ torch: on }] });
			torch.setAttribute('aria-pressed', String(on));
		} catch (e) { torch.hidden = true; }
	});
	swap.addEventListener('click', async () => {
		const track = stream && stream.getVideoTracks()[0];
		const now = track && track.getSettings().deviceId;
		const cams = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput');
		const next = cams[(cams.findIndex((d) => d.deviceId === now) + 1) % cams.length];
		if (next && !closed) start(next.deviceId);
	});
	retry.addEventListener('click', () => start());
	cancel.addEventListener('click', () => finish(failed ? 'error' : 'cancel'));
	/* Escape: 'cancel' first; 'close' as well, for a browser that closes a
	 * dialog without asking (a second Escape with no user activation). */
	dlg.addEventListener('cancel', (e) => { e.preventDefault(); finish(failed ? 'error' : 'cancel'); });
	dlg.addEventListener('close', () => finish(failed ? 'error' : 'cancel'));
	window.addEventListener('pagehide', onPageHide);

	const controller = { close: () => finish('closed') };
	current = controller;
	addCss().then(() => {
		if (closed) return;
		document.body.appendChild(dlg);
		dlg.showModal();
		cancel.focus();
		start();
	});
	return controller;
}
