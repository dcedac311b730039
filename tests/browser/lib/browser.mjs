/* tests/browser/lib/browser.mjs: what every page test shares. Debian's
 * Chromium (/usr/bin/chromium) driven by playwright-core (pinned in
 * tools/lib.sh, installed into ~/.cache/loyalty-pos/playwright; never a
 * downloaded browser), the server the shell wrapper started, and the
 * steps as tests of Node's runner. See tests/browser/README.md.
 *
 * The wrapper (browser_tests of tests/browser.sh) sets:
 *   BROWSER_URL      the server's address, ending with a slash
 *   BROWSER_CHROME   the browser binary
 *   BROWSER_RUN      a folder for profiles and logs (the test's LT_DIR)
 *   BROWSER_SHOTS    where shot() writes its PNGs (kept)
 *   BROWSER_CTL      a FIFO: "stop N" / "start N" asks the shell to stop
 *                    or start the server; it answers in BROWSER_RUN/server-ack
 *   PLAYWRIGHT_DIR   where playwright-core is installed
 *   LT_ADMIN, LT_DB  loyalty-admin and the database, DEMO_* the demo's ids
 */
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const E = process.env;
const require = createRequire(path.join(E.PLAYWRIGHT_DIR || path.join(E.HOME || '/root', '.cache/loyalty-pos/playwright'), 'node_modules', 'x.js'));
const { chromium } = require('playwright-core');

export const env = E;
export const URL0 = E.BROWSER_URL || 'http://127.0.0.1:8080/';
export const ORIGIN = URL0.replace(/\/$/, '');
/* The widths every page is looked at: a phone, a tablet, a desk. */
export const WIDTHS = [390, 768, 1280];
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/* A line of the test's output (the runner makes it a TAP comment). */
export const note = (s) => console.log(s);
/* The demo's shop (loyalty-admin demo, as lt_start parsed it). */
export const demo = {
	merchant: E.DEMO_MERCHANT_ID, location: E.DEMO_LOCATION_ID, location2: E.DEMO_LOCATION2_ID,
	owner: { email: E.DEMO_OWNER_EMAIL || 'owner@demo.example', password: E.DEMO_OWNER_PASSWORD || 'demo-owner-pass' },
	staff: { email: E.DEMO_STAFF_EMAIL || 'staff@demo.example', password: E.DEMO_STAFF_PASSWORD || 'demo-staff-pass' },
	punch: { card: E.DEMO_PUNCH_CARD, barcode: E.DEMO_PUNCH_BARCODE, qr: E.DEMO_PUNCH_QR },
	cashback: { card: E.DEMO_CASHBACK_CARD, barcode: E.DEMO_CASHBACK_BARCODE, qr: E.DEMO_CASHBACK_QR },
	discount: { card: E.DEMO_DISCOUNT_CARD, barcode: E.DEMO_DISCOUNT_BARCODE, qr: E.DEMO_DISCOUNT_QR }
};
/* This file's name without .test.mjs: the prefix of its screenshots and
 * the name of its browser profile. */
const FILE = path.basename(process.argv[1] || 'test', '.test.mjs');
const PAGE_DIR = path.basename(path.dirname(process.argv[1] || '.'));

/* ---- loyalty-admin and the API ---- */

/* loyalty-admin on the test's database; its stdout. */
export function admin(...args) {
	return execFileSync(E.LT_ADMIN, ['--db', E.LT_DB, ...args], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}
/* A new program of the demo's shop; its id. opts: type (punch, cashback,
 * discount), title, and for a punch card punches, reward, cooldown,
 * maxPunches; for the others tiers (['Bronze:0:2', ...]), expiryDays. */
export function newProgram(opts) {
	const o = Object.assign({ type: 'punch', title: 'Test ' + randomUUID().slice(0, 8) }, opts);
	const a = ['program', 'add', '--merchant', demo.merchant, '--type', o.type, '--title', o.title];
	if (o.type === 'punch') {
		a.push('--punches', String(o.punches || 10), '--reward-title', o.reward || 'Free coffee');
		if (o.cooldown !== undefined) a.push('--cooldown', String(o.cooldown));
		if (o.maxPunches !== undefined) a.push('--max-punches', String(o.maxPunches));
	} else {
		for (const t of o.tiers || ['Bronze:0:2']) a.push('--tier', t);
		if (o.expiryDays !== undefined) a.push('--expiry-days', String(o.expiryDays));
	}
	const out = admin(...a).trim();
	const m = out.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
	if (!m) throw new Error('program add said: ' + out);
	return m[0];
}
/* A new card of a program: {id, barcode, qr, share, json}; svg: a file
 * for the printed card. */
export function issueCard(program, customer, svg) {
	const out = admin('card', 'issue', '--program', program, '--customer', customer || 'Test Customer', ...(svg ? ['--svg', svg] : []));
	const j = JSON.parse(out);
	if (!j.barcode_value) throw new Error('card issue said: ' + out);
	return { id: j.card_instance_id, barcode: j.barcode_value, qr: j.qr_code_data, share: j.share_token, json: j };
}

/* The API straight, as another till would call it: {status, body}. */
export function call(method, apiPath, body, token) {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? null : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
		const r = http.request(URL0 + 'api/v1/' + apiPath, {
			method, headers: Object.assign({ Accept: 'application/json' },
				data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {},
				token ? { Authorization: 'Bearer ' + token } : {})
		}, (res) => {
			let t = '';
			res.setEncoding('utf8');
			res.on('data', (c) => { t += c; });
			res.on('end', () => {
				let b = t;
				try { b = t ? JSON.parse(t) : null; } catch (e) { /* not JSON: the text */ }
				resolve({ status: res.statusCode, headers: res.headers, body: b });
			});
		});
		r.on('error', reject);
		if (data) r.write(data);
		r.end();
	});
}
/* A login of the API's own: {token, id, body}; one per user and file
 * (a login costs a password hash), unless fresh. */
const logins = new Map();
export async function apiLogin(who, fresh) {
	const u = who || demo.owner;
	if (!fresh && logins.has(u.email)) return logins.get(u.email);
	const r = await call('POST', 'auth/login', { email: u.email, password: u.password });
	if (r.status !== 200) throw new Error('login ' + JSON.stringify(r.body));
	const l = { token: r.body.access_token, id: r.body.user.id, body: r.body };
	logins.set(u.email, l);
	return l;
}

/* The id of the demo's program of a type (punch: Coffee Card, cashback:
 * Cashback Club, discount: Member Discount), from the API. */
const demoPrograms = {};
export async function demoProgram(type) {
	if (!demoPrograms[type]) {
		const o = await apiLogin(demo.owner);
		const r = await call('GET', 'admin/programs', undefined, o.token);
		const list = (r.body && (r.body.data || r.body.programs || r.body)) || [];
		const title = { punch: 'Coffee Card', cashback: 'Cashback Club', discount: 'Member Discount' }[type];
		const p = (Array.isArray(list) ? list : list.programs || []).find((x) => x.title === title || x.name === title);
		if (!p) throw new Error('no demo program ' + title + ' in ' + JSON.stringify(r.body).slice(0, 300));
		demoPrograms[type] = p.id || p.program_id;
	}
	return demoPrograms[type];
}
/* A new card of the demo's program of that type, for this file alone. */
export async function demoCard(type, customer) {
	return issueCard(await demoProgram(type), customer || 'Test ' + type);
}

/* ---- the server, stopped and started by the shell ----
 * Same port, folders and database: the page's origin stays the same. */
let ctlSeq = 0;
export async function server(cmd) {
	if (!E.BROWSER_CTL) throw new Error('no BROWSER_CTL: run the test through its shell wrapper');
	const id = process.pid + '.' + (++ctlSeq), ack = path.join(E.BROWSER_RUN, 'server-ack');
	fs.appendFileSync(E.BROWSER_CTL, cmd + ' ' + id + '\n');
	const end = Date.now() + 30000;
	while (Date.now() < end) {
		let t = '';
		try { t = fs.readFileSync(ack, 'utf8').trim(); } catch (e) { /* not yet */ }
		if (t === id + ' ok') return;
		if (t === id + ' failed') throw new Error('the shell could not ' + cmd + ' the server');
		await sleep(50);
	}
	throw new Error('the shell did not ' + cmd + ' the server');
}
/* The error code when nothing answers at the page's address, else null. */
export function serverDown() {
	return new Promise((resolve) => {
		const r = http.get(URL0, { timeout: 3000 }, (res) => { res.resume(); resolve(null); });
		r.on('timeout', () => r.destroy(new Error('timeout')));
		r.on('error', (e) => resolve(e.code || e.message));
	});
}

/* ---- the page ---- */

/* Helpers of every expression ev() evaluates in the page. */
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

/* Problems that fail a test unless expected: uncaught exceptions,
 * console.error and console.warn, the browser's own error log (CSP
 * violations among them; not network failures, which are the API's
 * answers), and a file of the site (not /api/) answered 404 or 5xx. */
class Tab {
	constructor(opts) {
		this.opts = Object.assign({ helpers: '', args: [], width: 1280, height: 900 }, opts);
		this.problems = [];
		this.allowed = [];
		this.rules = [];
		this.fetchOn = false;
		this.listeners = [];
		this.profile = path.join(E.BROWSER_RUN || fs.mkdtempSync('/tmp/browser-test.'), 'profile-' + PAGE_DIR + '-' + FILE);
	}
	async launch(args) {
		if (args !== undefined) this.opts.args = args;
		this.context = await chromium.launchPersistentContext(this.profile, {
			executablePath: E.BROWSER_CHROME || '/usr/bin/chromium',
			headless: true,
			args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-dev-shm-usage',
				'--disable-background-networking', '--disable-component-update', '--lang=en-US',
				...this.opts.args],
			viewport: { width: this.opts.width, height: this.opts.height },
			locale: 'en-US',
			...(this.opts.context || {})
		});
		this.page = this.context.pages()[0] || await this.context.newPage();
		this.cdp = await this.context.newCDPSession(this.page);
		this.cdp.on('Runtime.exceptionThrown', (p) => this.problem('exception: ' + (p.exceptionDetails.exception ? p.exceptionDetails.exception.description : p.exceptionDetails.text)));
		this.cdp.on('Runtime.consoleAPICalled', (p) => {
			if (p.type === 'error' || p.type === 'warning')
				this.problem('console.' + p.type + ': ' + p.args.map((a) => a.value || a.description).join(' '));
		});
		this.cdp.on('Log.entryAdded', (p) => {
			if (p.entry.level === 'error' && p.entry.source !== 'network') this.problem('log(' + p.entry.source + '): ' + p.entry.text);
		});
		this.cdp.on('Fetch.requestPaused', (p) => this.paused(p).catch((e) => this.problem('intercept: ' + e.message)));
		await this.cdp.send('Runtime.enable');
		await this.cdp.send('Log.enable');
		this.page.on('response', (r) => {
			const u = r.url();
			if (u.startsWith(URL0) && !u.startsWith(URL0 + 'api/') && (r.status() === 404 || r.status() >= 500))
				this.problem('HTTP ' + r.status() + ': ' + u);
		});
		/* The requests under way, for idle(). */
		this.inflight = new Set();
		this.lastNet = Date.now();
		const done = (r) => { this.inflight.delete(r); this.lastNet = Date.now(); };
		this.page.on('request', (r) => { this.inflight.add(r); this.lastNet = Date.now(); });
		this.page.on('requestfinished', done);
		this.page.on('requestfailed', done);
		for (const [ev, f] of this.listeners) this.cdp.on(ev, f);
		this.fetchOn = false;
		if (this.rules.length) await this.applyRules();
		return this;
	}
	problem(t) { this.problems.push(t); }
	/* Problems matching re do not fail the file's tests. */
	allow(re) { this.allowed.push(re); return this; }
	/* The problems since index from not matched by allowed or extra. */
	unexpected(from, extra) {
		return this.problems.slice(from).filter((p) => ![...this.allowed, ...(extra || [])].some((re) => re.test(p)));
	}
	/* A CDP event of the page, kept across restarts. */
	on(event, f) { this.listeners.push([event, f]); this.cdp.on(event, f); }
	S(method, params) { return this.cdp.send(method, params || {}); }
	async close() { if (this.context) await this.context.close().catch(() => {}); this.context = null; }
	/* Closes Chromium as a person would and starts it again on its
	 * profile (the service worker, its caches and localStorage kept);
	 * args: other flags from now on. */
	async restart(args) {
		await this.close();
		await this.launch(args);
	}
	/* Kills Chromium as a crash or a power cut would (nothing it holds in
	 * memory reaches the disk), then starts it again on its profile. */
	async kill() {
		const pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).filter((d) => {
			try {
				const c = fs.readFileSync('/proc/' + d + '/cmdline', 'utf8').split('\0');
				return c.includes('--user-data-dir=' + this.profile) && !c.some((a) => a.startsWith('--type='));
			} catch (e) { return false; }
		}).map(Number);
		if (pids.length !== 1) throw new Error('browser processes of ' + this.profile + ': ' + pids.join(' '));
		process.kill(pids[0], 'SIGKILL');
		for (let i = 0; i < 200; i++) {
			try { process.kill(pids[0], 0); } catch (e) { break; }
			await sleep(50);
		}
		const old = this.context;
		this.context = null;
		old.close().catch(() => {});
		await sleep(200);
		await this.launch();
	}
	goto(url) { return this.page.goto(url || URL0, { waitUntil: 'commit' }); }
	/* The value of expr (JavaScript text) in the page, awaited, with the
	 * helpers above and the file's own (opts.helpers) in scope. */
	async ev(expr) {
		return this.page.evaluate('(async () => {' + H + this.opts.helpers + '\nreturn (' + expr + ');})()');
	}
	/* expr's first true value, tried every 80 ms for ms (10 s). */
	async waitFor(expr, ms) {
		const end = Date.now() + (ms || 10000);
		let last;
		while (Date.now() < end) {
			try { last = await this.ev(expr); if (last) return last; } catch (e) { last = e.message; }
			await sleep(80);
		}
		throw new Error('timed out waiting for ' + expr + (last !== undefined ? ' (last: ' + JSON.stringify(last) + ')' : ''));
	}
	/* A full-page PNG in BROWSER_SHOTS, named <file>-<name>.png. */
	async shot(name) {
		const dir = E.BROWSER_SHOTS || E.BROWSER_RUN || '/tmp';
		const f = path.join(dir, FILE + '-' + name + '.png');
		await this.page.screenshot({ path: f, fullPage: true });
		return f;
	}
	/* The element sel alone, named as shot()'s. */
	async shotOf(sel, name) {
		const f = path.join(E.BROWSER_SHOTS || E.BROWSER_RUN || '/tmp', FILE + '-' + name + '.png');
		await this.page.locator(sel).screenshot({ path: f });
		return f;
	}
	/* Once no request of the page has been under way for quiet ms (500):
	 * every answer the page asked for so far has come (and been seen by
	 * the 404 check and the page's own listeners). Throws after ms (10 s),
	 * naming what is still under way. */
	async idle(quiet, ms) {
		const q = quiet || 500, end = Date.now() + (ms || 10000);
		while (Date.now() < end) {
			if (!this.inflight.size && Date.now() - this.lastNet >= q) return true;
			await sleep(50);
		}
		throw new Error('the network was not idle: ' + Array.from(this.inflight, (r) => r.url()).join(', '));
	}
	async viewport(width, height) { await this.page.setViewportSize({ width, height: height || 900 }); }
	/* Two frames later: layout and paint done. */
	settle() { return this.ev(`new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`); }

	/* The keyboard. typeText: the text at once (an IME's insert). */
	typeText(s) { return this.page.keyboard.insertText(s); }
	/* Key events as a person or a keyboard-wedge scanner sends them, a key
	 * every msPerKey ms (key down to key down). Each carries the time it
	 * is meant for (the page's event.timeStamp), so a loaded machine that
	 * delivers them late still shows the page the pace they were typed at. */
	async typeKeysTimed(s, msPerKey) {
		const t0 = Date.now();
		let i = 0;
		for (const ch of s) {
			const at = t0 + i++ * (msPerKey || 0), wait = at - Date.now();
			if (msPerKey && wait > 0) await sleep(wait);
			const k = keyOf(ch), timestamp = (msPerKey ? at : Date.now()) / 1000;
			await this.S('Input.dispatchKeyEvent', Object.assign({ type: 'keyDown', text: ch, timestamp }, k));
			await this.S('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp', timestamp }, k));
		}
	}
	typeKeys(s) { return this.typeKeysTimed(s, 0); }
	/* A barcode scanner: the code and Enter as one burst, 4 ms a key by
	 * the events' times, sent without waiting for each answer. */
	async scan(code) {
		await sleep(100);	/* never within a keystroke of the last key */
		const sent = [], t0 = Date.now();
		let i = 0;
		for (const ch of code + '\r') {
			const k = ch === '\r' ? { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' } : Object.assign(keyOf(ch), { text: ch });
			const timestamp = (t0 + 4 * i++) / 1000;
			sent.push(this.S('Input.dispatchKeyEvent', Object.assign({ type: 'keyDown', timestamp }, k)));
			sent.push(this.S('Input.dispatchKeyEvent', Object.assign({ type: 'keyUp', timestamp }, k, { text: undefined })));
		}
		return Promise.all(sent);
	}
	async key(key, code, vk) {
		await this.S('Input.dispatchKeyEvent', { type: 'keyDown', key, code, windowsVirtualKeyCode: vk, ...(key === 'Enter' ? { text: '\r' } : {}) });
		await this.S('Input.dispatchKeyEvent', { type: 'keyUp', key, code, windowsVirtualKeyCode: vk });
	}
	pressEnter() { return this.key('Enter', 'Enter', 13); }

	/* ---- interception (CDP's Fetch domain, on this page) ----
	 * Rules {part, stage, once | delay | answer}: a request matches when
	 * its URL contains part and it is paused at the rule's stage. */
	async applyRules() {
		if (!this.rules.length) {
			if (this.fetchOn) { this.fetchOn = false; await this.S('Fetch.disable'); }
			return;
		}
		const patterns = [], seen = new Set();
		for (const r of this.rules) {
			const k = r.stage + ' ' + r.part;
			if (seen.has(k)) continue;
			seen.add(k);
			patterns.push({ urlPattern: '*' + r.part.replace(/[\\*?]/g, '\\$&') + '*', requestStage: r.stage });
		}
		this.fetchOn = true;
		await this.S('Fetch.enable', { patterns });
	}
	async addRule(r) { this.rules.push(r); await this.applyRules(); }
	/* The next request (stage 'Request' or 'Response') whose URL contains
	 * part goes to how(params), which must fail, fulfil or continue it
	 * (tab.S('Fetch.failRequest', ...)); later ones pass. */
	once(part, stage, how) { return this.addRule({ part, stage, once: how }); }
	/* Every request whose URL contains part waits ms first. */
	slowDown(part, ms) { return this.addRule({ part, stage: 'Request', delay: ms }); }
	/* Every request whose URL contains part: fn(params) answers it with
	 * {status, headers, body} (body a string, Buffer, or object sent as
	 * JSON), or lets it go on with null. */
	fulfil(part, fn) { return this.addRule({ part, stage: 'Request', answer: fn }); }
	/* Ends slowDown and fulfil (of part, or all); a pending once stays. */
	clearIntercepts(part) {
		this.rules = this.rules.filter((r) => r.once || (part !== undefined && r.part !== part));
		return this.applyRules();
	}
	answer(p, a) {
		let headers = Array.isArray(a.headers) ? a.headers.slice()
			: Object.entries(a.headers || {}).map(([name, value]) => ({ name, value: String(value) }));
		let body = a.body === undefined || a.body === null ? '' : a.body;
		if (typeof body === 'object' && !Buffer.isBuffer(body)) {
			body = JSON.stringify(body);
			if (!headers.some((h) => /^content-type$/i.test(h.name)))
				headers = headers.concat([{ name: 'Content-Type', value: 'application/json; charset=utf-8' }]);
		}
		return this.S('Fetch.fulfillRequest', {
			requestId: p.requestId, responseCode: a.status || 200, responseHeaders: headers,
			body: Buffer.from(body).toString('base64')
		});
	}
	async paused(p) {
		const stage = p.responseStatusCode !== undefined || p.responseErrorReason !== undefined ? 'Response' : 'Request';
		const mine = this.rules.filter((r) => r.stage === stage && p.request.url.includes(r.part));
		const one = mine.find((r) => r.once);
		if (one) {
			this.rules = this.rules.filter((r) => r !== one);
			try { await one.once(p); } finally { await this.applyRules(); }
			return;
		}
		const delay = Math.max(0, ...mine.map((r) => r.delay || 0));
		if (delay) await sleep(delay);
		for (const r of mine) {
			if (!r.answer) continue;
			const a = await r.answer(p);
			if (a) return this.answer(p, a);
		}
		await this.S('Fetch.continueRequest', { requestId: p.requestId }).catch(() => {});
	}

	/* One test: fn(tab) throws or returns false to fail; the page's text
	 * is added to the failure, and problems seen meanwhile that are not
	 * allowed (the file's, and opts.allow) fail it too. opts.timeout: ms
	 * (default 120000). */
	step(name, fn, opts) {
		const o = opts || {};
		return test(name, { timeout: o.timeout || 120000, skip: o.skip, todo: o.todo }, async () => {
			const from = this.problems.length;
			let r;
			try {
				r = await fn(this);
			} catch (e) {
				const seen = await this.ev(`text('body')`).catch(() => '?');
				if (e && typeof e === 'object') e.message += '\npage text: ' + String(seen).slice(0, 1500);
				throw e;
			}
			if (r === false) {
				const seen = await this.ev(`text('body')`).catch(() => '?');
				throw new Error('the step returned false\npage text: ' + String(seen).slice(0, 1500));
			}
			const bad = this.unexpected(from, o.allow);
			if (bad.length) throw new Error('problems on the page:\n' + bad.join('\n'));
		});
	}
}

/* A browser of this test file's own (a profile of its own in
 * BROWSER_RUN) with one tab; closed when the file's tests end. opts:
 *   helpers  more page helpers for ev(), as JavaScript declarations
 *   args     more Chromium flags (e.g. a fake camera)
 *   width, height  the first viewport (1280 x 900)
 *   context  more options of launchPersistentContext
 */
export async function openBrowser(opts) {
	const t = new Tab(opts);
	await t.launch();
	const { after } = await import('node:test');
	after(() => t.close());
	return t;
}

/* The till's page helpers for ev(). */
export const TILL_HELPERS = `
const submit = (s) => { $('#result').textContent = ''; return click(s); };
const queue = () => JSON.parse(localStorage.getItem('pos.queue.v1') || '[]');
const review = () => JSON.parse(localStorage.getItem('pos.review.v1') || '[]');
const focused = () => document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : 'none';
`;
