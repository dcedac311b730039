#!/usr/bin/env bash
# tests/camera_page.sh: camera scanning (htdocs/js/camera.js) in headless
# Chromium with a fake camera that films a real card. TAP output.
#
# A card is issued on a `loyalty-admin demo` database (lt_start of
# tests/lib.sh); its QR code and its barcode, as the back office serves
# them (GET /api/v1/admin/cards/ID/qr.svg and barcode.svg), and the whole
# printed card (card issue --svg) are drawn to PNG by rsvg-convert and
# turned into YUV4MPEG2 files by a small Python script (standard library
# only) below. Chromium plays such a file as its camera:
#   --use-fake-device-for-media-stream --use-file-for-fake-video-capture=F
# (--use-fake-ui-for-media-stream grants the permission without asking).
#
# The module is tested alone first: lighttpd serves a copy of htdocs/ in
# the test's folder with a small page of the test's own, harness.html +
# harness.js, under the till's CSP. The harness records
# what the module reports and the camera streams it opened, can make
# getUserMedia fail with a given error, and can put in a stub
# BarcodeDetector (Chromium on Linux has none, so the real decoding here
# is the ZXing library's; the stub proves the choice between the two and
# the two-reads rule).
#
# Then the till itself (index.html, from the same copy), as the demo's
# cashier: the "Scan with camera" button is offered (127.0.0.1 is a secure
# context) and opens the camera dialog (screenshot at 390x844, with
# Chromium's moving test pattern, which holds no code, as the camera); with
# the card's QR code, then its barcode, as the camera the card is read,
# looked up (it is a card of the demo's shop, the cashier's) and shown,
# the focus is in the purchase amount, and the camera is off. A script
# run before the page's own (Page.addScriptToEvaluateOnNewDocument) keeps
# the camera streams the page opens, to see them stopped.
#
# The whole test is skipped when Chromium, Node, rsvg-convert or python3
# cannot be had (as root they are installed with apt-get unless
# POS_TEST_INSTALL=0).
#
# Environment:
#   CAMERA_SHOT_DIR  where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   CHROMIUM, LT_KEEP=1   as for tests/pos_page.sh
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

browser_need
if { ! command -v rsvg-convert || ! command -v python3; } >/dev/null 2>&1 &&
    [ "${POS_TEST_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ]; then
	lc_want_packages test
fi
command -v rsvg-convert >/dev/null 2>&1 || skip_all "rsvg-convert is not installed (apt-get install librsvg2-bin)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
browser_backend
lt_start
browser_shots "${CAMERA_SHOT_DIR:-${POS_SHOT_DIR:-}}" camera-page-shots

# --- a real card, filmed -------------------------------------------------------

lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD" || bail "owner login failed: $LT_BODY"
lt_req GET /api/v1/admin/programs
pid=$(lt_jq '[.data.programs[] | select(.type == "punch")][0].id')
ptitle=$(lt_jq '[.data.programs[] | select(.type == "punch")][0].title')
[ -n "$pid" ] && [ "$pid" != null ] || bail "no punch program in: $LT_BODY"
card=$("$LT_ADMIN" --db "$LT_DB" card issue --program "$pid" --customer "Camera Test" \
    --svg "$LT_DIR/card.svg") || bail "card issue failed"
card_id=$(printf '%s' "$card" | jq -r .card_instance_id)
card_qr=$(printf '%s' "$card" | jq -r .qr_code_data)
card_barcode=$(printf '%s' "$card" | jq -r .barcode_value)
[[ $card_barcode =~ ^[0-9]{13}$ ]] && [ -n "$card_qr" ] || bail "card issue printed: $card"
for what in qr barcode; do
	lt_req GET "/api/v1/admin/cards/$card_id/$what.svg"
	[ "$LT_STATUS" = 200 ] || bail "GET $what.svg: $LT_STATUS $LT_BODY"
	cp "$LT_DIR/resp.body" "$LT_DIR/$what.svg"
done

# PNG (8 bits a sample, not interlaced) to YUV4MPEG2: the picture, grey,
# centred on a darker 1280x720 frame (a desk; the camera's usual size,
# which the module scales down to 640 px); luma in the video range,
# chroma 128. Two frames, which Chromium plays in a loop.
cat >"$LT_DIR/png2y4m.py" <<'EOF'
import struct, sys, zlib

def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(path + ': not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
    if depth != 8 or interlace or ctype not in (0, 2, 4, 6):
        sys.exit(path + ': unsupported PNG (depth %d, colour type %d)' % (depth, ctype))
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw, stride = zlib.decompress(idat), w * ch
    prev, rows, i = bytearray(stride), [], 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    grey = bytearray(w * h)
    for y, line in enumerate(rows):
        for x in range(w):
            px = line[x * ch:(x + 1) * ch]
            g = px[0] if ch < 3 else (299 * px[0] + 587 * px[1] + 114 * px[2]) // 1000
            if ch in (2, 4):    # over white paper
                g = (g * px[-1] + 255 * (255 - px[-1])) // 255
            grey[y * w + x] = g
    return w, h, grey

png, out = sys.argv[1], sys.argv[2]
W, H = 1280, 720
w, h, grey = read_png(png)
if w > W or h > H:
    sys.exit(png + ': larger than the frame')
frame = bytearray([80]) * (W * H)
x0, y0 = (W - w) // 2, (H - h) // 2
for y in range(h):
    frame[(y0 + y) * W + x0:(y0 + y) * W + x0 + w] = grey[y * w:(y + 1) * w]
luma = bytes(16 + v * 219 // 255 for v in frame)
chroma = bytes([128]) * ((W // 2) * (H // 2))
with open(out, 'wb') as f:
    f.write(b'YUV4MPEG2 W%d H%d F10:1 Ip A1:1 C420\n' % (W, H))
    for _ in range(2):
        f.write(b'FRAME\n' + luma + chroma + chroma)
EOF
# Sizes as a card held some 15 cm from a tablet's camera would give. The
# QR code at a whole number of pixels a module (about 460 wide): drawn
# with crisp edges at 12.4 pixels a module, modules come out 12 or 13
# pixels wide, a pattern no camera makes, and ZXing 0.23 misses some
# codes so drawn (the random card made the test fail now and then).
mods=$(sed -n 's/.*viewBox="0 0 \([0-9][0-9]*\) .*/\1/p' "$LT_DIR/qr.svg" | head -n 1)
[ -n "$mods" ] && [ "$mods" -gt 0 ] || bail "qr.svg has no viewBox of whole modules"
rsvg-convert -w $((mods * ((460 + mods / 2) / mods))) -o "$LT_DIR/qr.png" "$LT_DIR/qr.svg" &&
    rsvg-convert -w 700 -o "$LT_DIR/barcode.png" "$LT_DIR/barcode.svg" &&
    rsvg-convert -w 1000 -o "$LT_DIR/card.png" "$LT_DIR/card.svg" ||
    bail "rsvg-convert failed"
for what in qr barcode card; do
	python3 "$LT_DIR/png2y4m.py" "$LT_DIR/$what.png" "$LT_DIR/$what.y4m" ||
	    bail "png2y4m.py $what failed"
done

# --- the harness, beside a copy of htdocs/ --------------------------------------

docroot=$LT_DIR/docroot
cp -R "$top_srcdir/htdocs" "$docroot" || bail "cannot copy htdocs"
csp=$(grep -o 'http-equiv="Content-Security-Policy" content="[^"]*"' "$top_srcdir/htdocs/index.html")
[ -n "$csp" ] || bail "no CSP in htdocs/index.html"
# The harness's own lines fold: a code wider than a phone is the
# harness's, not the dialog's, and must not scroll the page sideways.
printf '#avail, #out { overflow-wrap: anywhere; }\n' >"$docroot/harness.css"
cat >"$docroot/harness.html" <<EOF
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta $csp>
<title>Camera harness</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="pos.css">
<link rel="stylesheet" href="harness.css">
<script type="module" src="harness.js"></script>
</head>
<body>
<main id="main" class="panel">
<h1>Camera scan test</h1>
<p><button type="button" id="scan" class="btn btn-primary">Scan with camera</button>
<input id="code" aria-label="Card code"></p>
<p id="avail"></p>
<p id="out" role="status"></p>
</main>
</body>
</html>
EOF
cat >"$docroot/harness.js" <<'EOF'
import { cameraAvailable, openCameraScan } from './js/camera.js';

/* The test's window into the page (the module itself keeps no globals). */
const q = new URLSearchParams(location.search);
const t = { log: [], streams: [], constraints: [], dialogs: [], calls: [], seq: [], torch: [], fail: null, formats: undefined, ctl: null };
window.camTest = t;
t.available = cameraAvailable();
t.nativeDetector = 'BarcodeDetector' in window;
const focused = () => (document.activeElement && document.activeElement.id) || '';

const md = navigator.mediaDevices;
if (md && md.getUserMedia) {
	const real = md.getUserMedia.bind(md);
	md.getUserMedia = async (c) => {
		t.constraints.push(JSON.parse(JSON.stringify(c)));
		if (t.fail) throw new DOMException('made to fail by the test', t.fail);
		const s = await real(c);
		t.streams.push(s);
		return s;
	};
}
/* ?bd=all: a BarcodeDetector that reads both formats and answers what the
 * test queues in t.seq; ?bd=qr: one that reads QR codes only. */
if (q.get('bd')) {
	window.BarcodeDetector = class {
		static async getSupportedFormats() { return q.get('bd') === 'all' ? ['ean_13', 'qr_code', 'code_128'] : ['qr_code']; }
		constructor(o) { t.bdFormats = o && o.formats; }
		async detect(img) {
			t.calls.push({ at: performance.now(), w: img.width, h: img.height });
			if (t.broken) throw new DOMException('made to fail by the test', 'InvalidStateError');
			return (t.seq.shift() || []).map(([rawValue, format]) => ({ rawValue, format, boundingBox: {}, cornerPoints: [] }));
		}
	};
}
/* ?torch=1: every camera has a torch, switched in t.torch. */
if (q.get('torch')) {
	const gc = MediaStreamTrack.prototype.getCapabilities;
	MediaStreamTrack.prototype.getCapabilities = function () { return Object.assign({}, gc.call(this), { torch: true }); };
	const ac = MediaStreamTrack.prototype.applyConstraints;
	MediaStreamTrack.prototype.applyConstraints = function (c) {
		if (c && c.advanced && c.advanced[0] && 'torch' in c.advanced[0]) { t.torch.push(c.advanced[0].torch); return Promise.resolve(); }
		return ac.call(this, c);
	};
}
new MutationObserver((ms) => {
	for (const m of ms) for (const n of m.addedNodes) if (n.nodeName === 'DIALOG') t.dialogs.push(n);
}).observe(document.body, { childList: true });

document.getElementById('avail').textContent = 'cameraAvailable(): ' + t.available;
document.getElementById('scan').addEventListener('click', () => {
	t.ctl = openCameraScan({
		formats: t.formats,
		onCode(text, format) {
			t.log.push({ ev: 'code', text, format, focus: focused(), open: !!document.querySelector('dialog[open]') });
			document.getElementById('out').textContent = format + ': ' + text;
		},
		onClose(reason) { t.log.push({ ev: 'close', reason, focus: focused() }); },
	});
});
t.ready = true;
EOF

# lighttpd again, same port, serving the copy.
lc_server_stop
# shellcheck disable=SC2034 # read by lc_server_start (tools/lib.sh)
LC_DOCROOT=$docroot
lc_server_start 2>>"$LT_DIR/start.log" || bail "lighttpd did not start again"

# --- the browser -----------------------------------------------------------------

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
const B = require(process.env.BROWSER_JS);
const { ok, step, ev, waitFor, S, shot, note, sleep, viewport } = B;
const E = process.env;
const URL0 = B.config.url, PAGE = URL0 + 'harness.html';
const ORIGIN = URL0.replace(/\/$/, '');

B.init({ helpers: `
const T = window.camTest;
const dlg = () => $('dialog.cam-dialog');
const last = () => T.dialogs[T.dialogs.length - 1];
const ended = () => T.streams.length > 0 && T.streams.every((s) => s.getTracks().every((k) => k.readyState === 'ended'));
const tillEnded = () => window.tillCam && tillCam.streams.length > 0 && tillCam.streams.every((s) => s.getTracks().every((k) => k.readyState === 'ended'));
const open = () => { $('#scan').focus(); $('#scan').click(); return true; };
` });

/* Chromium anew with these flags (a fake camera is a start-up flag). */
let cur = null;
async function browser(args) {
	if (cur) {
		await B.send('Browser.close').catch(() => {});
		const gone = await Promise.race([cur.exited.then(() => true), sleep(10000).then(() => false)]);
		if (!gone) { cur.kill('SIGKILL'); await cur.exited; }
	}
	cur = B.launch(['--use-fake-device-for-media-stream', '--host-resolver-rules=MAP cam.test 127.0.0.1'].concat(args));
	await B.openPage();
}
async function load(query) {
	await S('Page.navigate', { url: PAGE + (query || '') });
	await waitFor(`document.readyState === 'complete' && window.camTest && camTest.ready`);
}
async function key(k, code, vk) {
	await S('Input.dispatchKeyEvent', { type: 'keyDown', key: k, code, windowsVirtualKeyCode: vk });
	await S('Input.dispatchKeyEvent', { type: 'keyUp', key: k, code, windowsVirtualKeyCode: vk });
}
const logOf = () => ev(`T.log`);
function same(got, want) { if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error('got ' + JSON.stringify(got) + '\nwant ' + JSON.stringify(want)); return true; }
const AIM = "Point the camera at the card's QR code or barcode";
/* How long a read of the fake camera may take at most: decoding a QR
 * code in JavaScript frame by frame is slow on a busy machine (the suite
 * runs tests side by side), and a bound met at once costs nothing. */
const LONG = 60000;
const camOf = (f) => ['--use-fake-ui-for-media-stream', '--use-file-for-fake-video-capture=' + f];

B.run(async () => {
	await browser(camOf(E.Y4M_QR));

	await step('the harness loads under the till CSP; cameraAvailable() on 127.0.0.1', async () => {
		await load();
		note('BarcodeDetector in this Chromium: ' + await ev(`T.nativeDetector`));
		return ev(`T.available === true`);
	});

	await step('open: a labelled modal dialog, focus inside, "Starting camera…" then the aim hint', async () => {
		await ev(`open()`);
		await waitFor(`dlg() && dlg().open`);
		const d = await ev(`({ modal: dlg().matches(':modal'), title: $('#' + dlg().getAttribute('aria-labelledby')).textContent,
			focus: dlg().contains(document.activeElement), status: $('.cam-status').textContent,
			v: ['playsinline', 'muted', 'autoplay'].every((a) => $('.cam-dialog video').hasAttribute(a)) && $('.cam-dialog video').muted })`);
		if (!d.modal || d.title !== 'Scan a card' || !d.focus || !d.v) throw new Error(JSON.stringify(d));
		if (d.status !== 'Starting camera…' && d.status !== AIM) throw new Error('status ' + d.status);
		return true;
	});

	await step('the QR code is reported exactly (the card\'s qr_code_data), once, then the dialog closes', async () => {
		await waitFor(`T.log.length >= 2`, LONG);
		await sleep(500);
		return same(await logOf(), [{ ev: 'code', text: E.CARD_QR, format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
	});

	await step('...read by the ZXing library (no BarcodeDetector here), loaded on first use, leaving no global', async () => {
		const r = await ev(`({ kind: last().dataset.decoder, lib: performance.getEntriesByType('resource').filter((e) => e.name.includes('/vendor/zxing-library')).length,
			global: 'ZXing' in window, css: $$('link[rel=stylesheet]').filter((l) => l.href.endsWith('/js/camera.css')).length })`);
		return same(r, { kind: 'zxing', lib: 1, global: false, css: 1 });
	});

	await step('...from the rear camera (facingMode environment asked for)', async () => {
		const c = await ev(`T.constraints[0].video`);
		if (!c.facingMode || c.facingMode.ideal !== 'environment') throw new Error(JSON.stringify(c));
		return true;
	});

	await step('after the read every camera track is stopped and the dialog is gone', async () => {
		await waitFor(`ended()`);
		return ev(`last().querySelector('video').srcObject === null && !dlg() && !last().isConnected`);
	});

	await step('formats: a QR code is never reported when only EAN-13 is asked for', async () => {
		await ev(`(T.formats = ['ean_13'], T.log.length = 0, open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`, 10000);
		await sleep(2500);
		return ev(`T.log.length === 0 && dlg().open && T.streams[T.streams.length - 1].getVideoTracks()[0].readyState === 'live'`);
	});

	await step('screenshots of the scanning dialog at 1280x800 and 390x844', async () => {
		await viewport(1280, 800);
		await sleep(400);
		const a = await shot('camera-scanning-1280');
		await viewport(390, 844);
		// The new layout, not a fixed pause: a loaded machine lays out late.
		const fits = `(() => { const r = dlg().getBoundingClientRect(); return innerWidth === 390 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight && document.documentElement.scrollWidth <= innerWidth; })()`;
		let fit = true;
		try { await waitFor(fits, 5000); } catch (e) { fit = false; note(e.message); }
		const b = await shot('camera-scanning-390');
		note('screenshots: ' + a + ' ' + b);
		await viewport(1280, 800);
		if (!fit) throw new Error('the dialog does not fit a 390x844 screen');
		return true;
	});

	await step('Escape closes it, stops the camera and gives the focus back to the opener', async () => {
		await ev(`$('.cam-cancel').focus()`);
		await key('Escape', 'Escape', 27);
		await waitFor(`T.log.length === 1`);
		same(await logOf(), [{ ev: 'close', reason: 'cancel', focus: 'scan' }]);
		await waitFor(`ended()`);
		return ev(`!dlg() && document.activeElement === $('#scan')`);
	});

	await step('the Cancel button closes it; close() of the controller too', async () => {
		await ev(`(T.log.length = 0, open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
		await ev(`click('.cam-cancel')`);
		await waitFor(`T.log.length === 1`);
		await ev(`(T.log.length = 0, open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
		await ev(`(T.ctl.close(), true)`);
		await waitFor(`T.log.length === 1`);
		same(await logOf(), [{ ev: 'close', reason: 'closed', focus: 'scan' }]);
		return waitFor(`ended() && !dlg()`);
	});

	await step('no camera (NotFoundError): said so, no Try again', async () => {
		await ev(`(T.log.length = 0, T.fail = 'NotFoundError', open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'error'`);
		const s = await ev(`text('.cam-status')`);
		if (!/No camera was found/.test(s)) throw new Error(s);
		return ev(`!vis('.cam-retry') && !vis('.cam-dialog video') && document.activeElement === $('.cam-cancel')`);
	});

	await step('camera in use (NotReadableError): said so; Try again starts it once free', async () => {
		await ev(`(click('.cam-cancel'), T.log.length = 0, T.fail = 'NotReadableError', open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'error'`);
		const s = await ev(`text('.cam-status')`);
		if (!/another app or tab may be using it/.test(s)) throw new Error(s);
		if (!await ev(`vis('.cam-retry') && document.activeElement === $('.cam-retry')`)) throw new Error('no Try again');
		await ev(`(T.fail = null, click('.cam-retry'))`);
		await waitFor(`dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`);
		await ev(`click('.cam-cancel')`);
		same(await logOf(), [{ ev: 'close', reason: 'cancel', focus: 'scan' }]);
		return waitFor(`ended()`);
	});

	await step('a torch button when the camera has one; it switches the torch', async () => {
		await load('?torch=1');
		await ev(`(T.formats = ['ean_13'], open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'scanning' && vis('.cam-torch')`);
		await ev(`click('.cam-torch')`);
		await waitFor(`$('.cam-torch').getAttribute('aria-pressed') === 'true'`);
		await ev(`click('.cam-torch')`);
		await waitFor(`$('.cam-torch').getAttribute('aria-pressed') === 'false'`);
		same(await ev(`T.torch`), [true, false]);
		await ev(`click('.cam-cancel')`);
		return waitFor(`ended()`);
	});

	await step('no torch button when the camera has none, no switch with one camera', async () => {
		await load();
		await ev(`(T.formats = ['ean_13'], open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'scanning'`);
		await sleep(300);
		const r = await ev(`!vis('.cam-torch') && !vis('.cam-switch')`);
		await ev(`click('.cam-cancel')`);
		return r;
	});

	await step('BarcodeDetector with both formats is used instead of the library (stub)', async () => {
		await load('?bd=all');
		await ev(`(T.seq.push([['2420887973927', 'ean_13']], [['2420887973927', 'ean_13']]), open())`);
		await waitFor(`T.log.length === 2`);
		same(await logOf(), [{ ev: 'code', text: '2420887973927', format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
		const r = await ev(`({ kind: last().dataset.decoder, formats: T.bdFormats, lib: performance.getEntriesByType('resource').filter((e) => e.name.includes('zxing')).length, w: T.calls[0].w, h: T.calls[0].h })`);
		return same(r, { kind: 'native', formats: ['qr_code', 'ean_13'], lib: 0, w: 640, h: 360 });
	});

	await step('a code counts only when read in two frames running (stub)', async () => {
		await ev(`(T.log.length = 0, T.calls.length = 0, T.seq.push([['AAA', 'qr_code']], [['BBB', 'qr_code']], [['AAA', 'qr_code']], [], [['AAA', 'qr_code']], [['BBB', 'qr_code'], ['AAA', 'qr_code']]), open())`);
		await waitFor(`T.log.length === 2`);
		same(await logOf(), [{ ev: 'code', text: 'AAA', format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
		return ev(`T.calls.length === 6`);
	});

	await step('an EAN-13 with a wrong check digit is never reported (stub)', async () => {
		await ev(`(T.log.length = 0, T.calls.length = 0, T.seq.push(...Array(5).fill([['2420887973928', 'ean_13']]), ...Array(4).fill([['24208879739', 'ean_13']]), [['2420887973927', 'ean_13']], [['2420887973927', 'ean_13']]), open())`);
		await waitFor(`T.log.length === 2`);
		same(await logOf(), [{ ev: 'code', text: '2420887973927', format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
		return ev(`T.calls.length === 11`);
	});

	await step('frames are read at a modest rate: 6 to 10 a second (stub)', async () => {
		await ev(`(T.log.length = 0, T.calls.length = 0, open())`);
		await waitFor(`T.calls.length >= 16`);
		await ev(`click('.cam-cancel')`);
		const r = await ev(`(T.calls[15].at - T.calls[0].at) / 15`);
		note('ms between frames: ' + r.toFixed(1));
		return r >= 100 && r <= 300;	/* at most 8 a second; slower only on a loaded machine */
	});

	await step('a detector failing on every frame: an error after some 2 s, not a hang (stub)', async () => {
		await ev(`(T.log.length = 0, T.calls.length = 0, T.broken = true, open())`);
		await waitFor(`dlg() && dlg().dataset.state === 'error'`, 8000);
		const s = await ev(`text('.cam-status')`);
		if (!/codes could not be read \(InvalidStateError\)/.test(s)) throw new Error(s);
		const n = await ev(`T.calls.length`);
		if (n !== 17) throw new Error(n + ' frames tried');
		await ev(`(T.broken = false, click('.cam-cancel'))`);
		same(await logOf(), [{ ev: 'close', reason: 'error', focus: 'scan' }]);
		return waitFor(`ended()`);
	});

	await step('a BarcodeDetector without EAN-13 is not used: the library reads the QR code', async () => {
		await load('?bd=qr');
		await ev(`open()`);
		await waitFor(`T.log.length >= 2`, LONG);
		same(await logOf(), [{ ev: 'code', text: E.CARD_QR, format: 'qr_code', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
		return ev(`last().dataset.decoder === 'zxing' && T.calls.length === 0`);
	});

	await step('on plain http (not localhost) the camera is not offered, and the dialog says why', async () => {
		await S('Page.navigate', { url: PAGE.replace('127.0.0.1', 'cam.test') });
		await waitFor(`document.readyState === 'complete' && window.camTest && camTest.ready`);
		if (await ev(`window.isSecureContext || T.available !== false`)) throw new Error('cam.test is a secure context');
		await ev(`open()`);
		await waitFor(`dlg() && dlg().dataset.state === 'error'`);
		const s = await ev(`text('.cam-status')`);
		if (!/only on a secure page/.test(s)) throw new Error(s);
		await viewport(390, 844);
		await sleep(300);
		note('screenshot: ' + await shot('camera-insecure-390'));
		await viewport(1280, 800);
		await ev(`click('.cam-cancel')`);
		return same(await logOf(), [{ ev: 'close', reason: 'error', focus: 'scan' }]);
	});

	/* The barcode, then the whole card, each a camera of its own. */
	await browser(camOf(E.Y4M_BARCODE));
	await step('the EAN-13 barcode is reported exactly (the card\'s barcode_value)', async () => {
		await load();
		await ev(`open()`);
		await waitFor(`T.log.length >= 2`, LONG);
		await sleep(500);
		same(await logOf(), [{ ev: 'code', text: E.CARD_BARCODE, format: 'ean_13', focus: 'scan', open: false }, { ev: 'close', reason: 'scanned', focus: 'scan' }]);
		return ev(`last().dataset.decoder === 'zxing' && ended()`);
	});

	await browser(camOf(E.Y4M_CARD));
	await step('the whole printed card: one of its two codes, exactly', async () => {
		await load();
		await ev(`open()`);
		await waitFor(`T.log.length >= 2`, LONG);
		const l = await logOf();
		note('the whole card read as ' + l[0].format);
		if (!(l[0].format === 'qr_code' && l[0].text === E.CARD_QR) && !(l[0].format === 'ean_13' && l[0].text === E.CARD_BARCODE)) throw new Error(JSON.stringify(l));
		return waitFor(`ended()`);
	});

	/* No fake UI: the permission is the test's to give or refuse. Two
	 * fake cameras (a moving test pattern) for the camera switch. */
	await browser(['--use-fake-device-for-media-stream=device-count=2']);
	await step('camera permission refused: the dialog says how to allow it', async () => {
		await S('Browser.setPermission', { permission: { name: 'camera' }, setting: 'denied', origin: ORIGIN });
		await load();
		await ev(`open()`);
		await waitFor(`dlg() && dlg().dataset.state === 'error'`);
		const s = await ev(`text('.cam-status')`);
		if (!/blocked for this page.*set Camera to Allow/.test(s)) throw new Error(s);
		await viewport(390, 844);
		await sleep(300);
		const a = await shot('camera-denied-390');
		await viewport(1280, 800);
		await sleep(300);
		const b = await shot('camera-denied-1280');
		note('screenshots: ' + a + ' ' + b);
		return ev(`vis('.cam-retry') && T.streams.length === 0`);
	});

	await step('permission given, Try again starts the camera; two cameras: a switch', async () => {
		await S('Browser.setPermission', { permission: { name: 'camera' }, setting: 'granted', origin: ORIGIN });
		await ev(`click('.cam-retry')`);
		await waitFor(`dlg().dataset.state === 'scanning' && vis('.cam-switch')`);
		const first = await ev(`T.streams[0].getVideoTracks()[0].getSettings().deviceId`);
		await ev(`click('.cam-switch')`);
		await waitFor(`T.streams.length === 2 && dlg().dataset.state === 'scanning'`);
		const r = await ev(`({ old: T.streams[0].getVideoTracks()[0].readyState, now: T.streams[1].getVideoTracks()[0].getSettings().deviceId, live: T.streams[1].getVideoTracks()[0].readyState })`);
		if (r.old !== 'ended' || r.live !== 'live' || r.now === first) throw new Error(JSON.stringify(r) + ' first ' + first);
		await viewport(390, 844);
		await sleep(400);
		note('screenshot: ' + await shot('camera-switch-390'));
		await viewport(1280, 800);
		await ev(`click('.cam-cancel')`);
		return waitFor(`ended()`);
	});

	/* ---- the till (index.html) ----
	 * Each browser starts with no session (tokens live in the tab's
	 * session storage): the cashier logs in. The camera streams the
	 * page opens are kept in window.tillCam by a script run before the
	 * page's own. */
	const TILL_HOOK = `(() => {
		window.tillCam = { streams: [] };
		const md = navigator.mediaDevices;
		if (!md || !md.getUserMedia) return;
		const real = md.getUserMedia.bind(md);
		md.getUserMedia = async (c) => { const s = await real(c); window.tillCam.streams.push(s); return s; };
	})();`;
	async function tillLogin() {
		await S('Page.addScriptToEvaluateOnNewDocument', { source: TILL_HOOK });
		await S('Page.navigate', { url: URL0 + 'index.html' });
		await waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
		await ev(`fill('#login-email', ${JSON.stringify(E.STAFF_EMAIL)}) && fill('#login-password', ${JSON.stringify(E.STAFF_PASSWORD)}) && click('#login-submit')`);
		await waitFor(`vis('#pos-view') && !vis('#login-view') && vis('#lookup-code')`);
	}
	/* A mouse click in the middle of the element, as a person's (it
	 * focuses a button, which el.click() does not). */
	async function mouseClick(sel) {
		const r = await ev(`(() => { const e = $(${JSON.stringify(sel)}); e.scrollIntoView({ block: 'center' }); const b = e.getBoundingClientRect(); return { x: b.left + b.width / 2, y: b.top + b.height / 2 }; })()`);
		for (const type of ['mousePressed', 'mouseReleased'])
			await S('Input.dispatchMouseEvent', { type, x: r.x, y: r.y, button: 'left', clickCount: 1 });
	}
	/* The camera reads the card: looked up and shown, the code in the
	 * card field, focus in the amount, the dialog gone, the camera off. */
	async function tillScan(code) {
		await waitFor(`vis('#camera-button')`);
		await mouseClick('#camera-button');
		await waitFor(`vis('#card-panel') && text('#card-customer') !== ''`, LONG);
		await waitFor(`document.activeElement === $('#purchase-amount')`, 5000).catch(() => {});
		const r = await ev(`({ title: text('#card-title'), customer: text('#card-customer'), code: $('#lookup-code').value,
			status: text('#card-status'), error: vis('#lookup-error') ? text('#lookup-error') : '', purchase: vis('#purchase-panel') })`);
		same(r, { title: E.CARD_TITLE, customer: E.CARD_CUSTOMER, code, status: 'Active', error: '', purchase: true });
		await waitFor(`tillEnded() && !dlg()`, 5000);
		const f = await ev(`({ focus: document.activeElement && document.activeElement.id, streams: tillCam.streams.length })`);
		return same(f, { focus: 'purchase-amount', streams: 1 });
	}

	await step('the till: the cashier logs in; "Scan with camera" is offered on 127.0.0.1 (a secure context), without the https hint', async () => {
		await tillLogin();
		await waitFor(`vis('#camera-button')`);
		return ev(`window.isSecureContext && text('#camera-button') === 'Scan with camera' && !vis('#camera-hint')`);
	});

	await step('the till: the button opens the camera dialog (modal, "Scan a card", focus inside, the camera on and live)', async () => {
		await viewport(390, 844);
		await mouseClick('#camera-button');
		await waitFor(`dlg() && dlg().open && dlg().dataset.state === 'scanning' && text('.cam-status') === ${JSON.stringify(AIM)}`, 10000);
		const d = await ev(`({ modal: dlg().matches(':modal'), title: $('#' + dlg().getAttribute('aria-labelledby')).textContent,
			focus: dlg().contains(document.activeElement), live: tillCam.streams.length === 1 && tillCam.streams[0].getVideoTracks()[0].readyState === 'live',
			playing: $('.cam-dialog video').readyState >= 2 })`);
		return same(d, { modal: true, title: 'Scan a card', focus: true, live: true, playing: true });
	});

	await step('the till\'s camera dialog at 390x844: a screenshot; the dialog fits the screen', async () => {
		await sleep(400);
		note('screenshot: ' + await shot('till-camera-390'));
		const fit = await ev(`(() => { const r = dlg().getBoundingClientRect(); return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight && document.documentElement.scrollWidth <= innerWidth; })()`);
		if (!fit) throw new Error('the dialog does not fit a 390x844 screen');
		return true;
	});

	await step('the till: Cancel closes the dialog, stops the camera, focus back on the button, no card looked up', async () => {
		await ev(`click('.cam-cancel')`);
		await waitFor(`!dlg() && tillEnded()`);
		await viewport(1280, 800);
		return ev(`document.activeElement === $('#camera-button') && !vis('#card-panel') && $('#lookup-code').value === ''`);
	});

	await browser(camOf(E.Y4M_QR));
	await step('the till: the camera reads the card\'s QR code; the card is looked up and shown, focus in the purchase amount, the camera off', async () => {
		await tillLogin();
		return tillScan(E.CARD_QR);
	});

	await step('...a screenshot of the till after the scan at 390x844', async () => {
		await viewport(390, 844);
		await sleep(300);
		note('screenshot: ' + await shot('till-scanned-390'));
		await viewport(1280, 800);
		return true;
	});

	await browser(camOf(E.Y4M_BARCODE));
	await step('the till: the camera reads the card\'s barcode; the card is looked up and shown, focus in the purchase amount, the camera off', async () => {
		await tillLogin();
		return tillScan(E.CARD_BARCODE);
	});

	ok(B.problems.length === 0, 'no script errors, console errors or CSP violations', B.problems.join('\n'));
}, { timeout: 600000, timed: true });
EOF

# shellcheck disable=SC2154 # shots: set by browser_shots (tests/browser.sh)
diag "harness on $LT_URL/harness.html, screenshots in $shots"
browser_drive CARD_QR="$card_qr" CARD_BARCODE="$card_barcode" \
    CARD_TITLE="$ptitle" CARD_CUSTOMER="Camera Test" \
    STAFF_EMAIL="$DEMO_STAFF_EMAIL" STAFF_PASSWORD="$DEMO_STAFF_PASSWORD" \
    Y4M_QR="$LT_DIR/qr.y4m" Y4M_BARCODE="$LT_DIR/barcode.y4m" Y4M_CARD="$LT_DIR/card.y4m"
