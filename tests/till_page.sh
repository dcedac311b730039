#!/usr/bin/env bash
# tests/till_page.sh: the till (htdocs/index.html, pos.js, js/*.js) at
# rush hour, in headless Chromium against real lighttpd and a fresh
# `loyalty-admin demo` database. Each defect found at a busy counter is
# reproduced as it happened (a slowed lookup, keys typed at a person's
# pace, a scanner's burst into whatever field has focus, a session ended
# mid-sale, a host that refuses bodies above 128 KiB, another till
# spending the balance) and must not come back; then the cashier's new
# tools (confirmations, enrolment, the customer's progress line, the
# shop's currency symbol). TAP output; skipped without Chromium or Node
# (see tests/browser.sh).
#
# Environment: as tests/pos_page.sh (TILL_SHOT_DIR for the screenshots).
set -u

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
# shellcheck source=lib.sh
. "$top_srcdir/tests/lib.sh"
# shellcheck source=browser.sh
. "$top_srcdir/tests/browser.sh"

browser_need
browser_backend
lt_start
[ -n "${DEMO_PUNCH_BARCODE:-}" ] && [ -n "${DEMO_CASHBACK_BARCODE:-}" ] &&
    [ -n "${DEMO_DISCOUNT_BARCODE:-}" ] && [ -n "${DEMO_MERCHANT_ID:-}" ] ||
    bail "the output of loyalty-admin demo was not understood"
browser_shots "${TILL_SHOT_DIR:-}" till-page-shots

# Punch cards of a program with a short cooldown (10 s), so that the
# cooldown steps need not wait the demo's minute: one for the offline
# punches, one for ten punches and the claim.
quick=$("$LT_ADMIN" --db "$LT_DB" program add --merchant "$DEMO_MERCHANT_ID" --type punch \
    --title "Quick Stamp" --punches 10 --reward-title "Free muffin" --cooldown 10 2>"$LT_DIR/issue.err") ||
    bail "program add failed: $(cat "$LT_DIR/issue.err")"
issue() {
	local out
	out=$("$LT_ADMIN" --db "$LT_DB" card issue --program "$quick" --customer "$1" 2>"$LT_DIR/issue.err") ||
	    bail "card issue failed: $(cat "$LT_DIR/issue.err")"
	printf '%s' "$out" | sed -n 's/.*"barcode_value" *: *"\([0-9]*\)".*/\1/p'
}
punch2_barcode=$(issue "Rush Hour")
punch3_barcode=$(issue "Claire Claim")
[ -n "$punch2_barcode" ] && [ -n "$punch3_barcode" ] || bail "no barcode from card issue"
# A card whose 3 punches earn a reward at once, for a void after the claim.
quick=$("$LT_ADMIN" --db "$LT_DB" program add --merchant "$DEMO_MERCHANT_ID" --type punch \
    --title "Three Stamp" --punches 3 --reward-title "Free tea" --cooldown 0 2>"$LT_DIR/issue.err") ||
    bail "program add failed: $(cat "$LT_DIR/issue.err")"
punch4_barcode=$(issue "Tess Tea")
[ -n "$punch4_barcode" ] || bail "no barcode from card issue"

cat >"$LT_DIR/drive.js" <<'EOF'
'use strict';
const B = require(process.env.BROWSER_JS);
const { step, ev, waitFor, S, shot, viewport, typeText, typeKeys, typeKeysTimed, pressEnter,
	slowDown, fulfil, clearIntercepts, once, problems, sleep, note } = B;
const { execFileSync } = require('child_process');
const http = require('http');

const E = process.env;
const URL0 = B.config.url;
const admin = (...args) => execFileSync(E.ADMIN, ['--db', E.DB, ...args], { encoding: 'utf8' });

B.init({ helpers: `
const submit = (s) => { $('#result').textContent = ''; return click(s); };
const queue = () => JSON.parse(localStorage.getItem('pos.queue.v1') || '[]');
const review = () => JSON.parse(localStorage.getItem('pos.review.v1') || '[]');
const focused = () => document.activeElement ? (document.activeElement.id || document.activeElement.tagName) : 'none';
` });

/* The API straight, as another till would call it. */
function call(method, path, body, token) {
	return new Promise((resolve, reject) => {
		const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
		const r = http.request(URL0 + 'api/v1/' + path, {
			method, headers: Object.assign({ Accept: 'application/json' },
				data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {},
				token ? { Authorization: 'Bearer ' + token } : {})
		}, (res) => {
			let t = '';
			res.setEncoding('utf8');
			res.on('data', (c) => { t += c; });
			res.on('end', () => { try { resolve({ status: res.statusCode, body: JSON.parse(t) }); } catch (e) { reject(new Error(res.statusCode + ' ' + t)); } });
		});
		r.on('error', reject);
		if (data) r.write(data);
		r.end();
	});
}
/* The owner on another till: {token, id}. */
async function otherTill() {
	const r = await call('POST', 'auth/login', { email: 'owner@demo.example', password: 'demo-owner-pass' });
	if (r.status !== 200) throw new Error('login ' + JSON.stringify(r.body));
	return { token: r.body.access_token, id: r.body.user.id };
}

const scan = B.scan;
async function lookupCard(code) {
	await ev(`(fill('#lookup-code', ''), $('#lookup-code').focus(), true)`);
	await typeText(code);
	await pressEnter();
}
async function historyTotal() {
	const m = await waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-page').match(/(\\d+) transactions?/)`);
	return parseInt(m[1], 10);
}
async function login(email, pass) {
	await ev(`fill('#login-email', ${JSON.stringify(email)}) && fill('#login-password', ${JSON.stringify(pass)}) && click('#login-submit')`);
	await waitFor(`vis('#pos-view') && !vis('#login-view')`);
}
/* No bare error code is ever shown to the cashier. */
async function noCodes(sel) {
	const t = await ev(`text(${JSON.stringify(sel)})`);
	const m = t.match(/\b[A-Z]{2,}_[A-Z_]{2,}\b/);
	if (m) throw new Error('a raw code is shown: ' + m[0] + ' in ' + t);
}

let offlinePunchAt = 0;

async function main() {
	B.launch();
	await B.openPage();
	await viewport(1280, 800);

	await step('the cashier logs in; the top bar shows the name, not the e-mail', async () => {
		await S('Page.navigate', { url: URL0 });
		await waitFor(`document.readyState === 'complete' && vis('#login-form')`);
		await login('staff@demo.example', 'demo-staff-pass');
		const who = await ev(`text('#who-name')`);
		if (who !== 'Sam Staff') throw new Error('top bar: ' + who);
		return ev(`!text('#session-bar').includes('staff@demo.example')`);
	});

	/* 1. A scan, then "4.50" at 110 ms a key while the lookup takes
	 * 250 ms: the keys typed meanwhile land in the amount. */
	await step('typing during a slow lookup: the amount gets every key, the card field none', async () => {
		await slowDown('cards/lookup', 250);
		await ev(`(document.activeElement.blur(), true)`);
		await scan(E.DISC_BARCODE);
		await typeKeysTimed('4.50', 110);
		await waitFor(`text('#card-title') === 'Member Discount' || text('#card-title').length > 0`);
		await waitFor(`$('#purchase-amount').value === '4.50'`, 3000);
		const code = await ev(`$('#lookup-code').value`);
		if (code !== E.DISC_BARCODE) throw new Error('card field: ' + code);
		await pressEnter();
		await waitFor(`text('#result').includes('Charge the customer')`);
		const t = await ev(`text('#result')`);
		if (!/Purchase 4\.50/.test(t)) throw new Error(t);
		return true;
	});

	await step('Enter typed before the lookup answers is held, and records the typed amount', async () => {
		await clearIntercepts();
		await slowDown('cards/lookup', 900);
		await ev(`(document.activeElement.blur(), true)`);
		await scan(E.DISC_BARCODE);
		await typeKeysTimed('6.20', 110);
		await pressEnter();
		if (await ev(`text('#result').includes('6.20')`)) throw new Error('recorded before the card was known');
		await waitFor(`text('#result').includes('Charge the customer') && text('#result').includes('6.20')`, 5000);
		await clearIntercepts();
		return ev(`$('#lookup-code').value === ${JSON.stringify(E.DISC_BARCODE)}`);
	});

	/* 2. The scanner wins wherever the focus is. */
	await step('a scan with the focus in the amount (looked up, nothing bought) is a new card', async () => {
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`document.activeElement === $('#purchase-amount')`);
		await scan(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		return ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)} && $('#purchase-amount').value === ''`);
	});

	await step('a scan after a cooldown refusal: no "3.2026…" in the amount, the new card shown', async () => {
		await lookupCard(E.PUNCH_BARCODE);
		await waitFor(`text('#card-title') === 'Coffee Card' && document.activeElement === $('#purchase-amount')`);
		await ev(`fill('#purchase-amount', '3.20') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Purchase recorded')`);
		await ev(`fill('#purchase-amount', '3.20') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Purchase not recorded')`);
		await noCodes('#result');
		await ev(`$('#purchase-amount').focus()`);
		await scan(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		const v = await ev(`$('#purchase-amount').value`);
		if (v !== '') throw new Error('amount field: ' + v);
		return true;
	});

	await step('an amount typed with no field focused goes into the amount of the card shown', async () => {
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount' && document.activeElement === $('#purchase-amount')`);
		await ev(`(document.activeElement.blur(), true)`);
		await typeKeysTimed('3.10', 90);
		return ev(`$('#purchase-amount').value === '3.10' && $('#lookup-code').value === ${JSON.stringify(E.DISC_BARCODE)}`);
	});

	/* A sale in flight, the next card scanned and its amount typed with
	 * Enter while its lookup runs: one sale each, and the late answer of
	 * the first says whose it is. */
	await step('a slow sale\'s answer does not clear what is typed for the next card, nor start it twice', async () => {
		const tok = (await otherTill()).token;
		const cashId = (await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok)).body.data.card_instance_id;
		const before = await historyTotalOf(cashId, tok);
		await slowDown('transactions/record', 2500);
		await ev(`fill('#purchase-amount', '2.00') && submit('#purchase-submit')`);
		await slowDown('cards/lookup', 300);
		await ev(`(document.activeElement.blur(), true)`);
		await scan(E.CASH_BARCODE);
		await typeKeysTimed('5.55', 40);
		await pressEnter();
		await waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount') && $('#purchase-amount').value === '5.55'`);
		await waitFor(`text('#result').includes('Charge the customer')`, 8000);
		const r = await ev(`text('#result')`);
		if (!r.startsWith('Previous sale: Member Discount')) throw new Error('not marked as the previous card\'s: ' + r);
		await clearIntercepts();
		const v = await ev(`[$('#purchase-amount').value, document.activeElement.id]`);
		if (v[0] !== '5.55' || v[1] !== 'purchase-amount') throw new Error(JSON.stringify(v));
		/* the held Enter did not start a second sale beside the first */
		await sleep(500);
		if (await historyTotalOf(cashId, tok) !== before) throw new Error('a sale on the new card started by itself');
		await pressEnter();
		await waitFor(`text('#result').includes('Cashback earned')`);
		await sleep(300);
		await pressEnter();
		await sleep(600);
		const after = await historyTotalOf(cashId, tok);
		if (after !== before + 1) throw new Error('sales on the new card: ' + (after - before));
		return true;
	});

	await step('Enter alone while a card is looked up records nothing', async () => {
		await slowDown('cards/lookup', 400);
		await ev(`(document.activeElement.blur(), true)`);
		await scan(E.DISC_BARCODE);
		await pressEnter();
		await waitFor(`text('#card-title') === 'Member Discount' && document.activeElement === $('#purchase-amount')`);
		await clearIntercepts();
		await sleep(300);
		return ev(`!vis('#purchase-amount-error') && $('#purchase-amount').value === ''`);
	});

	/* 9. The countdown ticks outside the live region. */
	await step('the cooldown countdown is not read out every second', async () => {
		await lookupCard(E.PUNCH_BARCODE);
		await waitFor(`text('#card-title') === 'Coffee Card'`);
		await ev(`fill('#purchase-amount', '1.00') && submit('#purchase-submit')`);
		await waitFor(`vis('#countdown') && text('#countdown').includes('second')`);
		const a = await ev(`[text('#result'), text('#countdown')]`);
		await sleep(1300);
		const b = await ev(`[text('#result'), text('#countdown')]`);
		if (a[1] === b[1]) throw new Error('the countdown does not tick');
		if (a[0] !== b[0]) throw new Error('the live region changed: ' + a[0] + ' / ' + b[0]);
		return ev(`!$('#countdown').closest('[aria-live]') && !!$('#result').closest('[aria-live]')`);
	});

	/* 4. After an unknown card, the next scan replaces the code. */
	await step('after an unknown card the next scan is not appended to the old code', async () => {
		await lookupCard('999999999');
		await waitFor(`vis('#lookup-error')`);
		await noCodes('#lookup-error');
		await scan(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		return ev(`$('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)}`);
	});

	/* 7. Guardrails. */
	await step('0.00 is refused as an amount', async () => {
		await ev(`fill('#purchase-amount', '0.00') && submit('#purchase-submit')`);
		await waitFor(`vis('#purchase-amount-error')`);
		return ev(`!vis('#result-panel') && text('#purchase-amount-error').includes('above 0')`);
	});

	await step('999,999.00 needs a confirmation; "Change it" records nothing', async () => {
		const before = await historyTotal();
		await ev(`fill('#purchase-amount', '999999.00') && submit('#purchase-submit')`);
		await waitFor(`vis('#purchase-confirm') && !vis('#purchase-submit')`);
		const t = await ev(`text('#purchase-confirm-text')`);
		if (!t.includes('999,999.00')) throw new Error(t);
		if (await ev(`document.activeElement !== $('#purchase-no')`)) throw new Error('focus not on "Change it"');
		await ev(`click('#purchase-no')`);
		await waitFor(`!vis('#purchase-confirm') && vis('#purchase-submit') && document.activeElement === $('#purchase-amount')`);
		await sleep(300);
		return (await historyTotal()) === before;
	});

	await step('Enter pressed twice on a large amount does not say yes', async () => {
		const before = await historyTotal();
		await ev(`fill('#purchase-amount', '') && $('#purchase-amount').focus()`);
		await typeKeysTimed('9999.00', 90);
		await pressEnter();
		await waitFor(`vis('#purchase-confirm')`);
		await sleep(120);
		await pressEnter();
		await sleep(600);
		if (await ev(`text('#result').includes('Cashback earned')`)) throw new Error('recorded');
		return (await historyTotal()) === before;
	});

	await step('a confirmed large amount is recorded once', async () => {
		const before = await historyTotal();
		await ev(`fill('#purchase-amount', '1500.00') && submit('#purchase-submit')`);
		await waitFor(`vis('#purchase-confirm')`);
		await ev(`click('#purchase-yes')`);
		await waitFor(`text('#result').includes('Cashback earned')`);
		await sleep(300);
		return (await historyTotal()) === before + 1;
	});

	/* 6. Another till spends the balance first. */
	await step('after INSUFFICIENT_BALANCE the card shows the balance as it is now, and Max uses it', async () => {
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
		const shown = await ev(`text('#card-balance')`);
		const other = await otherTill(), tok = other.token;
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		const bal = lk.body.data.cashback_balance;
		if (!(bal > 1)) throw new Error('balance ' + bal + ' ' + shown);
		const spend = Math.round((bal - 1) * 100) / 100;
		const r = await call('POST', 'cashback/redeem', { card_instance_id: lk.body.data.card_instance_id, redemption_amount: spend,
			purchase_amount: spend, location_id: E.LOCATION, staff_user_id: other.id, earn_on_remainder: false, idempotency_key: require('crypto').randomUUID() }, tok);
		if (r.status !== 200) throw new Error('redeem ' + JSON.stringify(r.body));
		await ev(`fill('#redeem-purchase', '500.00') && click('#redeem-max')`);
		const max1 = await ev(`$('#redeem-amount').value`);
		await ev(`click('#redeem-submit')`);
		await waitFor(`text('#result').includes('Cashback not redeemed')`);
		await noCodes('#result');
		await waitFor(`text('#card-balance').includes('1.00')`);
		await ev(`click('#redeem-max')`);
		const max2 = await ev(`$('#redeem-amount').value`);
		if (max2 !== '1.00' || max1 === max2) throw new Error('Max: ' + max1 + ' then ' + max2);
		return true;
	});

	/* 8. Focus after Redeem. */
	await step('after Redeem the focus is on the result, not the page body', async () => {
		await ev(`fill('#redeem-purchase', '10.00') && fill('#redeem-amount', '1.00') && click('#redeem-submit')`);
		await waitFor(`text('#result').includes('Charge the customer')`);
		return ev(`document.activeElement !== document.body && document.activeElement.id === 'result-panel'`);
	});

	/* 11. The actions stay in view on a laptop. */
	await step('at 1280x800 Record and "Pay with cashback" are in view after a cashback scan', async () => {
		await ev(`scrollTo(0, 0) || true`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
		await B.settle();
		await ev(`scrollTo(0, 0) || true`);
		await shot('till-1280-cashback');
		const r = await ev(`[$('#purchase-submit').getBoundingClientRect().bottom, $('#redeem-submit').getBoundingClientRect().bottom, innerHeight]`);
		if (r[0] > r[2] || r[1] > r[2]) throw new Error('below the fold: ' + JSON.stringify(r));
		return true;
	});

	/* 7 and 8. Claiming: a confirmation, and the focus kept, by keyboard. */
	await step('claiming asks first; Cancel claims nothing', async () => {
		await lookupCard(E.PUNCH3_BARCODE);
		await waitFor(`text('#card-title') === 'Quick Stamp'`);
		/* ten punches at once: a confirmation too */
		await ev(`fill('#purchase-amount', '30.00') && fill('#punch-count', '10') && submit('#purchase-submit')`);
		await waitFor(`vis('#purchase-confirm') && text('#purchase-confirm-text').includes('10 punches')`);
		await ev(`click('#purchase-yes')`);
		await waitFor(`text('#result').includes('Reward earned')`);
		await waitFor(`vis('#claim-panel')`);
		await ev(`$('#claim-button').focus()`);
		await pressEnter();
		await waitFor(`vis('#claim-confirm') && document.activeElement === $('#claim-no')`);
		await ev(`click('#claim-no')`);
		await waitFor(`!vis('#claim-confirm') && document.activeElement === $('#claim-button')`);
		return ev(`vis('#claim-panel')`);
	});

	await step('a claim by keyboard (Enter, Shift+Tab to "Yes", Enter) leaves the focus on the result', async () => {
		await pressEnter();
		await waitFor(`document.activeElement === $('#claim-no')`);
		await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
		await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
		await waitFor(`document.activeElement === $('#claim-yes')`);
		await pressEnter();
		await waitFor(`text('#result').includes('Reward claimed')`);
		await sleep(400);
		const f = await ev(`focused()`);
		if (f === 'BODY' || f === 'none') throw new Error('focus fell to ' + f);
		return true;
	});

	/* 8. "Older" disabled on the last page. */
	await step('when "Older" disables on the last page the focus stays in the history', async () => {
		const other = await otherTill();
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.DISC_BARCODE }, other.token);
		for (let i = 0; i < 11; i++) {
			const r = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id, purchase_amount: 2 + i,
				location_id: E.LOCATION, staff_user_id: other.id, idempotency_key: require('crypto').randomUUID() }, other.token);
			if (r.status !== 200) throw new Error(JSON.stringify(r.body));
		}
		await lookupCard(E.DISC_BARCODE);
		await waitFor(`text('#card-title') === 'Member Discount'`);
		const total = await historyTotal();
		if (total <= 10) throw new Error('only ' + total + ' transactions');
		await ev(`$('#history-next').focus()`);
		await pressEnter();
		await waitFor(`$('#history-next').disabled && text('#history-page').startsWith('Page 2')`);
		const f = await ev(`focused()`);
		if (f === 'BODY' || f === 'none') throw new Error('focus fell to ' + f);
		return f === 'history-prev';
	});

	/* 12. A focus ring even without :focus-visible. */
	await step('no style sheet removes the focus ring for every :focus', async () => {
		const bad = await ev(`Array.from(document.styleSheets).flatMap((s) => Array.from(s.cssRules)).filter((r) =>
			r.selectorText && /(^|,)\\s*:focus\\s*(,|$)/.test(r.selectorText) && /none/.test(r.style.outline || r.style.outlineStyle)).map((r) => r.cssText)`);
		if (bad.length) throw new Error(bad.join(' | '));
		await ev(`$('#lookup-code').blur() || true`);
		await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
		await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
		const st = await ev(`[focused(), document.activeElement.className, getComputedStyle(document.activeElement).outlineStyle]`);
		if (st[2] === 'none') throw new Error('no ring on ' + st.join(' '));
		return true;
	});

	/* 2. Offline: a queued purchase resets the form; 5. a second offline
	 * punch on one card within the cooldown is refused at once. */
	/* The card is looked up, then the connection drops: the till knows
	 * it is a punch card and its cooldown. */
	await step('offline: the purchase is queued and the form reset; the next scan is a new card', async () => {
		await lookupCard(E.PUNCH2_BARCODE);
		await waitFor(`text('#card-customer') === 'Rush Hour' && document.activeElement === $('#purchase-amount')`);
		await S('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await typeKeysTimed('2.50', 60);
		await pressEnter();
		await waitFor(`text('#result').includes('Saved to the offline queue')`);
		offlinePunchAt = Date.now();
		await noCodes('#result');
		if (await ev(`$('#purchase-amount').value`) !== '') throw new Error('the form was not reset');
		if (await ev(`queue().length`) !== 1) throw new Error('queue ' + JSON.stringify(await ev('queue()')));
		return ev(`queue()[0].card_type === 'punch' && text('#card-customer') === 'Rush Hour'`);
	});

	await step('offline: a second punch on that card within the cooldown is refused at the till', async () => {
		await ev(`fill('#purchase-amount', '1.80') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Purchase not recorded')`);
		const t = await ev(`text('#result')`);
		if (!/punched .* ago/.test(t)) throw new Error(t);
		await noCodes('#result');
		return ev(`queue().length === 1 && vis('#countdown')`);
	});

	await step('offline: a card the till could not look up takes two sales in a row (it may be a cashback card)', async () => {
		await ev(`$('#purchase-amount').focus()`);
		await scan(E.CASH_BARCODE);
		await waitFor(`vis('#card-offline') && $('#lookup-code').value === ${JSON.stringify(E.CASH_BARCODE)} && $('#purchase-amount').value === ''`);
		await ev(`fill('#purchase-amount', '4.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Saved to the offline queue') && queue().length === 2`);
		await ev(`fill('#purchase-amount', '6.00') && submit('#purchase-submit')`);
		/* "Saved" comes once the queue's durable copy has the sale,
		 * after the queue itself: waited for, not read at once. */
		await waitFor(`queue().length === 3 && text('#result').includes('Saved to the offline queue') && text('#result').includes('6.00')`);
		return true;
	});

	await step('back online, the queued purchases are recorded once each', async () => {
		await S('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
		await ev(`click('#sync-button')`);
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('3 purchases sent')`);
		return ev(`review().length === 0`);
	});

	await step('a punch refused for its cooldown offers "Record now" (not a Retry that cannot pass) and it records', async () => {
		/* as a till that was offline would have it: refused at sync */
		const item = { barcode_value: E.PUNCH2_BARCODE, location_id: E.LOCATION, staff_user_id: await ev(`JSON.parse(sessionStorage.getItem('pos.user')).id`),
			purchase_amount: 1.8, punch_count: 1, idempotency_key: require('crypto').randomUUID(), client_timestamp: new Date(Date.now() - 20000).toISOString() };
		await ev(`(localStorage.setItem('pos.review.v1', JSON.stringify([{ item: ${JSON.stringify(item)}, label: 'Card', card_type: 'punch', merchant_id: 'm', error: 'COOLDOWN_ACTIVE', message: 'Wait.' }])), true)`);
		await ev(`(window.dispatchEvent(new StorageEvent('storage', { key: 'pos.review.v1' })), true)`);
		await S('Page.reload');
		await waitFor(`vis('#review-box')`);
		const t = await ev(`text('#review-list')`);
		if (!t.includes('Record now') || t.includes('Retry')) throw new Error(t);
		await noCodes('#review-list');
		/* the program's cooldown (10 s) after the punch synced before */
		await sleep(Math.max(0, offlinePunchAt + 11000 - Date.now()));
		await ev(`(window.confirm = () => true, true)`);
		await ev(`click(Array.from(document.querySelectorAll('#review-list button')).find((b) => b.textContent === 'Record now'))`);
		await waitFor(`review().length === 0 && queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
		return true;
	});

	/* 13. A host that refuses bodies above its limit with its own 500:
	 * 128 KiB (mod_fcgid's default), and a stricter one that refuses
	 * even the till's batches, which must then be split. */
	await step('100 queued purchases with notes (over 128 KiB) reach a host with a 128 KiB limit, each once', () => bigSync(100, 128 * 1024));
	await step('a host with a 40 KiB limit: refused batches are split, none sent twice, all recorded once', () => bigSync(60, 40 * 1024));

	/* 3. The session ends mid-sale: the cashier is disabled. */
	await step('a sale in flight when the session ends is kept in the queue and said so on the login form', async () => {
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		admin('user', 'disable', me.id);
		await ev(`sessionStorage.setItem('pos.access_token', 'expired.token.x') || true`);
		await ev(`fill('#purchase-amount', '8.40') && submit('#purchase-submit')`);
		await waitFor(`vis('#login-view')`);
		const n = await ev(`text('#login-notice') + ' | ' + text('#login-queue')`);
		if (!n.includes('8.40') || !n.includes('offline queue')) throw new Error(n);
		const q = await ev(`queue()`);
		if (q.length !== 1 || q[0].item.purchase_amount !== 8.4) throw new Error(JSON.stringify(q));
		admin('user', 'enable', me.id);
		await login('staff@demo.example', 'demo-staff-pass');
		await waitFor(`queue().length === 0 && text('#queue-summary').includes('1 purchase sent')`, 15000);
		return true;
	});

	/* What cashiers of other systems have: the customer's progress line,
	 * the shop's currency, enrolment at the counter. */
	await step('after a purchase the result has a line for the customer', async () => {
		await sleep(Math.max(0, offlinePunchAt + 11000 - Date.now()));
		await lookupCard(E.PUNCH3_BARCODE);
		await waitFor(`text('#card-title') === 'Quick Stamp'`);
		await ev(`fill('#purchase-amount', '3.00') && submit('#purchase-submit')`);
		await waitFor(`vis('#result .progress-line')`);
		const t = await ev(`text('#result .progress-line')`);
		if (!/1 punch added: 1 of 10\. 9 more for a free muffin\./.test(t)) throw new Error(t);
		return true;
	});

	await step('the shop\'s currency symbol (a setting) is shown with every amount', async () => {
		admin('setting', 'set', 'currency_symbol', '€');
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.currency_symbol === '€'`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		const t = await ev(`text('#card-balance')`);
		if (!/Cashback balance€\d/.test(t)) throw new Error(t);
		await ev(`fill('#purchase-amount', '20.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned')`);
		const r = await ev(`text('#result')`);
		if (!/Cashback earned: €2\.00/.test(r) || !r.includes('of €20.00')) throw new Error(r);
		return true;
	});

	await step('cashback that expires: the card shows how much and on which day', async () => {
		/* Noon UTC on 3 December of next year: that day in any time zone. */
		const year = new Date().getUTCFullYear() + 1;
		execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB, 'UPDATE cashback_earnings SET expires_at = ' +
		    Date.UTC(year, 11, 3, 12) + " WHERE remaining > 0 AND card_id = (SELECT id FROM cards WHERE barcode = '" +
		    E.CASH_BARCODE + "')"]);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-balance').includes('expires on')`);
		const t = await ev(`text('#card-balance')`);
		if (!new RegExp('Next expiry€\\d+\\.\\d\\d expires on 3 Dec ' + year).test(t)) throw new Error(t);
		return true;
	});

	await step('expired cashback shows in the history: "Expiry", the amount taken off, done by no one', async () => {
		const sql = (q) => execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.DB, q], { encoding: 'utf8' }).trim();
		const card = "(SELECT id FROM cards WHERE barcode = '" + E.CASH_BARCODE + "')";
		const [id, cents] = sql('SELECT transaction_id, remaining FROM cashback_earnings WHERE remaining > 0 AND card_id = ' + card +
		    ' ORDER BY earned_at DESC LIMIT 1').split('|');
		sql('UPDATE cashback_earnings SET expires_at = ' + (Date.now() - 500) + " WHERE transaction_id = '" + id + "'");
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`!$('#history-panel').getAttribute('aria-busy') && $$('#history-body tr').some((r) => r.textContent.includes('Expiry'))`);
		const row = await ev(`$$('#history-body tr').map((r) => r.textContent).find((t) => t.includes('Expiry'))`);
		const amount = (parseInt(cents, 10) / 100).toFixed(2);
		if (!row.includes('cashback expired −€' + amount) || !row.includes('Automatic') || /€0\.00/.test(row)) throw new Error(row);
		return true;
	});

	let enrolled = null;
	await step('a cashier issues a new card at the counter and sees its QR code and link', async () => {
		await viewport(390, 844);
		await ev(`click('#enrol-button')`);
		await waitFor(`vis('#enrol-panel') && $('#enrol-program').options.length > 1`);
		const opts = await ev(`Array.from($('#enrol-program').options).map((o) => o.textContent)`);
		if (!opts.some((o) => o.includes('Quick Stamp'))) throw new Error(opts.join(' | '));
		await ev(`click('#enrol-submit')`);
		await waitFor(`vis('#enrol-name-error')`);
		await ev(`pickText('#enrol-program', 'Quick Stamp') && fill('#enrol-name', 'Nora Neukundin') && click('#enrol-submit')`);
		await waitFor(`vis('#enrol-done') && $('#enrol-qr').complete && $('#enrol-qr').naturalWidth > 0 && $('#enrol-link-qr').complete`);
		const d = await ev(`({ title: text('#enrol-done-title'), barcode: text('#enrol-barcode'), link: $('#enrol-link').href,
			linkQr: $('#enrol-link-qr').complete && $('#enrol-link-qr').naturalWidth > 0, focus: document.activeElement.id })`);
		if (!d.title.includes('Nora Neukundin') || !/^\d{13}$/.test(d.barcode) || !/card\.html#[0-9a-f]{32}$/.test(d.link) || !d.linkQr)
			throw new Error(JSON.stringify(d));
		if (d.focus !== 'enrol-done') throw new Error('focus on ' + d.focus);
		if (!await ev(`vis('#enrol-link-warn')`)) throw new Error('no word that a link to 127.0.0.1 opens on no phone');
		enrolled = d;
		const r = await ev(`(() => { const b = $('#enrol-panel').getBoundingClientRect(); return { x: b.left + scrollX, y: b.top + scrollY, width: b.width, height: b.height }; })()`);
		const img = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: Object.assign(r, { scale: 1 }) });
		require('fs').writeFileSync(require('path').join(B.config.shots, 'till-390-enrolled.png'), Buffer.from(img.data, 'base64'));

		return true;
	});

	await step('Print at enrolment prints the new card alone', async () => {
		await S('Emulation.setEmulatedMedia', { media: 'print' });
		const v = await ev(`[getComputedStyle($('#enrol-qr')).visibility, getComputedStyle($('#enrol-barcode')).visibility,
			getComputedStyle($('#lookup-title')).visibility, $('#enrol-print').getClientRects().length, getComputedStyle($('.topbar')).visibility]`);
		await shot('till-enrol-print');
		await S('Emulation.setEmulatedMedia', { media: '' });
		if (v.join() !== 'visible,visible,hidden,0,hidden') throw new Error(v.join());
		return true;
	});

	await step('the customer page link of the new card shows that card', async () => {
		const tok = enrolled.link.split('#')[1];
		const r = await call('GET', 'mycard/' + tok);
		if (r.status !== 200 || r.body.data.customer_name !== 'Nora Neukundin' || r.body.data.barcode_value !== enrolled.barcode) throw new Error(JSON.stringify(r.body));
		return true;
	});

	await step('"Use this card now" looks the new card up, ready for a purchase', async () => {
		await ev(`click('#enrol-use')`);
		await waitFor(`text('#card-customer') === 'Nora Neukundin' && document.activeElement === $('#purchase-amount')`);
		/* on a phone the sale comes right after the card, the history last */
		const order = await ev(`['#lookup-title', '#card-panel', '#purchase-panel', '#history-panel', '#queue-panel'].map((s) => $(s).getBoundingClientRect().top + scrollY)`);
		if (order.some((y, i) => i && y <= order[i - 1])) throw new Error('order on a phone: ' + order);
		await viewport(1280, 800);
		return ev(`!vis('#enrol-panel') && $('#lookup-code').value === ${JSON.stringify('')} + text('#enrol-barcode')`);
	});

	await step('with the site\'s public address set, the link shown is that address, as the QR code and the printed card', async () => {
		admin('setting', 'set', 'public_url', 'https://loyal.example/shop/');
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.public_url === 'https://loyal.example/shop/'`);
		await ev(`click('#enrol-button')`);
		await waitFor(`$('#enrol-program').options.length > 1`);
		await ev(`pickText('#enrol-program', 'Quick Stamp') && fill('#enrol-name', 'Paula Public') && click('#enrol-submit')`);
		await waitFor(`vis('#enrol-done')`);
		const link = await ev(`$('#enrol-link').href`);
		if (!/^https:\/\/loyal\.example\/shop\/card\.html#[0-9a-f]{32}$/.test(link)) throw new Error(link);
		if (await ev(`vis('#enrol-link-warn')`)) throw new Error('warned about a public address');
		admin('setting', 'set', 'public_url', '');
		await ev(`click('#enrol-close')`);
		return true;
	});

	await step('with staff enrolment turned off, the cashier has no "New card"', async () => {
		admin('setting', 'set', 'staff_enrolment', '0');
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.can_enrol === false`);
		await waitFor(`!vis('#enrol-button')`);
		admin('setting', 'set', 'staff_enrolment', '1');
		return true;
	});

	/* Void last sale: the cashier's own recent sale, with a reason and a
	 * second, deliberate press, by keyboard. */
	let voidedId = null;
	await step('"Void last sale" asks for a reason, then names the sale; Enter on "Yes" voids it and the card is as before', async () => {
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount')`);
		const before = await ev(`text('#card-balance')`);
		await ev(`fill('#purchase-amount', '45.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned')`);
		await waitFor(`vis('#void-panel') && vis('#void-open') && $('#void-sale').options.length > 0 && text('#void-sale').includes('45.00')`);
		voidedId = await ev(`$('#void-sale').options[0].value`);
		await ev(`($('#void-open').focus(), true)`);
		await pressEnter();
		await waitFor(`vis('#void-form') && document.activeElement === $('#void-reason')`);
		if (await ev(`$('#void-sale').value`) !== voidedId) throw new Error('the last sale is not the one offered');
		if (!(await ev(`text('#void-sale')`)).includes('45.00')) throw new Error(await ev(`text('#void-sale')`));
		await pressEnter();
		await waitFor(`vis('#void-reason-error') && document.activeElement === $('#void-reason')`);
		if (await ev(`vis('#void-confirm')`)) throw new Error('confirmation without a reason');
		await typeText('Keyed 45.00 for 4.50');
		await pressEnter();
		await waitFor(`vis('#void-confirm') && document.activeElement === $('#void-yes')`);
		const c = await ev(`text('#void-confirm-text')`);
		if (!c.includes('45.00') || !c.includes('Cashback Club')) throw new Error(c);
		await pressEnter();
		await waitFor(`text('#result').includes('Sale voided')`);
		const r = await ev(`text('#result')`);
		if (!/Cashback taken back: €\d+\.\d\d\./.test(r)) throw new Error(r);
		await noCodes('#result');
		await waitFor(`text('#card-balance') === ${JSON.stringify(before)}`, 5000);
		await waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-panel').includes('Void') && text('#history-panel').includes('voided')`);
		return ev(`!Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(voidedId)})`);
	});

	await step('the void is recorded with its reason, linked to the sale; a second void of it is refused', async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		const hs = await call('GET', 'transactions/history?card_instance_id=' + lk.body.data.card_instance_id + '&page_size=2', undefined, tok);
		const [v, o] = hs.body.data.transactions;
		if (v.transaction_type !== 'void' || v.voided_transaction_id !== voidedId || v.reason !== 'Keyed 45.00 for 4.50' ||
		    o.transaction_id !== voidedId || o.voided !== true) throw new Error(JSON.stringify(hs.body.data.transactions));
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const again = await call('POST', 'transactions/void', { transaction_id: voidedId, reason: 'again', location_id: me.location.id, staff_user_id: me.id }, tok);
		if (again.status !== 409 || again.body.error.code !== 'ALREADY_VOIDED') throw new Error(JSON.stringify(again.body));
		return true;
	});

	await step('Escape closes the void form and voids nothing', async () => {
		await ev(`fill('#purchase-amount', '2.00') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned') && vis('#void-open')`);
		await waitFor(`text('#void-sale').includes('2.00')`);
		const n = await ev(`$('#void-sale').options.length`);
		await ev(`click('#void-open')`);
		await waitFor(`document.activeElement === $('#void-reason')`);
		await typeText('changed my mind');
		await S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
		await S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
		await waitFor(`!vis('#void-form') && document.activeElement === $('#void-open')`);
		return ev(`$('#void-sale').options.length === ${n} && $('#void-reason').value === ''`);
	});

	/* The list is the server's: a sale of this cashier from another till
	 * (or a tab, or the offline queue) is offered, one of another
	 * cashier's is not, and a reload keeps them. */
	await step(`"Void last sale" offers the cashier's sale from another till, after a reload too, but never a voided one`, async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		const other = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id,
		    location_id: me.location.id, staff_user_id: me.id, purchase_amount: 13.37 }, tok);
		if (other.status !== 200) throw new Error(JSON.stringify(other.body));
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && text('#void-sale').includes('13.37')`);
		if (await ev(`$('#void-sale').options[0].value`) !== other.body.data.transaction_id) throw new Error('the newest sale is not first');
		const opts = await ev(`Array.from($('#void-sale').options).map((o) => o.value)`);
		if (opts.includes(voidedId)) throw new Error('a voided sale is offered');
		return true;
	});

	await step(`a sale voided meanwhile from another till is refused in the till's own words and leaves the list`, async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const id = await ev(`$('#void-sale').options[0].value`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club' && !$('#history-panel').getAttribute('aria-busy')`);
		/* Opening the form reads the list again; the other till voids
		 * once that read is in, or the page may learn of the void from
		 * it (and say so in the form) before its own void is refused. */
		await ev(`performance.clearResourceTimings()`);
		await ev(`click('#void-open')`);
		await waitFor(`document.activeElement === $('#void-reason') && $('#void-sale').value === ${JSON.stringify(id)}`);
		await waitFor(`performance.getEntriesByType('resource').some((e) => e.name.includes('/transactions/void?'))`);
		await waitFor(`$('#void-sale').value === ${JSON.stringify(id)} && $('#void-late').hidden`);
		const first = await call('POST', 'transactions/void', { transaction_id: id, reason: 'other till', location_id: me.location.id, staff_user_id: me.id }, tok);
		if (first.status !== 200) throw new Error(JSON.stringify(first.body));
		const bal = first.body.data.balance.cashback_balance.toFixed(2);
		await typeText('Wrong card');
		await pressEnter();
		await waitFor(`document.activeElement === $('#void-yes')`);
		await pressEnter();
		await waitFor(`text('#result').includes('Sale not voided')`);
		const r = await ev(`text('#result')`);
		if (!r.includes('voided already') || /[0-9a-f]{8}-[0-9a-f]{4}-/.test(r) || r.includes('field')) throw new Error(r);
		await waitFor(`!Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(id)})`);
		/* The card and its history as the other till left them. */
		await waitFor(`/Cashback balance€${bal.replace('.', '\\.')}/.test(text('#card-balance'))`, 5000);
		await waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-body tr').includes('other till') && $$('#history-body tr')[1].classList.contains('voided')`, 5000);
		await shot('till-already-voided');
		return true;
	});

	await step('voiding a redemption gives the cashback back and says the card\'s new balance', async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		const rd = await call('POST', 'cashback/redeem', { card_instance_id: lk.body.data.card_instance_id, redemption_amount: 0.10,
		    purchase_amount: 1.00, earn_on_remainder: false, location_id: me.location.id, staff_user_id: me.id }, tok);
		if (rd.status !== 200) throw new Error(JSON.stringify(rd.body));
		const id = (rd.body.data || rd.body).transaction_id;
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && $('#void-sale').options.length && $('#void-sale').options[0].value === ${JSON.stringify(id)}`);
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club'`);
		await ev(`click('#void-open')`);
		await waitFor(`document.activeElement === $('#void-reason') && $('#void-sale').value === ${JSON.stringify(id)}`);
		await typeText('Customer kept the cashback');
		await pressEnter();
		await waitFor(`document.activeElement === $('#void-yes')`);
		await pressEnter();
		await waitFor(`text('#result').includes('Sale voided')`);
		const r = await ev(`text('#result')`);
		const after = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		const bal = after.body.data.balance.cashback_balance.toFixed(2);
		if (!r.includes('Cashback given back: €0.10.') || !r.includes('The card now: €' + bal + ' cashback.')) throw new Error(r);
		await shot('till-void-redeem');
		return true;
	});

	await step('voiding punches whose reward was handed out: the reward stays claimed, the card is at 0', async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.PUNCH4_BARCODE }, tok);
		const cid = lk.body.data.card_instance_id;
		const rec = await call('POST', 'transactions/record', { card_instance_id: cid, location_id: me.location.id, staff_user_id: me.id,
		    purchase_amount: 3.00, punch_count: 3 }, tok);
		if (rec.status !== 200) throw new Error(JSON.stringify(rec.body));
		const cl = await call('POST', 'rewards/claim', { card_instance_id: cid, location_id: me.location.id, staff_user_id: me.id }, tok);
		if (cl.status !== 200) throw new Error(JSON.stringify(cl.body));
		const id = rec.body.data.transaction_id;
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(id)})`);
		await lookupCard(E.PUNCH4_BARCODE);
		await waitFor(`text('#card-title') === 'Three Stamp'`);
		await ev(`click('#void-open')`);
		await waitFor(`document.activeElement === $('#void-reason')`);
		await ev(`($('#void-sale').value = ${JSON.stringify(id)}, $('#void-sale').dispatchEvent(new Event('change')), $('#void-reason').focus(), true)`);
		await typeText('Keyed on the wrong card');
		await pressEnter();
		await waitFor(`document.activeElement === $('#void-yes')`);
		await pressEnter();
		await waitFor(`text('#result').includes('Sale voided')`);
		const r = await ev(`text('#result')`);
		if (!r.includes('−3 punches.') || !r.includes('stays claimed') || !r.includes('The card now: 0 / 3 punches.')) throw new Error(r);
		await shot('till-void-punch-claimed');
		return true;
	});

	await step('a sale that leaves the void window while the form is open: the form stays and says so; the window as the owner set it', async () => {
		admin('setting', 'set', 'void_window_minutes', '1');
		await lookupCard(E.CASH_BARCODE);
		await waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount')`);
		await ev(`fill('#purchase-amount', '7.01') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned') && text('#void-sale').includes('7.01')`);
		/* The list's answer carries the window: no reload needed. */
		await waitFor(`text('#void-scope').includes('up to 1 minute ')`);
		const a = await ev(`$('#void-sale').options[0].value`);
		await sleep(20000);
		await ev(`fill('#purchase-amount', '7.02') && submit('#purchase-submit')`);
		await waitFor(`text('#result').includes('Cashback earned') && text('#void-sale').includes('7.02')`);
		await ev(`click('#void-open')`);
		await waitFor(`document.activeElement === $('#void-reason')`);
		await ev(`($('#void-sale').value = ${JSON.stringify(a)}, $('#void-sale').dispatchEvent(new Event('change')), $('#void-reason').focus(), true)`);
		await typeText('Wrong amount');
		await pressEnter();
		await waitFor(`document.activeElement === $('#void-yes')`);
		/* 50 s on: the first sale is past its minute, the second not. */
		await ev(`(window.realNow = Date.now.bind(Date), Date.now = () => window.realNow() + 50000, true)`);
		await pressEnter();
		await waitFor(`vis('#void-late') && text('#void-late').includes('The time to void this sale has passed: the owner can void it from the back office.')`);
		const st = await ev(`({ form: vis('#void-form'), reason: $('#void-reason').value, sale: $('#void-sale').value, voided: text('#result').includes('Sale voided') })`);
		if (!st.form || st.reason !== 'Wrong amount' || st.sale !== a || st.voided) throw new Error(JSON.stringify(st));
		await shot('till-void-late');
		await viewport(390, 844);
		await ev(`($('#void-panel').scrollIntoView(), true)`);
		await shot('till-void-late-phone');
		await viewport(1280, 800);
		/* Two minutes on: none is left; pressing Void says it as a result. */
		await ev(`(Date.now = () => window.realNow() + 120000, true)`);
		await ev(`click('#void-submit')`);
		await waitFor(`text('#result').includes('Sale not voided') && text('#result').includes('The time to void this sale has passed')`);
		await ev(`(Date.now = window.realNow, true)`);
		admin('setting', 'set', 'void_window_minutes', '30');
		return true;
	});

	await step('two sales in the same minute are told apart by their seconds; the time comes first', async () => {
		const tok = await ev(`sessionStorage.getItem('pos.access_token')`);
		const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
		const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
		for (const amount of [7.77, 7.77]) {
			const r = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id,
			    location_id: me.location.id, staff_user_id: me.id, purchase_amount: amount }, tok);
			if (r.status !== 200) throw new Error(JSON.stringify(r.body));
		}
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && $('#void-sale').options.length > 1 && text('#void-sale').includes('7.77')`);
		const o = await ev(`Array.from($('#void-sale').options).map((x) => x.textContent)`);
		if (!/^\d\d:\d\d(:\d\d)?( [AP]M)? · /.test(o[0])) throw new Error(o.join(' | '));
		const mins = o.map((t) => t.slice(0, 5));
		for (let i = 0; i < o.length; i++)
			if (mins.indexOf(mins[i]) !== mins.lastIndexOf(mins[i]) && !/^\d\d:\d\d:\d\d( [AP]M)? · /.test(o[i])) throw new Error('no seconds: ' + o.join(' | '));
		return true;
	});

	await step('with void_window_minutes 0 the till offers no void', async () => {
		admin('setting', 'set', 'void_window_minutes', '0');
		await S('Page.reload');
		await waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.void_window_minutes === 0`);
		await waitFor(`!vis('#void-panel')`);
		admin('setting', 'set', 'void_window_minutes', '30');
		return true;
	});

	await step('no console error, exception or CSP report', async () => {
		const p = problems.filter((x) => !/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of 4\d\d|status of 5\d\d/.test(x));
		if (p.length) throw new Error(p.join('\n'));
		return true;
	});
}

/* n purchases with long notes queued as an offline till has them, sent
 * with Sync now to a host that answers a body above limit with a 500 of
 * its own (HTML, as mod_fcgid does). */
async function bigSync(count, limit) {
	const tok = (await otherTill()).token;
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const card = lk.body.data.card_instance_id;
	const me = await ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const t0 = Date.now() - 3600000;
	const items = [];
	for (let i = 0; i < count; i++)
		items.push({ item: { card_instance_id: card, location_id: E.LOCATION, staff_user_id: me.id, purchase_amount: 1,
			transaction_notes: 'Bestellung ' + i + ': ' + 'コーヒーとケーキ、'.repeat(60).slice(0, 480),
			idempotency_key: require('crypto').randomUUID(), client_timestamp: new Date(t0 + i * 1000).toISOString() },
			label: 'Cashback Club', card_type: 'cashback', merchant_id: me.merchant_id, queued_at: new Date().toISOString() });
	const whole = Buffer.byteLength(JSON.stringify({ transactions: items.map((x) => x.item) }));
	if (whole <= limit) throw new Error('only ' + whole + ' bytes');
	note(count + ' purchases with notes: ' + whole + ' bytes in one body');
	const sizes = [], refused = [];
	await fulfil('transactions/sync', (p) => {
		const body = p.request.postData !== undefined ? Buffer.from(p.request.postData) :
		    p.request.postDataEntries ? Buffer.concat(p.request.postDataEntries.map((e) => Buffer.from(e.bytes || '', 'base64'))) : null;
		if (!body) throw new Error('no body seen');
		sizes.push(body.length);
		if (body.length > limit) refused.push(require('crypto').createHash('sha1').update(body).digest('hex'));
		return body.length > limit ? { status: 500, headers: { 'Content-Type': 'text/html' }, body: '<h1>Internal Server Error</h1>' } : null;
	});
	const before = await historyTotalOf(card, tok);
	await ev(`(localStorage.setItem('pos.queue.v1', JSON.stringify(${JSON.stringify(items)})), true)`);
	await S('Page.reload');
	await waitFor(`vis('#pos-view') && text('#queue-count') === '${count}'`);
	await ev(`click('#sync-button')`);
	await waitFor(`queue().length === 0 && !$('#sync-button').getAttribute('aria-busy').includes('true')`, 30000);
	await clearIntercepts();
	const after = await historyTotalOf(card, tok);
	note('sync bodies: ' + sizes.join(', '));
	if (after - before !== count) throw new Error('recorded ' + (after - before));
	if (refused.length !== new Set(refused).size) throw new Error('a refused body was sent again: ' + sizes);
	return ev(`review().length === 0 && text('#queue-summary').includes('${count} purchases sent')`);
}

async function historyTotalOf(card, tok) {
	const r = await call('GET', 'transactions/history?card_instance_id=' + card + '&page_size=1', undefined, tok);
	return r.body.data.pagination.total_count;
}

B.run(main, { timeout: 420000, timed: true });
EOF

browser_drive DISC_BARCODE="$DEMO_DISCOUNT_BARCODE" CASH_BARCODE="$DEMO_CASHBACK_BARCODE" \
    PUNCH_BARCODE="$DEMO_PUNCH_BARCODE" PUNCH2_BARCODE="$punch2_barcode" PUNCH3_BARCODE="$punch3_barcode" \
    PUNCH4_BARCODE="$punch4_barcode" \
    LOCATION="$DEMO_LOCATION_ID" ADMIN="$LT_ADMIN" DB="$LT_DB"
rc=$?
diag "screenshots in $shots"
lt_stop
exit "$rc"
