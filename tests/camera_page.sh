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
# run before the page's own (playwright's addInitScript) keeps
# the camera streams the page opens, to see them stopped.
#
# The checks are the files of tests/browser/camera/ (one behaviour a
# file, each a browser of its own with its fake camera; see
# tests/browser/README.md). The whole test is skipped when Chromium,
# Node, playwright-core, rsvg-convert or python3 cannot be had (as root they are installed with apt-get unless
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

browser_need_playwright
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
# The tests of tests/browser/camera/, one file at a time, each a browser
# with its fake camera (see tests/browser/lib/camera.mjs).

browser_tests "$top_srcdir/tests/browser/camera" \
    CARD_QR="$card_qr" CARD_BARCODE="$card_barcode" \
    CARD_TITLE="$ptitle" CARD_CUSTOMER="Camera Test" \
    Y4M_QR="$LT_DIR/qr.y4m" Y4M_BARCODE="$LT_DIR/barcode.y4m" Y4M_CARD="$LT_DIR/card.y4m"
rc=$?
# shellcheck disable=SC2154 # shots: set by browser_shots (tests/browser.sh)
diag "harness on $LT_URL/harness.html, screenshots in $shots"
lt_stop
exit "$rc"
