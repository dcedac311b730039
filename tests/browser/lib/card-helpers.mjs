/* tests/browser/lib/card-helpers.mjs: the customer's card page's
 * (card.html) tests share these, on top of browser.mjs. Each test file
 * starts from a demo shop of its own:
 *   freshDemo()   a new `loyalty-admin demo` database renamed over the
 *                 running server's;
 *                 a punch card of Ann Smith issued; {punch, cash, disc}
 *                 each {card, token, qr, barcode}, staff, owner
 * and cardBrowser() opens the file's browser as a phone (390 x 844)
 * with the page's helpers (kept, imgOk) and every request it sends
 * noted (t.sent), for tokenStep(). */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { openBrowser, call, URL0, env as E } from './browser.mjs';

export const PAGE = URL0 + 'card.html';
export const UNKNOWN = '0123456789abcdef0123456789abcdef';
const DB = E.LT_DB;

export const admin = (...args) => execFileSync(E.LT_ADMIN, ['--db', DB, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
export const sql = (q) => execFileSync('sqlite3', ['-cmd', '.timeout 5000', DB, q], { encoding: 'utf8' }).trim();

/* The API, straight from here: {status, json, text}. */
export async function api(method, p, body, token) {
	const r = await call(method, p, body, token);
	return { status: r.status, json: typeof r.body === 'object' ? r.body : null, text: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) };
}

let shop = null;
export async function freshDemo() {
	/* Made apart, then renamed over the server's file, the old one's
	 * -wal, -shm and -queue deleted first: the responders notice at the
	 * next request and start on the new file, as when an owner replaces
	 * the database (tests/db_replaced.sh), which spares a restart. */
	const NEW = DB + '.new';
	for (const x of ['', '-wal', '-shm', '-queue', '-journal']) fs.rmSync(NEW + x, { force: true });
	const out = execFileSync(E.LT_ADMIN, ['--db', NEW, 'demo'], { encoding: 'utf8' });
	for (const x of ['-wal', '-shm', '-queue', '-journal']) { fs.rmSync(DB + x, { force: true }); fs.rmSync(NEW + x, { force: true }); }
	fs.renameSync(NEW, DB);
	const line = (k, n) => (out.split('\n').filter((l) => l.split(/\s+/)[0] === k)[n || 0] || '').split(/\s+/);
	const cardOf = (k) => { const l = line(k); return { card: l[2], barcode: l[4], qr: l[6] }; };
	shop = {
		owner: { email: line('owner')[1], password: line('owner')[3] },
		staffLogin: { email: line('staff')[1], password: line('staff')[3] },
		cash: cardOf('cashback'), disc: cardOf('discount')
	};
	const o = await api('POST', 'auth/login', shop.owner);
	if (o.status !== 200) throw new Error('owner login: ' + o.text);
	const progs = (await api('GET', 'admin/programs', undefined, o.json.access_token)).json.data.programs;
	const punch = progs.find((p) => p.type === 'punch');
	const issued = JSON.parse(admin('card', 'issue', '--program', punch.id, '--customer', 'Ann Smith'));
	shop.punch = { card: issued.card_instance_id, token: issued.share_token, qr: issued.qr_code_data, barcode: issued.barcode_value };
	const cards = (await api('GET', 'admin/cards?page_size=100', undefined, o.json.access_token)).json.data.cards;
	for (const k of ['cash', 'disc']) shop[k].token = cards.find((c) => c.card_instance_id === shop[k].card).share_token;
	for (const k of ['punch', 'cash', 'disc']) if (!/^[0-9a-f]{32}$/.test(shop[k].token || '')) throw new Error('no share token of ' + k);
	return shop;
}

/* A purchase recorded by the demo's cashier: the API's data. */
let staff = null;
export async function staffLogin() {
	if (!staff) {
		const r = await api('POST', 'auth/login', shop.staffLogin);
		if (r.status !== 200) throw new Error('staff login: ' + r.text);
		staff = { token: r.json.access_token, id: r.json.user.id, location: r.json.user.location.id };
	}
	return staff;
}
export async function record(card, amount, punches) {
	const s = await staffLogin();
	const r = await api('POST', 'transactions/record', {
		card_instance_id: card, location_id: s.location, staff_user_id: s.id,
		purchase_amount: amount, punch_count: punches || 1,
		idempotency_key: 'card-page-' + Date.now() + '-' + Math.random()
	}, s.token);
	if (r.status !== 200) throw new Error('record: ' + r.status + ' ' + r.text);
	return r.json.data;
}

export const CARD_HELPERS = `
const kept = () => JSON.parse(localStorage.getItem('loyalty.mycard.v1') || 'null');
const imgOk = (s) => { const i = $(s); return !!i && i.complete && i.naturalWidth > 0 && !i.hidden; };
`;

/* The file's browser, as a phone. */
export async function cardBrowser(opts) {
	/* A phone: playwright's own viewport (a screenshot of playwright
	 * puts its viewport back, so a size set around it through CDP would
	 * not hold), a mobile one with touch. */
	const t = await openBrowser(Object.assign({ helpers: CARD_HELPERS, width: 390, height: 844,
		context: { isMobile: true, hasTouch: true } }, opts || {}));
	t.sent = [];
	await t.S('Network.enable');
	t.on('Network.requestWillBeSent', (p) => t.sent.push({ url: p.request.url, headers: p.request.headers }));
	t.on('Network.requestWillBeSentExtraInfo', (p) => t.sent.push({ url: '(extra info ' + p.requestId + ')', headers: p.headers }));
	return t;
}
/* Another size of screen (the browser stays a mobile one). */
export async function device(t, width, height) {
	await t.viewport(width, height);
	await t.settle().catch(() => {});
}
export async function colourScheme(t, v) {
	await t.page.emulateMedia({ colorScheme: v });
	await t.settle();
}
/* A new load of the page, as from a link or the home screen (not a
 * same-document move to another fragment). */
export async function open(t, hash) {
	await t.goto('about:blank');
	await t.waitFor(`location.href === 'about:blank'`);
	await t.goto(PAGE + (hash === undefined ? '' : '#' + hash));
	await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false'`, 15000);
}
export const cardShown = (title) => `vis('#card-view') && text('h1') === ${JSON.stringify(title)} && $('main').getAttribute('aria-busy') === 'false'`;
/* A screenshot as a test of its own, as the old walk had them. */
export function shotStep(t, name) {
	t.step('screenshot ' + name + ' written', async () => { await t.shot(name); });
}
/* At the end of a file: no request carried a Referer, nor a card's
 * token outside the API's path. */
export function tokenStep(t, tokens) {
	t.step('no request carried a Referer, nor the token outside the API\u2019s path', async () => {
		/* (requestWillBeSent lists an empty Referer for a request sent
		 * without one; the extra info has the headers really sent.) */
		const withRef = t.sent.filter((r) => Object.entries(r.headers || {}).some(([h, v]) => h.toLowerCase() === 'referer' && v !== ''));
		if (withRef.length) throw new Error('Referer sent: ' + withRef.map((r) => r.url + ' ' + JSON.stringify(r.headers)).join('\n'));
		const all = (tokens || [shop.punch.token, shop.cash.token, shop.disc.token]).concat([UNKNOWN]);
		const leaks = t.sent.filter((r) => all.some((x) => r.url.includes(x)) && !r.url.startsWith(URL0 + 'api/v1/mycard/'));
		if (leaks.length) throw new Error(leaks.map((r) => r.url).join('\n'));
		return t.sent.filter((r) => r.url.startsWith('http')).length >= 3;
	});
}

/* Basic accessibility checks, in the page: a list of problems. */
export const A11Y = `(() => {
	const bad = [];
	const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
	for (const i of $$('img')) if (!i.getAttribute('alt') || !i.getAttribute('alt').trim()) bad.push('img without alt: ' + i.outerHTML.slice(0, 80));
	const h1 = $$('h1');
	if (h1.length !== 1) bad.push(h1.length + ' h1 elements');
	if (h1.length && !shown(h1[0])) bad.push('the h1 is not shown');
	for (const b of $$('button, select, input')) {
		const name = b.tagName === 'BUTTON' ? (b.getAttribute('aria-label') || b.textContent).trim() :
		    (b.labels && b.labels.length ? b.labels[0].textContent.trim() : b.getAttribute('aria-label') || '');
		if (!name) bad.push(b.tagName.toLowerCase() + '#' + b.id + ' has no name');
	}
	if (!$('header') || !$('main') || !$('footer')) bad.push('a landmark is missing');
	if (document.documentElement.lang !== 'en') bad.push('no lang');
	/* Heading levels do not skip. */
	let last = 0;
	for (const h of $$('h1, h2, h3, h4').filter(shown)) {
		const l = +h.tagName[1];
		if (l > last + 1) bad.push('heading skips to ' + h.tagName + ': ' + h.textContent);
		last = l;
	}
	/* Contrast of every piece of text shown against the colour behind it. */
	const rgb = (s) => { const m = s.match(/rgba?\\(([^)]+)\\)/); if (!m) return null; const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 }; };
	const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
	const behind = (e) => {
		let layers = [];
		for (let n = e; n; n = n.parentElement) {
			const c = rgb(getComputedStyle(n).backgroundColor);
			if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
		}
		let out = { r: 255, g: 255, b: 255 };
		if (!layers.length || layers[layers.length - 1].a < 1) out = getComputedStyle(document.documentElement).colorScheme === 'dark' ? { r: 0, g: 0, b: 0 } : out;
		for (const c of layers.reverse()) out = { r: c.r * c.a + out.r * (1 - c.a), g: c.g * c.a + out.g * (1 - c.a), b: c.b * c.a + out.b * (1 - c.a) };
		return out;
	};
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	const seen = new Set();
	for (let t = walker.nextNode(); t; t = walker.nextNode()) {
		const e = t.parentElement;
		if (!t.textContent.trim() || seen.has(e) || !shown(e)) continue;
		seen.add(e);
		if (e.closest('.skip-link')) continue;
		const st = getComputedStyle(e);
		const fg = rgb(st.color), bg = behind(e);
		const L1 = lum(fg), L2 = lum(bg);
		const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
		if (ratio < 4.5) bad.push('contrast ' + ratio.toFixed(2) + ' of "' + t.textContent.trim().slice(0, 30) + '" (' + st.color + ' on rgb(' + [bg.r, bg.g, bg.b].map(Math.round) + '))');
	}
	return bad;
})()`;
/* The checks above, throwing their list. */
export async function a11y(t) {
	const bad = await t.ev(A11Y);
	if (bad.length) throw new Error(bad.join('\n'));
}
