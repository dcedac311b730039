/* tests/browser/till/void-last-sale.test.mjs:
 * Void last sale: the cashier's own recent sale, with a reason and a
 * second, deliberate press, by keyboard; the list is the server's. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, newProgram, issueCard, admin, call } from '../lib/browser.mjs';
import { tillReady, lookupCard, noCodes, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const three = newProgram({ type: 'punch', title: 'Three Stamp', punches: 3, reward: 'Free tea', cooldown: 0 });
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode, PUNCH4_BARCODE: issueCard(three, 'Tess Tea').barcode };
/* a balance to give back, at 10% */
await recordSale(E.CASH_BARCODE, 600.00);
admin('setting', 'set', 'currency_symbol', '€');
after(() => { admin('setting', 'set', 'currency_symbol', ''); admin('setting', 'set', 'void_window_minutes', '30'); });
before(async () => {
	await tillReady(tab);
});

/* Void last sale: the cashier's own recent sale, with a reason and a
 * second, deliberate press, by keyboard. */
let voidedId = null;
tab.step('"Void last sale" asks for a reason, then names the sale; Enter on "Yes" voids it and the card is as before', async () => {
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount')`);
	const before = await tab.ev(`text('#card-balance')`);
	await tab.ev(`fill('#purchase-amount', '45.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned')`);
	await tab.waitFor(`vis('#void-panel') && vis('#void-open') && $('#void-sale').options.length > 0 && text('#void-sale').includes('45.00')`);
	voidedId = await tab.ev(`$('#void-sale').options[0].value`);
	await tab.ev(`($('#void-open').focus(), true)`);
	await tab.pressEnter();
	await tab.waitFor(`vis('#void-form') && document.activeElement === $('#void-reason')`);
	if (await tab.ev(`$('#void-sale').value`) !== voidedId) throw new Error('the last sale is not the one offered');
	if (!(await tab.ev(`text('#void-sale')`)).includes('45.00')) throw new Error(await tab.ev(`text('#void-sale')`));
	await tab.pressEnter();
	await tab.waitFor(`vis('#void-reason-error') && document.activeElement === $('#void-reason')`);
	if (await tab.ev(`vis('#void-confirm')`)) throw new Error('confirmation without a reason');
	await tab.typeText('Keyed 45.00 for 4.50');
	await tab.pressEnter();
	await tab.waitFor(`vis('#void-confirm') && document.activeElement === $('#void-yes')`);
	const c = await tab.ev(`text('#void-confirm-text')`);
	if (!c.includes('45.00') || !c.includes('Cashback Club')) throw new Error(c);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Sale voided')`);
	const r = await tab.ev(`text('#result')`);
	if (!/Cashback taken back: €\d+\.\d\d\./.test(r)) throw new Error(r);
	await noCodes(tab, '#result');
	await tab.waitFor(`text('#card-balance') === ${JSON.stringify(before)}`, 5000);
	await tab.waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-panel').includes('Void') && text('#history-panel').includes('voided')`);
	/* no longer offered: gone from the list, or the panel hidden when
	 * it was the cashier's only sale (this file may run alone) */
	return tab.waitFor(`!vis('#void-panel') || !Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(voidedId)})`, 5000);
});

tab.step('the void is recorded with its reason, linked to the sale; a second void of it is refused', async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const hs = await call('GET', 'transactions/history?card_instance_id=' + lk.body.data.card_instance_id + '&page_size=2', undefined, tok);
	const [v, o] = hs.body.data.transactions;
	if (v.transaction_type !== 'void' || v.voided_transaction_id !== voidedId || v.reason !== 'Keyed 45.00 for 4.50' ||
	    o.transaction_id !== voidedId || o.voided !== true) throw new Error(JSON.stringify(hs.body.data.transactions));
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const again = await call('POST', 'transactions/void', { transaction_id: voidedId, reason: 'again', location_id: me.location.id, staff_user_id: me.id }, tok);
	if (again.status !== 409 || again.body.error.code !== 'ALREADY_VOIDED') throw new Error(JSON.stringify(again.body));
	return true;
});

tab.step('Escape closes the void form and voids nothing', async () => {
	await tab.ev(`fill('#purchase-amount', '2.00') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned') && vis('#void-open')`);
	await tab.waitFor(`text('#void-sale').includes('2.00') && !Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(voidedId)})`);
	const n = await tab.ev(`$('#void-sale').options.length`);
	await tab.ev(`click('#void-open')`);
	await tab.waitFor(`document.activeElement === $('#void-reason')`);
	await tab.typeText('changed my mind');
	await tab.S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
	await tab.S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 });
	await tab.waitFor(`!vis('#void-form') && document.activeElement === $('#void-open')`);
	const st = await tab.ev(`[$('#void-sale').options.length, $('#void-reason').value, text('#void-sale')]`);
	if (st[0] !== n || st[1] !== '') throw new Error('options ' + n + ' before, now ' + JSON.stringify(st));
	return true;
});

/* The list is the server's: a sale of this cashier from another till
 * (or a tab, or the offline queue) is offered, one of another
 * cashier's is not, and a reload keeps them. */
tab.step(`"Void last sale" offers the cashier's sale from another till, after a reload too, but never a voided one`, async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const other = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id,
	    location_id: me.location.id, staff_user_id: me.id, purchase_amount: 13.37 }, tok);
	if (other.status !== 200) throw new Error(JSON.stringify(other.body));
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && text('#void-sale').includes('13.37')`);
	if (await tab.ev(`$('#void-sale').options[0].value`) !== other.body.data.transaction_id) throw new Error('the newest sale is not first');
	const opts = await tab.ev(`Array.from($('#void-sale').options).map((o) => o.value)`);
	if (opts.includes(voidedId)) throw new Error('a voided sale is offered');
	return true;
});

tab.step(`a sale voided meanwhile from another till is refused in the till's own words and leaves the list`, async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const id = await tab.ev(`$('#void-sale').options[0].value`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && !$('#history-panel').getAttribute('aria-busy')`);
	/* Opening the form reads the list again; the other till voids
	 * once that read is in, or the page may learn of the void from
	 * it (and say so in the form) before its own void is refused. */
	await tab.ev(`performance.clearResourceTimings()`);
	await tab.ev(`click('#void-open')`);
	await tab.waitFor(`document.activeElement === $('#void-reason') && $('#void-sale').value === ${JSON.stringify(id)}`);
	await tab.waitFor(`performance.getEntriesByType('resource').some((e) => e.name.includes('/transactions/void?'))`);
	await tab.waitFor(`$('#void-sale').value === ${JSON.stringify(id)} && $('#void-late').hidden`);
	const first = await call('POST', 'transactions/void', { transaction_id: id, reason: 'other till', location_id: me.location.id, staff_user_id: me.id }, tok);
	if (first.status !== 200) throw new Error(JSON.stringify(first.body));
	const bal = first.body.data.balance.cashback_balance.toFixed(2);
	await tab.typeText('Wrong card');
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#void-yes')`);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Sale not voided')`);
	const r = await tab.ev(`text('#result')`);
	if (!r.includes('voided already') || /[0-9a-f]{8}-[0-9a-f]{4}-/.test(r) || r.includes('field')) throw new Error(r);
	await tab.waitFor(`!Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(id)})`);
	/* The card and its history as the other till left them. */
	await tab.waitFor(`/Cashback balance€${bal.replace('.', '\\.')}/.test(text('#card-balance'))`, 5000);
	await tab.waitFor(`!$('#history-panel').getAttribute('aria-busy') && text('#history-body tr').includes('other till') && $$('#history-body tr')[1].classList.contains('voided')`, 5000);
	await tab.shot('till-already-voided');
	return true;
});

tab.step('voiding a redemption gives the cashback back and says the card\'s new balance', async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const rd = await call('POST', 'cashback/redeem', { card_instance_id: lk.body.data.card_instance_id, redemption_amount: 0.10,
	    purchase_amount: 1.00, earn_on_remainder: false, location_id: me.location.id, staff_user_id: me.id }, tok);
	if (rd.status !== 200) throw new Error(JSON.stringify(rd.body));
	const id = (rd.body.data || rd.body).transaction_id;
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && $('#void-sale').options.length && $('#void-sale').options[0].value === ${JSON.stringify(id)}`);
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club'`);
	await tab.ev(`click('#void-open')`);
	await tab.waitFor(`document.activeElement === $('#void-reason') && $('#void-sale').value === ${JSON.stringify(id)}`);
	await tab.typeText('Customer kept the cashback');
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#void-yes')`);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Sale voided')`);
	const r = await tab.ev(`text('#result')`);
	const after = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const bal = after.body.data.balance.cashback_balance.toFixed(2);
	if (!r.includes('Cashback given back: €0.10.') || !r.includes('The card now: €' + bal + ' cashback.')) throw new Error(r);
	await tab.shot('till-void-redeem');
	return true;
});

tab.step('voiding punches whose reward was handed out: the reward stays claimed, the card is at 0', async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.PUNCH4_BARCODE }, tok);
	const cid = lk.body.data.card_instance_id;
	const rec = await call('POST', 'transactions/record', { card_instance_id: cid, location_id: me.location.id, staff_user_id: me.id,
	    purchase_amount: 3.00, punch_count: 3 }, tok);
	if (rec.status !== 200) throw new Error(JSON.stringify(rec.body));
	const cl = await call('POST', 'rewards/claim', { card_instance_id: cid, location_id: me.location.id, staff_user_id: me.id }, tok);
	if (cl.status !== 200) throw new Error(JSON.stringify(cl.body));
	const id = rec.body.data.transaction_id;
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && Array.from($('#void-sale').options).some((o) => o.value === ${JSON.stringify(id)})`);
	await lookupCard(tab, E.PUNCH4_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Three Stamp'`);
	await tab.ev(`click('#void-open')`);
	await tab.waitFor(`document.activeElement === $('#void-reason')`);
	await tab.ev(`($('#void-sale').value = ${JSON.stringify(id)}, $('#void-sale').dispatchEvent(new Event('change')), $('#void-reason').focus(), true)`);
	await tab.typeText('Keyed on the wrong card');
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#void-yes')`);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Sale voided')`);
	const r = await tab.ev(`text('#result')`);
	if (!r.includes('−3 punches.') || !r.includes('stays claimed') || !r.includes('The card now: 0 / 3 punches.')) throw new Error(r);
	await tab.shot('till-void-punch-claimed');
	return true;
});

tab.step('a sale that leaves the void window while the form is open: the form stays and says so; the window as the owner set it', async () => {
	admin('setting', 'set', 'void_window_minutes', '1');
	await lookupCard(tab, E.CASH_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Cashback Club' && document.activeElement === $('#purchase-amount')`);
	await tab.ev(`fill('#purchase-amount', '7.01') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned') && text('#void-sale').includes('7.01')`);
	/* The list's answer carries the window: no reload needed. */
	await tab.waitFor(`text('#void-scope').includes('up to 1 minute ')`);
	const a = await tab.ev(`$('#void-sale').options[0].value`);
	await tab.ev(`fill('#purchase-amount', '7.02') && submit('#purchase-submit')`);
	await tab.waitFor(`text('#result').includes('Cashback earned') && text('#void-sale').includes('7.02')`);
	/* Each sale's end of window as the server lists it (its clock): the
	 * page's clock is then set between them, and later past both, and
	 * stands still there, so no real time has to pass and none may. */
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const list = await call('GET', 'transactions/void?location_id=' + me.location.id + '&staff_user_id=' + me.id, undefined, tok);
	const until = (id) => Date.parse(list.body.data.transactions.find((x) => x.transaction_id === id).voidable_until);
	const b = await tab.ev(`$('#void-sale').options[0].value`);
	const ua = until(a), ub = until(b);
	if (!(ub > ua + 1)) throw new Error('the second sale\'s window does not end after the first\'s: ' + ua + ' ' + ub);
	await tab.ev(`click('#void-open')`);
	await tab.waitFor(`document.activeElement === $('#void-reason')`);
	await tab.ev(`($('#void-sale').value = ${JSON.stringify(a)}, $('#void-sale').dispatchEvent(new Event('change')), $('#void-reason').focus(), true)`);
	await tab.typeText('Wrong amount');
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#void-yes')`);
	/* The page's clock between the two: the first sale is past its minute, the second not. */
	await tab.ev(`(window.realNow = Date.now.bind(Date), Date.now = () => ${Math.floor((ua + ub) / 2)}, true)`);
	await tab.pressEnter();
	await tab.waitFor(`vis('#void-late') && text('#void-late').includes('The time to void this sale has passed: the owner can void it from the back office.')`);
	const st = await tab.ev(`({ form: vis('#void-form'), reason: $('#void-reason').value, sale: $('#void-sale').value, voided: text('#result').includes('Sale voided') })`);
	if (!st.form || st.reason !== 'Wrong amount' || st.sale !== a || st.voided) throw new Error(JSON.stringify(st));
	await tab.shot('till-void-late');
	await tab.viewport(390, 844);
	await tab.ev(`($('#void-panel').scrollIntoView(), true)`);
	await tab.shot('till-void-late-phone');
	await tab.viewport(1280, 800);
	/* Past both: none is left; pressing Void says it as a result. */
	await tab.ev(`(Date.now = () => ${ub + 1000}, true)`);
	await tab.ev(`click('#void-submit')`);
	await tab.waitFor(`text('#result').includes('Sale not voided') && text('#result').includes('The time to void this sale has passed')`);
	await tab.ev(`(Date.now = window.realNow, true)`);
	admin('setting', 'set', 'void_window_minutes', '30');
	return true;
});

tab.step('two sales in the same minute are told apart by their seconds; the time comes first', async () => {
	const tok = await tab.ev(`sessionStorage.getItem('pos.access_token')`);
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	for (const amount of [7.77, 7.77]) {
		const r = await call('POST', 'transactions/record', { card_instance_id: lk.body.data.card_instance_id,
		    location_id: me.location.id, staff_user_id: me.id, purchase_amount: amount }, tok);
		if (r.status !== 200) throw new Error(JSON.stringify(r.body));
	}
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && $('#void-sale').options.length > 1 && text('#void-sale').includes('7.77')`);
	const o = await tab.ev(`Array.from($('#void-sale').options).map((x) => x.textContent)`);
	if (!/^\d\d:\d\d(:\d\d)?( [AP]M)? · /.test(o[0])) throw new Error(o.join(' | '));
	const mins = o.map((t) => t.slice(0, 5));
	for (let i = 0; i < o.length; i++)
		if (mins.indexOf(mins[i]) !== mins.lastIndexOf(mins[i]) && !/^\d\d:\d\d:\d\d( [AP]M)? · /.test(o[i])) throw new Error('no seconds: ' + o.join(' | '));
	return true;
});

tab.step('with void_window_minutes 0 the till offers no void', async () => {
	admin('setting', 'set', 'void_window_minutes', '0');
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.void_window_minutes === 0`);
	await tab.waitFor(`!vis('#void-panel')`);
	admin('setting', 'set', 'void_window_minutes', '30');
	return true;
});
