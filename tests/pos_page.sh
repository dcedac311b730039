#!/usr/bin/env bash
# tests/pos_page.sh: the POS page (htdocs/index.html, pos.js, pos.css)
# driven in headless Chromium against a real backend: lighttpd with the
# built responders and a fresh `loyalty-admin demo` database, started by
# lt_start of tests/lib.sh. TAP output.
#
# Chromium is driven over the DevTools protocol through
# --remote-debugging-pipe by tests/browser.js (no WebSocket, no npm
# package, nothing downloaded); the page's steps are the Node.js script
# written below. The whole test is skipped (1..0 # SKIP) when Chromium or
# Node cannot be had; as root, missing ones are installed with apt-get
# (group "browser" of tools/lib.sh) unless POS_TEST_INSTALL=0.
#
# The offline start (htdocs/sw.js) is tested with the server really gone:
# the driver asks this script to stop lighttpd and to start it again on
# the same port (browser_drive of tests/browser.sh, with lc_server_stop /
# lc_server_start of tools/lib.sh), so the page keeps its origin, its
# service worker and its storage; Chromium is also restarted once on the
# same profile, and killed once (a crash or a power cut: what it held in
# memory is lost).
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
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

# --- Chromium and Node -------------------------------------------------------

browser_need

# --- backend -------------------------------------------------------------------

browser_backend
lt_start
admin=$LT_ADMIN
[ -n "${DEMO_PUNCH_BARCODE:-}" ] && [ -n "${DEMO_CASHBACK_BARCODE:-}" ] &&
    [ -n "${DEMO_DISCOUNT_BARCODE:-}" ] && [ -n "${DEMO_CASHBACK_QR:-}" ] &&
    [ -n "${DEMO_CASHBACK_CARD:-}" ] ||
    bail "the output of loyalty-admin demo was not understood"

browser_shots "${POS_SHOT_DIR:-}" pos-page-shots

# --- the browser script ------------------------------------------------------

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
/* The page's steps; the driver (the browser, TAP, step(), ev(), the
 * interceptions, the server's stop and start) is tests/browser.js. */
const B = require(process.env.BROWSER_JS);
const { ok, step, ev, waitFor, S, shot, viewport, typeText, typeKeys, pressEnter,
	once, server, serverDown, restartBrowser, problems } = B;

const E = process.env;
const URL0 = B.config.url;

/* The till's own helpers, next to those of browser.js in ev(). */
B.init({ helpers: `
const submit = (s) => { $('#result').textContent = ''; return click(s); };
const queue = () => JSON.parse(localStorage.getItem('pos.queue.v1') || '[]');
const review = () => JSON.parse(localStorage.getItem('pos.review.v1') || '[]');
` });

async function lookupCard(code) {
	await ev(`(fill('#lookup-code', ''), $('#lookup-code').focus(), true)`);
	await typeText(code);
	await pressEnter();
}
const resultText = () => ev(`text('#result')`);
/* Kills the browser as a crash or a power cut would (no shutdown: what
 * it holds in memory never reaches the disk), then starts it again on
 * its profile, as restartBrowser does after a clean close. */
async function killBrowser() {
	const info = await B.send('SystemInfo.getProcessInfo');
	const pid = info.processInfo.find((p) => p.type === 'browser').id;
	process.kill(pid, 'SIGKILL');
	for (let i = 0; i < 200; i++) {
		try { process.kill(pid, 0); } catch (e) { break; }
		await B.sleep(50);
	}
	B.launch();
	await B.openPage();
}
/* The history's total, once it has finished loading. */
async function historyTotal() {
	const m = await waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-page').match(/(\\d+) transactions?/)`);
	return parseInt(m[1], 10);
}

/* What the page got from the network: API answers must never come from
 * the service worker or a cache; shell files may. */
const apiFromCache = [];
let apiSeen = 0, shellFromWorker = 0;

/* The bodies the page posted to cashback/redeem. */
const redeemBodies = [];

async function main() {
	B.on((m) => {
		if (m.method === 'Network.requestWillBeSent' && /\/api\/v1\/cashback\/redeem$/.test(m.params.request.url))
			redeemBodies.push(m.params.request.postData || '');
	});
	B.on((m) => {
		if (m.sessionId !== B.session() || m.method !== 'Network.responseReceived') return;
		const u = m.params.response.url, r = m.params.response;
		if (u.startsWith(URL0 + 'api/')) {
			apiSeen++;
			if (r.fromServiceWorker || r.fromDiskCache || r.fromPrefetchCache || r.fromEarlyHints)
				apiFromCache.push(u + (r.fromServiceWorker ? ' (service worker)' : ' (cache)'));
		} else if (r.fromServiceWorker && ['', 'index.html', 'pos.js', 'pos.css'].some((f) => u === URL0 + f)) {
			shellFromWorker++;
		}
	});
	B.launch();
	await B.openPage();

	await step('the page loads and shows the login form', async () => {
		await S('Page.navigate', { url: URL0 });
		await waitFor(`document.readyState === 'complete' && vis('#login-form') && !vis('#pos-view')`);
		const t = await ev(`document.title`);
		if (t !== 'Loyalty POS') throw new Error('title ' + t);
		return ev(`document.activeElement === $('#login-email')`);
	});

	await step('a wrong password shows INVALID_CREDENTIALS (as a sentence, the code kept for support)', async () => {
		await ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'wrong-password') && click('#login-submit')`);
		await waitFor(`vis('#login-error') && $('#login-error [data-code]') && $('#login-error [data-code]').dataset.code === 'INVALID_CREDENTIALS'`);
		if (await ev(`text('#login-error').includes('INVALID_CREDENTIALS')`)) throw new Error('the bare code is shown');
		await shot('pos-login-error');
		return ev(`!sessionStorage.getItem('pos.access_token')`);
	});

	await step('staff login shows the cashier and the active location', async () => {
		await ev(`fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
		await waitFor(`vis('#pos-view') && !vis('#login-view')`);
		const who = await ev(`text('#session-bar')`);
		if (!who.includes('Sam Staff') || !who.includes('Main Street')) throw new Error('session bar: ' + who);
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
		/* more than 5 punches at once: a second press */
		await waitFor(`vis('#purchase-confirm') && text('#purchase-confirm-text').includes('10 punches')`);
		await ev(`click('#purchase-yes')`);
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
		await waitFor(`vis('#claim-confirm') && text('#claim-confirm-text').includes('Free coffee') && text('#claim-confirm-text').includes('Demo Customer')`);
		await ev(`click('#claim-yes')`);
		await waitFor(`text('#result').includes('Reward claimed')`);
		const t = await resultText();
		if (!t.includes('Free coffee') || !t.includes('3.50') || !t.includes('0 rewards still waiting')) throw new Error(t);
		await waitFor(`!vis('#claim-panel')`);
		return (await historyTotal()) === 2;
	});

	await step('a second punch within the cooldown shows COOLDOWN_ACTIVE and the wait', async () => {
		await ev(`fill('#purchase-amount', '2') && submit('#purchase-submit')`);
		await waitFor(`$('#result [data-code]') && $('#result [data-code]').dataset.code === 'COOLDOWN_ACTIVE'`);
		const t = await resultText() + ' ' + await ev(`text('#countdown')`);
		if (!/Next punch possible in [1-6]?\d seconds/.test(t)) throw new Error(t);
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
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#who-name') === 'Sam Staff'`);
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

	/* The till's profile read again (a reload asks auth/me): the shop's
	 * card_code_required as the setting now is. */
	const reloadShop = async (on) => {
		await S('Page.reload');
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.card_code_required === ${on}`, 15000);
	};
	await step('redeem_needs_card_code on: the till says so at a printed card\u2019s lookup; the code of a card page\u2019s QR goes with the redemption as card_code; the printed QR is refused, saying to scan the phone', async () => {
		const { execFileSync } = require('child_process');
		execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'setting', 'set', 'redeem_needs_card_code', '1'], { stdio: 'ignore' });
		try {
			await reloadShop(true);
			const secret = execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.POS_DB,
			    "SELECT code_secret FROM cards WHERE id = '" + E.CASH_ID + "'"], { encoding: 'utf8' }).trim();
			/* The card page's code of this minute, by Python's scrypt
			 * (hashlib), not ours (lib/card_code.c says the recipe). */
			const code = execFileSync('python3', ['-c', 'import hashlib,struct,sys,time\n' +
			    'd=hashlib.scrypt(bytes.fromhex(sys.argv[1]),salt=b"loyalty-pos card code v1"+struct.pack(">Q",int(time.time())//60),n=2,r=1,p=1,dklen=4)\n' +
			    'print("%06d" % ((int.from_bytes(d,"big")&0x7fffffff)%1000000))', secret], { encoding: 'utf8' }).trim();
			await lookupCard(E.CASH_QR);
			await waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
			if (!await ev(`vis('#redeem-code-note') && text('#redeem-code-note').includes('scan the QR code on their card page')`))
				throw new Error('no word of the phone\'s code before the amounts');
			await shot('till-card-code-needed');
			await ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '0.05') && submit('#redeem-submit')`);
			await waitFor(`text('#result').includes('Cashback not redeemed')`);
			const t = await resultText();
			if (!t.includes('scan the QR code on their phone') ||
			    await ev(`$('#result [data-code]').dataset.code`) !== 'CARD_CODE_REQUIRED') throw new Error(t);
			const n = redeemBodies.length;
			await lookupCard(E.CASH_QR + '.' + code);
			await waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel') && !vis('#redeem-code-note')`);
			await ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '0.05') && submit('#redeem-submit')`);
			await waitFor(`text('#result').includes('Cashback used') || text('#result').includes('not redeemed')`);
			const sentBody = JSON.parse(redeemBodies[redeemBodies.length - 1] || '{}');
			if (redeemBodies.length <= n || sentBody.card_code !== code) throw new Error('sent ' + JSON.stringify(sentBody) + ', code ' + code);
			const r = await resultText();
			if (!r.includes('Cashback used 0.05')) throw new Error(r);
		} finally {
			execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'setting', 'set', 'redeem_needs_card_code', '0'], { stdio: 'ignore' });
			await reloadShop(false);
		}
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
	 * queues it with its idempotency key and clears the form for the next
	 * customer; the queue sends it with that key, so it counts once. */
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
		return ev(`text('#queue-count') === '1' && $('#purchase-amount').value === ''`);
	});

	await step('the queue sends the lost purchase with its key: recorded once', async () => {
		await ev(`click('#sync-button')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`);
		if (await ev(`review().length`) !== 0) throw new Error('review: ' + JSON.stringify(await ev(`review()`)));
		return (await historyTotal()) === 2;
	});

	await step('DATABASE_ERROR queues the purchase; Sync now sends it', async () => {
		await once('transactions/record', 'Request', (p) => S('Fetch.fulfillRequest', {
			requestId: p.requestId, responseCode: 503,
			responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, { name: 'Retry-After', value: '1' }],
			body: Buffer.from(JSON.stringify({ success: false, error: { code: 'DATABASE_ERROR', message: 'The database is busy.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
		}));
		await ev(`fill('#purchase-amount', '7.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue') && $('#result [data-code]').dataset.code === 'DATABASE_ERROR'`);
		if (await ev(`queue().length`) !== 1) throw new Error('not queued');
		await ev(`click('#sync-button')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`);
		return (await historyTotal()) === 3;
	});

	await step('a scan while no field has focus goes into the card field', async () => {
		await ev(`(document.activeElement && document.activeElement.blur(), true)`);
		await B.scan(E.CASH_BARCODE);
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
		if (!r.includes('No card with this number') || !r.includes('5.55') || r.includes('CARD_NOT_FOUND') ||
		    await ev(`$('#review-list [data-code]').dataset.code`) !== 'CARD_NOT_FOUND') throw new Error(r);
		return true;
	});
	const shot2 = await shot('pos-review').catch((e) => 'failed: ' + e.message);
	ok(!/^failed/.test(shot2), 'screenshot of the review list written to ' + shot2);

	await step('dismissing a review item', async () => {
		await ev(`click('#review-list button:last-child')`);
		return waitFor(`review().length === 0 && !vis('#review-box')`);
	});

	/* ---- the till with the server down: the service worker (sw.js) ---- */

	const SHELL = ['index.html', 'js/api.js', 'js/camera.css', 'js/camera.js', 'js/cardtypes.js', 'js/errors.js', 'js/http-warning.js', 'js/keys.js', 'js/limits.js',
		'js/money.js', 'js/progress.js', 'js/queue.js', 'js/server-tables.js', 'js/store.js', 'pos.css', 'pos.js', 'vendor/zxing-library-0.23.0.min.js'].map((f) => URL0 + f);
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
		await waitFor(`document.readyState === 'complete' && vis('#pos-view') && text('#who-name') === 'Sam Staff'`);
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

	/* A till's browser killed (a crash, a power cut, or a close that
	 * hangs on a loaded machine, after which browser.js kills it): the
	 * queue must come back as the till last had it. Chromium keeps
	 * localStorage writes in memory and writes them to disk 5 s later
	 * at the soonest, and once a page has written a few times about
	 * once a minute: killed just after "Saved to the offline queue",
	 * the till came back without that sale, and with purchases it had
	 * sent or set aside minutes before (one of them refused again: "1
	 * need review"). */
	await step('a browser killed just after an offline sale comes back with that sale, which is sent once after login', async () => {
		await ev(`click('#lookup-clear')`);
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`vis('#purchase-panel') && text('#card-title') === 'Member Discount' && text('#card-status') === 'Active'`);
		await S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await ev(`fill('#purchase-amount', '8.00') && fill('#purchase-notes', 'browser killed') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue') && queue().length === 1`).catch(async (e) => {
			throw new Error(e.message + ': ' + await ev(`text('#result') + ' | ' + text('#queue-panel')`));
		});
		const keys = `JSON.stringify({ queue: queue().map((x) => x.item.idempotency_key), review: review().map((x) => x.item.idempotency_key) })`;
		const had = await ev(keys);
		await killBrowser();
		await S('Page.navigate', { url: URL0 });
		await waitFor(`document.readyState === 'complete' && vis('#login-form')`);
		/* The page may take a moment to bring the queue back (a browser
		 * just started on a loaded machine opens IndexedDB slowly). */
		await waitFor(`${keys} === ${JSON.stringify(had)}`, 20000).catch(async () => {
			throw new Error('before the kill ' + had + ', after ' + await ev(keys));
		});
		await waitFor(`text('#login-queue').includes('1 purchase is waiting')`);
		await ev(`fill('#login-email', 'staff@demo.example') && fill('#login-password', 'demo-staff-pass') && click('#login-submit')`);
		await waitFor(`vis('#pos-view')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
		if (!(await ev(`text('#queue-summary')`)).startsWith('1 purchase sent.') || await ev(`review().length`) !== 0)
			throw new Error(await ev(`text('#queue-panel')`));
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount'`);
		await historyTotal();
		const row = await ev(`text('#history-body tr')`);
		if (!row.includes('8.00') || !row.includes('browser killed')) throw new Error(row);
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

B.run(main, { timeout: 180000 });
EOF

diag "backend on $LT_URL/, screenshots in $shots"
browser_drive PUNCH_BARCODE="$DEMO_PUNCH_BARCODE" CASH_BARCODE="$DEMO_CASHBACK_BARCODE" \
    DISC_BARCODE="$DEMO_DISCOUNT_BARCODE" CASH_QR="$DEMO_CASHBACK_QR" \
    CASH_ID="$DEMO_CASHBACK_CARD" POS_ADMIN="$admin" POS_DB="$LT_DB"
# The driver's status; lt_stop (the EXIT trap) keeps the server's folder
# when a test failed.
exit $?
