#!/usr/bin/env bash
# tests/owner_page.sh: the back office (htdocs/owner.html, owner.js,
# owner.css) driven in headless Chromium against a real backend: lighttpd
# with the built responders, started by lt_start of tests/lib.sh on a NEW
# EMPTY database (the seed command makes nothing: the first request
# creates the database). TAP output.
#
# The walk: the first-run setup, the code way first (the code read from
# the file beside the database) with its failures; then the proof way
# the button "I cannot open that file" switches to, kept for the tab
# across a reload: the proof file downloaded from the page and put into
# the responders' folder (a copy of the build's responders in api-bin/
# of the server's folder, the test user's alone, as on a host with
# suEXEC) sets the shop up; then starting over (the database's files
# deleted while the server runs and the owner is logged in) and the shop
# set up again with the new code; a location, a cashier, one program of
# each type; cards issued, their QR code and barcode images decoded with
# zbarimg and compared with the card; a printed sheet; the cashier
# records a purchase on the till page (index.html); the owner finds it
# in the report, its chart, both CSV downloads and a backup that passes
# integrity_check.
# Screenshots of the main screens at 390, 768 and 1280 px, and an
# accessibility pass on each (the browser's own accessibility tree:
# every control named, labels, one h1, unique ids).
#
# Chromium is driven as tests/pos_page.sh drives it: over the DevTools
# protocol through --remote-debugging-pipe by tests/browser.js (no
# WebSocket, no npm package, nothing downloaded), with the steps in the
# Node.js script written below. The whole test is skipped (1..0 # SKIP)
# when Chromium or Node cannot be had; as root, missing ones are
# installed with apt-get (group "browser" of tools/lib.sh) unless
# POS_TEST_INSTALL=0. zbarimg
# (zbar-tools, group "test") decodes the codes; rsvg-convert (librsvg2-bin)
# is optional: without it the QR code is decoded from Chromium's
# rendering only.
#
# Environment:
#   top_srcdir, top_builddir   as for every test
#   OWNER_SHOT_DIR   where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's log,
#                    downloads)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

# --- Chromium, Node and the decoders ----------------------------------------

browser_need
if ! command -v zbarimg >/dev/null 2>&1 && [ "${POS_TEST_INSTALL:-1}" != 0 ] &&
    [ "$(id -u)" -eq 0 ]; then
	diag "installing zbar-tools with apt-get"
	lc_want_packages test
fi
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed (apt-get install sqlite3)"

# --- backend: a new, empty installation --------------------------------------

browser_backend
# `true` as the seed command: nothing is made, not even the database file.
lt_start true
[ ! -e "$LT_DB" ] || bail "the seed command made $LT_DB"
# The responders from a folder of the test's own: where the proof file goes.
lt_own_responders
[ ! -e "$LT_DB" ] || bail "the server's start made $LT_DB"

browser_shots "${OWNER_SHOT_DIR:-${POS_SHOT_DIR:-}}" owner-page-shots
mkdir -p "$LT_DIR/downloads" || bail "cannot create $LT_DIR/downloads"

# --- the browser script ------------------------------------------------------

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
/* The back office's steps; the driver (the browser, TAP, step(), ev(),
 * the interceptions) is tests/browser.js, as for tests/pos_page.sh. */
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const B = require(process.env.BROWSER_JS);
const { ok, note, sleep, send, step, ev, waitFor, S, shot, viewport, settle, once, problems } = B;

const E = process.env;
const URL0 = B.config.url, SHOTS = B.config.shots, RUN = B.config.run, DL = path.join(RUN, 'downloads');
const OWNER = { email: 'olive@corner.example', password: 'owner-pass-123', name: 'Olive Owner' };
const CASHIER = { email: 'sam@corner.example', password: 'first-pass-1', password2: 'second-pass-2' };

const posts = [];     /* the back office's POSTs to the API */

/* The back office's own helpers, next to those of browser.js in ev();
 * a11y() reads the accessibility tree. */
B.init({ domains: ['Accessibility'], helpers: `
const dlg = () => $('dialog[open]');
const rowOf = (tbody, t) => $$(tbody + ' tr').find((r) => r.textContent.includes(t));
const btnIn = (row, label) => { const b = Array.from(row.querySelectorAll('button')).find((x) => x.textContent.trim() === label); if (!b) throw new Error('no button ' + label); return b; };
const toast = () => text('#toast');
` });

/* A screen at the three widths: screenshots, and the page must not
 * scroll sideways at any of them. Ends at 1280 px. */
const WIDTHS = [390, 768, 1280];
const wide = [];
async function shots3(name) {
	for (const w of WIDTHS) {
		await viewport(w, 900);
		await ev(`(scrollTo(0, 0), true)`);
		await sleep(200);	/* the chart redraws at its new width */
		await settle();
		const sw = await ev(`document.documentElement.scrollWidth`);
		if (sw > w) wide.push(name + ' at ' + w + ' px is ' + sw + ' px wide, because of ' + await ev(`$$('body *').filter((e) => {
			const r = e.getBoundingClientRect(); return r.width && r.right > ${w} + 1 && !e.closest('#side-nav') && !Array.from(e.children).some((c) => c.getBoundingClientRect().right > ${w} + 1); })
			.slice(0, 6).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') + ' (' + Math.round(e.getBoundingClientRect().right) + ')').join(', ')`));
		await shot(name + '-' + w);
	}
	await viewport(1280, 900);
	await settle();
}
/* A PNG of one element, rendered at `scale` times its CSS size. */
async function elementPng(sel, file, scale) {
	await ev(`($(${JSON.stringify(sel)}).scrollIntoView({ block: 'center' }), true)`);
	await settle();
	const b = await ev(`(() => { const r = $(${JSON.stringify(sel)}).getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; })()`);
	const r = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: Object.assign(b, { scale: scale || 3 }) });
	fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
	return file;
}
function zbar(file) {
	try {
		return execFileSync('zbarimg', ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
	} catch (e) { return 'zbarimg failed: ' + (e.status === 4 ? 'no code found' : e.message); }
}
function zbarTyped(file) {
	try {
		return execFileSync('zbarimg', ['-q', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
	} catch (e) { return 'zbarimg failed: ' + (e.status === 4 ? 'no code found' : e.message); }
}
const have = (cmd) => { try { execFileSync('sh', ['-c', 'command -v ' + cmd], { stdio: 'ignore' }); return true; } catch (e) { return false; } };

/* The API, straight from here (to check what the page did). */
async function apiCall(method, p, body, token) {
	const headers = { Accept: 'application/json' };
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	if (token) headers.Authorization = 'Bearer ' + token;
	const r = await fetch(URL0 + 'api/v1/' + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const t = await r.text();
	let j = null;
	try { j = JSON.parse(t); } catch (e) { /* not JSON */ }
	return { status: r.status, json: j, text: t };
}
const ownerToken = () => ev(`sessionStorage.getItem('pos.access_token')`);

/* Downloads land in DL under the name the page gave them. */
const downloads = new Map(); /* guid -> {name, state} */
async function download(clickExpr, ms) {
	const before = new Set(downloads.keys());
	await ev(clickExpr, true);
	const end = Date.now() + (ms || 10000);
	while (Date.now() < end) {
		for (const [g, d] of downloads)
			if (!before.has(g) && d.state === 'completed') return path.join(DL, d.name);
		await sleep(80);
	}
	throw new Error('no download finished after ' + clickExpr);
}

/* An accessibility pass on what shows now, from the browser's own
 * accessibility tree: every control and link has a name, images have
 * one, and from the DOM: one visible h1, labelled fields, unique ids. */
const a11yProblems = [];
async function a11y(screen) {
	const { nodes } = await S('Accessibility.getFullAXTree');
	const NAMED = ['button', 'link', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton', 'listbox', 'image', 'img', 'dialog', 'navigation', 'region', 'table'];
	const bad = [];
	for (const x of nodes) {
		if (x.ignored) continue;
		const role = x.role && x.role.value;
		const name = x.name && typeof x.name.value === 'string' ? x.name.value.trim() : '';
		if (NAMED.includes(role) && !name) bad.push(role + ' without a name');
	}
	const dom = await ev(`(() => {
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
	const all = bad.concat(dom);
	if (all.length) a11yProblems.push(screen + ': ' + Array.from(new Set(all)).join('; '));
	return all;
}

/* A page another tab opened (the sheet of cards): attached, loaded. */
async function popup(urlPrefix) {
	const end = Date.now() + 10000;
	while (Date.now() < end) {
		const { targetInfos } = await send('Target.getTargets');
		const t = targetInfos.find((x) => x.type === 'page' && x.url.startsWith(urlPrefix));
		if (t) {
			const { sessionId } = await send('Target.attachToTarget', { targetId: t.targetId, flatten: true });
			const P = (m, p) => send(m, p, sessionId);
			await P('Runtime.enable');
			await P('Log.enable');
			return { targetId: t.targetId, P };
		}
		await sleep(100);
	}
	throw new Error('no new tab at ' + urlPrefix);
}
async function pev(P, expr) {
	const r = await P('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
	if (r.exceptionDetails) throw new Error(r.exceptionDetails.text);
	return r.result.value;
}

const nav = (sec) => ev(`(click('#side-nav a[data-sec="${sec}"]'), true)`);

async function main() {
	B.on((m) => {
		/* Every POST the back office makes (but a login, a refresh or a logout)
		 * carries an idempotency key. */
		if (m.method === 'Network.requestWillBeSent' && m.sessionId === B.session() && m.params.request.method === 'POST' &&
		    m.params.request.url.startsWith(URL0 + 'api/v1/') && !/\/auth\/(login|refresh|logout)$/.test(m.params.request.url) &&
		    /\/owner\.html/.test(m.params.documentURL || '')) {
			let key = null;
			try { key = JSON.parse(m.params.request.postData || '{}').idempotency_key; } catch (e) { /* not JSON */ }
			posts.push(m.params.request.url.slice(URL0.length) + (typeof key === 'string' && /^[0-9a-f-]{36}$/.test(key) ? '' : ' WITHOUT A KEY'));
		}
		if (m.method === 'Browser.downloadWillBegin') downloads.set(m.params.guid, { name: m.params.suggestedFilename, state: 'started' });
		else if (m.method === 'Browser.downloadProgress' && downloads.has(m.params.guid)) downloads.get(m.params.guid).state = m.params.state;
	});
	B.launch();
	await B.openPage();
	await send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: DL, eventsEnabled: true });

	/* ---- first run ---- */

	const dbError = (p) => S('Fetch.fulfillRequest', {
		requestId: p.requestId, responseCode: 503,
		responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, { name: 'Retry-After', value: '1' }],
		body: Buffer.from(JSON.stringify({ success: false, error: { code: 'DATABASE_ERROR', message: 'The database is busy or failed; retry.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
	});
	/* The service's answer to a database folder it may not write. */
	const configError = (p) => S('Fetch.fulfillRequest', {
		requestId: p.requestId, responseCode: 500,
		responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }],
		body: Buffer.from(JSON.stringify({ success: false, error: { code: 'CONFIGURATION_ERROR', message: 'The database cannot be used: the file does not exist, and its folder is not writable by this user, who would create it. Fix its permissions or the path set for the service; the server\'s error log names the file.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
	});

	await step('500 CONFIGURATION_ERROR when the page asks for the setup: what to fix on the server', async () => {
		if (fs.existsSync(E.OWNER_DB)) throw new Error('the database exists before the first request');
		await once('api/v1/setup', 'Request', configError);
		await S('Page.navigate', { url: URL0 + 'owner.html' });
		await waitFor(`document.readyState === 'complete' && vis('#boot-error') && text('#boot-error').includes('write in that folder')`);
		const t = await ev(`text('#boot-error')`);
		if (!await ev(`$('#boot-error [data-code=CONFIGURATION_ERROR]')`)) throw new Error('no data-code');
		if (/\(CONFIGURATION_ERROR\)/.test(await ev(`text('#boot-error')`))) throw new Error('the code is shown');
		for (const w of ['its folder is not writable', 'loyalty.conf', 'SetEnv LOYALTY_DB', '755', '777', 'error log'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
		if (t.includes('Try again in')) throw new Error('a wait for an error retrying does not fix: ' + t);
		await shot('owner-boot-db-error');
		await a11y('boot error');
		return ev(`vis('#boot-retry') && document.activeElement === $('#boot-retry') && !vis('#setup-form')`);
	});

	await step('a new installation opens the setup form, which names the code file', async () => {
		if (fs.existsSync(E.OWNER_DB)) throw new Error('the database exists before the first request');
		await ev(`click('#boot-retry')`);
		await waitFor(`document.readyState === 'complete' && vis('#setup-form') && !vis('#login-form') && !vis('#app-view')`);
		const t = await ev(`text('#setup-view')`);
		for (const w of ['loyalty.db.setup-code', 'beside', 'file manager', 'Setup code', 'Shop name', 'First location', 'Password again'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
		if (!fs.existsSync(E.OWNER_DB)) throw new Error('the first request did not create the database');
		/* Readable by the web server's user alone (0600). */
		const mode = fs.statSync(E.OWNER_CODE).mode & 0o777;
		if (mode & 0o077) throw new Error('code file mode ' + mode.toString(8));
		return ev(`document.title.startsWith('Set up') && document.activeElement === $('#setup-code')`);
	});
	await shots3('owner-setup');
	await a11y('setup');

	const fillSetup = (code, p2) => ev(`fill('#setup-code', ${JSON.stringify(code)}) && fill('#setup-shop', 'Corner Cafe') &&
	    fill('#setup-location', 'High Street') && fill('#setup-name', ${JSON.stringify(OWNER.name)}) &&
	    fill('#setup-email', ${JSON.stringify(OWNER.email)}) && fill('#setup-password', ${JSON.stringify(OWNER.password)}) &&
	    fill('#setup-password2', ${JSON.stringify(p2 || OWNER.password)}) && click('#setup-submit')`);

	await step('a wrong setup code shows the API\'s message on the code field', async () => {
		await fillSetup('WRONGCODE0000');
		await waitFor(`vis('#setup-error') && text('#setup-error').includes('setup code is wrong')`);
		await shot('owner-setup-wrong-code');
		return ev(`$('#setup-code').getAttribute('aria-invalid') === 'true' && document.activeElement === $('#setup-code') && vis('#setup-form')`);
	});

	await step('two different passwords are refused in the page', async () => {
		await fillSetup('WRONGCODE0000', 'something-else');
		await waitFor(`text('#setup-error').includes('passwords differ')`);
		return ev(`document.activeElement === $('#setup-password2')`);
	});

	await step('503 DATABASE_ERROR on setup: busy, try again, no talk of permissions', async () => {
		await once('api/v1/setup', 'Request', dbError);
		await fillSetup('WRONGCODE0000');
		await waitFor(`$('#setup-error [data-code=DATABASE_ERROR]')`);
		const t = await ev(`text('#setup-error')`);
		if (!t.includes('The database is busy or failed') || t.includes('loyalty.conf')) throw new Error(t);
		await shot('owner-setup-db-error');
	});

	/* ---- the proof way ---- */

	/* WCAG's contrast of an element's text with what is behind it. */
	const contrast = (sel) => ev(`(() => {
		const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		let bg = 'rgb(255, 255, 255)';
		for (let e = $(${JSON.stringify(sel)}); e; e = e.parentElement) {
			const c = getComputedStyle(e).backgroundColor, m = c.match(/[\\d.]+/g);
			if (m && (m.length < 4 || Number(m[3]) > 0)) { bg = c; break; }
		}
		const a = lum(getComputedStyle($(${JSON.stringify(sel)})).color), b = lum(bg);
		return Math.round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 100) / 100;
	})()`);
	let proof = null;
	await step('the code way is the default, with a button "I cannot open that file" for the other way', async () => {
		const st = await ev(`({ sw: vis('#setup-switch-button') && text('#setup-switch-button'), code: vis('#setup-code-field') && vis('#setup-code-in-file'), proof: vis('#setup-proof') })`);
		if (st.sw !== 'I cannot open that file' || !st.code || st.proof) throw new Error(JSON.stringify(st));
	});
	await step('... whose text can be read (contrast at least 4.5:1)', async () => {
		const c = await contrast('#setup-switch-button');
		if (c < 4.5) throw new Error('contrast ' + c + ':1, ' + await ev(`getComputedStyle($('#setup-switch-button')).color`) + ' on the notice\'s background');
	});
	await step('"I cannot open that file" switches to the proof way: the file to download by its name, the folder named, no setup code field', async () => {
		await ev(`click('#setup-switch-button')`);
		await waitFor(`vis('#setup-proof') && !vis('#setup-code-field')`);
		proof = await ev(`({ name: text('#setup-proof-name'), folder: text('#setup-proof-folder'), dl: $('#setup-proof-download').download,
		    href: $('#setup-proof-download').href, sw: text('#setup-switch-button'), codeHelp: vis('#setup-code-in-file') || vis('#setup-code-by-command'),
		    why: vis('#setup-proof-why'), focus: document.activeElement === $('#setup-proof-download'), steps: text('#setup-proof') })`);
		if (!/^loyalty-setup-[a-z2-7]{24}\.txt$/.test(proof.name)) throw new Error('file name ' + proof.name);
		if (proof.folder !== path.basename(E.OWNER_RESP)) throw new Error('folder ' + proof.folder + ', not ' + path.basename(E.OWNER_RESP));
		if (proof.dl !== proof.name || !proof.href.startsWith('blob:')) throw new Error('download link ' + proof.dl + ' ' + proof.href);
		if (proof.sw !== 'Use the setup code instead' || proof.codeHelp || !proof.focus) throw new Error(JSON.stringify(proof));
		/* Said only where the host runs the programs as another user. */
		if (proof.why) throw new Error('"the web server\'s user" said on a host that runs the programs as their owner');
		for (const w of [proof.name, proof.folder + '/', 'Download the proof file', 'Create my shop'])
			if (!proof.steps.includes(w)) throw new Error('missing ' + w + ' in: ' + proof.steps);
		if (fs.existsSync(path.join(E.OWNER_RESP, proof.name))) throw new Error('the service made the proof file itself');
	});
	await shots3('owner-setup-proof');
	await a11y('setup, the proof way');

	const fillProof = () => ev(`fill('#setup-shop', 'Proof Cafe') && fill('#setup-location', 'Proof Street') && fill('#setup-name', ${JSON.stringify(OWNER.name)}) &&
	    fill('#setup-email', ${JSON.stringify(OWNER.email)}) && fill('#setup-password', ${JSON.stringify(OWNER.password)}) &&
	    fill('#setup-password2', ${JSON.stringify(OWNER.password)}) && click('#setup-submit')`);
	const setupPosts = [];
	B.on((m) => {
		if (m.method === 'Network.requestWillBeSent' && m.sessionId === B.session() && m.params.request.method === 'POST' &&
		    m.params.request.url === URL0 + 'api/v1/setup')
			setupPosts.push(m.params.request.postData || '');
	});
	await step('the proof way before the file is there: the API\'s message names the file and the folder', async () => {
		await fillProof();
		await waitFor(`vis('#setup-error') && text('#setup-error').includes(${JSON.stringify(proof.name)})`);
		const t = await ev(`text('#setup-error')`);
		if (!t.includes('(' + proof.folder + '/)')) throw new Error(t);
		const sent = JSON.parse(setupPosts[setupPosts.length - 1] || '{}');
		if (typeof sent.setup_proof !== 'string' || !/^[a-z2-7]{26}$/.test(sent.setup_proof) || 'setup_code' in sent) throw new Error('sent ' + JSON.stringify(Object.keys(sent)));
		await ev(`(scrollTo(0, 0), true)`);
		await settle();
		await shot('owner-setup-proof-missing');
		return ev(`vis('#setup-form') && vis('#setup-proof')`);
	});

	await step('a reload keeps the proof for the tab: the same file name, so a file uploaded meanwhile still counts', async () => {
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#setup-form') && vis('#setup-switch-button')`);
		await ev(`vis('#setup-proof') || click('#setup-switch-button')`);
		await waitFor(`vis('#setup-proof')`);
		const now = await ev(`({ name: text('#setup-proof-name'), dl: $('#setup-proof-download').download })`);
		if (now.name !== proof.name || now.dl !== proof.name) throw new Error(JSON.stringify(now) + ' after a reload, not ' + proof.name);
	});

	await step('the proof file downloaded from the page and put into the responders\' folder sets the shop up; the service deletes it', async () => {
		const f = await download(`click('#setup-proof-download')`);
		if (path.basename(f) !== proof.name) throw new Error('downloaded ' + f);
		if (!fs.readFileSync(f, 'utf8').includes(proof.folder + '/')) throw new Error('the file says: ' + fs.readFileSync(f, 'utf8'));
		const put = path.join(E.OWNER_RESP, proof.name);
		fs.copyFileSync(f, put);
		await fillProof();
		await waitFor(`vis('#app-view') && vis('#sec-overview') && !vis('#setup-view')`);
		const notice = await ev(`text('#app-notice')`);
		/* The service deleted the file itself here: nothing to ask. */
		if (!notice.includes('Proof Cafe') || notice.includes(proof.name)) throw new Error(notice);
		if (fs.existsSync(put)) throw new Error('the proof file is still there');
		if (fs.existsSync(E.OWNER_CODE)) throw new Error('the code file is still there');
		const st = (await apiCall('GET', 'setup')).status;
		if (st !== 404) throw new Error('GET setup answers ' + st);
		return ev(`JSON.parse(sessionStorage.getItem('pos.user')).user_type === 'owner' && text('#who-email') === ${JSON.stringify(OWNER.email)}`);
	});
	await shot('owner-setup-proof-done');

	await step('starting over: the database\'s files deleted while the server runs and the owner is logged in, a reload ends the session and offers the setup again with a new code', async () => {
		for (const x of ['', '-wal', '-shm', '-queue']) fs.rmSync(E.OWNER_DB + x, { force: true });
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#setup-form') && vis('#setup-code-field') && !vis('#setup-proof')`);
		if (!fs.existsSync(E.OWNER_DB)) throw new Error('no new database');
		if ((fs.statSync(E.OWNER_CODE).mode & 0o777) !== 0o600) throw new Error('code file mode ' + (fs.statSync(E.OWNER_CODE).mode & 0o777).toString(8));
		const name = await ev(`text('#setup-proof-name')`);
		if (name === proof.name) throw new Error('the same proof file name after a reload');
		return ev(`text('#setup-switch-button') === 'I cannot open that file' && document.activeElement === $('#setup-code')`);
	});

	await step('the code from the file creates the shop and logs the owner in', async () => {
		const code = fs.readFileSync(E.OWNER_CODE, 'utf8').trim();
		if (!/^[A-Z0-9]{8,64}$/.test(code)) throw new Error('code file: ' + code);
		await fillSetup(code);
		await waitFor(`vis('#app-view') && vis('#sec-overview') && !vis('#setup-view')`);
		if (fs.existsSync(E.OWNER_CODE)) throw new Error('the code file is still there');
		const notice = await ev(`text('#app-notice')`);
		if (!notice.includes('Corner Cafe')) throw new Error(notice);
		const st = (await apiCall('GET', 'setup')).status;
		if (st !== 404) throw new Error('GET setup answers ' + st);
		return ev(`!!sessionStorage.getItem('pos.access_token') && !!sessionStorage.getItem('pos.refresh_token') &&
		    JSON.parse(sessionStorage.getItem('pos.user')).user_type === 'owner' && text('#who-email') === ${JSON.stringify(OWNER.email)}`);
	});

	await step('the overview lists the next steps', async () => {
		await waitFor(`$$('#steps li').length === 6 && text('#steps').includes('1 location')`);
		const t = await ev(`text('#steps')`);
		for (const w of ['Add a login for each till', 'Create a loyalty program', 'Issue cards'])
			if (!t.includes(w)) throw new Error(t);
		return waitFor(`text('#today-figures').includes('Sales')`);
	});
	await shots3('owner-overview');
	await a11y('overview');

	await step('a reload keeps the session (tokens in sessionStorage)', async () => {
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#app-view') && vis('#sec-overview')`);
		return ev(`!vis('#login-view') && !vis('#setup-view')`);
	});

	await step('the menu works from the keyboard', async () => {
		await ev(`($('#side-nav a[data-sec="locations"]').focus(), true)`);
		await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13, text: '\r' });
		await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 });
		await waitFor(`vis('#sec-locations') && !vis('#sec-overview')`);
		return ev(`document.activeElement === $('#h-locations') && $('#side-nav a[data-sec="locations"]').getAttribute('aria-current') === 'page' && location.hash === '#locations'`);
	});

	/* ---- locations ---- */

	await step('adding a location', async () => {
		await waitFor(`text('#locations-body').includes('High Street')`);
		await ev(`fill('#location-name', 'Harbour Kiosk') && click('#location-form button[type=submit]')`);
		await waitFor(`text('#locations-body').includes('Harbour Kiosk') && toast().includes('added')`);
		return ev(`$$('#locations-body tr').length === 2 && $('#location-name').value === ''`);
	});

	await step('renaming a location (dialog)', async () => {
		await ev(`click(btnIn(rowOf('#locations-body', 'Harbour Kiosk'), 'Rename'))`);
		await waitFor(`dlg() && document.activeElement === dlg().querySelector('input')`);
		await a11y('rename dialog');
		await ev(`(dlg().querySelector('input').value = 'Harbour Kiosk East', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && text('#locations-body').includes('Harbour Kiosk East')`);
		const r = await apiCall('GET', 'admin/locations', undefined, await ownerToken());
		const names = r.json.data.locations.map((l) => l.name).join();
		if (names !== 'High Street,Harbour Kiosk East') throw new Error(names);
	});
	await shots3('owner-locations');
	await a11y('locations');

	/* ---- staff ---- */

	let cashierId;
	await step('adding a cashier with a location and an initial password', async () => {
		await nav('staff');
		await waitFor(`vis('#sec-staff') && text('#staff-body').includes(${JSON.stringify(OWNER.email)}) && $$('#staff-location option').length === 2`);
		await ev(`fill('#staff-name', 'Sam Staff') && fill('#staff-email-new', ${JSON.stringify(CASHIER.email)}) && pick('#staff-type', 'system_user') &&
		    pickText('#staff-location', 'High Street') && fill('#staff-password', ${JSON.stringify(CASHIER.password)}) &&
		    fill('#staff-password2', ${JSON.stringify(CASHIER.password)}) && click('#staff-form button[type=submit]')`);
		await waitFor(`rowOf('#staff-body', 'Sam Staff') && toast().includes('added')`);
		const row = await ev(`rowOf('#staff-body', 'Sam Staff').textContent`);
		if (!['Staff', 'High Street', 'Active', CASHIER.email].every((w) => row.includes(w))) throw new Error(row);
		const r = await apiCall('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
		if (r.status !== 200) throw new Error('cashier login: ' + r.text);
		cashierId = r.json.user.id;
	});

	await step('a taken e-mail shows the API\'s CONFLICT message on the e-mail field', async () => {
		await ev(`fill('#staff-name', 'Sam Again') && fill('#staff-email-new', ${JSON.stringify(CASHIER.email)}) &&
		    fill('#staff-password', 'whatever-123') && fill('#staff-password2', 'whatever-123') && click('#staff-form button[type=submit]')`);
		await waitFor(`text('#staff-form .form-msg').includes('exists already')`);
		return ev(`$('#staff-email-new').getAttribute('aria-invalid') === 'true' && document.activeElement === $('#staff-email-new')`);
	});

	await step('editing a cashier: renamed and moved to another location', async () => {
		await ev(`fill('#staff-name', '') && fill('#staff-email-new', '') && fill('#staff-password', '') && fill('#staff-password2', '')`);
		await ev(`click(btnIn(rowOf('#staff-body', 'Sam Staff'), 'Edit'))`);
		await waitFor(`dlg() && dlg().querySelector('select')`);
		await ev(`(dlg().querySelector('input').value = 'Sam Till', (() => { const s = dlg().querySelector('select'); s.value = Array.from(s.options).find((o) => o.textContent === 'Harbour Kiosk East').value; })(), click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && rowOf('#staff-body', 'Sam Till') && rowOf('#staff-body', 'Sam Till').textContent.includes('Harbour Kiosk East')`);
	});

	await step('disabling a cashier (after a confirmation) refuses their login; enabling gives it back', async () => {
		await ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'Disable'))`);
		await waitFor(`dlg() && text('dialog[open]').includes('logged out')`);
		await ev(`click(dlg().querySelector('button[type=submit]'))`);
		await waitFor(`!dlg() && rowOf('#staff-body', 'Sam Till').textContent.includes('Disabled')`);
		await shots3('owner-staff');
		await a11y('staff');
		const r = await apiCall('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
		if (r.status === 200) throw new Error('a disabled cashier logged in');
		await ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'Enable'))`);
		await waitFor(`rowOf('#staff-body', 'Sam Till').textContent.includes('Active')`);
		const r2 = await apiCall('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
		if (r2.status !== 200) throw new Error('enabled cashier: ' + r2.text);
	});

	await step('setting a new password for the cashier', async () => {
		await ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'New password'))`);
		await waitFor(`dlg() && dlg().querySelectorAll('input[type=password]').length === 2`);
		await ev(`(dlg().querySelectorAll('input')[0].value = 'short', dlg().querySelectorAll('input')[1].value = 'short', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`dlg() && text('dialog[open] .form-msg').includes('at least 8')`);
		await ev(`(dlg().querySelectorAll('input')[0].value = ${JSON.stringify(CASHIER.password2)}, dlg().querySelectorAll('input')[1].value = ${JSON.stringify(CASHIER.password2)}, click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && toast().includes('New password set')`);
		const old = await apiCall('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
		const neu = await apiCall('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password2 });
		if (old.status === 200 || neu.status !== 200) throw new Error('old ' + old.status + ', new ' + neu.status);
	});

	/* ---- programs ---- */

	await step('adding a punch program', async () => {
		await nav('programs');
		await waitFor(`vis('#sec-programs') && text('#programs-list').includes('No programs yet')`);
		await ev(`click('input[name=ptype][value=punch]') && fill('#program-title', 'Coffee Card')`);
		await ev(`(() => { const f = (l) => Array.from($$('#program-punch-fields label')).find((x) => x.textContent.startsWith(l)).control;
		    f('Punches for a reward').value = '10'; f('Reward').value = 'Free coffee'; f('Reward description').value = 'Any hot drink';
		    f('Reward value').value = '3.50'; f('Seconds between').value = '60'; return click('#program-form button[type=submit]'); })()`);
		await waitFor(`text('#programs-list').includes('Coffee Card') && toast().includes('added')`);
		const t = await ev(`text('#programs-list')`);
		if (!['10 punches', 'Free coffee', '3.50', 'Any hot drink', '60 seconds'].every((w) => t.includes(w))) throw new Error(t);
	});

	await step('adding a cashback program with 2 tiers (tiers editor)', async () => {
		await ev(`click('input[name=ptype][value=cashback]') && fill('#program-title', 'Cashback Club')`);
		await waitFor(`vis('#program-tier-fields') && !vis('#program-punch-fields') && $$('#program-tier-fields .tier-row').length === 1`);
		await ev(`click(Array.from($$('#program-tier-fields button')).find((b) => b.textContent === 'Add a tier'))`);
		await ev(`(() => { const rows = $$('#program-tier-fields .tier-row'); const set = (r, i, v) => { r.querySelectorAll('input')[i].value = v; };
		    set(rows[0], 0, 'Bronze'); set(rows[0], 2, '2'); set(rows[1], 0, 'Gold'); set(rows[1], 1, '0'); set(rows[1], 2, '5'); return true; })()`);
		await ev(`($('#program-tier-fields input[data-field=expiry_days]').value = '365', true)`);
		await ev(`click('#program-form button[type=submit]')`);
		await waitFor(`text('#program-form .form-msg').includes('must be higher')`);
		await shot('owner-programs-tier-error');
		await ev(`($$('#program-tier-fields .tier-row')[1].querySelectorAll('input')[1].value = '500', click('#program-form button[type=submit]'))`);
		await waitFor(`text('#programs-list').includes('Cashback Club')`);
		const r = await apiCall('GET', 'admin/programs', undefined, await ownerToken());
		const p = r.json.data.programs.find((x) => x.title === 'Cashback Club');
		if (JSON.stringify(p.tiers) !== JSON.stringify([{ name: 'Bronze', min_spend: 0, rate: 0.02 }, { name: 'Gold', min_spend: 500, rate: 0.05 }])) throw new Error(JSON.stringify(p));
		if (p.expiry_days !== 365) throw new Error('expiry_days: ' + JSON.stringify(p));
		const t = await ev(`text('#programs-list')`);
		if (!t.includes('Cashback expires 365 days after it is earned.')) throw new Error(t);
	});

	await step('adding a discount program', async () => {
		await ev(`click('input[name=ptype][value=discount]') && fill('#program-title', 'Member Discount')`);
		await waitFor(`$$('#program-tier-fields .tier-row').length === 1`);
		await ev(`(() => { const r = $$('#program-tier-fields .tier-row')[0].querySelectorAll('input'); r[0].value = 'Member'; r[2].value = '5'; return click('#program-form button[type=submit]'); })()`);
		await waitFor(`text('#programs-list').includes('Member Discount') && $$('#programs-list article').length === 3`);
	});

	await step('editing a program: title and tiers', async () => {
		await ev(`click(btnIn($$('#programs-list article').find((a) => a.textContent.includes('Cashback Club')), 'Edit'))`);
		await waitFor(`dlg() && dlg().querySelectorAll('.tier-row').length === 2`);
		await a11y('program dialog');
		await shot('owner-program-edit');
		await ev(`(() => { const d = dlg(); d.querySelector('input').value = 'Cashback Club Plus';
		    d.querySelectorAll('.tier-row')[1].querySelectorAll('input')[2].value = '6';
		    d.querySelector('input[data-field=expiry_days]').value = '0'; return click(d.querySelector('button[type=submit]')); })()`);
		await waitFor(`dlg() && text('dialog[open] .form-msg').includes('from 1 to 3650')`);
		await ev(`(() => { const d = dlg(); d.querySelector('input[data-field=expiry_days]').value = ''; return click(d.querySelector('button[type=submit]')); })()`);
		await waitFor(`!dlg() && text('#programs-list').includes('Cashback Club Plus') && text('#programs-list').includes('6%') &&
		    text('#programs-list').includes('Cashback never expires.')`);
	});
	await shots3('owner-programs');
	await a11y('programs');

	/* ---- cards ---- */

	let bob;
	await step('issuing cards: several customers, one a line', async () => {
		await nav('cards');
		await waitFor(`vis('#sec-cards') && $$('#issue-program option').length === 3`);
		await ev(`pickText('#issue-program', 'Cashback Club Plus') && fill('#issue-names', 'Ann Smith\\nBob Brown\\n\\n  Cy Doe  ') && click('#issue-form button[type=submit]')`);
		await waitFor(`vis('#issued') && $$('#issued-list li').length === 3`);
		if (!(await ev(`text('#issued-text')`)).includes('3 cards issued')) throw new Error(await ev(`text('#issued')`));
		await ev(`pickText('#issue-program', 'Coffee Card') && fill('#issue-names', 'Dan Punch') && click('#issue-form button[type=submit]')`);
		await waitFor(`text('#issued-text').includes('1 card issued') && text('#issued-list').includes('Dan Punch')`);
		await ev(`pickText('#issue-program', 'Member Discount') && fill('#issue-names', 'Eve Discount') && click('#issue-form button[type=submit]')`);
		await waitFor(`text('#issued-list').includes('Eve Discount')`);
		await waitFor(`text('#cards-page').includes('5 cards')`);
		const r = await apiCall('GET', 'admin/cards?q=bob', undefined, await ownerToken());
		bob = r.json.data.cards[0];
		if (!bob || bob.customer_name !== 'Bob Brown' || bob.card_type !== 'cashback') throw new Error(r.text);
	});

	await step('searching cards by name, barcode and id', async () => {
		for (const q of ['bob', bob.barcode_value, bob.card_instance_id]) {
			await ev(`fill('#search-q', ${JSON.stringify(q)}) && click('#search-form button[type=submit]')`);
			await waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Bob Brown') && text('#cards-page').includes('1 card')`);
		}
		await ev(`fill('#search-q', 'nobody-like-this') && click('#search-form button[type=submit]')`);
		await waitFor(`text('#cards-body').includes('No cards match')`);
	});

	await step('a card\'s detail: balance, QR and barcode shown from blob: URLs', async () => {
		await ev(`fill('#search-q', 'bob') && click('#search-form button[type=submit]')`);
		await waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Bob Brown')`);
		await ev(`click(btnIn(rowOf('#cards-body', 'Bob Brown'), 'View'))`);
		await waitFor(`vis('#card-detail') && text('#detail-title') === 'Bob Brown' && $('#detail-qr').complete && $('#detail-qr').naturalWidth > 0 && $('#detail-barcode').complete && $('#detail-barcode').naturalWidth > 0`);
		/* The history comes in a request of its own, slower under the
		 * sanitizers. */
		await waitFor(`text('#card-detail').includes('No transactions yet')`);
		const t = await ev(`text('#card-detail')`);
		for (const w of ['Cashback Club Plus', 'Cashback balance', '0.00', 'Bronze', bob.barcode_value, bob.qr_code_data, 'No transactions yet'])
			if (!t.includes(w)) throw new Error('missing ' + w + ' in ' + t);
		return ev(`$('#detail-qr').src.startsWith('blob:') && $('#detail-barcode').src.startsWith('blob:') && $('#detail-qr').alt.includes('Bob Brown')`);
	});
	await shots3('owner-cards');
	await a11y('cards');

	const haveZbar = have('zbarimg'), haveRsvg = have('rsvg-convert');
	if (!haveZbar) {
		console.log('ok ' + (++n) + ' # SKIP zbarimg is not installed (apt-get install zbar-tools)');
		console.log('ok ' + (++n) + ' # SKIP zbarimg is not installed (apt-get install zbar-tools)');
	} else {
		await step('the QR image, as Chromium shows it, decodes to the card\'s qr_code_data', async () => {
			const f = await elementPng('#detail-qr', path.join(SHOTS, 'owner-card-qr.png'), 3);
			const got = zbar(f);
			if (got !== bob.qr_code_data) throw new Error('zbarimg: ' + got + ', want ' + bob.qr_code_data);
		});
		await step('the barcode image decodes to the card\'s barcode_value (EAN-13)', async () => {
			const f = await elementPng('#detail-barcode', path.join(SHOTS, 'owner-card-barcode.png'), 3);
			const got = zbarTyped(f);
			if (got !== 'EAN-13:' + bob.barcode_value) throw new Error('zbarimg: ' + got + ', want EAN-13:' + bob.barcode_value);
		});
	}
	if (!haveZbar || !haveRsvg) {
		console.log('ok ' + (++n) + ' # SKIP rsvg-convert or zbarimg is not installed (apt-get install librsvg2-bin zbar-tools)');
	} else {
		await step('the QR and barcode SVGs of the API, converted by rsvg-convert, decode too', async () => {
			const tok = await ownerToken();
			for (const [what, want, typed] of [['qr', bob.qr_code_data, false], ['barcode', 'EAN-13:' + bob.barcode_value, true]]) {
				const r = await apiCall('GET', 'admin/cards/' + bob.card_instance_id + '/' + what + '.svg', undefined, tok);
				if (r.status !== 200 || !r.text.includes('<svg')) throw new Error(what + ': ' + r.status + ' ' + r.text.slice(0, 200));
				const sf = path.join(RUN, what + '.svg'), pf = path.join(RUN, what + '.png');
				fs.writeFileSync(sf, r.text);
				execFileSync('rsvg-convert', ['-w', '600', '-b', 'white', '-o', pf, sf], { stdio: 'ignore' });
				const got = typed ? zbarTyped(pf) : zbar(pf);
				if (got !== want) throw new Error(what + ': zbarimg: ' + got + ', want ' + want);
			}
		});
	}

	await step('deactivating a card (confirmed) and activating it again', async () => {
		await ev(`click('#detail-toggle')`);
		await waitFor(`dlg() && text('dialog[open]').includes('Deactivate the card of Bob Brown')`);
		await ev(`click(dlg().querySelector('button[type=submit]'))`);
		await waitFor(`!dlg() && text('#detail-status') === 'Inactive' && text('#cards-body').includes('Inactive')`);
		const r = await apiCall('GET', 'admin/cards/' + bob.card_instance_id, undefined, await ownerToken());
		if (r.json.data.card.status !== 'inactive') throw new Error(r.text);
		await shot('owner-card-inactive');
		await ev(`click('#detail-toggle')`);
		await waitFor(`text('#detail-status') === 'Active' && text('#detail-toggle') === 'Deactivate'`);
	});

	await step('a new link for a card (confirmed): the page shows it, the old link is 404, the new one the card', async () => {
		const old = (await ev(`text('#detail-page')`)).replace(/^.*#/, '');
		if (!/^[0-9a-f]{32}$/.test(old)) throw new Error('link ' + old);
		await ev(`click('#detail-redraw')`);
		await waitFor(`dlg() && text('dialog[open]').includes('Make a new link for the card of Bob Brown')`);
		await ev(`click(dlg().querySelector('button[type=submit]'))`);
		await waitFor(`!dlg() && /#[0-9a-f]{32}$/.test(text('#detail-page')) && !text('#detail-page').endsWith('#${old}') && toast().includes('new link')`);
		const now = (await ev(`text('#detail-page')`)).replace(/^.*#/, '');
		const a = await apiCall('GET', 'mycard/' + old), b = await apiCall('GET', 'mycard/' + now);
		if (a.status !== 404 || b.status !== 200 || b.json.data.customer_name !== 'Bob Brown') throw new Error(a.status + ' ' + b.status);
	});

	await step('renaming a card', async () => {
		await ev(`click('#detail-rename')`);
		await waitFor(`dlg()`);
		await ev(`(dlg().querySelector('input').value = 'Robert Brown', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && text('#detail-title') === 'Robert Brown'`);
		await ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
		await waitFor(`$$('#cards-body tr').length === 1 && text('#cards-body').includes('Robert Brown')`);
	});

	await step('printing the selected cards: a sheet opens in a new tab and renders', async () => {
		await ev(`fill('#search-q', '') && pick('#search-program', '') && click('#search-form button[type=submit]')`);
		await waitFor(`$$('#cards-body tr').length === 5`);
		await ev(`(click('#select-page'), true)`);
		await waitFor(`text('#select-count') === '5 cards selected.' && !$('#print-selected').disabled`);
		await ev(`(click(rowOf('#cards-body', 'Eve Discount').querySelector('input')), true)`);
		await waitFor(`text('#select-count') === '4 cards selected.'`);
		await ev(`click('#print-selected')`, true);
		const tab = await popup('blob:');
		await waitFor(`text('#sheet-note').includes('4 cards opened in a new tab')`);
		const end = Date.now() + 10000;
		let r;
		while (Date.now() < end) {
			r = await pev(tab.P, `(() => { const c = Array.from(document.querySelectorAll('.card'));
			    return document.readyState === 'complete' && c.length ? { n: c.length, w: c[0].getBoundingClientRect().width, title: document.title,
			    bg: getComputedStyle(document.body).backgroundColor, text: document.body.textContent } : null; })()`).catch(() => null);
			if (r) break;
			await sleep(100);
		}
		if (!r) throw new Error('the sheet did not load');
		/* 85 mm is 321 CSS px: the sheet's own style sheet applies. */
		if (r.n !== 4 || Math.abs(r.w - 321.26) > 1 || r.bg !== 'rgb(238, 238, 238)') throw new Error(JSON.stringify(r).slice(0, 300));
		for (const w of ['Corner Cafe', 'Robert Brown', 'Ann Smith', 'Dan Punch', 'Cashback Club Plus']) if (!r.text.includes(w)) throw new Error('sheet lacks ' + w);
		await tab.P('Emulation.setDeviceMetricsOverride', { width: 900, height: 1200, deviceScaleFactor: 1, mobile: false });
		const png = await tab.P('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
		fs.writeFileSync(path.join(SHOTS, 'owner-sheet.png'), Buffer.from(png.data, 'base64'));
		await send('Target.closeTarget', { targetId: tab.targetId });
	});

	await step('printing a program\'s cards', async () => {
		await ev(`pickText('#sheet-program', 'Cashback Club Plus')`);
		await ev(`click('#program-sheet-form button[type=submit]')`, true);
		const tab = await popup('blob:');
		await waitFor(`text('#sheet-note').includes('3 cards opened')`);
		const end = Date.now() + 10000;
		let c = 0;
		while (Date.now() < end && c !== 3) { c = await pev(tab.P, `document.querySelectorAll('.card').length`).catch(() => 0); await sleep(100); }
		await send('Target.closeTarget', { targetId: tab.targetId });
		if (c !== 3) throw new Error(c + ' cards on the sheet');
	});

	await step('paging through the cards (21 more issued at once)', async () => {
		const names = Array.from({ length: 21 }, (x, i) => 'Paging Customer ' + (i + 1)).join('\\n');
		await ev(`pickText('#issue-program', 'Coffee Card') && fill('#issue-names', '${names}') && click('#issue-form button[type=submit]')`);
		await waitFor(`text('#issued-text').includes('21 cards issued')`);
		await ev(`fill('#search-q', 'paging') && pick('#search-program', '') && click('#search-form button[type=submit]')`);
		await waitFor(`$$('#cards-body tr').length === 20 && text('#cards-page') === 'Page 1 of 2 · 21 cards' && !$('#cards-next').disabled && $('#cards-prev').disabled`);
		await ev(`click('#cards-next')`);
		await waitFor(`$$('#cards-body tr').length === 1 && text('#cards-page') === 'Page 2 of 2 · 21 cards' && $('#cards-next').disabled`);
		await ev(`click('#cards-prev')`);
		await waitFor(`$$('#cards-body tr').length === 20 && text('#cards-page').startsWith('Page 1 of 2')`);
	});

	/* ---- the till ---- */

	await step('on the till an owner sees the Back office link', async () => {
		await S('Page.navigate', { url: URL0 + 'index.html' });
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && vis('#backoffice-link')`);
		await shot('owner-till-owner');
		return ev(`$('#backoffice-link').getAttribute('href') === 'owner.html'`);
	});

	/* The refresh token a Log out button leaves behind answers 401: the
	 * server ended the login. Tried once the page's logout request has
	 * come back (the page does not wait for it), since a refresh before
	 * it would rotate the token and pass for the wrong reason. */
	async function refreshRefused(rt) {
		if (!rt) throw new Error('no refresh token before the logout');
		await waitFor(`performance.getEntriesByType('resource').some((e) => e.name.endsWith('/api/v1/auth/logout'))`);
		const s = await ev(`fetch('api/v1/auth/refresh', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refresh_token: ${JSON.stringify(rt)} }) }).then((r) => r.status)`);
		if (s !== 401) throw new Error('the refresh token after Log out: ' + s);
	}

	await step('the cashier logs in on the till (no Back office link) and records a purchase', async () => {
		const rt = await ev(`sessionStorage.getItem('pos.refresh_token')`);
		await ev(`click('#logout-button')`);
		await waitFor(`vis('#login-form')`);
		await refreshRefused(rt);
		await ev(`fill('#login-email', ${JSON.stringify(CASHIER.email)}) && fill('#login-password', ${JSON.stringify(CASHIER.password2)}) && click('#login-submit')`);
		await waitFor(`vis('#pos-view') && text('#where-name') === 'Harbour Kiosk East'`);
		if (await ev(`vis('#backoffice-link')`)) throw new Error('a cashier sees the back office link');
		await ev(`fill('#lookup-code', ${JSON.stringify(bob.barcode_value)}) && click('#lookup-submit')`);
		await waitFor(`text('#card-title') === 'Cashback Club Plus' && text('#card-customer') === 'Robert Brown'`);
		await ev(`fill('#purchase-amount', '20.00') && click('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned: 0.40')`);
		await shot('owner-till-cashier');
	});

	await step('a cashier opening the back office is sent to the till', async () => {
		await S('Page.navigate', { url: URL0 + 'owner.html' });
		await waitFor(`document.readyState === 'complete' && vis('#staff-view') && !vis('#app-view')`);
		await shot('owner-staff-login');
		await a11y('staff login');
		const t = await ev(`text('#staff-view')`);
		if (!t.includes('till') || !t.includes(CASHIER.email)) throw new Error(t);
		const rt = await ev(`sessionStorage.getItem('pos.refresh_token')`);
		await ev(`click('#staff-logout')`);
		await waitFor(`vis('#login-form') && !sessionStorage.getItem('pos.access_token')`);
		await refreshRefused(rt);
	});

	await step('the owner logs in on the back office login form', async () => {
		await shots3('owner-login');
		await a11y('login');
		await ev(`fill('#login-email', ${JSON.stringify(OWNER.email)}) && fill('#login-password', 'wrong-password') && click('#login-submit')`);
		await waitFor(`text('#login-error').includes('Invalid e-mail or password')`);
		await ev(`fill('#login-password', ${JSON.stringify(OWNER.password)}) && click('#login-submit')`);
		await waitFor(`vis('#app-view')`);
	});

	/* ---- reports ---- */

	await step('the report shows the purchase: figures, table, chart, outstanding cashback', async () => {
		await nav('reports');
		await waitFor(`vis('#report-out') && text('#report-body').includes('20.00')`);
		const f = await ev(`text('#report-figures')`);
		for (const w of ['Sales20.00', 'Purchases1', 'Cashback earned0.40', 'Cashback owed to customers at the end0.40']) if (!f.includes(w)) throw new Error(f);
		const foot = await ev(`text('#report-foot')`);
		if (!foot.includes('20.00') || !foot.includes('0.40')) throw new Error(foot);
		const bars = await ev(`$$('#chart rect.ch-sales').filter((r) => +r.getAttribute('height') > 0).length`);
		if (bars !== 1) throw new Error(bars + ' sales bars');
		if (!(await ev(`$$('#chart rect.ch-earned').some((r) => +r.getAttribute('height') > 0) && !!$('#chart svg[role=img]').getAttribute('aria-labelledby')`))) throw new Error('chart');
		await waitFor(`text('#rtx-body').includes('Robert Brown') && text('#rtx-body').includes('Sam Till')`);
	});
	await shots3('owner-reports');
	await a11y('reports');

	await step('rows by location and by staff', async () => {
		await ev(`pick('#report-group', 'location') && click('#report-form button[type=submit]')`);
		await waitFor(`text('#rtable-title') === 'By location' && text('#report-body').includes('Harbour Kiosk East') && $$('#chart rect.ch-sales').length > 0`);
		await ev(`pick('#report-group', 'staff') && click('#report-form button[type=submit]')`);
		await waitFor(`text('#rtable-title') === 'By staff' && text('#report-body').includes('Sam Till')`);
	});

	await step('period presets fill the dates; a period ending before it starts is refused', async () => {
		await ev(`pick('#report-preset', 'today')`);
		const [a, b] = await ev(`[$('#report-from').value, $('#report-to').value]`);
		if (a !== b || !/^\d{4}-\d\d-\d\d$/.test(a)) throw new Error(a + ' ' + b);
		await ev(`pick('#report-preset', 'lastmonth')`);
		const [c, d] = await ev(`[$('#report-from').value, $('#report-to').value]`);
		if (!c.endsWith('-01') || c >= a || d >= a) throw new Error(c + ' ' + d);
		await ev(`fill('#report-from', '2026-02-10') && fill('#report-to', '2026-02-01') && click('#report-form button[type=submit]')`);
		await waitFor(`text('#report-form .form-msg').includes('ends before it starts') && $('#report-preset').value === 'custom'`);
		await ev(`pick('#report-preset', 'today') && pick('#report-group', 'day') && click('#report-form button[type=submit]')`);
		await waitFor(`text('#report-body').includes('20.00') && !vis('#report-form .form-msg')`);
	});

	await step('the summary CSV downloads with the purchase', async () => {
		const f = await download(`click('#csv-summary')`);
		const csv = fs.readFileSync(f, 'utf8');
		if (!/^key,label,purchases,sales_amount/.test(csv) || !/,1,20\.00,/.test(csv) || !csv.includes('0.40')) throw new Error(path.basename(f) + ': ' + csv);
		return /^summary-by-day-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/.test(path.basename(f));
	});

	await step('the transactions CSV downloads with the purchase', async () => {
		const f = await download(`click('#csv-transactions')`);
		const csv = fs.readFileSync(f, 'utf8');
		if (!csv.startsWith('transaction_id,') || !csv.includes('Robert Brown') || !csv.includes('20.00') || !csv.includes('Sam Till')) throw new Error(csv);
		return waitFor(`text('#report-dl-msg').includes('Downloaded transactions-')`);
	});

	await step('the card\'s history shows the purchase', async () => {
		await nav('cards');
		await ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
		await waitFor(`rowOf('#cards-body', 'Robert Brown')`);
		await ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
		await waitFor(`text('#dhist-body').includes('20.00') && text('#detail-balance').includes('0.40')`);
		const row = await ev(`text('#dhist-body tr')`);
		if (!row.includes('Cashback') || !row.includes('earned 0.40') || !row.includes('Harbour Kiosk East')) throw new Error(row);
	});

	/* ---- backup and settings ---- */

	await step('the backup downloads and passes PRAGMA integrity_check', async () => {
		await nav('backup');
		await waitFor(`vis('#sec-backup')`);
		const f = await download(`click('#backup-button')`, 20000);
		if (!/^loyalty-backup-\d{4}-\d\d-\d\d\.db$/.test(path.basename(f))) throw new Error(f);
		const check = execFileSync('sqlite3', [f, 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim();
		if (check !== 'ok') throw new Error('integrity_check: ' + check);
		const dump = execFileSync('sqlite3', [f, '.dump'], { encoding: 'utf8', maxBuffer: 64 << 20 });
		if (!dump.includes('Robert Brown') || !dump.includes('Harbour Kiosk East')) throw new Error('the backup lacks the shop');
		await waitFor(`text('#backup-msg').includes('Downloaded loyalty-backup-')`);
	});
	await shots3('owner-backup');
	await a11y('backup');

	await step('settings show their range; a value the API refuses shows its message', async () => {
		await nav('settings');
		const api = (await apiCall('GET', 'admin/settings', undefined, await ownerToken())).json.data.settings;
		await waitFor(`$$('#settings-fields input').length === ${api.length}`);
		const t = await ev(`text('#settings-fields')`);
		for (const x of api)
			if (!t.includes(typeof x.max_length === 'number' ? 'Up to ' + x.max_length + ' characters' :
			    x.min === 0 && x.max === 1 ? (x.default === 1 ? 'On' : 'Off') + ' by default.' :
			    'Default ' + x.default + '; from ' + x.min + ' to ' + x.max + '.')) throw new Error('no range of ' + x.key + ' in ' + t);
		if (!t.includes('Shop time zone') || !t.includes('UTC+00:00') || !t.includes('1 hour') || !t.includes('30 days')) throw new Error(t);
		if (await ev(`$$('#settings-fields input').some((i) => !/^[A-Z]/.test(i.labels[0].textContent))`)) throw new Error('a setting without its own label');
		await ev(`fill('[data-key=utc_offset_minutes]', '7') && click('#settings-form button[type=submit]')`);
		await waitFor(`text('#settings-form .form-msg').includes('a multiple of 15')`);
		return ev(`$('[data-key=utc_offset_minutes]').getAttribute('aria-invalid') === 'true'`);
	});
	await shots3('owner-settings');
	await a11y('settings');

	await step('saving a setting', async () => {
		await ev(`fill('[data-key=utc_offset_minutes]', '60') && fill('[data-key=login_max_failures]', '9') && click('#settings-form button[type=submit]')`);
		await waitFor(`toast().includes('2 settings saved')`);
		const r = await apiCall('GET', 'admin/settings', undefined, await ownerToken());
		const v = Object.fromEntries(r.json.data.settings.map((x) => [x.key, x.value]));
		if (v.utc_offset_minutes !== 60 || v.login_max_failures !== 9) throw new Error(JSON.stringify(v));
	});

	await step('the currency symbol and staff enrolment: a text and a checkbox', async () => {
		/* The step before left a toast of the same words: it is cleared
		 * first, so the one seen is this save's. It shows for 7 s: it
		 * is waited for first, then the server asked (a loaded machine
		 * once answered the polls for longer than the toast showed). */
		await ev(`($('#toast').textContent = '', fill('[data-key=currency_symbol]', '€') && click('[data-key=staff_enrolment]') && click('#settings-form button[type=submit]'))`);
		await waitFor(`toast().includes('2 settings saved')`);
		const r = await apiCall('GET', 'admin/settings', undefined, await ownerToken());
		const v = Object.fromEntries(r.json.data.settings.map((x) => [x.key, x.value]));
		if (v.currency_symbol !== '€' || v.staff_enrolment !== 0) throw new Error(JSON.stringify(v));
		await ev(`fill('[data-key=public_url]', 'ftp://shop.example/') && click('#settings-form button[type=submit]')`);
		await waitFor(`$('[data-key=public_url]').getAttribute('aria-invalid') === 'true'`);
		await ev(`fill('[data-key=public_url]', '') && click('[data-key=staff_enrolment]') && click('#settings-form button[type=submit]')`);
		await waitFor(`toast().includes('1 setting saved')`);
	});

	/* ---- the audit trail ---- */

	await step('the audit lists the changes newest first: settings, backup, a rename with its name before and after, the cashier\'s purchase', async () => {
		await nav('audit');
		await waitFor(`vis('#sec-audit') && text('#audit-body').includes('Settings changed')`);
		const t = await ev(`text('#audit-body')`);
		for (const want of ['Backup downloaded', 'Purchase', 'Sam Till', 'Location renamed', 'name: Harbour Kiosk → Harbour Kiosk East', 'login_max_failures: 5 → 9', 'Shop set up'])
			if (!t.includes(want)) throw new Error('no ' + want + ' in ' + t);
		const first = await ev(`$$('#audit-body tr')[0].textContent`);
		if (!first.includes('Settings changed')) throw new Error('newest first: ' + first);
		return ev(`text('#audit-page').includes('changes')`);
	});
	await shots3('owner-audit');
	await a11y('audit');

	await step('the audit filters by who and what', async () => {
		await ev(`(() => { const s = $('#audit-user'); s.value = Array.from(s.options).find((o) => o.textContent === 'Sam Till').value; $('#audit-action').value = 'transaction.record'; return click('#audit-form button[type=submit]'); })()`);
		await waitFor(`$$('#audit-body tr').length === 1 && text('#audit-page').includes('1 change')`);
		const row = await ev(`$$('#audit-body tr')[0].textContent`);
		if (!row.includes('Purchase') || !row.includes('Sam Till')) throw new Error(row);
	});

	await step('the audit CSV downloads what the filters select', async () => {
		const f = await download(`click('#audit-csv')`);
		const csv = fs.readFileSync(f, 'utf8');
		const lines = csv.trim().split('\r\n');
		if (!csv.startsWith('seq,at,actor_type,user_id,user_name,') || lines.length !== 2 || !lines[1].includes('transaction.record') || !lines[1].includes('Sam Till')) throw new Error(csv);
		await waitFor(`text('#audit-msg').includes('Downloaded audit-')`);
		return /^audit-\d{4}-\d\d-\d\d\.csv$/.test(path.basename(f));
	});

	await step('an object id without its type is refused with the API\'s message on the type', async () => {
		await ev(`($('#audit-user').value = '', $('#audit-action').value = '', fill('#audit-oid', '00000000-0000-0000-0000-000000000000') && click('#audit-form button[type=submit]'))`);
		await waitFor(`text('#audit-form .form-msg').includes('object_type')`);
		const bad = await ev(`$('#audit-otype').getAttribute('aria-invalid')`);
		await ev(`(fill('#audit-oid', ''), true)`);
		return bad === 'true';
	});

	/* ---- the session ---- */

	/* ---- void and adjust ---- */

	await step('the owner voids the cashier\'s purchase from the card\'s history: a reason is required; the row shows voided, the cashback goes back', async () => {
		await nav('cards');
		await ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
		await waitFor(`rowOf('#cards-body', 'Robert Brown')`);
		await ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
		await waitFor(`vis('#card-detail') && text('#detail-balance').includes('0.40') && $('#dhist-body .btn-void')`);
		await ev(`click($('#dhist-body .btn-void'))`);
		await waitFor(`dlg() && text('dialog[open]').includes('Void this transaction?') && document.activeElement === dlg().querySelector('[data-field=reason]')`);
		const intro = await ev(`text('dialog[open]')`);
		if (!intro.includes('20.00') || !intro.includes('Robert Brown')) throw new Error(intro);
		await ev(`click(dlg().querySelector('button[type=submit]'))`);
		await waitFor(`dlg() && text('dialog[open] .form-msg').includes('Enter the reason')`);
		await ev(`(dlg().querySelector('[data-field=reason]').value = 'Paid by another card', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && text('#dhist-body').includes('voided') && /Cashback balance\\D*0\\.00/.test(text('#detail-balance'))`);
		const rows = await ev(`$$('#dhist-body tr').map((r) => r.textContent)`);
		if (!/Void/.test(rows[0]) || !rows[0].includes('reason: Paid by another card') || !/cashback taken back \D*0\.40/.test(rows[0]) ||
		    !/voided/.test(rows[1])) throw new Error(rows.join(' | '));
		await shot('owner-card-voided');
		return ev(`!$('#dhist-body .btn-void')`);
	});

	await step('adjusting the card: below zero is refused with the API\'s message; +2.50 with a reason is added and shown', async () => {
		await ev(`click('#detail-adjust')`);
		await waitFor(`dlg() && dlg().querySelector('[data-field=cashback_amount]')`);
		await ev(`(dlg().querySelector('[data-field=cashback_amount]').value = '-1.00', dlg().querySelector('[data-field=reason]').value = 'Test', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`dlg() && text('dialog[open] .form-msg').includes('The cashback balance is 0.00')`);
		/* The message only: the code is kept for support, not shown. */
		const m = await ev(`text('dialog[open] .form-msg')`);
		if (/\(?[A-Z]{2,}_[A-Z_]{2,}\)?/.test(m) || !await ev(`$('dialog[open] .form-msg [data-code=INSUFFICIENT_BALANCE]')`)) throw new Error(m);
		/* A reason of 500 characters: its row stays a row, the whole
		 * reason a click away. */
		const long = ('Goodwill: coffee was cold, and the customer waited a long time for the second cup too. ').repeat(6).slice(0, 500);
		await ev(`(dlg().querySelector('[data-field=cashback_amount]').value = '+2.50', dlg().querySelector('[data-field=reason]').value = ${JSON.stringify(long)}, click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`!dlg() && /Cashback balance\\D*2\\.50/.test(text('#detail-balance'))`);
		await waitFor(`text('#dhist-body tr').includes('Adjustment') && /\\+\\D*2\\.50/.test(text('#dhist-body tr')) && text('#dhist-body tr').includes('Goodwill')`);
		for (const w of [1280, 390]) {
			await viewport(w, 900);
			const r = await ev(`(() => { const tr = $('#dhist-body tr'), d = tr.querySelector('details.reason-long');
				return { hi: tr.getBoundingClientRect().height, title: d && d.title, full: d && d.textContent }; })()`);
			if (r.title !== long || !r.full.includes(long)) throw new Error('the whole reason: ' + JSON.stringify(r));
			if (r.hi > 300) throw new Error('the row is ' + Math.round(r.hi) + ' px high at ' + w + ' px');
			await ev(`($('#dhist-body tr').scrollIntoView(), true)`);
			await shot('owner-long-reason-' + w);
		}
		await viewport(1280, 900);
		return ev(`!$('#dhist-body tr').querySelector('.btn-void')`);
	});

	await step('where the program lets cashback expire, the card\'s detail shows the next expiry', async () => {
		const tok = await ownerToken();
		const me = (await apiCall('GET', 'auth/me', undefined, tok)).json;
		const progs = (await apiCall('GET', 'admin/programs', undefined, tok)).json.data.programs;
		const p = progs.find((x) => x.title === 'Cashback Club Plus');
		const pr = await apiCall('PATCH', 'admin/programs/' + p.id, { expiry_days: 30 }, tok);
		if (pr.status !== 200) throw new Error(pr.text);
		const card = (await apiCall('GET', 'admin/cards?q=robert', undefined, tok)).json.data.cards[0];
		const loc = (me.locations || [])[0] || me.location;
		const rec = await apiCall('POST', 'transactions/record', { card_instance_id: card.card_instance_id, location_id: loc.id,
		    staff_user_id: me.id, purchase_amount: 10.00 }, tok);
		if (rec.status !== 200) throw new Error(rec.text);
		await nav('locations');
		await nav('cards');
		await ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
		await waitFor(`rowOf('#cards-body', 'Robert Brown')`);
		await ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
		await waitFor(`vis('#card-detail') && text('#detail-balance').includes('Next expiry')`);
		const t = await ev(`text('#detail-balance')`);
		const when = new Date(Date.now() + 30 * 86400000).toLocaleDateString(undefined, { dateStyle: 'medium' });
		if (!/Next expiry\D*0\.20 on /.test(t) || !t.includes(when)) throw new Error(t + ' / ' + when);
		await apiCall('PATCH', 'admin/programs/' + p.id, { expiry_days: null }, tok);
		return true;
	});

	await step('expired cashback: an "Expiry" row with the amount taken off, done by no one; the history fits at 1280 px', async () => {
		execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.OWNER_DB, 'UPDATE cashback_earnings SET expires_at = ' + (Date.now() - 60000) +
		    " WHERE remaining > 0 AND expires_at IS NOT NULL AND card_id = (SELECT id FROM cards WHERE customer_name = 'Robert Brown')"]);
		await nav('locations');
		await nav('cards');
		await ev(`fill('#search-q', 'robert') && click('#search-form button[type=submit]')`);
		await waitFor(`rowOf('#cards-body', 'Robert Brown')`);
		await ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
		await waitFor(`vis('#card-detail') && rowOf('#dhist-body', 'Expiry')`);
		const row = await ev(`rowOf('#dhist-body', 'Expiry').textContent`);
		if (!/cashback expired −\D*0\.20/.test(row) || !row.includes('Automatic') || row.includes('expiry') || row.includes('Harbour')) throw new Error(row);
		if (await ev(`!!rowOf('#dhist-body', 'Expiry').querySelector('.btn-void')`)) throw new Error('an expiry offers a void');
		/* Every column of the card's history inside its panel. */
		const fit = await ev(`(() => { const t = $('#dhist-table'), w = t.closest('.table-wrap');
			return { t: t.scrollWidth, w: w.clientWidth, cut: $$('#dhist-body td').filter((c) => c.scrollWidth > c.clientWidth + 1).length }; })()`);
		if (fit.t > fit.w || fit.cut) throw new Error('the history does not fit: ' + JSON.stringify(fit));
		await ev(`(rowOf('#dhist-body', 'Expiry').scrollIntoView(), true)`);
		await shot('owner-card-expiry-1280');
		return true;
	});

	await step('a void done meanwhile in another tab: said in plain words, no second "Void it", the history read again', async () => {
		const tok = await ownerToken();
		const me = (await apiCall('GET', 'auth/me', undefined, tok)).json;
		const card = (await apiCall('GET', 'admin/cards?q=robert', undefined, tok)).json.data.cards[0];
		const loc = (me.locations || [])[0] || me.location;
		const rec = await apiCall('POST', 'transactions/record', { card_instance_id: card.card_instance_id, location_id: loc.id,
		    staff_user_id: me.id, purchase_amount: 7.77 }, tok);
		if (rec.status !== 200) throw new Error(rec.text);
		const id = rec.json.data.transaction_id;
		await ev(`click(btnIn(rowOf('#cards-body', 'Robert Brown'), 'View'))`);
		await waitFor(`$('#dhist-body .btn-void[data-txn="${id}"]')`);
		await ev(`click($('#dhist-body .btn-void[data-txn="${id}"]'))`);
		await waitFor(`dlg() && text('dialog[open]').includes('7.77')`);
		const other = await apiCall('POST', 'transactions/void', { transaction_id: id, reason: 'other tab', location_id: loc.id, staff_user_id: me.id }, tok);
		if (other.status !== 200) throw new Error(other.text);
		await ev(`(dlg().querySelector('[data-field=reason]').value = 'Wrong card', click(dlg().querySelector('button[type=submit]')))`);
		await waitFor(`dlg() && text('dialog[open] .form-msg').includes('Already voided, from another window or till.')`);
		const t = await ev(`text('dialog[open]')`);
		if (/ALREADY_VOIDED|[0-9a-f]{8}-[0-9a-f]{4}-/.test(t) || await ev(`!!dlg().querySelector('button[type=submit]')`)) throw new Error(t);
		await waitFor(`text('#dhist-body').includes('other tab') && !$('#dhist-body .btn-void[data-txn="${id}"]')`);
		await shot('owner-void-twice');
		await ev(`click(Array.from(dlg().querySelectorAll('button')).find((b) => b.textContent === 'Close'))`);
		await waitFor(`!dlg()`);
		return true;
	});

	await step('the report\'s list shows the void beside the voided purchase', async () => {
		await nav('reports');
		await ev(`pick('#report-preset', 'today') && click('#report-form button[type=submit]')`);
		await waitFor(`text('#rtx-body').includes('Paid by another card') && text('#rtx-body').includes('voided')`);
		const row = await ev(`rowOf('#rtx-body', 'Expiry') ? rowOf('#rtx-body', 'Expiry').textContent : ''`);
		if (!/cashback expired −\D*0\.20/.test(row) || !row.includes('Robert Brown') || !row.includes('Automatic')) throw new Error('expiry row: ' + row);
		return true;
	});

	await step('the audit names the service\'s own expiry "Automatic (expiry)"', async () => {
		await nav('audit');
		await ev(`($('#audit-action').value = '', $('#audit-user').value = '', click('#audit-form button[type=submit]'))`);
		await waitFor(`rowOf('#audit-body', 'Automatic (expiry)')`);
		return true;
	});

	await step('on a phone the audit\'s "Change" label stays a word; the change wraps below it', async () => {
		await viewport(390, 844);
		const r = await ev(`(() => { const c = $('#audit-body td.audit-change'); const b = getComputedStyle(c, '::before');
			return { display: getComputedStyle(c).display, before: b.display, h: parseFloat(b.height), lh: parseFloat(b.lineHeight) || 24 }; })()`);
		await shot('owner-audit-change-390');
		await viewport(1280, 900);
		if (r.display !== 'block' || r.before !== 'block' || !(r.h < 2 * r.lh)) throw new Error(JSON.stringify(r));
		return true;
	});

	await step('an expired access token is refreshed once and the call retried', async () => {
		const before = await ev(`sessionStorage.getItem('pos.refresh_token')`);
		await ev(`(sessionStorage.setItem('pos.access_token', 'not-a-valid-token'), true)`);
		await nav('locations');
		await waitFor(`sessionStorage.getItem('pos.access_token') !== 'not-a-valid-token' && !$('#locations-body').closest('[aria-busy=true]')`);
		await waitFor(`text('#locations-body').includes('Harbour Kiosk East')`);
		const st = await ev(`({ access: sessionStorage.getItem('pos.access_token'), refresh: sessionStorage.getItem('pos.refresh_token'), app: vis('#app-view'), err: text('#locations-error') })`);
		if (st.access === 'not-a-valid-token' || st.refresh === before || !st.app || st.err) throw new Error(JSON.stringify(st) + ' before: ' + before);
	});

	await step('a refused refresh goes back to the login form', async () => {
		await ev(`(sessionStorage.setItem('pos.access_token', 'bad'), sessionStorage.setItem('pos.refresh_token', 'bad'), true)`);
		await nav('staff');
		await waitFor(`vis('#login-form') && !vis('#app-view')`);
		return ev(`text('#login-notice').includes('session has ended') && !sessionStorage.getItem('pos.access_token')`);
	});

	const keyless = posts.filter((p) => p.endsWith('WITHOUT A KEY'));
	note(posts.length + ' POSTs of the back office: ' + Array.from(new Set(posts)).join(', '));
	ok(posts.length >= 10 && keyless.length === 0, 'every POST of the back office carries an idempotency_key', keyless.join('\n'));
	ok(wide.length === 0, 'no screen scrolls sideways at 390, 768 or 1280 px', wide.join('\n'));
	ok(a11yProblems.length === 0, 'accessibility pass: named controls, labelled fields, one h1, unique ids on every screen', a11yProblems.join('\n'));
	ok(problems.length === 0, 'no script errors, console errors or CSP violations', problems.join('\n'));
}

B.run(main, { timeout: 240000, timed: true });
EOF

diag "backend on $LT_URL/ (new empty database $LT_DB), screenshots in $shots"
browser_drive OWNER_DB="$LT_DB" OWNER_CODE="$LT_DB.setup-code" OWNER_RESP="$RESP"
# The driver's status; lt_stop (the EXIT trap) keeps the server's folder
# when a test failed.
exit $?
