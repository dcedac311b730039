#!/usr/bin/env bash
# tests/pos_page.sh: the POS page (htdocs/index.html, pos.js, pos.css)
# driven in headless Chromium against a real backend: lighttpd with the
# built responders and a fresh `loyalty-admin demo` database, started by
# lt_start of tests/lib.sh. TAP output.
#
# Chromium is driven over the DevTools protocol through
# --remote-debugging-pipe by a small Node.js script written below (no
# WebSocket, no npm package, nothing downloaded). The whole test is
# skipped (1..0 # SKIP) when Chromium or Node cannot be had; as root,
# missing ones are installed with apt-get (group "browser" of
# tools/lib.sh) unless POS_TEST_INSTALL=0.
#
# The offline start (htdocs/sw.js) is tested with the server really gone:
# the driver asks this script to stop lighttpd and to start it again on
# the same port (lc_server_stop / lc_server_start of tools/lib.sh), so the
# page keeps its origin, its service worker and its storage; Chromium is
# also restarted once on the same profile.
#
# Environment:
#   top_srcdir, top_builddir   as for every test (set by `make check`;
#                    by hand: the repository and its build/, which is
#                    built first when needed)
#   POS_SHOT_DIR     where the screenshots go (default: a new folder in
#                    /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's log)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

# --- Chromium and Node -------------------------------------------------------

find_chromium() {
	local c
	for c in ${CHROMIUM:-} chromium chromium-browser google-chrome; do
		command -v "$c" 2>/dev/null && return 0
	done
	return 1
}
chrome=$(find_chromium)
if { [ -z "$chrome" ] || ! command -v node >/dev/null 2>&1; } &&
    [ "${POS_TEST_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ]; then
	diag "installing Chromium and Node with apt-get"
	lc_want_packages browser
	chrome=$(find_chromium)
fi
[ -n "$chrome" ] || skip_all "chromium is not installed (apt-get install chromium)"
command -v node >/dev/null 2>&1 || skip_all "node is not installed (apt-get install nodejs)"

# --- backend -------------------------------------------------------------------

if [ ! -x "$LT_ADMIN" ] && [ ! -e "$top_srcdir/config.status" ]; then
	(lc_need_packages build run && lc_build "$top_builddir") >&2 ||
	    bail "could not build the backend in $top_builddir"
fi
lt_start
admin=$LT_ADMIN
[ -n "${DEMO_PUNCH_BARCODE:-}" ] && [ -n "${DEMO_CASHBACK_BARCODE:-}" ] &&
    [ -n "${DEMO_DISCOUNT_BARCODE:-}" ] && [ -n "${DEMO_CASHBACK_QR:-}" ] &&
    [ -n "${DEMO_CASHBACK_CARD:-}" ] ||
    bail "the output of loyalty-admin demo was not understood"

shots=${POS_SHOT_DIR:-}
if [ -z "$shots" ]; then
	shots=$(mktemp -d "${TMPDIR:-/tmp}/pos-page-shots.XXXXXX") || bail "mktemp failed"
fi
mkdir -p "$shots" || bail "cannot create $shots"

# --- the browser script ------------------------------------------------------

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
/* A minimal DevTools protocol client over --remote-debugging-pipe:
 * messages are JSON texts ended by a NUL byte, written to the browser's
 * fd 3 and read from its fd 4. */
const { spawn } = require('child_process');
const fs = require('fs');
const http = require('http');
const path = require('path');

const E = process.env;
const URL0 = E.POS_URL, SHOTS = E.POS_SHOTS, RUN = E.POS_RUN;

let seq = 0, inbuf = '', chrome = null;
const waiting = new Map(), handlers = [];
/* Starts Chromium; launched again on the same profile, it is a browser
 * restart (the service worker, its caches and localStorage are kept). */
function launch() {
	const c = spawn(E.POS_CHROME, [
		'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		'--no-first-run', '--no-default-browser-check',
		'--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--disable-extensions', '--disable-dev-shm-usage',
		'--mute-audio', '--hide-scrollbars', '--lang=en-US',
		'--user-data-dir=' + path.join(RUN, 'chrome-profile'),
		'--remote-debugging-pipe', 'about:blank'
	], { stdio: ['ignore', 'ignore', fs.openSync(path.join(RUN, 'chrome.log'), 'a'), 'pipe', 'pipe'] });
	chrome = c;
	inbuf = '';
	c.exited = new Promise((resolve) => c.on('exit', resolve));
	c.stdio[4].setEncoding('utf8');
	c.stdio[4].on('data', (chunk) => {
		if (c !== chrome) return;
		inbuf += chunk;
		let i;
		while ((i = inbuf.indexOf('\0')) >= 0) {
			const msg = JSON.parse(inbuf.slice(0, i));
			inbuf = inbuf.slice(i + 1);
			if (msg.id && waiting.has(msg.id)) {
				const w = waiting.get(msg.id);
				waiting.delete(msg.id);
				if (msg.error) w.reject(new Error(w.method + ': ' + msg.error.message));
				else w.resolve(msg.result);
			} else if (msg.method) {
				for (const f of handlers) f(msg);
			}
		}
	});
	c.on('exit', (code) => {
		for (const w of waiting.values()) w.reject(new Error('chromium exited (' + code + ')'));
		waiting.clear();
	});
}
launch();
function send(method, params, sessionId) {
	const msg = { id: ++seq, method, params: params || {} };
	if (sessionId) msg.sessionId = sessionId;
	chrome.stdio[3].write(JSON.stringify(msg) + '\0');
	return new Promise((resolve, reject) => waiting.set(msg.id, { resolve, reject, method }));
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* ---- TAP ---- */
let n = 0, failed = 0;
function ok(cond, name, diag) {
	n++;
	if (!cond) failed++;
	console.log((cond ? 'ok ' : 'not ok ') + n + ' - ' + name);
	if (!cond && diag) console.log(String(diag).split('\n').map((l) => '#   ' + l).join('\n'));
}

let S;           /* send to the page's session */
const problems = [];  /* console errors, exceptions, CSP reports */

/* Helpers available to every expression evaluated in the page. */
const H = `
const $ = (s) => document.querySelector(s);
const $$ = (s) => Array.from(document.querySelectorAll(s));
const vis = (s) => { const e = $(s); return !!e && e.getClientRects().length > 0; };
const text = (s) => { const e = $(s); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : ''; };
const fill = (s, v) => { const e = $(s); e.focus(); e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); return true; };
const click = (s) => { const e = $(s); if (!e) throw new Error('no ' + s); e.click(); return true; };
const submit = (s) => { $('#result').textContent = ''; return click(s); };
const queue = () => JSON.parse(localStorage.getItem('pos.queue.v1') || '[]');
const review = () => JSON.parse(localStorage.getItem('pos.review.v1') || '[]');
`;
async function ev(expr) {
	const r = await S('Runtime.evaluate', { expression: '(async () => {' + H + '\nreturn (' + expr + ');})()', awaitPromise: true, returnByValue: true });
	if (r.exceptionDetails) throw new Error((r.exceptionDetails.exception && r.exceptionDetails.exception.description) || r.exceptionDetails.text);
	return r.result.value;
}
async function waitFor(expr, ms) {
	const end = Date.now() + (ms || 10000);
	let last;
	while (Date.now() < end) {
		try { last = await ev(expr); if (last) return last; } catch (e) { last = e.message; }
		await sleep(80);
	}
	throw new Error('timed out waiting for ' + expr + (last !== undefined ? ' (last: ' + JSON.stringify(last) + ')' : ''));
}
/* One step: a test that fails (with the reason) instead of crashing. */
async function step(name, fn) {
	try {
		const r = await fn();
		ok(r !== false, name);
	} catch (e) {
		const seen = await ev(`text('body')`).catch(() => '?');
		ok(false, name, (e && e.stack ? e.stack : e) + '\npage text: ' + seen.slice(0, 1500));
	}
}
async function shot(name) {
	const r = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
	const f = path.join(SHOTS, name + '.png');
	fs.writeFileSync(f, Buffer.from(r.data, 'base64'));
	return f;
}
async function viewport(width, height) {
	await S('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
}
async function typeText(s) { await S('Input.insertText', { text: s }); }
/* Keys as a keyboard-wedge scanner sends them. */
async function typeKeys(s) {
	for (const ch of s) {
		const k = { key: ch, code: 'Digit' + ch, windowsVirtualKeyCode: ch.charCodeAt(0) };
		await S('Input.dispatchKeyEvent', Object.assign({ type: 'keyDown', text: ch }, k));
		await S('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp' }, k));
	}
}
async function pressEnter() {
	await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
	await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
}
async function lookupCard(code) {
	await ev(`(fill('#lookup-code', ''), $('#lookup-code').focus(), true)`);
	await typeText(code);
	await pressEnter();
}
const resultText = () => ev(`text('#result')`);
/* The history's total, once it has finished loading. */
async function historyTotal() {
	const m = await waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-page').match(/(\\d+) transactions?/)`);
	return parseInt(m[1], 10);
}
let intercept = null; /* one-shot Fetch interception */

/* The server is stopped and started again by the shell running this
 * script (same port, same folders, same database): a line "#@server stop
 * N" or "#@server start N" on stdout asks for it, and the shell writes "N
 * ok" (or "N failed") to server-ack when it is done. */
let ctlSeq = 0;
async function server(cmd) {
	const id = ++ctlSeq, ack = path.join(RUN, 'server-ack');
	console.log('#@server ' + cmd + ' ' + id);
	const end = Date.now() + 20000;
	while (Date.now() < end) {
		let t = '';
		try { t = fs.readFileSync(ack, 'utf8').trim(); } catch (e) { /* not yet */ }
		if (t === id + ' ok') return;
		if (t === id + ' failed') throw new Error('the shell could not ' + cmd + ' the server');
		await sleep(50);
	}
	throw new Error('the shell did not ' + cmd + ' the server');
}
/* Resolves to the error code when nothing answers at the page's address. */
function serverDown() {
	return new Promise((resolve) => {
		const r = http.get(URL0, { timeout: 3000 }, (res) => { res.resume(); resolve(null); });
		r.on('timeout', () => r.destroy(new Error('timeout')));
		r.on('error', (e) => resolve(e.code || e.message));
	});
}

/* What the page got from the network: API answers must never come from
 * the service worker or a cache; shell files may. */
const apiFromCache = [];
let apiSeen = 0, shellFromWorker = 0;
let pageSession = null;

/* A new tab, attached, with the domains the test listens to. */
async function openPage() {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	pageSession = sessionId;
	S = (m, p) => send(m, p, sessionId);
	await S('Page.enable');
	await S('Runtime.enable');
	await S('Log.enable');
	await S('Network.enable');
	await viewport(1280, 900);
}

/* Closes Chromium as a person would and starts it again on its profile. */
async function restartBrowser() {
	const old = chrome;
	await send('Browser.close').catch(() => { /* it may exit before answering */ });
	const gone = await Promise.race([old.exited.then(() => true), sleep(10000).then(() => false)]);
	if (!gone) { old.kill('SIGKILL'); await old.exited; }
	launch();
	await openPage();
}

async function main() {
	handlers.push((m) => {
		if (m.sessionId !== pageSession) return;
		if (m.method === 'Network.responseReceived') {
			const u = m.params.response.url, r = m.params.response;
			if (u.startsWith(URL0 + 'api/')) {
				apiSeen++;
				if (r.fromServiceWorker || r.fromDiskCache || r.fromPrefetchCache || r.fromEarlyHints)
					apiFromCache.push(u + (r.fromServiceWorker ? ' (service worker)' : ' (cache)'));
			} else if (r.fromServiceWorker && ['', 'index.html', 'pos.js', 'pos.css'].some((f) => u === URL0 + f)) {
				shellFromWorker++;
			}
		} else if (m.method === 'Runtime.exceptionThrown')
			problems.push('exception: ' + (m.params.exceptionDetails.exception ? m.params.exceptionDetails.exception.description : m.params.exceptionDetails.text));
		else if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'warning'))
			problems.push('console.' + m.params.type + ': ' + m.params.args.map((a) => a.value || a.description).join(' '));
		else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error' && m.params.entry.source !== 'network')
			problems.push('log(' + m.params.entry.source + '): ' + m.params.entry.text);
		else if (m.method === 'Fetch.requestPaused' && intercept) {
			const f = intercept;
			intercept = null;
			f(m.params).catch((e) => problems.push('intercept: ' + e.message));
		}
	});
	await openPage();

	/* Fails the next request to URL part `part` once: `how(params)`. */
	async function once(part, stage, how) {
		await S('Fetch.enable', { patterns: [{ urlPattern: '*' + part + '*', requestStage: stage }] });
		intercept = async (p) => { await how(p); await S('Fetch.disable'); };
	}

	await step('the page loads and shows the login form', async () => {
		await S('Page.navigate', { url: URL0 });
		await waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
		const t = await ev(`document.title`);
		if (t !== 'Loyalty POS') throw new Error('title ' + t);
		return ev(`document.activeElement === $('#login-email')`);
	});

	await step('a wrong password shows INVALID_CREDENTIALS', async () => {
		await ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'wrong-password') && click('#login-submit')`);
		await waitFor(`vis('#login-error') && text('#login-error').includes('INVALID_CREDENTIALS')`);
		await shot('pos-login-error');
		return ev(`!sessionStorage.getItem('pos.access_token')`);
	});

	await step('staff login shows the cashier and the active location', async () => {
		await ev(`fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
		await waitFor(`vis('#pos-view') && !vis('#login-view')`);
		const who = await ev(`text('#session-bar')`);
		if (!who.includes('staff@demo.example') || !who.includes('Main Street')) throw new Error('session bar: ' + who);
		return ev(`!!sessionStorage.getItem('pos.access_token') && !!sessionStorage.getItem('pos.refresh_token') && document.activeElement === $('#lookup-code')`);
	});

	await step('scanning the punch card barcode shows the card', async () => {
		await lookupCard(E.PUNCH_BARCODE);
		await waitFor(`vis('#card-panel') && text('#card-title') === 'Coffee Card'`);
		const t = await ev(`text('#card-panel')`);
		for (const w of ['Demo Customer', 'Demo Coffee', 'Punch card', 'Active', '0 / 10', 'Rewards waiting'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
		return ev(`$$('#punch-dots .pdot').length === 10 && vis('#punch-field') && !vis('#redeem-panel') && !vis('#claim-panel') && document.activeElement === $('#purchase-amount')`);
	});

	await step('an amount with 3 decimals is refused in the page', async () => {
		await ev(`fill('#purchase-amount', '4.505') && submit('#purchase-submit')`);
		await waitFor(`vis('#purchase-amount-error')`);
		return ev(`$('#purchase-amount').getAttribute('aria-invalid') === 'true' && !vis('#result-panel')`);
	});

	await step('recording a purchase with 10 punches earns the reward', async () => {
		await ev(`fill('#purchase-amount', '4.50') && fill('#punch-count', '10') && fill('#purchase-notes', 'page test') && submit('#purchase-submit')`);
		await waitFor(`vis('#result-panel') && text('#result').length > 0`);
		const t = await resultText();
		for (const w of ['Reward earned!', 'Free coffee', 'Any hot drink', '+10 punches', 'card now at 0'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
		await waitFor(`vis('#claim-panel') && text('#card-balance').includes('Rewards waiting1')`);
		return ev(`$('#purchase-amount').value === '' && $('#punch-count').value === '1'`);
	});
	const shot1 = await shot('pos-reward').catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(shot1), 'screenshot of the reward written to ' + shot1);

	await step('the history lists the purchase', async () => {
		if (await historyTotal() !== 1) throw new Error('history: ' + await ev(`text('#history-panel')`));
		const row = await ev(`text('#history-body tr')`);
		if (!['Punch', '4.50', '+10 punches', 'page test', 'Main Street', 'Sam Staff'].every((w) => row.includes(w))) throw new Error(row);
	});

	await step('claiming the reward', async () => {
		await ev(`submit('#claim-button')`);
		await waitFor(`text('#result').includes('Reward claimed')`);
		const t = await resultText();
		if (!t.includes('Free coffee') || !t.includes('3.50') || !t.includes('0 rewards still waiting')) throw new Error(t);
		await waitFor(`!vis('#claim-panel')`);
		return (await historyTotal()) === 2;
	});

	await step('a second punch within the cooldown shows COOLDOWN_ACTIVE and the wait', async () => {
		await ev(`fill('#purchase-amount', '2') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('COOLDOWN_ACTIVE')`);
		const t = await resultText();
		if (!/Next punch possible in (60|59|58) seconds/.test(t)) throw new Error(t);
		await shot('pos-cooldown');
		return ev(`queue().length === 0`);
	});

	await step('the history type filter', async () => {
		await ev(`($('#history-type').value = 'reward_claim', $('#history-type').dispatchEvent(new Event('change')), true)`);
		await waitFor(`text('#history-body').includes('Reward claim') && !text('#history-body').includes('4.50')`);
		if (await historyTotal() !== 1) throw new Error(await ev(`text('#history-panel')`));
		await ev(`($('#history-type').value = '', $('#history-type').dispatchEvent(new Event('change')), true)`);
		return (await historyTotal()) === 2;
	});

	await step('a reload keeps the session (tokens in sessionStorage)', async () => {
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#who-email') === 'staff@demo.example'`);
		return ev(`!vis('#card-panel') && !vis('#login-view')`);
	});

	await step('an expired access token is refreshed once and the call retried', async () => {
		const before = await ev(`sessionStorage.getItem('pos.refresh_token')`);
		await ev(`(sessionStorage.setItem('pos.access_token', 'not-a-valid-token'), true)`);
		await lookupCard(E.CASH_QR);	/* a QR payload this time */
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		return ev(`sessionStorage.getItem('pos.access_token') !== 'not-a-valid-token' && sessionStorage.getItem('pos.refresh_token') !== ${JSON.stringify(before)} && vis('#pos-view')`);
	});

	await step('cashback card: balance, rate and tier', async () => {
		const t = await ev(`text('#card-panel')`);
		if (!['Cashback balance', '0.00', '2%', 'Bronze', 'Lifetime cashback'].every((w) => t.includes(w))) throw new Error(t);
		return ev(`vis('#redeem-panel') && !vis('#punch-field') && !vis('#claim-panel')`);
	});

	await step('cashback purchase shows the cashback earned', async () => {
		await ev(`fill('#purchase-amount', '20') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned')`);
		const t = await resultText();
		if (!t.includes('Cashback earned: 0.40') || !t.includes('New balance 0.40')) throw new Error(t);
		return waitFor(`text('#card-balance').includes('Cashback balance0.40')`);
	});

	await step('redeeming cashback with earn on remainder', async () => {
		await ev(`fill('#redeem-purchase', '10.00') && click('#redeem-max')`);
		if (await ev(`$('#redeem-amount').value`) !== '0.40') throw new Error('max gave ' + await ev(`$('#redeem-amount').value`));
		await ev(`submit('#redeem-submit')`);
		await waitFor(`text('#result').includes('Cashback used')`);
		const t = await resultText();
		for (const w of ['Charge the customer', '9.60', 'Cashback used 0.40', 'Cashback used from 1 earning', 'Also earned 0.19'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
		return ev(`$$('#result table.mini tbody tr').length === 1`);
	});

	await step('redeeming more than the balance is refused in the page', async () => {
		await waitFor(`text('#card-balance').includes('Cashback balance0.19')`);
		await ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '5') && submit('#redeem-submit')`);
		return waitFor(`vis('#redeem-amount-error') && text('#redeem-amount-error').includes('0.19')`);
	});

	await step('discount card: purchase shows the amount to charge', async () => {
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount'`);
		const c = await ev(`text('#card-panel')`);
		if (!['5%', 'Member', 'VIP at 250.00 spent', 'Lifetime spend'].every((w) => c.includes(w))) throw new Error(c);
		await ev(`fill('#purchase-amount', '20.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Charge the customer')`);
		const t = await resultText();
		if (!/Charge the customer\s*19\.00/.test(t) || !t.includes('discount 5% (1.00)')) throw new Error(t);
	});

	/* The server records the purchase but the answer is lost: the page
	 * queues it, and pressing Record again reuses the idempotency key. */
	let lostKey;
	await step('a lost answer queues the purchase with its key and time', async () => {
		await historyTotal();
		await once('transactions/record', 'Response', (p) => S('Fetch.failRequest', { requestId: p.requestId, errorReason: 'ConnectionReset' }));
		await ev(`fill('#purchase-amount', '12.34') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue')`);
		const q = await ev(`queue()`);
		if (q.length !== 1) throw new Error(JSON.stringify(q));
		const it = q[0].item;
		lostKey = it.idempotency_key;
		if (it.purchase_amount !== 12.34 || !it.card_instance_id || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(it.client_timestamp) ||
		    !/^[0-9a-f-]{36}$/.test(lostKey) || !it.location_id || !it.staff_user_id) throw new Error(JSON.stringify(it));
		return ev(`text('#queue-count') === '1' && $('#purchase-amount').value === '12.34'`);
	});

	await step('retrying the same purchase reuses the key: recorded once', async () => {
		await ev(`submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Already recorded earlier')`);
		const t = await resultText();
		if (!t.includes('11.72')) throw new Error(t);
		if (await ev(`queue().length`) !== 0) throw new Error('queue not emptied');
		return (await historyTotal()) === 2;
	});

	await step('DATABASE_ERROR queues the purchase; Sync now sends it', async () => {
		await once('transactions/record', 'Request', (p) => S('Fetch.fulfillRequest', {
			requestId: p.requestId, responseCode: 503,
			responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, { name: 'Retry-After', value: '1' }],
			body: Buffer.from(JSON.stringify({ success: false, error: { code: 'DATABASE_ERROR', message: 'The database is busy.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
		}));
		await ev(`fill('#purchase-amount', '7.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue') && text('#result').includes('DATABASE_ERROR')`);
		if (await ev(`queue().length`) !== 1) throw new Error('not queued');
		await ev(`click('#sync-button')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`);
		return (await historyTotal()) === 3;
	});

	await step('a scan while no field has focus goes into the card field', async () => {
		await ev(`(document.activeElement && document.activeElement.blur(), true)`);
		await typeKeys(E.CASH_BARCODE);
		await pressEnter();
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		return ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)}`);
	});

	await step('offline: an unknown card is queued, and refused by sync goes to review', async () => {
		await S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await lookupCard('999999999');
		await waitFor(`vis('#card-offline') && vis('#purchase-panel')`);
		await ev(`fill('#purchase-amount', '5.55') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue')`);
		const q = await ev(`queue()`);
		if (q.length !== 1 || q[0].item.barcode_value !== '999999999' || q[0].item.punch_count !== 1) throw new Error(JSON.stringify(q));
		if (!(await ev(`text('#net-status')`)).includes('Offline')) throw new Error('no offline indicator');
		await S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await waitFor(`queue().length === 0 && review().length === 1`, 15000);
		const r = await ev(`text('#review-list')`);
		if (!r.includes('CARD_NOT_FOUND') || !r.includes('5.55')) throw new Error(r);
		return true;
	});
	const shot2 = await shot('pos-review').catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(shot2), 'screenshot of the review list written to ' + shot2);

	await step('dismissing a review item', async () => {
		await ev(`click('#review-list button:last-child')`);
		return waitFor(`review().length === 0 && !vis('#review-box')`);
	});

	/* ---- the till with the server down: the service worker (sw.js) ---- */

	const SHELL = ['index.html', 'pos.css', 'pos.js'].map((f) => URL0 + f);
	/* Every cache of the origin: {name: [request URLs]}. */
	const cacheDump = () => ev(`(async () => { const out = {}; for (const n of await caches.keys())
		out[n] = (await (await caches.open(n)).keys()).map((r) => r.url).sort(); return out; })()`);

	await step('a service worker of relative scope controls the page and cached the app shell', async () => {
		await waitFor(`navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'`);
		const g = await ev(`navigator.serviceWorker.getRegistration().then((g) => ({ scope: g.scope, script: g.active.scriptURL }))`);
		if (g.scope !== URL0 || g.script !== URL0 + 'sw.js') throw new Error(JSON.stringify(g));
		const c = await cacheDump(), names = Object.keys(c);
		if (names.length !== 1 || !/^loyalty-pos-shell .* v\d+$/.test(names[0]) || c[names[0]].join() !== SHELL.join())
			throw new Error(JSON.stringify(c));
	});

	await step('with the server stopped, a reload still shows the till (from the service worker)', async () => {
		await server('stop');
		const down = await serverDown();
		if (!down) throw new Error('the server still answers');
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#who-email') === 'staff@demo.example'`);
		/* auth/me failed: the page knows it is offline; pos.css applied. */
		await waitFor(`text('#net-status') === 'Offline'`);
		return ev(`getComputedStyle($('.topbar')).backgroundColor === 'rgb(22, 33, 46)' && !!navigator.serviceWorker.controller &&
		    performance.getEntriesByType('navigation')[0].workerStart > 0`);
	});

	await step('offline: a purchase is queued (queue count 1) and stays queued over a reload', async () => {
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`vis('#card-offline') && vis('#purchase-panel') && text('#card-status') === 'Offline'`);
		await ev(`fill('#purchase-amount', '8.80') && fill('#purchase-notes', 'queued offline') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue')`);
		if (await ev(`text('#queue-count')`) !== '1' || await ev(`queue().length`) !== 1) throw new Error('queue: ' + await ev(`text('#queue-panel')`));
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#net-status') === 'Offline'`);
		return ev(`text('#queue-count') === '1' && text('#queue-summary').includes('1 purchase waiting') && !$('#sync-button').disabled`);
	});
	const shot3 = await shot('pos-offline-reload').catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(shot3), 'screenshot of the till reloaded offline written to ' + shot3);

	await step('the server back, Sync now records the queued purchase', async () => {
		await server('start');
		await ev(`click('#sync-button')`);
		await waitFor(`queue().length === 0 && text('#queue-count') === '0' && text('#queue-summary').includes('1 purchase sent')`, 15000);
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount' && text('#net-status') === 'Online'`);
		await historyTotal();
		const row = await ev(`text('#history-body tr')`);
		if (!row.includes('8.80') || !row.includes('queued offline')) throw new Error(row);
	});

	await step('API answers never came from the service worker or a cache, and no cache holds one', async () => {
		const c = await cacheDump(), urls = [].concat(...Object.values(c));
		if (Object.keys(c).length !== 1 || urls.join() !== SHELL.join() || urls.some((u) => u.includes('/api/')))
			throw new Error('caches: ' + JSON.stringify(c));
		if (apiFromCache.length) throw new Error('from a cache: ' + apiFromCache.join(', '));
		/* The check saw traffic both ways: API calls, and shell files
		 * answered by the worker. */
		console.log('# ' + apiSeen + ' API answers checked, ' + shellFromWorker + ' shell files answered by the service worker');
		if (apiSeen < 20 || shellFromWorker < 3) throw new Error('too little traffic seen');
	});

	await step('after a browser restart with the server stopped, the page opens with its queue', async () => {
		await server('stop');
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`vis('#card-offline') && vis('#purchase-panel')`);
		await ev(`fill('#purchase-amount', '6.60') && fill('#purchase-notes', 'before restart') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue') && text('#queue-count') === '1'`);
		await restartBrowser();
		await S('Page.navigate', { url: URL0 });
		await waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
		await waitFor(`text('#login-queue').includes('1 purchase is waiting')`);
		if (await ev(`queue().length`) !== 1) throw new Error('queue lost');
		/* Logging in needs the server: the form says why it failed. */
		await ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
		await waitFor(`vis('#login-error') && text('#login-error').includes('No connection')`);
		return ev(`getComputedStyle($('.topbar')).backgroundColor === 'rgb(22, 33, 46)' && !!navigator.serviceWorker.controller`);
	});
	const shot4 = await shot('pos-offline-restart').catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(shot4), 'screenshot of the login after an offline restart written to ' + shot4);

	await step('the server back, logging in sends the purchase queued before the restart', async () => {
		await server('start');
		await ev(`click('#login-submit')`);
		await waitFor(`vis('#pos-view')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount'`);
		await historyTotal();
		const row = await ev(`text('#history-body tr')`);
		if (!row.includes('6.60') || !row.includes('before restart')) throw new Error(row);
	});

	await step('narrow screen layout', async () => {
		await lookupCard(E.PUNCH_BARCODE);
		await waitFor(`text('#card-title') === 'Coffee Card'`);
		await viewport(480, 900);
		await historyTotal();
		await shot('pos-narrow');
		const w = await ev(`document.documentElement.scrollWidth`);
		await viewport(1280, 900);
		if (w > 480) throw new Error('the page scrolls sideways: ' + w + 'px wide');
	});

	await step('a refused refresh goes back to the login form', async () => {
		await ev(`(sessionStorage.setItem('pos.access_token', 'bad'), sessionStorage.setItem('pos.refresh_token', 'bad'), true)`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`vis('#login-form') && !vis('#pos-view')`);
		return ev(`text('#login-notice').includes('session has ended') && !sessionStorage.getItem('pos.access_token')`);
	});

	await step('an owner picks the location; the purchase is recorded there', async () => {
		await ev(`fill('#login-email', 'owner@demo.example') && fill('#login-password', 'demo-owner-pass') && click('#login-submit')`);
		await waitFor(`vis('#pos-view') && vis('#where-pick')`);
		const opts = await ev(`$$('#location-select option').map((o) => o.textContent)`);
		if (opts.join() !== 'Main Street,Harbour Kiosk') throw new Error('locations: ' + opts);
		await ev(`($('#location-select').value = $$('#location-select option')[1].value, $('#location-select').dispatchEvent(new Event('change')), true)`);
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount'`);
		await historyTotal();
		await ev(`fill('#purchase-amount', '3') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Charge the customer')`);
		await waitFor(`text('#history-body tr').includes('3.00')`);
		const row = await ev(`text('#history-body tr')`);
		if (!row.includes('Harbour Kiosk') || !row.includes('Olivia Owner')) throw new Error(row);
		return true;
	});

	await step('an inactive card is shown as such and takes no purchase', async () => {
		require('child_process').execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'card', 'deactivate', E.CASH_ID], { stdio: 'ignore' });
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		if (!await ev(`vis('#card-inactive') && text('#card-status') === 'Inactive' && $('#card-panel').classList.contains('is-inactive')`))
			throw new Error(await ev(`text('#card-panel')`));
		await shot('pos-inactive');
		return ev(`!vis('#purchase-panel') && !vis('#redeem-panel') && vis('#history-panel')`);
	});

	await step('log out clears the tokens', async () => {
		await ev(`click('#logout-button')`);
		await waitFor(`vis('#login-form')`);
		return ev(`!sessionStorage.getItem('pos.access_token') && !sessionStorage.getItem('pos.refresh_token') && !sessionStorage.getItem('pos.user')`);
	});

	ok(problems.length === 0, 'no script errors, console errors or CSP violations', problems.join('\n'));
}

const timer = setTimeout(() => { ok(false, 'the run finished in time'); finish(); }, 180000);
function finish() {
	clearTimeout(timer);
	console.log('1..' + n);
	try { chrome.kill('SIGTERM'); } catch (e) { /* gone */ }
	setTimeout(() => process.exit(failed ? 1 : 0), 300);
}
main().catch((e) => ok(false, 'the driver ran', e && e.stack)).then(finish);
EOF

# The driver's output is TAP, passed on line by line, except its requests
# to stop or start the server ("#@server stop|start N"), carried out here
# with lc_server_stop / lc_server_start of tools/lib.sh on the same port,
# folders and database (LC_* as lt_start left them), so the page's origin
# stays the same. lastpipe: the loop runs in this shell, which so keeps
# the new lighttpd's pid for lt_stop.
server_ctl() {	# stop|start N
	local r=ok
	case $1 in
	stop) lc_server_stop ;;
	start) lc_server_start 2>>"$LT_DIR/start.log" || r=failed ;;
	esac
	printf '%s %s\n' "$2" "$r" >"$LT_DIR/server-ack.new" &&
	    mv "$LT_DIR/server-ack.new" "$LT_DIR/server-ack"
}
shopt -s lastpipe
diag "backend on $LT_URL/, screenshots in $shots"
POS_URL="$LT_URL/" POS_SHOTS="$shots" POS_RUN="$LT_DIR" POS_CHROME="$chrome" \
    PUNCH_BARCODE="$DEMO_PUNCH_BARCODE" CASH_BARCODE="$DEMO_CASHBACK_BARCODE" \
    DISC_BARCODE="$DEMO_DISCOUNT_BARCODE" CASH_QR="$DEMO_CASHBACK_QR" \
    CASH_ID="$DEMO_CASHBACK_CARD" POS_ADMIN="$admin" POS_DB="$LT_DB" \
    node "$LT_DIR/drive.js" |
while IFS= read -r line; do
	case $line in
	'#@server '*)
		read -r _ ctl_cmd ctl_id <<<"$line"
		server_ctl "$ctl_cmd" "$ctl_id" </dev/null ;;
	*) printf '%s\n' "$line" ;;
	esac
done
rc=${PIPESTATUS[0]}
# lt_stop (the EXIT trap) keeps the server's folder when a test failed.
[ "$rc" -eq 0 ] || tap_failed=1
exit "$rc"
