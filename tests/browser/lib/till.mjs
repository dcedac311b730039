/* tests/browser/lib/till.mjs: the till's (index.html) steps that many
 * tests take, on a tab of browser.mjs opened with TILL_HELPERS. */
import { randomUUID } from 'node:crypto';
import { URL0, demo, call, apiLogin } from './browser.mjs';

/* The till's login page, loaded. */
export async function openTill(t) {
	await t.goto(URL0);
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
}
/* Logs in at the login form (the demo's cashier unless who). */
export async function login(t, who) {
	const u = who || demo.staff;
	await t.ev(`fill('#login-email', ${JSON.stringify(u.email)}) && fill('#login-password', ${JSON.stringify(u.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#pos-view') && !vis('#login-view')`);
}
/* The page loaded and logged in. */
export async function tillReady(t, who) {
	await openTill(t);
	await login(t, who);
}
/* The card's code typed into the lookup field, then Enter. */
export async function lookupCard(t, code) {
	await t.ev(`(fill('#lookup-code', ''), $('#lookup-code').focus(), true)`);
	await t.typeText(code);
	await t.pressEnter();
}
/* The history's total, once it has finished loading. */
export async function historyTotal(t) {
	const m = await t.waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-page').match(/(\\d+) transactions?/)`);
	return parseInt(m[1], 10);
}
/* No bare error code (NOT_FOUND) is ever shown to the cashier. */
export async function noCodes(t, sel) {
	const s = await t.ev(`text(${JSON.stringify(sel)})`);
	const m = s.match(/\b[A-Z]{2,}_[A-Z_]{2,}\b/);
	if (m) throw new Error('a raw code is shown: ' + m[0] + ' in ' + s);
}
/* The owner on another till, through the API: {token, id}. */
export { apiLogin as otherTill } from './browser.mjs';
/* A card's number of transactions, from the API. */
export async function historyTotalOf(card, tok) {
	const r = await call('GET', 'transactions/history?card_instance_id=' + card + '&page_size=1', undefined, tok);
	return r.body.data.pagination.total_count;
}
/* A purchase recorded on a card by another till (the owner, through the
 * API): the answer's data. */
export async function recordSale(barcode, amount, extra) {
	const o = await apiLogin(demo.owner);
	const lk = await call('POST', 'cards/lookup', { barcode_value: barcode }, o.token);
	if (lk.status !== 200) throw new Error('lookup ' + JSON.stringify(lk.body));
	const r = await call('POST', 'transactions/record', Object.assign({ card_instance_id: lk.body.data.card_instance_id, purchase_amount: amount,
		location_id: demo.location, staff_user_id: o.id, idempotency_key: randomUUID() }, extra || {}), o.token);
	if (r.status !== 200) throw new Error('record ' + JSON.stringify(r.body));
	return r.body.data;
}
