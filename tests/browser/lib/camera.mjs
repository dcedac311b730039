/* tests/browser/lib/camera.mjs: the camera tests' common parts. The
 * wrapper (tests/camera_page.sh) serves a copy of htdocs/ with a harness
 * page of its own (harness.html + harness.js, under the till's CSP) and
 * films a real card: CARD_QR, CARD_BARCODE, CARD_TITLE, CARD_CUSTOMER
 * and the fake cameras' videos Y4M_QR, Y4M_BARCODE, Y4M_CARD. */
import { openBrowser, URL0, env as E, demo } from './browser.mjs';

export const PAGE = URL0 + 'harness.html';
export const AIM = "Point the camera at the card's QR code or barcode";
/* How long a read of the fake camera may take at most: decoding a QR
 * code in JavaScript frame by frame is slow on a busy machine, and a
 * bound met at once costs nothing. */
export const LONG = 60000;
/* Chromium's flags for a fake camera playing file f, the permission
 * granted without asking. */
export const camOf = (f) => ['--use-fake-ui-for-media-stream', '--use-file-for-fake-video-capture=' + f];
export const CAM_HELPERS = `
const T = window.camTest;
const dlg = () => $('dialog.cam-dialog');
const last = () => T.dialogs[T.dialogs.length - 1];
const ended = () => T.streams.length > 0 && T.streams.every((s) => s.getTracks().every((k) => k.readyState === 'ended'));
const tillEnded = () => window.tillCam && tillCam.streams.length > 0 && tillCam.streams.every((s) => s.getTracks().every((k) => k.readyState === 'ended'));
const open = () => { $('#scan').focus(); $('#scan').click(); return true; };
const focused = () => document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : 'none';
`;
/* A browser with a fake camera (args: camOf(video), or other flags);
 * cam.test is 127.0.0.1 by another name, not a secure context. */
export function cameraBrowser(args) {
	return openBrowser({ helpers: CAM_HELPERS, width: 1280, height: 800,
		args: ['--use-fake-device-for-media-stream', '--host-resolver-rules=MAP cam.test 127.0.0.1', ...args] });
}
/* The harness, loaded (query: ?bd=all, ?torch=1 ...). */
export async function load(tab, query) {
	await tab.goto(PAGE + (query || ''));
	await tab.waitFor(`document.readyState === 'complete' && window.camTest && camTest.ready`);
}
export const logOf = (tab) => tab.ev(`T.log`);
export function same(got, want) {
	if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error('got ' + JSON.stringify(got) + '\nwant ' + JSON.stringify(want));
	return true;
}

/* ---- the till (index.html) ----
 * Each browser starts with no session: the cashier logs in. The camera
 * streams the page opens are kept in window.tillCam by a script run
 * before the page's own. */
const TILL_HOOK = `(() => {
	window.tillCam = { streams: [] };
	const md = navigator.mediaDevices;
	if (!md || !md.getUserMedia) return;
	const real = md.getUserMedia.bind(md);
	md.getUserMedia = async (c) => { const s = await real(c); window.tillCam.streams.push(s); return s; };
})();`;
export async function tillLogin(tab) {
	await tab.page.addInitScript(TILL_HOOK);
	await tab.goto(URL0 + 'index.html');
	await tab.waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
	await tab.ev(`fill('#login-email', ${JSON.stringify(demo.staff.email)}) && fill('#login-password', ${JSON.stringify(demo.staff.password)}) && click('#login-submit')`);
	await tab.waitFor(`vis('#pos-view') && !vis('#login-view') && vis('#lookup-code')`);
}
/* A mouse click in the middle of the element, as a person's (it
 * focuses a button, which el.click() does not). */
export async function mouseClick(tab, sel) {
	const r = await tab.ev(`(() => { const e = $(${JSON.stringify(sel)}); e.scrollIntoView({ block: 'center' }); const b = e.getBoundingClientRect(); return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()`);
	await tab.page.mouse.click(r.x, r.y);
}
/* The camera reads the card: looked up and shown, the code in the card
 * field, focus in the amount, the dialog gone, the camera off. */
export async function tillScan(tab, code) {
	await tab.waitFor(`vis('#camera-button')`);
	await mouseClick(tab, '#camera-button');
	await tab.waitFor(`vis('#card-panel') && text('#card-customer') !== ''`, LONG);
	await tab.waitFor(`document.activeElement === $('#purchase-amount')`, 5000).catch(() => {});
	const r = await tab.ev(`({ title: text('#card-title'), customer: text('#card-customer'), code: $('#lookup-code').value,
		status: text('#card-status'), error: vis('#lookup-error') ? text('#lookup-error') : '', purchase: vis('#purchase-panel') })`);
	same(r, { title: E.CARD_TITLE, customer: E.CARD_CUSTOMER, code, status: 'Active', error: '', purchase: true });
	await tab.waitFor(`tillEnded() && !dlg()`, 5000);
	const f = await tab.ev(`({ focus: document.activeElement && document.activeElement.id, streams: tillCam.streams.length })`);
	return same(f, { focus: 'purchase-amount', streams: 1 });
}
