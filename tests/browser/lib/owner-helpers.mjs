/* tests/browser/lib/owner-helpers.mjs: the back office's (owner.html)
 * tests share these, on top of browser.mjs. tests/owner_page.sh serves
 * a NEW EMPTY database from responders in a folder of the test's own
 * (OWNER_RESP, where a setup proof file may go); each test file starts
 * from a state of its own:
 *   emptyInstall()   the database's files deleted under the running
 *                    server: a new installation, no shop yet
 *   freshShop()      emptyInstall() and the shop set up through the API
 *                    with the setup code (Corner Cafe, High Street, the
 *                    owner OWNER); {token, owner, location}
 * and ownerBrowser() opens the file's browser with the back office's
 * page helpers (dlg, rowOf, btnIn, toast), its downloads, the back
 * office's POSTs (for postsWithoutKey) and the accessibility pass. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, call, URL0, env as E, sleep } from './browser.mjs';

export const OWNER = { email: 'olive@corner.example', password: 'owner-pass-123', name: 'Olive Owner' };
export const CASHIER = { email: 'sam@corner.example', password: 'first-pass-1', password2: 'second-pass-2' };
export const DB = E.LT_DB;
export const CODE_FILE = (E.LT_DB || '') + '.setup-code';
export const RESP = E.OWNER_RESP;

export const OWNER_HELPERS = `
const dlg = () => $('dialog[open]');
const rowOf = (tbody, t) => $$(tbody + ' tr').find((r) => r.textContent.includes(t));
const btnIn = (row, label) => { const b = Array.from(row.querySelectorAll('button')).find((x) => x.textContent.trim() === label); if (!b) throw new Error('no button ' + label); return b; };
const toast = () => text('#toast');
`;

/* ---- the server's state ---- */

/* A new installation: nothing in the database's folder, no proof file
 * in the responders' folder. The server keeps running: its responders
 * notice that the file they had open is gone and start on the new one at
 * the next request, as when an owner starts over (README, "Starting
 * over"; tests/db_replaced.sh), which spares a restart a file. */
export async function emptyInstall() {
	for (const x of ['', '-wal', '-shm', '-queue', '-journal', '.setup-code']) fs.rmSync(DB + x, { force: true });
	if (RESP) for (const f of fs.readdirSync(RESP)) if (/^loyalty-setup-.*\.txt$/.test(f)) fs.rmSync(path.join(RESP, f), { force: true });
	if (fs.existsSync(DB)) throw new Error('the database is still there: ' + DB);
}

/* The API with a bearer token: {status, json, text}. */
export async function api(method, p, body, token) {
	const r = await call(method, p, body, token);
	return { status: r.status, json: typeof r.body === 'object' ? r.body : null, text: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) };
}
let keySeq = 0;
const key = () => '00000000-0000-4000-8000-' + String(Date.now() % 1e6).padStart(6, '0') + String(++keySeq).padStart(6, '0');
/* A POST of the API that must succeed; its data. */
export async function post(p, body, token) {
	const r = await api('POST', p, Object.assign({ idempotency_key: key() }, body), token);
	if (r.status !== 200 && r.status !== 201) throw new Error('POST ' + p + ': ' + r.status + ' ' + r.text);
	return r.json.data || r.json;
}
export async function login(who) {
	const r = await api('POST', 'auth/login', { email: who.email, password: who.password });
	if (r.status !== 200) throw new Error('login ' + who.email + ': ' + r.text);
	return { token: r.json.access_token, id: r.json.user.id, user: r.json.user };
}

/* The shop set up with the setup code, as the page does it. */
export async function freshShop() {
	await emptyInstall();
	const g = await api('GET', 'setup');
	if (g.status !== 200) throw new Error('GET setup: ' + g.status + ' ' + g.text);
	const code = fs.readFileSync(CODE_FILE, 'utf8').trim();
	await post('setup', { setup_code: code, merchant_name: 'Corner Cafe', location_name: 'High Street',
		owner_name: OWNER.name, owner_email: OWNER.email, owner_password: OWNER.password });
	const o = await login(OWNER);
	const locs = (await api('GET', 'admin/locations', undefined, o.token)).json.data.locations;
	return { token: o.token, owner: o.id, location: locs[0].id };
}
/* More of the shop, through the API (shop: freshShop()'s answer). */
export async function addLocation(shop, name) {
	return (await post('admin/locations', { name }, shop.token)).location.id;
}
export async function addCashier(shop, locationId, name, who) {
	const u = who || CASHIER;
	return (await post('admin/users', { email: u.email, password: u.password, user_type: 'system_user', name, location_id: locationId }, shop.token)).user.id;
}
export const PROGRAMS = {
	coffee: { type: 'punch', title: 'Coffee Card', punch_requirement: 10, reward_title: 'Free coffee', reward_description: 'Any hot drink', reward_amount: 3.5, cooldown_seconds: 60 },
	cashback: { type: 'cashback', title: 'Cashback Club Plus', tiers: [{ name: 'Bronze', min_spend: 0, rate: 0.02 }, { name: 'Gold', min_spend: 500, rate: 0.06 }] },
	discount: { type: 'discount', title: 'Member Discount', tiers: [{ name: 'Member', min_spend: 0, rate: 0.05 }] }
};
export async function addProgram(shop, body) {
	return (await post('admin/programs', body, shop.token)).program.id;
}
/* Cards of a program, one a name: their API objects. */
export async function issueCards(shop, programId, names) {
	const d = await post('admin/cards', names.length === 1 ? { program_id: programId, customer_name: names[0] } : { program_id: programId, customer_names: names }, shop.token);
	return d.cards || [d.card];
}
/* A purchase recorded by who (a login's answer) at locationId. */
export async function record(who, locationId, cardId, amount) {
	return post('transactions/record', { card_instance_id: cardId, location_id: locationId, staff_user_id: who.id, purchase_amount: amount }, who.token);
}
export async function patch(p, body, token) {
	const r = await api('PATCH', p, body, token);
	if (r.status !== 200) throw new Error('PATCH ' + p + ': ' + r.status + ' ' + r.text);
	return r.json.data || r.json;
}
/* The shop of most tests: freshShop(), a second location Harbour Kiosk
 * East, the cashier Sam Till there (CASHIER, password2), the program
 * Cashback Club Plus and the card of Robert Brown; purchase: an amount
 * the cashier records on it. {shop, loc2, cashier (a login), program,
 * card (the API's object), purchase (its answer's data)}. */
export async function cashbackShop(purchase) {
	const shop = await freshShop();
	const loc2 = await addLocation(shop, 'Harbour Kiosk East');
	await addCashier(shop, loc2, 'Sam Till', { email: CASHIER.email, password: CASHIER.password2 });
	const program = await addProgram(shop, PROGRAMS.cashback);
	const [card] = await issueCards(shop, program, ['Robert Brown']);
	const cashier = await login({ email: CASHIER.email, password: CASHIER.password2 });
	const bought = purchase ? await record(cashier, loc2, card.card_instance_id, purchase) : null;
	return { shop, loc2, cashier, program, card, purchase: bought };
}
/* sqlite3 on the database. */
export function sql(q) {
	return execFileSync('sqlite3', ['-cmd', '.timeout 5000', DB, q], { encoding: 'utf8' }).trim();
}

/* ---- the browser ---- */

/* The file's browser: the back office's helpers, its downloads into
 * BROWSER_RUN/downloads-<pid>, the POSTs of owner.html to the API noted
 * (t.posts, "WITHOUT A KEY" marked). */
export async function ownerBrowser(opts) {
	const t = await openBrowser(Object.assign({ helpers: OWNER_HELPERS, context: { acceptDownloads: true } }, opts || {}));
	t.posts = [];
	t.dl = path.join(E.BROWSER_RUN || '/tmp', 'downloads-' + process.pid);
	fs.mkdirSync(t.dl, { recursive: true });
	await t.S('Network.enable');
	t.on('Network.requestWillBeSent', (p) => {
		if (p.request.method === 'POST' && p.request.url.startsWith(URL0 + 'api/v1/') && !/\/auth\/(login|refresh|logout)$/.test(p.request.url) &&
		    /\/owner\.html/.test(p.documentURL || '')) {
			let k = null;
			try { k = JSON.parse(p.request.postData || '{}').idempotency_key; } catch (e) { /* not JSON */ }
			t.posts.push(p.request.url.slice(URL0.length) + (typeof k === 'string' && /^[0-9a-f-]{36}$/.test(k) ? '' : ' WITHOUT A KEY'));
		}
	});
	return t;
}
/* The POSTs of owner.html without an idempotency key (a test of its own
 * at the end of a file that makes some). */
export function postsStep(t) {
	t.step('every POST of the back office in this file carried an idempotency_key', () => {
		const keyless = t.posts.filter((p) => p.endsWith('WITHOUT A KEY'));
		if (!t.posts.length || keyless.length) throw new Error(t.posts.length + ' POSTs; without a key: ' + keyless.join(', '));
	});
}

/* owner.html loaded, showing what it shows first. */
export async function openOwner(t, hash) {
	await t.goto(URL0 + 'owner.html' + (hash ? '#' + hash : ''));
	await t.waitFor(`document.readyState === 'complete' && (vis('#login-form') || vis('#app-view') || vis('#setup-form') || vis('#staff-view') || vis('#boot-error'))`);
}
/* The owner logged in at the back office's login form. */
export async function ownerLogin(t, who) {
	const u = who || OWNER;
	await openOwner(t);
	await t.waitFor(`vis('#login-form')`);
	await t.ev(`fill('#login-email', ${JSON.stringify(u.email)}) && fill('#login-password', ${JSON.stringify(u.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#app-view') && !vis('#login-view')`);
}
export const nav = (t, sec) => t.ev(`(click('#side-nav a[data-sec="${sec}"]'), true)`);
export const ownerToken = (t) => t.ev(`sessionStorage.getItem('pos.access_token')`);

/* The card of the customer named name opened in Cards (found by q):
 * its detail shown. */
export async function openCard(t, q, name) {
	await nav(t, 'cards');
	await t.ev(`fill('#search-q', ${JSON.stringify(q)}) && click('#search-form button[type=submit]')`);
	await t.waitFor(`rowOf('#cards-body', ${JSON.stringify(name)})`);
	await t.ev(`click(btnIn(rowOf('#cards-body', ${JSON.stringify(name)}), 'View'))`);
	await t.waitFor(`vis('#card-detail') && text('#detail-title') === ${JSON.stringify(name)}`);
}
/* A download the click in clickExpr starts: its path, under the name
 * the page gave it. */
export async function download(t, clickExpr, ms) {
	const [d] = await Promise.all([t.page.waitForEvent('download', { timeout: ms || 10000 }), t.ev(clickExpr)]);
	const f = path.join(t.dl, d.suggestedFilename());
	await d.saveAs(f);
	return f;
}

/* A screen at the three widths: screenshots, and the page must not
 * scroll sideways at any of them (throws, naming what sticks out). Ends
 * at 1280 px. */
export async function shots3(t, name) {
	const wide = [];
	for (const w of [390, 768, 1280]) {
		await t.viewport(w, 900);
		await t.ev(`(scrollTo(0, 0), true)`);
		await sleep(200);	/* the chart redraws at its new width */
		await t.settle();
		const sw = await t.ev(`document.documentElement.scrollWidth`);
		if (sw > w) wide.push(name + ' at ' + w + ' px is ' + sw + ' px wide, because of ' + await t.ev(`$$('body *').filter((e) => {
			const r = e.getBoundingClientRect(); return r.width && r.right > ${w} + 1 && !e.closest('#side-nav') && !Array.from(e.children).some((c) => c.getBoundingClientRect().right > ${w} + 1); })
			.slice(0, 6).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' (' + Math.round(e.getBoundingClientRect().right) + ')').join(', ')`));
		await t.shot(name + '-' + w);
	}
	await t.viewport(1280, 900);
	await t.settle();
	if (wide.length) throw new Error(wide.join('\n'));
}

/* The accessibility pass on what shows now, from the browser's own
 * accessibility tree (every control and link named, images too) and the
 * DOM (one visible h1, labelled fields, unique ids, lang, references to
 * ids that exist). Throws naming the screen's problems. */
export async function a11y(t, screen) {
	const { nodes } = await t.S('Accessibility.getFullAXTree');
	const NAMED = ['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton', 'listbox', 'image', 'img', 'dialog', 'navigation', 'region', 'table'];
	const bad = [];
	for (const x of nodes) {
		if (x.ignored) continue;
		const role = x.role && x.role.value;
		const name = x.name && typeof x.name.value === 'string' ? x.name.value.trim() : '';
		if (NAMED.includes(role) && !name) bad.push(role + ' without a name');
	}
	const dom = await t.ev(`(() => {
		const out = [];
		const shown = (e) => e.getClientRects().length > 0;
		const h1 = $$('h1').filter(shown);
		if (h1.length !== 1) out.push(h1.length + ' visible h1');
		for (const e of $$('input, select, textarea').filter(shown))
			if (e.type !== 'hidden' && !e.labels.length && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))
				out.push('no label: ' + (e.id || e.outerHTML.slice(0, 60)));
		const ids = $$('[id]').map((e) => e.id), seen = new Set();
		for (const i of ids) { if (seen.has(i)) out.push('duplicate id ' + i); seen.add(i); }
		if (document.documentElement.lang !== 'en') out.push('no lang');
		for (const e of $$('[aria-describedby], [aria-labelledby]'))
			for (const a of ['aria-describedby', 'aria-labelledby'])
				for (const r of (e.getAttribute(a) || '').split(/\\s+/).filter(Boolean))
					if (!document.getElementById(r)) out.push(a + ' to a missing id ' + r);
		return out;
	})()`);
	const all = Array.from(new Set(bad.concat(dom)));
	if (all.length) throw new Error('accessibility of ' + screen + ': ' + all.join('; '));
}

/* zbarimg on a PNG: the code (typed: with its symbology, EAN-13:...). */
export function zbar(file, typed) {
	try {
		return execFileSync('zbarimg', typed ? ['-q', file] : ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
	} catch (e) { return 'zbarimg failed: ' + (e.status === 4 ? 'no code found' : e.message); }
}
export const have = (cmd) => { try { execFileSync('sh', ['-c', 'command -v ' + cmd], { stdio: 'ignore' }); return true; } catch (e) { return false; } };
/* A PNG of one element, rendered at scale times its CSS size. */
export async function elementPng(t, sel, file, scale) {
	await t.ev(`($(${JSON.stringify(sel)}).scrollIntoView({ block: 'center' }), true)`);
	await t.settle();
	const b = await t.ev(`(() => { const r = $(${JSON.stringify(sel)}).getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; })()`);
	const r = await t.S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: Object.assign(b, { scale: scale || 3 }) });
	fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
	return file;
}
export const shotsDir = () => E.BROWSER_SHOTS || E.BROWSER_RUN || '/tmp';
