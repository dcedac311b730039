'use strict';
/* tests/browser.js: the Chromium driver of the page tests (pos_page.sh,
 * owner_page.sh), a CommonJS module for plain Node 20. It speaks the
 * DevTools protocol over --remote-debugging-pipe: JSON texts ended by a
 * NUL byte, written to the browser's fd 3 and read from its fd 4 (no
 * WebSocket, no npm package, nothing downloaded), and prints TAP.
 *
 * A test writes its page steps into $LT_DIR/drive.js and runs it with
 * browser_drive of tests/browser.sh, which sets:
 *   BROWSER_JS      this file, for require()
 *   BROWSER_CHROME  the browser binary
 *   BROWSER_RUN     a folder for Chromium's profile and log (LT_DIR)
 *   BROWSER_SHOTS   where shot() writes its PNGs
 *   BROWSER_URL     the server's address, ending with a slash
 * and carries out server('stop'|'start') (the "#@server" lines).
 *
 *   const B = require(process.env.BROWSER_JS);
 *   const { ok, step, ev, waitFor, S } = B;
 *   B.run(async () => {
 *           B.launch();
 *           await B.openPage();
 *           await step('the page loads', async () => { ... });
 *   }, { timeout: 180000 });
 */
const { spawn } = require('child_process');
const fs = require('fs');
const http = require('http');
const path = require('path');

const E = process.env;
/* init() may change any of these before launch(). */
const config = {
	chrome: E.BROWSER_CHROME, run: E.BROWSER_RUN, shots: E.BROWSER_SHOTS, url: E.BROWSER_URL,
	helpers: '',	/* more page helpers for ev(), as JS declarations */
	domains: []	/* more domains openPage() enables, e.g. 'Accessibility' */
};
function init(opts) { Object.assign(config, opts || {}); return config; }

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/* ---- the browser and the pipe ---- */

let seq = 0, inbuf = '', chrome = null, chromeArgs = [];
const waiting = new Map(), handlers = [];
/* Starts Chromium; launched again on the same profile, it is a browser
 * restart (the service worker, its caches and localStorage are kept).
 * extraArgs are kept for restartBrowser(). */
function launch(extraArgs) {
	if (extraArgs !== undefined) chromeArgs = extraArgs.slice();
	const c = spawn(config.chrome, [
		'--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
		'--no-first-run', '--no-default-browser-check',
		'--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--disable-extensions', '--disable-dev-shm-usage',
		'--mute-audio', '--hide-scrollbars', '--lang=en-US',
		'--user-data-dir=' + path.join(config.run, 'chrome-profile'),
		...chromeArgs,
		'--remote-debugging-pipe', 'about:blank'
	], { stdio: ['ignore', 'ignore', fs.openSync(path.join(config.run, 'chrome.log'), 'a'), 'pipe', 'pipe'] });
	chrome = c;
	inbuf = '';
	c.exited = new Promise((resolve) => c.on('exit', resolve));
	c.stdio[4].setEncoding('utf8');
	c.stdio[4].on('data', (chunk) => {
		if (c !== chrome) return;	/* the browser before a restart */
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
	const gone = (why) => {
		for (const w of waiting.values()) w.reject(new Error('chromium ' + why));
		waiting.clear();
	};
	c.on('exit', (code) => gone('exited (' + code + ')'));
	/* A binary that does not start, or a pipe written after it died. */
	c.on('error', (e) => gone('failed: ' + e.message));
	c.stdio[3].on('error', (e) => gone('pipe: ' + e.message));
	return c;
}
function send(method, params, sessionId) {
	const msg = { id: ++seq, method, params: params || {} };
	if (sessionId) msg.sessionId = sessionId;
	chrome.stdio[3].write(JSON.stringify(msg) + '\0');
	return new Promise((resolve, reject) => waiting.set(msg.id, { resolve, reject, method }));
}
/* Every event: f(msg) with msg.method, msg.params, msg.sessionId. */
function on(f) { handlers.push(f); }

/* ---- TAP ---- */

let n = 0, failed = 0;
function ok(cond, name, diag) {
	n++;
	if (!cond) failed++;
	console.log((cond ? 'ok ' : 'not ok ') + n + ' - ' + name);
	if (!cond && diag) console.log(String(diag).split('\n').map((l) => '#   ' + l).join('\n'));
}
const note = (t) => console.log('# ' + t);

/* Runs main, then prints the plan and ends the process with its status;
 * a run longer than opts.timeout ms fails. opts.timed: a "ran in" note. */
function run(main, opts) {
	const o = Object.assign({ timeout: 180000, timed: false }, opts);
	const t0 = Date.now();
	const timer = setTimeout(() => { ok(false, 'the run finished in time'); finish(); }, o.timeout);
	function finish() {
		clearTimeout(timer);
		if (o.timed) note('ran in ' + ((Date.now() - t0) / 1000).toFixed(1) + ' s');
		console.log('1..' + n);
		try { chrome.kill('SIGTERM'); } catch (e) { /* gone */ }
		setTimeout(() => process.exit(failed ? 1 : 0), 300);
	}
	main().catch((e) => ok(false, 'the driver ran', e && e.stack)).then(finish);
}

/* ---- the page ---- */

let pageSession = null;
/* Sends to the page's session (the current one, also after a restart). */
const S = (m, p) => send(m, p, pageSession);
const session = () => pageSession;
const problems = [];	/* console errors, exceptions, CSP reports */

/* A new tab, attached, with the domains the tests listen to. */
async function openPage() {
	const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
	const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
	pageSession = sessionId;
	await S('Page.enable');
	await S('Runtime.enable');
	await S('Log.enable');
	await S('Network.enable');
	for (const d of config.domains) await S(d + '.enable');
	await viewport(1280, 900);
	/* Interceptions set before a restart hold in the new tab too. */
	fetchOn = false;
	if (rules.length) await applyRules();
	return targetId;
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

/* Helpers available to every expression evaluated in the page. */
const H = `
const $ = (s) => document.querySelector(s);
const $$ = (s) => Array.from(document.querySelectorAll(s));
const vis = (s) => { const e = $(s); return !!e && e.getClientRects().length > 0; };
const text = (s) => { const e = $(s); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : ''; };
const fill = (s, v) => { const e = $(s); if (!e) throw new Error('no ' + s); e.focus(); e.value = v; e.dispatchEvent(new Event('input', { bubbles: true })); return true; };
const pick = (s, v) => { const e = $(s); if (!e) throw new Error('no ' + s); e.value = v; e.dispatchEvent(new Event('change', { bubbles: true })); return e.value === v; };
const pickText = (s, t) => { const e = $(s); const o = Array.from(e.options).find((x) => x.textContent.includes(t)); if (!o) throw new Error('no option ' + t + ' in ' + s); return pick(s, o.value); };
const click = (s) => { const e = typeof s === 'string' ? $(s) : s; if (!e) throw new Error('no ' + s); e.click(); return true; };
`;
/* The value of expr in the page (awaited); gesture: as if from a click,
 * which downloads and popups need. */
async function ev(expr, gesture) {
	const r = await S('Runtime.evaluate', { expression: '(async () => {' + H + config.helpers + '\nreturn (' + expr + ');})()', awaitPromise: true, returnByValue: true, userGesture: !!gesture });
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
/* One step: a test that fails (with the reason) instead of crashing;
 * fn returning false fails it too. */
async function step(name, fn) {
	try {
		const r = await fn();
		ok(r !== false, name);
	} catch (e) {
		const seen = await ev(`text('body')`).catch(() => '?');
		ok(false, name, (e && e.stack ? e.stack : e) + '\npage text: ' + String(seen).slice(0, 1500));
	}
}
async function shot(name) {
	const r = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
	const f = path.join(config.shots, name + '.png');
	fs.writeFileSync(f, Buffer.from(r.data, 'base64'));
	return f;
}
async function viewport(width, height) {
	await S('Emulation.setDeviceMetricsOverride', { width, height: height || 900, deviceScaleFactor: 1, mobile: false });
}
/* Two frames later: layout and paint done. */
async function settle() {
	await ev(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`);
}

/* ---- the keyboard ---- */

async function typeText(s) { await S('Input.insertText', { text: s }); }
const KEYS = { '.': ['Period', 190], ',': ['Comma', 188], '-': ['Minus', 189], '/': ['Slash', 191], ' ': ['Space', 32] };
function keyOf(ch) {
	if (ch >= '0' && ch <= '9') return { key: ch, code: 'Digit' + ch, windowsVirtualKeyCode: ch.charCodeAt(0) };
	const up = ch.toUpperCase();
	if (/^[A-Z]$/.test(up)) {
		const k = { key: ch, code: 'Key' + up, windowsVirtualKeyCode: up.charCodeAt(0) };
		if (ch === up) k.modifiers = 8;	/* Shift */
		return k;
	}
	if (KEYS[ch]) return { key: ch, code: KEYS[ch][0], windowsVirtualKeyCode: KEYS[ch][1] };
	return { key: ch };
}
/* Key events as a person or a keyboard-wedge scanner sends them, a key
 * every msPerKey ms (from key down to key down, so the protocol's own
 * round trips do not add up). Each event carries the time it is meant
 * for (the page's event.timeStamp), so a loaded machine that delivers
 * them late still shows the page the pace they were typed at. */
async function typeKeysTimed(s, msPerKey) {
	const t0 = Date.now();
	let i = 0;
	for (const ch of s) {
		const at = t0 + i++ * (msPerKey || 0), wait = at - Date.now();
		if (msPerKey && wait > 0) await sleep(wait);
		const k = keyOf(ch), timestamp = (msPerKey ? at : Date.now()) / 1000;
		await S('Input.dispatchKeyEvent', Object.assign({ type: 'keyDown', text: ch, timestamp }, k));
		await S('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp', timestamp }, k));
	}
}
/* As fast as the protocol goes. */
const typeKeys = (s) => typeKeysTimed(s, 0);
/* A barcode scanner: the code and Enter as one burst of key events, sent
 * without waiting for each answer (awaited one by one, a loaded
 * machine's round trips would space them like a person's typing). */
async function scan(code) {
	/* A card is never scanned within a keystroke of the last key. */
	await sleep(100);
	const sent = [], t0 = Date.now();
	let i = 0;
	for (const ch of code + '\r') {
		const k = ch === '\r' ? { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' } : Object.assign(keyOf(ch), { text: ch });
		/* 4 ms a key, as a scanner types, however late they arrive. */
		const timestamp = (t0 + 4 * i++) / 1000;
		sent.push(S('Input.dispatchKeyEvent', Object.assign({ type: 'keyDown', timestamp }, k)));
		sent.push(S('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp', timestamp }, k, { text: undefined })));
	}
	return Promise.all(sent);
}
async function pressEnter() {
	await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
	await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
}

/* ---- Fetch interception ----
 * Rules {part, stage, once | delay | answer}, all held by one
 * Fetch.enable: a second Fetch.enable replaces the patterns of the
 * first, so every change sends the whole set, and the last rule gone
 * disables the domain. A request matches a rule when its URL contains
 * part and it is paused at the rule's stage. */
let rules = [], fetchOn = false;
async function applyRules() {
	if (!rules.length) {
		if (fetchOn) { fetchOn = false; await S('Fetch.disable'); }
		return;
	}
	const patterns = [], seen = new Set();
	for (const r of rules) {
		const key = r.stage + ' ' + r.part;
		if (seen.has(key)) continue;
		seen.add(key);
		/* * and ? are the pattern's wildcards, backslash its escape. */
		patterns.push({ urlPattern: '*' + r.part.replace(/[\\*?]/g, '\\$&') + '*', requestStage: r.stage });
	}
	fetchOn = true;
	await S('Fetch.enable', { patterns });
}
async function addRule(r) { rules.push(r); await applyRules(); }

/* The next request (at stage 'Request' or 'Response') whose URL contains
 * part goes to how(params), which must fail, fulfil or continue it
 * (S('Fetch.failRequest', ...) etc.); later ones pass. */
async function once(part, stage, how) { await addRule({ part, stage, once: how }); }
/* Every request whose URL contains part waits ms before it goes on. */
async function slowDown(part, ms) { await addRule({ part, stage: 'Request', delay: ms }); }
/* Every request whose URL contains part: fn(params) answers it when it
 * returns {status, headers, body} (headers an object or CDP's list; body
 * a string, a Buffer, or an object sent as JSON), or lets it go on when
 * it returns null. fn may be async. */
async function fulfil(part, fn) { await addRule({ part, stage: 'Request', answer: fn }); }
/* Ends slowDown and fulfil (of part, or all); a pending once stays. */
async function clearIntercepts(part) {
	rules = rules.filter((r) => r.once || (part !== undefined && r.part !== part));
	await applyRules();
}

function answer(p, a) {
	let headers = Array.isArray(a.headers) ? a.headers.slice()
	    : Object.entries(a.headers || {}).map(([name, value]) => ({ name, value: String(value) }));
	let body = a.body === undefined || a.body === null ? '' : a.body;
	if (typeof body === 'object' && !Buffer.isBuffer(body)) {
		body = JSON.stringify(body);
		if (!headers.some((h) => /^content-type$/i.test(h.name)))
			headers = headers.concat([{ name: 'Content-Type', value: 'application/json; charset=utf-8' }]);
	}
	return S('Fetch.fulfillRequest', {
		requestId: p.requestId, responseCode: a.status || 200, responseHeaders: headers,
		body: Buffer.from(body).toString('base64')
	});
}
async function paused(p) {
	const stage = p.responseStatusCode !== undefined || p.responseErrorReason !== undefined ? 'Response' : 'Request';
	const mine = rules.filter((r) => r.stage === stage && p.request.url.includes(r.part));
	const one = mine.find((r) => r.once);
	if (one) {
		rules = rules.filter((r) => r !== one);
		try { await one.once(p); } finally { await applyRules(); }
		return;
	}
	const delay = Math.max(0, ...mine.map((r) => r.delay || 0));
	if (delay) await sleep(delay);
	for (const r of mine) {
		if (!r.answer) continue;
		const a = await r.answer(p);
		if (a) return answer(p, a);
	}
	/* The page may have gone meanwhile (navigated, reloaded, closed):
	 * then there is nothing left to continue. */
	await S('Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
}

/* The problems collector, and the paused requests of the page. Log
 * entries count from every session (a tab the page opened, too). */
on((m) => {
	if (m.sessionId !== pageSession && !(m.sessionId && m.method === 'Log.entryAdded')) return;
	if (m.method === 'Runtime.exceptionThrown')
		problems.push('exception: ' + (m.params.exceptionDetails.exception ? m.params.exceptionDetails.exception.description : m.params.exceptionDetails.text));
	else if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'warning'))
		problems.push('console.' + m.params.type + ': ' + m.params.args.map((a) => a.value || a.description).join(' '));
	else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error' && m.params.entry.source !== 'network')
		problems.push('log(' + m.params.entry.source + '): ' + m.params.entry.text);
	else if (m.method === 'Fetch.requestPaused')
		paused(m.params).catch((e) => problems.push('intercept: ' + e.message));
});

/* ---- the server, stopped and started by the shell ----
 * Same port, same folders, same database: a line "#@server stop N" or
 * "#@server start N" on stdout asks for it, and the shell (browser_drive
 * of tests/browser.sh) writes "N ok" (or "N failed") to server-ack in
 * BROWSER_RUN when it is done. */
let ctlSeq = 0;
async function server(cmd) {
	const id = ++ctlSeq, ack = path.join(config.run, 'server-ack');
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
/* Resolves to the error code when nothing answers at the page's address
 * (null when something does). */
function serverDown() {
	return new Promise((resolve) => {
		const r = http.get(config.url, { timeout: 3000 }, (res) => { res.resume(); resolve(null); });
		r.on('timeout', () => r.destroy(new Error('timeout')));
		r.on('error', (e) => resolve(e.code || e.message));
	});
}

module.exports = {
	config, init, sleep, launch, send, on, ok, note, run,
	S, session, problems, openPage, restartBrowser,
	ev, waitFor, step, shot, viewport, settle,
	typeText, typeKeys, typeKeysTimed, pressEnter, scan,
	once, slowDown, fulfil, clearIntercepts,
	server, serverDown
};
