/* Voiding a sale: the cashier's own recent sales, within the shop's
 * window, and the form that names the sale before it is voided. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { cardType } from '../js/cardtypes.js';
import { formatTime } from '../js/dates.js';
import { t } from '../js/i18n.js';
import { isNum } from '../js/money.js';
import { balanceOf, card, cardIdent, lookup } from './card.js';
import { $, busy, fmt, h, minorOf, money, setKids, shortId, show } from './dom.js';
import { hist, loadHistory } from './history.js';
import { api } from './net.js';
import { attempt, attempts, currentLocation, isOwner, user } from './state.js';
import { errorNode, fieldError, setMsg, showResult } from './ui.js';

/* What this cashier may still void here, as the server lists it
 * (GET transactions/void): their own sales, claims and redemptions,
 * whichever till or tab recorded them, queued sales once sent. Kept
 * between reads; each row's voidable_until ends it on time offline too. */
let voidable = [];
let voidableSeq = 0;
/* The window as the last list read says (the owner may change it while
 * the till is open), else as the login said. */
let listedWindow = null;
const voidWindow = () => (Number.isInteger(listedWindow) ? listedWindow :
    user && user.shop && Number.isInteger(user.shop.void_window_minutes) ? user.shop.void_window_minutes : 0);

function recentSales() {
	const loc = currentLocation(), now = Date.now();
	if (!user || !loc) return [];
	return voidable.filter((x) => x && x.location_id === loc.id && x.staff_user_id === user.id &&
	    (x.voidable_until == null || Date.parse(x.voidable_until) > now));
}

export async function loadVoidable() {
	const loc = currentLocation();
	const seq = ++voidableSeq;
	if (!user || !loc || (!isOwner() && voidWindow() <= 0)) {
		voidable = [];
		renderVoid();
		return;
	}
	const q = new URLSearchParams({ location_id: loc.id, staff_user_id: user.id });
	try {
		const r = await api.call('GET', 'transactions/void?' + q.toString());
		const d = r.data && r.data.data;
		if (seq !== voidableSeq || !d || !Array.isArray(d.transactions)) return;
		voidable = d.transactions;
		if (Number.isInteger(d.void_window_minutes)) listedWindow = d.void_window_minutes;
		renderVoid();
	} catch (e) {
		/* Not reachable or refused: the list stays as last read. */
	}
}

/* "14:02 · 4.50 — Coffee Card — Ann": when (first, as it tells a
 * cashier's sales apart, and with seconds when secs), what, whose. */
function saleText(x, secs) {
	const type = x.transaction_type;
	const what = type === 'cashback_redeem' ? t('till.void.redeemed', { amount: money(x.redeemed_amount) }) :
	    type === 'reward_claim' ? (x.reward_name ? t('till.void.reward', { reward: x.reward_name }) : t('till.void.reward_claim')) :
	    type === 'punch' && !(minorOf(x.purchase_amount) > 0) ? t('till.punches', { n: x.punches_added || 0 }) :
	    money(x.purchase_amount);
	const whose = [x.card_title, x.customer_name].filter((v) => typeof v === 'string' && v).join(' — ');
	return saleTime(x, secs) + ' · ' + what + (whose ? ' — ' + whose : '');
}
function saleTime(x, secs) {
	return formatTime(Date.parse(x.created_at), secs ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } :
	    { hour: '2-digit', minute: '2-digit' });
}
/* The options of the list: seconds where two share a minute. */
function saleOptions(sales) {
	const minutes = sales.map((x) => saleTime(x, false));
	return sales.map((x, i) => saleText(x, minutes.indexOf(minutes[i]) !== minutes.lastIndexOf(minutes[i])));
}

/* The sale chosen in an open form that left the window meanwhile: kept,
 * so that the form and its reason stay, and said. */
let lateSale = null;
/* The sale the open form is for, as it was listed. */
let chosenSale = null;

/* The panel shows while there is a sale to void; the form opens on demand. */
export function renderVoid() {
	const sales = recentSales();
	const open = !$('void-form').hidden, was = $('void-sale').value;
	if (open && was && !sales.some((x) => x.transaction_id === was)) {
		/* The chosen sale left the list (a list read since no longer
		 * has it): the cashier is told, never switched silently to
		 * another sale, whether others remain or none. */
		const x = voidable.find((v) => v.transaction_id === was) || (chosenSale && chosenSale.transaction_id === was ? chosenSale : null);
		const late = !x || (x.voidable_until != null && Date.parse(x.voidable_until) <= Date.now());
		const why = t(late ? 'till.void.late' : 'till.void.gone');
		const text = x ? t('till.void.sale_why', { sale: saleText(x), why }) : why;
		if (!sales.length) {
			closeVoid();
			showResult(h('div', { className: 'res res-error' },
				h('p', { className: 'res-head' }, t('till.void.failed')),
				h('p', null, text)));
		} else if (x) {
			lateSale = x;
			voidConfirm(false);
			setMsg('void-late', h('span', null, text));
		}
	}
	show('void-panel', sales.length > 0);
	$('void-scope').textContent = isOwner() ?
	    t('till.void.scope_owner', { n: voidWindow() || 30 }) : t('till.void.scope', { n: voidWindow() });
	if (!sales.length) { closeVoid(); return; }
	const sel = $('void-sale'), names = saleOptions(sales);
	const opts = sales.map((x, i) => h('option', { value: x.transaction_id, selected: x.transaction_id === was }, names[i]));
	/* The late sale stays chosen, unvoidable, until another is picked. */
	if (open && lateSale && lateSale.transaction_id === was)
		opts.unshift(h('option', { value: was, selected: true, disabled: true }, t('till.void.too_late', { sale: saleText(lateSale) })));
	setKids(sel, ...opts);
	voidCardChanged();
}

/* The card on screen changed (or the list did): the button says which
 * sale it opens, and an open form says whose its sale is. */
export function voidCardChanged() {
	const id = cardOnScreen();
	$('void-open').textContent = t(id && recentSales().some((x) => x.card_instance_id === id) ? 'till.void.open_card' : 'till.void.open_last');
	if (!$('void-form').hidden) voidOtherNote();
}

/* The card on screen's id, or null. */
const cardOnScreen = () => (card && !$('card-panel').hidden && typeof card.card_instance_id === 'string' ? card.card_instance_id : null);

/* The sale a cashier means by "Void last sale": with a card on screen,
 * the last sale of that card (a cashier who has the customer in front of
 * them voids that customer's sale, never the next customer's); with none
 * on screen, or when the card on screen has no sale to void here, the
 * last sale, which the form then says is another customer's and the
 * confirmation names. */
function lastSaleFor(sales) {
	const id = cardOnScreen();
	return (id && sales.find((x) => x.card_instance_id === id)) || sales[0];
}

/* Says so when the chosen sale is not the card on screen's: whose it
 * is, before anything is voided. */
function voidOtherNote() {
	const id = cardOnScreen();
	const x = recentSales().find((v) => v.transaction_id === $('void-sale').value);
	const other = !!(id && x && x.card_instance_id !== id);
	const whose = x && typeof x.customer_name === 'string' && x.customer_name ? x.customer_name : null;
	const shown = card && card.customer_name ? card.customer_name : null;
	const none = id && !recentSales().some((v) => v.card_instance_id === id);
	/* Whose sale, and whose card is shown: a name, or the words for one
	 * without (a sentence each, as languages put these words apart). */
	const head = whose ? t('till.void.other_named', { name: whose }) : t('till.void.other_anon');
	const tail = none ? (shown ? t('till.void.other_none_named', { name: shown }) : t('till.void.other_none_anon')) :
	    (shown ? t('till.void.other_not_named', { name: shown }) : t('till.void.other_not_anon'));
	$('void-other').textContent = !other ? '' : head + tail;
	show('void-other', other);
	return other;
}

export function openVoid() {
	loadVoidable();
	renderVoid();
	const sales = recentSales();
	if (!sales.length) return;
	/* The last sale first: the one a cashier voids nearly always; of
	 * the card on screen when there is one. */
	const pick = lastSaleFor(sales);
	$('void-sale').value = pick.transaction_id;
	chosenSale = pick;
	setMsg('void-late', null);
	voidOtherNote();
	show('void-form', true);
	show('void-open', false);
	voidConfirm(false);
	$('void-reason').focus();
}

export function closeVoid() {
	lateSale = null;
	chosenSale = null;
	setMsg('void-late', null);
	show('void-other', false);
	show('void-form', false);
	show('void-open', true);
	voidConfirm(false);
	fieldError('void-reason', null);
	$('void-reason').value = '';
}

export function voidConfirm(on) {
	show('void-confirm', on);
	show('void-submit', !on);
	if (!on) return;
	const x = recentSales().find((s) => s.transaction_id === $('void-sale').value);
	const other = voidOtherNote();
	$('void-confirm-text').textContent = t(other ? 'till.void.confirm_other' : 'till.void.confirm', { sale: x ? saleText(x) : t('till.void.this_sale') });
	$('void-yes').focus();
}

/* First press: the reason is checked and the sale named; the second
 * (Yes) voids it. */
export function onVoid(ev) {
	ev.preventDefault();
	fieldError('void-reason', null);
	if (!$('void-sale').value) return;
	if (lateCheck()) return;
	if (!$('void-reason').value.trim()) {
		fieldError('void-reason', t('till.void.reason_required'));
		$('void-reason').focus();
		return;
	}
	voidConfirm(true);
}

/* The chosen sale is past its time (the list is re-read every 30 s):
 * said in the form, which stays. */
function lateCheck() {
	const id = $('void-sale').value;
	if (recentSales().some((s) => s.transaction_id === id)) {
		setMsg('void-late', null);
		return false;
	}
	renderVoid();
	if (!$('void-form').hidden && !$('void-late').hidden) {
		voidConfirm(false);
		$('void-sale').focus();
	}
	return true;
}

export async function doVoid() {
	const id = $('void-sale').value, reason = $('void-reason').value.trim();
	const x = recentSales().find((s) => s.transaction_id === id);
	if (!x && lateCheck()) return;
	if (!x || !reason) { voidConfirm(false); return; }
	const body = { transaction_id: id, reason, location_id: x.location_id, staff_user_id: user.id };
	/* The card as shown before, when it is the sale's: what a punch
	 * void could not take back is told from it. */
	const before = card && card.card_instance_id === x.card_instance_id ? balanceOf(card) : null;
	const a = attempt('void', JSON.stringify(body));
	body.idempotency_key = a.key;
	const btn = $('void-yes');
	busy(btn, true);
	try {
		const r = await api.call('POST', 'transactions/void', body);
		const d = r.data && r.data.data;
		if (!d) throw api.unreadable(r.status);
		delete attempts.void;
		voidable = voidable.filter((v) => v.transaction_id !== id);
		closeVoid();
		renderVoid();
		loadVoidable();
		showResult(voidResult(d, x, before));
		$('result-panel').focus({ preventScroll: true });
		if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError)) delete attempts.void;
		/* Voided already, or past the window: nothing to offer any more. */
		if (e instanceof ApiError && ['ALREADY_VOIDED', 'NOT_VOIDABLE', 'FORBIDDEN', 'NOT_FOUND'].includes(e.code)) {
			voidable = voidable.filter((v) => v.transaction_id !== id);
			closeVoid();
			renderVoid();
			loadVoidable();
			/* Voided elsewhere meanwhile: the card and its history as they are now. */
			if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
		} else {
			voidConfirm(false);
		}
		showResult(h('div', { className: 'res res-error' },
			h('p', { className: 'res-head' }, t('till.void.failed')),
			h('p', null, errorNode(e))));
	} finally {
		busy(btn, false);
	}
}

function voidResult(d, x, before) {
	const parts = [h('p', { className: 'res-head' }, t('till.void.done'))];
	const b = d.balance && typeof d.balance === 'object' ? d.balance : null;
	if (Number.isInteger(d.punches_removed)) {
		parts.push(h('p', null, d.rewards_withdrawn ? t('till.void.punches_removed_rewards', { punches: t('till.punches', { n: d.punches_removed }), n: d.rewards_withdrawn }) :
		    t('till.void.punches_removed', { punches: t('till.punches', { n: d.punches_removed }) })));
		/* Punches the card no longer had (the server stops at 0): their
		 * reward was handed out and stays claimed. */
		const req = b && b.punch_requirement > 0 ? b.punch_requirement : 0;
		const had = before && Number.isInteger(before.current_punches) ? before.current_punches + (d.rewards_withdrawn || 0) * req : null;
		if (had !== null && had < d.punches_removed)
			parts.push(h('p', { className: 'note' }, had ? t('till.void.had_only', { n: had }) : t('till.void.had_none')));
	}
	if (isNum(d.cashback_returned)) {
		parts.push(h('p', null, t('till.void.cashback_returned', { amount: money(d.cashback_returned) })));
		if (d.cashback_not_returned > 0)
			parts.push(h('p', { className: 'note' }, t('till.void.cashback_not_returned', { amount: money(d.cashback_not_returned) })));
	}
	if (d.reward_id) parts.push(h('p', null, t('till.void.reward_back')));
	if (isNum(d.cashback_removed)) {
		parts.push(h('p', null, t('till.void.cashback_removed', { amount: money(d.cashback_removed) })));
		if (d.cashback_not_removed > 0)
			parts.push(h('p', { className: 'note' }, t('till.void.cashback_not_removed', { amount: money(d.cashback_not_removed) })));
	}
	const now = b ? balanceText(d.card_type, b) : '';
	if (now) parts.push(h('p', { className: 'res-balance' }, t('till.void.card_now', { balance: now })));
	parts.push(h('p', { className: 'res-foot' }, t('till.void.foot', { sale: saleText(x), id: shortId(d.transaction_id) })));
	return h('div', { className: 'res res-ok' }, parts);
}

/* A balance in a few words, by the card's type. */
function balanceText(type, b) {
	return cardType(type).balanceText(b, fmt);
}

/* Another sale chosen in the open form. */
export function onVoidSaleChange() {
	voidConfirm(false);
	chosenSale = recentSales().find((s) => s.transaction_id === $('void-sale').value) || chosenSale;
	if (lateCheck() === false) { lateSale = null; renderVoid(); }
	voidOtherNote();
}
