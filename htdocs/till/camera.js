/* The camera button: js/camera.js, loaded on the first scan. */
import { startLookup } from './card.js';
import { t } from '../js/i18n.js';
import { $, h, show } from './dom.js';
import { setMsg } from './ui.js';

let camera = null;
export async function openCamera() {
	const opener = $('camera-button');
	try {
		const m = await import('../js/camera.js');
		camera = m.openCameraScan({
			onCode: (text) => { camera = null; startLookup(text); },
			onClose: () => { camera = null; if (document.activeElement === document.body) opener.focus(); }
		});
	} catch (e) {
		setMsg('lookup-error', h('span', null, t('till.camera.load_failed', { error: e && e.message ? e.message : String(e) })));
	}
}

/* The same test as js/camera.js's cameraAvailable, without loading it:
 * the module comes on the first scan (and a till started offline still
 * shows the button). */
export function setupCamera() {
	const ok = !!(window.isSecureContext && navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === 'function');
	show('camera-button', ok);
	show('camera-hint', !ok && !window.isSecureContext);
}
