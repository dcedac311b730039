#!/usr/bin/env bash
# tests/card_page.sh: the customer's own card page (htdocs/card.html,
# card.js, card.css, card-sw.js, js/progress.js) driven in headless
# Chromium against a real backend: lighttpd with the built responders and
# a fresh `loyalty-admin demo` database (lt_start of tests/lib.sh). TAP.
#
# A punch card is issued with `loyalty-admin card issue` (its JSON gives
# the share token); the demo's cashback and discount cards' tokens come
# from the owner's API. The walk: the card by its link (title, customer,
# progress, the QR code and barcode loaded and decoded with zbarimg), a
# purchase recorded through the API and Refresh, the currency symbol
# setting on a cashback card, an inactive card, an unknown and a
# malformed link, the switcher between the cards kept on the phone, the
# page opened without its fragment (as from a home-screen icon), offline
# (network emulated offline, then the server really stopped: the page
# from card-sw.js, the kept copy marked as possibly out of date); no
# request ever carries the token in a Referer or outside the API's path;
# basic accessibility checks (alt texts, one h1, named buttons,
# landmarks, contrast in light and dark mode, visible focus, no sideways
# scrolling at 320 px); screenshots at phone, tablet and laptop sizes.
#
# Chromium is driven by tests/browser.js (see tests/browser.sh). The test
# is skipped when Chromium or Node cannot be had (as root they are
# installed unless POS_TEST_INSTALL=0); the decoding points are skipped
# without zbarimg.
#
# Environment:
#   top_srcdir, top_builddir   as for every test
#   CARD_SHOT_DIR    where the screenshots go (default: POS_SHOT_DIR, else
#                    a new folder in /tmp, kept, named in a TAP comment)
#   CHROMIUM         the browser binary (default: chromium on PATH)
#   LT_KEEP=1        keep the server's folder (logs, Chromium's log)
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

browser_need
if ! command -v zbarimg >/dev/null 2>&1 && [ "${POS_TEST_INSTALL:-1}" != 0 ] &&
    [ "$(id -u)" -eq 0 ]; then
	diag "installing zbar-tools with apt-get"
	lc_want_packages test
fi
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (apt-get install jq)"

# --- backend: the demo shop, one more punch card -------------------------------

browser_backend
lt_start
admin=$LT_ADMIN
[ -n "${DEMO_CASHBACK_CARD:-}" ] && [ -n "${DEMO_DISCOUNT_CARD:-}" ] ||
    bail "the output of loyalty-admin demo was not understood"

lt_login "$DEMO_OWNER_EMAIL" "$DEMO_OWNER_PASSWORD" || bail "owner login failed: $LT_BODY"
lt_req GET /api/v1/admin/programs
punch_program=$(lt_jq '.data.programs[] | select(.type == "punch") | .id')
[ -n "$punch_program" ] || bail "no punch program: $LT_BODY"
issued=$("$admin" --db "$LT_DB" card issue --program "$punch_program" --customer "Ann Smith") ||
    bail "card issue failed"
punch_token=$(printf '%s' "$issued" | jq -r .share_token)
punch_card=$(printf '%s' "$issued" | jq -r .card_instance_id)
[[ $punch_token =~ ^[0-9a-f]{32}$ ]] || bail "card issue gave no share token: $issued"
lt_req GET '/api/v1/admin/cards?page_size=100'
token_of() { lt_jq ".data.cards[] | select(.card_instance_id == \"$1\") | .share_token"; }
cash_token=$(token_of "$DEMO_CASHBACK_CARD")
disc_token=$(token_of "$DEMO_DISCOUNT_CARD")
[[ $cash_token =~ ^[0-9a-f]{32}$ && $disc_token =~ ^[0-9a-f]{32}$ ]] ||
    bail "no share tokens in the owner's card list: $LT_BODY"
LT_TOKEN=

browser_shots "${CARD_SHOT_DIR:-${POS_SHOT_DIR:-}}" card-page-shots

# --- the browser script ------------------------------------------------------

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
/* The page's steps; the driver is tests/browser.js. */
const B = require(process.env.BROWSER_JS);
const { ok, note, step, ev, waitFor, S, shot, settle, server, serverDown, problems } = B;
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const E = process.env;
const URL0 = B.config.url;
const PAGE = URL0 + 'card.html';
const TOKENS = [E.PUNCH_TOKEN, E.CASH_TOKEN, E.DISC_TOKEN];
const UNKNOWN = '0123456789abcdef0123456789abcdef';

B.init({ domains: [], helpers: `
const kept = () => JSON.parse(localStorage.getItem('loyalty.mycard.v1') || 'null');
const imgOk = (s) => { const i = $(s); return !!i && i.complete && i.naturalWidth > 0 && !i.hidden; };
` });

/* Every request the browser sends, with the headers it really sent. */
const sent = [];
B.on((m) => {
	if (m.method === 'Network.requestWillBeSent')
		sent.push({ url: m.params.request.url, headers: m.params.request.headers });
	else if (m.method === 'Network.requestWillBeSentExtraInfo')
		sent.push({ url: '(extra info ' + m.params.requestId + ')', headers: m.params.headers });
});

const have = (cmd) => { try { execFileSync('sh', ['-c', 'command -v ' + cmd], { stdio: 'ignore' }); return true; } catch (e) { return false; } };
function zbar(file, typed) {
	try {
		return execFileSync('zbarimg', typed ? ['-q', file] : ['-q', '--raw', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
	} catch (e) { return 'zbarimg failed: ' + (e.status === 4 ? 'no code found' : e.message); }
}
/* A PNG of one element, rendered at scale times its CSS size. */
async function elementPng(sel, file, scale) {
	await ev(`($(${JSON.stringify(sel)}).scrollIntoView({ block: 'center' }), true)`);
	await settle();
	const b = await ev(`(() => { const r = $(${JSON.stringify(sel)}).getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height }; })()`);
	const r = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: Object.assign(b, { scale: scale || 2 }) });
	fs.writeFileSync(file, Buffer.from(r.data, 'base64'));
	return file;
}

/* The API, straight from here. */
async function api(method, p, body, token) {
	const headers = { Accept: 'application/json' };
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	if (token) headers.Authorization = 'Bearer ' + token;
	const r = await fetch(URL0 + 'api/v1/' + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
	const t = await r.text();
	let j = null;
	try { j = JSON.parse(t); } catch (e) { /* not JSON */ }
	return { status: r.status, json: j, text: t };
}
let staff = null;
async function record(card, amount, punches) {
	if (!staff) {
		const r = await api('POST', 'auth/login', { email: E.STAFF_EMAIL, password: E.STAFF_PASSWORD });
		if (r.status !== 200) throw new Error('staff login: ' + r.text);
		staff = { token: r.json.access_token, id: r.json.user.id, location: r.json.user.location.id };
	}
	const r = await api('POST', 'transactions/record', {
		card_instance_id: card, location_id: staff.location, staff_user_id: staff.id,
		purchase_amount: amount, punch_count: punches || 1,
		idempotency_key: 'card-page-' + Date.now() + '-' + Math.random()
	}, staff.token);
	if (r.status !== 200) throw new Error('record: ' + r.status + ' ' + r.text);
	return r.json.data;
}
const adminCmd = (...args) => execFileSync(E.ADMIN, ['--db', E.DB, ...args], { encoding: 'utf8' });

async function device(width, height, mobile) {
	await S('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: !!mobile });
	await settle();
}
async function colourScheme(v) {
	await S('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: v }] });
	await settle();
}
/* A new load of the page, as from a link or the home screen (not a
 * same-document move to another fragment). */
async function open(hash) {
	await S('Page.navigate', { url: 'about:blank' });
	await waitFor(`location.href === 'about:blank'`);
	await S('Page.navigate', { url: PAGE + (hash === undefined ? '' : '#' + hash) });
	await waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false'`, 15000);
}
const cardShown = (title) => `vis('#card-view') && text('h1') === ${JSON.stringify(title)} && $('main').getAttribute('aria-busy') === 'false'`;
async function saveShot(name) {
	const f = await shot(name).catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(f), 'screenshot ' + name + ' written to ' + f);
}

/* Basic accessibility checks, in the page: a list of problems. */
const A11Y = `(() => {
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
		const op = parseFloat(st.opacity) * (e.closest('[class]') ? 1 : 1);
		const L1 = lum(fg), L2 = lum(bg);
		const ratio = (Math.max(L1, L2) + 0.05) / (Math.min(L1, L2) + 0.05);
		if (ratio < 4.5) bad.push('contrast ' + ratio.toFixed(2) + ' of "' + t.textContent.trim().slice(0, 30) + '" (' + st.color + ' on rgb(' + [bg.r, bg.g, bg.b].map(Math.round) + '))');
	}
	return bad;
})()`;

async function main() {
	B.launch();
	await B.openPage();
	await device(390, 844, true);

	/* ---- a punch card by its link ---- */
	await step('the punch card opens by its link: shop, title, customer, progress', async () => {
		await open(E.PUNCH_TOKEN);
		await waitFor(cardShown('Coffee Card'));
		const t = await ev(`({ shop: text('#shop-name'), cust: text('#customer-name'), line: text('#progress-line'),
			dots: $$('#punch-dots .pdot').length, on: $$('#punch-dots .pdot.on').length, bal: text('#balance'),
			title: document.title, upd: text('#updated-text'), stale: vis('#stale-note'), rewards: vis('#rewards-box') })`);
		if (t.shop !== 'Demo Coffee' || t.cust !== 'Ann Smith' || t.line !== '10 more punches for a free coffee.' ||
		    t.dots !== 10 || t.on !== 0 || !t.bal.includes('0 of 10') || t.title !== 'Coffee Card · Demo Coffee' ||
		    !/^Updated today at /.test(t.upd) || t.stale || t.rewards)
			throw new Error(JSON.stringify(t));
	});

	await step('the QR image (qr.svg) is loaded and decodes to the card\u2019s QR data', async () => {
		await waitFor(`imgOk('#qr-image') && imgOk('#barcode-image')`);
		const src = await ev(`$('#qr-image').src`);
		if (src !== URL0 + 'api/v1/mycard/' + E.PUNCH_TOKEN + '/qr.svg') throw new Error('src ' + src);
		if (!have('zbarimg')) { note('SKIP decoding: zbarimg missing'); return true; }
		const f = await elementPng('.qr-box', path.join(B.config.shots, 'card-qr.png'), 2);
		const got = zbar(f);
		if (got !== E.PUNCH_QR) throw new Error('decoded ' + JSON.stringify(got) + ', want ' + E.PUNCH_QR);
	});

	await step('the barcode (barcode.svg) decodes to the digits shown as text', async () => {
		const digits = await ev(`text('#barcode-digits')`);
		if (digits !== E.PUNCH_BARCODE) throw new Error('digits ' + digits);
		if (!have('zbarimg')) { note('SKIP decoding: zbarimg missing'); return true; }
		const f = await elementPng('.bar-box', path.join(B.config.shots, 'card-barcode.png'), 3);
		const got = zbar(f, true);
		if (got !== 'EAN-13:' + E.PUNCH_BARCODE) throw new Error('decoded ' + JSON.stringify(got));
	});

	await step('the card and its codes are kept in localStorage', async () => {
		await waitFor(`kept() && kept().cards.length === 1 && !!kept().cards[0].qr && !!kept().cards[0].bar`);
		const k = await ev(`kept()`);
		return k.current === E.PUNCH_TOKEN && k.cards[0].token === E.PUNCH_TOKEN && k.cards[0].data.customer_name === 'Ann Smith' &&
		    /<svg/.test(k.cards[0].qr) && /<svg/.test(k.cards[0].bar);
	});

	await step('a QR picture the server fails to send: the kept copy is shown instead', async () => {
		await B.fulfil('/qr.svg', () => ({ status: 503, headers: { 'Retry-After': '1' },
			body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'x' } } }));
		/* The picture is cached by the browser for a day: a new page
		 * load with the cache off asks for it again. */
		await S('Network.setCacheDisabled', { cacheDisabled: true });
		await open(E.PUNCH_TOKEN);
		await waitFor(`$('#qr-image').src.startsWith('data:image/svg+xml') && imgOk('#qr-image') && !vis('#code-missing')`);
		await B.clearIntercepts();
		await ev(`click('#refresh-button')`);
		await waitFor(`$('#qr-image').src.endsWith('/qr.svg') && imgOk('#qr-image')`);
		await S('Network.setCacheDisabled', { cacheDisabled: false });
	});

	await step('the page is only the card: no link to the till or the back office, noindex, no referrer', async () => {
		const r = await ev(`({ links: $$('a[href]').map((a) => a.getAttribute('href')),
			robots: $('meta[name=robots]').content, referrer: $('meta[name=referrer]').content,
			csp: $('meta[http-equiv=Content-Security-Policy]').content, manifest: $('link[rel=manifest]').href })`);
		if (r.links.join() !== '#main') throw new Error('links: ' + r.links);
		if (!/noindex/.test(r.robots) || r.referrer !== 'no-referrer') throw new Error(JSON.stringify(r));
		if (!/img-src 'self'/.test(r.csp) || !/script-src 'self';/.test(r.csp) || /unsafe/.test(r.csp)) throw new Error(r.csp);
		const body = await ev(`text('body')`);
		for (const w of ['Main Street', 'Harbour Kiosk', 'Sam Staff', 'Olivia Owner', 'staff@', 'owner@', 'Log in', 'Back office'])
			if (body.includes(w)) throw new Error('shows ' + w);
		return r.manifest === URL0 + 'card.webmanifest';
	});

	await step('the manifest: start_url card.html, icons that load, no errors', async () => {
		const m = await S('Page.getAppManifest');
		if (m.errors && m.errors.length) throw new Error(JSON.stringify(m.errors));
		const j = JSON.parse(m.data);
		if (j.start_url !== 'card.html' || !j.name || !j.theme_color || !j.icons.length) throw new Error(m.data);
		for (const i of j.icons) {
			const r = await fetch(URL0 + i.src);
			const type = r.headers.get('content-type') || '';
			if (r.status !== 200 || !type.startsWith(i.type)) throw new Error(i.src + ': ' + r.status + ' ' + type);
		}
	});

	await step('basic accessibility checks (light)', async () => {
		const bad = await ev(A11Y);
		if (bad.length) throw new Error(bad.join('\n'));
	});

	await step('keyboard focus is visible on the Refresh button', async () => {
		await ev(`(document.activeElement && document.activeElement.blur(), true)`);
		for (let i = 0; i < 12; i++) {
			await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
			await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
			if (await ev(`document.activeElement === $('#refresh-button')`)) break;
		}
		return ev(`document.activeElement === $('#refresh-button') && $('#refresh-button').matches(':focus-visible') &&
		    getComputedStyle($('#refresh-button')).outlineStyle !== 'none' && parseFloat(getComputedStyle($('#refresh-button')).outlineWidth) >= 2`);
	});

	/* ---- a purchase at the till, then Refresh ---- */
	await step('after a purchase recorded at the till, Refresh shows the new count and the reward', async () => {
		const d = await record(E.PUNCH_CARD, 4.5, 12);
		if (d.new_punch_count !== 2 || d.rewards_earned !== 1) throw new Error(JSON.stringify(d));
		await ev(`click('#refresh-button')`);
		await waitFor(`text('#balance').includes('2 of 10') && $$('#punch-dots .pdot.on').length === 2`);
		const t = await ev(`({ line: text('#progress-line'), box: vis('#rewards-box') && text('#rewards-box') })`);
		if (t.line !== 'Your reward is waiting: Free coffee.' || !t.box || !t.box.includes('Free coffee: Any hot drink')) throw new Error(JSON.stringify(t));
	});
	await saveShot('card-phone');

	await step('dark mode: the codes stay dark on white; contrast holds', async () => {
		await colourScheme('dark');
		const c = await ev(`({ body: getComputedStyle(document.body).backgroundColor, qr: getComputedStyle($('.qr-box')).backgroundColor })`);
		if (c.body === 'rgb(238, 241, 245)' || c.qr !== 'rgb(255, 255, 255)') throw new Error(JSON.stringify(c));
		const bad = await ev(A11Y);
		if (bad.length) throw new Error(bad.join('\n'));
	});
	await saveShot('card-phone-dark');
	await colourScheme('light');

	await step('320 px wide: nothing scrolls sideways', async () => {
		await device(320, 640, true);
		const w = await ev(`document.documentElement.scrollWidth`);
		await shot('card-320');
		if (w > 320) throw new Error('the page is ' + w + ' px wide');
	});
	await device(820, 1180, true);
	await waitFor(cardShown('Coffee Card'));
	await saveShot('card-tablet');
	await device(1280, 800, false);
	await saveShot('card-laptop');
	await device(390, 844, true);

	/* ---- a cashback card, with the currency symbol ---- */
	await step('a cashback card shows its balance, without a symbol while none is set', async () => {
		await open(E.CASH_TOKEN);
		await waitFor(cardShown('Cashback Club'));
		const t = await ev(`({ line: text('#progress-line'), bal: text('#balance'), dots: vis('#punch-dots') })`);
		if (t.line !== 'Cashback balance 0.00.' || !t.bal.includes('2% (Bronze)') || t.dots) throw new Error(JSON.stringify(t));
	});

	await step('with currency_symbol set to € and a purchase, Refresh shows €0.60', async () => {
		adminCmd('setting', 'set', 'currency_symbol', '€');
		const d = await record(E.CASH_CARD, 30);
		if (d.new_balance !== 0.6) throw new Error(JSON.stringify(d));
		await ev(`click('#refresh-button')`);
		await waitFor(`text('#progress-line') === 'Cashback balance €0.60.'`);
		const bal = await ev(`text('#balance')`);
		if (!bal.includes('Cashback balance€0.60') || !bal.includes('Cashback earned so far€0.60')) throw new Error(bal);
		if (bal.includes('expires')) throw new Error('an expiry shown where none is: ' + bal);
	});
	await step('cashback that expires shows how much and on which day', async () => {
		/* Noon UTC on 3 December of next year: that day in any time zone. */
		const year = new Date().getUTCFullYear() + 1;
		execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB, "UPDATE cashback_earnings SET expires_at = " +
		    Date.UTC(year, 11, 3, 12) + " WHERE card_id = '" + E.CASH_CARD + "'"]);
		await ev(`click('#refresh-button')`);
		await waitFor(`text('#balance').includes('expires on')`);
		const bal = await ev(`text('#balance')`);
		if (!bal.includes('Next expiry€0.60 expires on 3 Dec ' + year)) throw new Error(bal);
	});
	await saveShot('card-cashback');

	/* ---- an inactive card ---- */
	await step('an inactive card says so and shows no progress line', async () => {
		adminCmd('card', 'deactivate', E.DISC_CARD);
		await open(E.DISC_TOKEN);
		await waitFor(cardShown('Member Discount'));
		const t = await ev(`({ banner: vis('#status-banner') && text('#status-banner'), line: vis('#progress-line'), bal: text('#balance') })`);
		if (t.banner !== 'This card is not active. Ask at the shop.' || t.line || !t.bal.includes('5%')) throw new Error(JSON.stringify(t));
		const bad = await ev(A11Y);
		if (bad.length) throw new Error(bad.join('\n'));
	});
	await saveShot('card-inactive');

	await step('the switcher lists the three cards kept; switching shows another', async () => {
		await waitFor(`vis('#switcher') && $$('#card-select option').length === 3`);
		const opts = await ev(`$$('#card-select option').map((o) => o.textContent)`);
		if (opts.join(' | ') !== 'Cashback Club · Demo Coffee | Coffee Card · Demo Coffee | Member Discount · Demo Coffee')
			throw new Error(opts.join(' | '));
		await ev(`pick('#card-select', ${JSON.stringify(E.PUNCH_TOKEN)})`);
		await waitFor(cardShown('Coffee Card'));
		return ev(`location.hash === '#' + ${JSON.stringify(E.PUNCH_TOKEN)} && kept().current === ${JSON.stringify(E.PUNCH_TOKEN)}`);
	});

	await step('another card\u2019s link opened in the same tab (a new fragment) shows that card', async () => {
		await ev(`(location.hash = ${JSON.stringify('#' + E.CASH_TOKEN)}, true)`);
		await waitFor(cardShown('Cashback Club'));
		await ev(`pick('#card-select', ${JSON.stringify(E.PUNCH_TOKEN)})`);
		await waitFor(cardShown('Coffee Card'));
	});

	await step('a kept card the server no longer knows: the message, and Forget removes it', async () => {
		await B.fulfil('api/v1/mycard/' + E.DISC_TOKEN, () => ({ status: 404,
			body: { success: false, error: { code: 'NOT_FOUND', message: 'No such card.' }, meta: { request_id: 'x', timestamp: 'x' } } }));
		await open(E.DISC_TOKEN);
		await waitFor(`text('h1') === 'Card not found' && vis('#forget-button')`);
		if (await ev(`vis('#card-view') || $('main').innerText.includes('Member Discount')`)) throw new Error('the card is still shown');
		await B.clearIntercepts();
		await ev(`click('#forget-button')`);
		await waitFor(cardShown('Coffee Card'));
		return ev(`kept().cards.length === 2 && !kept().cards.some((c) => c.token === ${JSON.stringify(E.DISC_TOKEN)}) &&
		    kept().current === ${JSON.stringify(E.PUNCH_TOKEN)} && location.hash === '#' + ${JSON.stringify(E.PUNCH_TOKEN)}`);
	});

	/* ---- links that name no card ---- */
	await step('an unknown link shows the message and nothing of any card', async () => {
		await open(UNKNOWN);
		await waitFor(`vis('#message-view') && text('h1') === 'Card not found'`);
		const t = await ev(`({ body: $('main').innerText, imgs: $$('img').filter((i) => i.getAttribute('src')).length, card: vis('#card-view'),
			shop: text('#shop-name'), forget: vis('#forget-button'), title: document.title })`);
		for (const w of ['Demo Coffee', 'Ann Smith', 'Demo Customer', 'Coffee Card', 'Cashback', E.PUNCH_BARCODE])
			if (t.body.includes(w)) throw new Error('shows ' + w + ': ' + t.body);
		if (t.imgs || t.card || t.forget || t.shop !== 'Loyalty card' || t.title !== 'Your loyalty card' ||
		    !t.body.includes('This card link is not known to the shop') || !t.body.includes('new link')) throw new Error(JSON.stringify(t));
		if ((await ev(`kept().cards.map((c) => c.token)`)).includes(UNKNOWN)) throw new Error('the unknown token was kept');
		const bad = await ev(A11Y);
		if (bad.length) throw new Error(bad.join('\n'));
	});
	await saveShot('card-unknown');

	await step('a malformed link is refused without asking the server', async () => {
		const before = sent.length;
		await open('abc123');
		await waitFor(`text('h1') === 'Card link not complete'`);
		await B.sleep(300);
		const asked = sent.slice(before).filter((r) => r.url.includes('/api/'));
		if (asked.length) throw new Error('asked ' + asked.map((r) => r.url).join(', '));
		return ev(`!vis('#card-view') && !$('main').innerText.includes('Demo Coffee') && text('#shop-name') === 'Loyalty card'`);
	});

	await step('card.html without a fragment (a home-screen start) shows the remembered card', async () => {
		await open();
		await waitFor(cardShown('Coffee Card'));
		return ev(`location.hash === '#' + ${JSON.stringify(E.PUNCH_TOKEN)} && text('#customer-name') === 'Ann Smith'`);
	});

	/* ---- offline ---- */
	await step('network offline: Refresh keeps the copy, marked as possibly out of date', async () => {
		await S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await ev(`click('#refresh-button')`);
		await waitFor(`vis('#stale-note')`);
		const t = await ev(`({ note: text('#stale-note'), line: text('#progress-line'), cust: text('#customer-name'), upd: text('#updated-text') })`);
		await S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		if (!/^You are offline\. This is the copy from today at .* and may be out of date\.$/.test(t.note) ||
		    t.line !== 'Your reward is waiting: Free coffee.' || t.cust !== 'Ann Smith' || !t.upd.startsWith('Last updated'))
			throw new Error(JSON.stringify(t));
	});

	await step('the page\u2019s own service worker (card-sw.js) controls card.html and keeps only the page\u2019s files', async () => {
		await waitFor(`navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL.endsWith('/card-sw.js')`, 15000);
		const c = await ev(`(async () => { const out = []; for (const n of await caches.keys())
			for (const r of await (await caches.open(n)).keys()) out.push(r.url); return out; })()`);
		if (!c.includes(PAGE) || !c.includes(URL0 + 'js/progress.js') || c.some((u) => u.includes('/api/') || u.includes('#')))
			throw new Error(c.join('\n'));
	});

	await step('server stopped: the page opens from the worker with the kept copy and its codes', async () => {
		await server('stop');
		if (!await serverDown()) throw new Error('the server still answers');
		await open();
		await waitFor(cardShown('Coffee Card') + ` && vis('#stale-note')`, 15000);
		const t = await ev(`text('#stale-note')`);
		if (!/^(The shop\u2019s server could not be reached|You are offline)\. This is the copy from .* may be out of date\.$/.test(t)) throw new Error(t);
		await waitFor(`imgOk('#qr-image') && imgOk('#barcode-image')`);
		if (!have('zbarimg')) return true;
		const f = await elementPng('.qr-box', path.join(B.config.shots, 'card-qr-offline.png'), 2);
		const got = zbar(f);
		if (got !== E.PUNCH_QR) throw new Error('decoded offline ' + JSON.stringify(got));
	});
	await saveShot('card-offline');

	await step('server stopped, a card never opened here: "could not be reached", not "not found"', async () => {
		await open(UNKNOWN);
		await waitFor(`vis('#message-view') && vis('#retry-button')`, 15000);
		const t = await ev(`$('main').innerText`);
		if (!t.includes('could not be reached') || t.includes('Card not found')) throw new Error(t);
		await open();
		await waitFor(cardShown('Coffee Card') + ` && vis('#stale-note')`, 15000);
	});

	await step('the server back, Refresh clears the note', async () => {
		await server('start');
		await ev(`click('#refresh-button')`);
		await waitFor(`!vis('#stale-note') && text('#updated-text').startsWith('Updated')`, 15000);
	});

	/* ---- a new link, and the time-based code ---- */
	let newToken = null;
	await step('Make a new link: the page moves to the new link (kept copy too), the old link is 404 at once', async () => {
		await open(E.PUNCH_TOKEN);
		await waitFor(cardShown('Coffee Card'));
		await ev(`click('#redraw-button')`);
		await waitFor(`vis('#redraw-confirm') && !vis('#redraw-button')`);
		await ev(`click('#redraw-yes')`);
		await waitFor(`/^#[0-9a-f]{32}$/.test(location.hash) && location.hash !== '#' + ${JSON.stringify(E.PUNCH_TOKEN)} && vis('#relink-done')`, 15000);
		await waitFor(cardShown('Coffee Card') + ` && imgOk('#qr-image')`, 15000);
		newToken = await ev(`location.hash.slice(1)`);
		const k = await ev(`kept()`);
		if (k.current !== newToken || k.cards.some((c) => c.token === E.PUNCH_TOKEN) || !k.cards.some((c) => c.token === newToken))
			throw new Error(JSON.stringify(k.cards.map((c) => c.token)) + ' current ' + k.current);
		const old = await api('GET', 'mycard/' + E.PUNCH_TOKEN), now = await api('GET', 'mycard/' + newToken);
		if (old.status !== 404 || now.status !== 200 || now.json.data.customer_name !== 'Ann Smith')
			throw new Error(old.status + ' ' + now.status);
		const bad = await ev(A11Y);
		if (bad.length) throw new Error(bad.join('\n'));
	});
	await saveShot('card-new-link');

	await step('the old link on the phone that re-drew it: the page moves on to the new link and says so', async () => {
		await open(E.PUNCH_TOKEN);
		await waitFor(`location.hash === '#' + ${JSON.stringify(newToken)} && vis('#relink-done') && text('#relink-done').includes('made on this phone')`, 15000);
		return ev(cardShown('Coffee Card'));
	});

	await step('redeem_needs_card_code on: the QR code holds the card\u2019s payload and its current time-based code (checked with Python\u2019s scrypt)', async () => {
		if (!newToken) throw new Error('no new link');
		adminCmd('setting', 'set', 'redeem_needs_card_code', '1');
		await open(newToken);
		await waitFor(cardShown('Coffee Card') + ` && vis('#code-hint') && imgOk('#qr-image')`, 15000);
		const src = await ev(`$('#qr-image').src`);
		if (!src.startsWith(URL0 + 'api/v1/mycard/' + newToken + '/qr.svg?at=')) throw new Error('src ' + src);
		if (!have('zbarimg')) { note('SKIP decoding: zbarimg missing'); return true; }
		const f = await elementPng('.qr-box', path.join(B.config.shots, 'card-qr-coded.png'), 2);
		const got = zbar(f);
		const m = /^(.*)\.(\d{6})$/.exec(got);
		if (!m || m[1] !== E.PUNCH_QR) throw new Error('decoded ' + JSON.stringify(got));
		const secret = execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB,
		    "SELECT code_secret FROM cards WHERE id = '" + E.PUNCH_CARD + "'"], { encoding: 'utf8' }).trim();
		/* The code by Python's scrypt (hashlib), not ours: the step of
		 * now and the one before (the minute may have turned since). */
		const py = 'import hashlib,struct,sys,time\n' +
		    'k=bytes.fromhex(sys.argv[1]); s=int(time.time())//60\n' +
		    'for c in (s, s-1):\n' +
		    ' d=hashlib.scrypt(k,salt=b"loyalty-pos card code v1"+struct.pack(">Q",c),n=2,r=1,p=1,dklen=4)\n' +
		    ' print("%06d" % ((int.from_bytes(d,"big")&0x7fffffff)%1000000))\n';
		const want = execFileSync('python3', ['-c', py, secret], { encoding: 'utf8' }).trim().split('\n');
		if (!want.includes(m[2])) throw new Error('code ' + m[2] + ', Python says ' + want.join(' or '));
		note('code ' + m[2] + ' matches Python\u2019s scrypt');
	});

	await step('the till takes the code once (a claim needs it), and refuses the same code again', async () => {
		if (!newToken) throw new Error('no new link');
		if (!have('zbarimg')) { note('SKIP: zbarimg missing'); return true; }
		/* A reward to claim: 10 punches, as an offline till's sale of
		 * ten minutes ago (clear of the cooldown of the sales above). */
		await record(E.PUNCH_CARD, 1, 1).catch(() => null);	/* logs staff in */
		const s = await api('POST', 'transactions/sync', { transactions: [{ card_instance_id: E.PUNCH_CARD,
			location_id: staff.location, staff_user_id: staff.id, purchase_amount: 5, punch_count: 10,
			client_timestamp: new Date(Date.now() - 600000).toISOString(), idempotency_key: 'card-page-code-' + Date.now() }] }, staff.token);
		if (s.status !== 200) throw new Error('sync: ' + s.text);
		const f = await elementPng('.qr-box', path.join(B.config.shots, 'card-qr-coded2.png'), 2);
		const m = /\.(\d{6})$/.exec(zbar(f));
		if (!m) throw new Error('no code in the QR');
		const claim = (code) => api('POST', 'rewards/claim', Object.assign({ card_instance_id: E.PUNCH_CARD,
			location_id: staff.location, staff_user_id: staff.id }, code ? { card_code: code } : {}), staff.token);
		const none = await claim(null);
		if (none.status !== 422 || none.json.error.code !== 'CARD_CODE_REQUIRED') throw new Error(none.text);
		const first = await claim(m[1]);
		if (first.status !== 200) throw new Error(first.text);
		const again = await claim(m[1]);
		if (again.status !== 422 || again.json.error.code !== 'CARD_CODE_INVALID') throw new Error(again.text);
		adminCmd('setting', 'set', 'redeem_needs_card_code', '0');
	});

	/* ---- the token never leaves in a Referer ---- */
	await step('no request carried a Referer, nor the token outside the API\u2019s path', async () => {
		/* (requestWillBeSent lists an empty Referer for a request sent
		 * without one; the extra info has the headers really sent.) */
		const withRef = sent.filter((r) => Object.entries(r.headers || {}).some(([h, v]) => h.toLowerCase() === 'referer' && v !== ''));
		if (withRef.length) throw new Error('Referer sent: ' + withRef.map((r) => r.url + ' ' + JSON.stringify(r.headers)).join('\n'));
		const leaks = sent.filter((r) => TOKENS.concat([UNKNOWN]).some((t) => r.url.includes(t)) && !r.url.startsWith(URL0 + 'api/v1/mycard/'));
		if (leaks.length) throw new Error(leaks.map((r) => r.url).join('\n'));
		note(sent.filter((r) => r.url.startsWith('http')).length + ' requests checked');
		return sent.length > 20;
	});

	ok(problems.length === 0, 'no script errors, console errors or CSP violations', problems.join('\n'));
}

B.run(main, { timeout: 180000 });
EOF

diag "backend on $LT_URL/, screenshots in $shots"
browser_drive PUNCH_TOKEN="$punch_token" PUNCH_CARD="$punch_card" \
    PUNCH_QR="$(printf '%s' "$issued" | jq -r .qr_code_data)" \
    PUNCH_BARCODE="$(printf '%s' "$issued" | jq -r .barcode_value)" \
    CASH_TOKEN="$cash_token" CASH_CARD="$DEMO_CASHBACK_CARD" \
    DISC_TOKEN="$disc_token" DISC_CARD="$DEMO_DISCOUNT_CARD" \
    STAFF_EMAIL="$DEMO_STAFF_EMAIL" STAFF_PASSWORD="$DEMO_STAFF_PASSWORD" \
    ADMIN="$admin" DB="$LT_DB"
exit $?
