/* Recording a purchase: the form, its second press for large amounts,
 * the answer, and the offline queue when the server cannot take it. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { typeOf } from '../js/cardtypes.js';
import { t } from '../js/i18n.js';
import { afterPurchaseLine } from '../js/progress.js';
import { DEFAULT_COOLDOWN_S } from '../js/queue.js';
import { card, cardGen, cardIdent, lookup, offlineIdent } from './card.js';
import { $, busy, currency, fmt, h, money, moneyHint, nameOf, parseAmount, shortId, show } from './dom.js';
import { hist, loadHistory } from './history.js';
import { api, keptSoon, queue, ready } from './net.js';
import { renderQueue, syncNow } from './offline.js';
import { renderLoginQueue } from './session.js';
import { attempt, attempts, currentLocation, user } from './state.js';
import { clearFieldErrors, countdown, errorNode, fieldError, previousSale, showResult, stopCountdown, waitText } from './ui.js';
import { loadVoidable } from './void.js';

/* A purchase queued after a lost answer or a fault is tried again soon,
 * not only at the next minute. */
const SYNC_SOON_MS = 15000;
/* Above these a purchase needs a second press: a slip of the finger
 * (999999 for 9.99, 100 punches for 1) must not reach the books. */
const CONFIRM_MINOR = 100000;		/* 1,000.00; minor units, as the API's limit */
const CONFIRM_PUNCHES = 5;
/* Record failures that put the purchase into the offline queue: the
 * server's faults, and its set-up (CONFIGURATION_ERROR, sent once the
 * host is fixed). */
const QUEUE_ON = ['INTERNAL_ERROR', 'DATABASE_ERROR', 'SERVICE_UNAVAILABLE', 'CONFIGURATION_ERROR'];
/* The purchase waiting for its second press ({sig}). */
let confirmPending = null;
/* A sale is being recorded: one at a time, so a second Enter (or the
 * Enter held during a lookup) cannot start another beside it. */
export let saleInFlight = false;

export function resetPurchaseForm() {
	$('purchase-amount').value = '';
	$('purchase-notes').value = '';
	$('punch-count').value = '1';
	purchaseConfirm(null);
}

function maxPunches() {
	const m = card && card.program && Number.isInteger(card.program.max_punches_per_purchase) ? card.program.max_punches_per_purchase :
	    card && Number.isInteger(card.max_punches_per_purchase) ? card.max_punches_per_purchase : 100;
	return Math.min(100, Math.max(1, m));
}

export function stepPunch(delta) {
	const n = parseInt($('punch-count').value, 10);
	$('punch-count').value = String(Math.min(maxPunches(), Math.max(1, (Number.isInteger(n) ? n : 1) + delta)));
	fieldError('punch-count', null);
	purchaseConfirm(null);
}

export function purchaseConfirm(text, sig) {
	confirmPending = text ? { sig } : null;
	$('purchase-confirm-text').textContent = text || '';
	show('purchase-confirm', !!text);
	show('purchase-submit', !text);
}

function cooldownOf(c) {
	const v = c && c.program && Number.isInteger(c.program.cooldown_seconds) ? c.program.cooldown_seconds :
	    c && Number.isInteger(c.cooldown_seconds) ? c.cooldown_seconds : DEFAULT_COOLDOWN_S;
	return Math.max(0, v);
}

export function onRecord(ev, confirmed) {
	if (ev) ev.preventDefault();
	if ((!card && !offlineIdent) || saleInFlight) return;
	clearFieldErrors();
	const amount = parseAmount($('purchase-amount').value);
	const isPunch = !card || typeOf(card).punches;
	const pcText = $('punch-count').value.trim();
	const punches = /^\d{1,3}$/.test(pcText) ? parseInt(pcText, 10) : NaN;
	const maxP = maxPunches();
	let bad = null;
	if (isPunch && !(punches >= 1 && punches <= maxP)) {
		fieldError('punch-count', t('till.purchase.punches_range', { max: maxP }));
		bad = 'punch-count';
	}
	if (!amount) {
		fieldError('purchase-amount', moneyHint(false));
		bad = 'purchase-amount';
	} else if (amount.minor === 0) {
		fieldError('purchase-amount', t('till.purchase.above0'));
		bad = 'purchase-amount';
	}
	if (bad) {
		/* The result of an earlier try is not this one's. */
		purchaseConfirm(null);
		show('result-panel', false);
		stopCountdown();
		$(bad).focus();
		return;
	}
	const notes = $('purchase-notes').value.trim();
	const sig = [amount.minor, isPunch ? punches : 0, notes].join('|');
	const big = amount.minor >= CONFIRM_MINOR || (isPunch && punches > CONFIRM_PUNCHES);
	if (big && !(confirmed && confirmPending && confirmPending.sig === sig)) {
		const bigAmount = amount.minor >= CONFIRM_MINOR, manyPunches = isPunch && punches > CONFIRM_PUNCHES;
		purchaseConfirm(bigAmount && manyPunches ? t('till.purchase.confirm_both', { amount: money(amount.value), n: punches }) :
		    bigAmount ? t('till.purchase.confirm_amount', { amount: money(amount.value) }) : t('till.purchase.confirm_punches', { n: punches }), sig);
		/* On "Change it": a second Enter, or a key held down, must not
		 * say yes. */
		$('purchase-no').focus();
		return;
	}
	purchaseConfirm(null);
	record(amount, isPunch ? punches : null, notes);
}

async function record(amount, punches, notes) {
	const loc = currentLocation();
	const isPunch = punches !== null;
	/* How the card is named: by id once looked up, except a QR card,
	 * whose payload the sync items take (docs/integrators.md, Offline). */
	let ident;
	if (card) ident = cardIdent && cardIdent.qr_code_data ? { qr_code_data: cardIdent.qr_code_data } : { card_instance_id: card.card_instance_id };
	else ident = offlineIdent;
	const body = Object.assign({}, ident, {
		location_id: loc ? loc.id : '',
		staff_user_id: user.id,
		purchase_amount: amount.value
	});
	if (isPunch) body.punch_count = punches;
	if (notes) body.transaction_notes = notes;
	const a = attempt('record', JSON.stringify(body));
	body.idempotency_key = a.key;
	body.client_timestamp = a.at;

	const label = card ? (card.card_title || card.card_name) + ' — ' + nameOf(card) : $('card-title').textContent;
	const meta = { label, card_type: card ? card.card_type : null, merchant_id: user.merchant_id };
	/* The sale's own card: the answer may come when another is shown. */
	const sale = { card, gen: cardGen, label, a };
	const gen = cardGen;
	const btn = $('purchase-submit');
	busy(btn, true);
	saleInFlight = true;
	try {
		const r = await api.call('POST', 'transactions/record', body);
		const d = r.data && r.data.data;
		if (!d) throw api.unreadable(r.status);
		forget(a);
		queue.remove([a.key]);
		renderQueue();
		showResult(recordResult(d, label, sale.card, gen !== cardGen));
		loadVoidable();
		/* Another card came meanwhile: its typing stays, focus too. */
		if (gen !== cardGen) return;
		resetPurchaseForm();
		$('result-panel').focus({ preventScroll: true });
		if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
		else if (offlineIdent) lookup(offlineIdent, false);
	} catch (e) {
		if (e instanceof SessionEnded) {
			/* Nothing was recorded: keep the sale for after the next login,
			 * and say so on the login form. */
			await ready;
			const ok = queue.add(body, meta);
			forget(a);
			await keptSoon();
			renderLoginQueue();
			const n = $('login-notice');
			n.textContent = (n.textContent ? n.textContent + ' ' : '') +
			    t(ok ? 'till.purchase.session_saved' : 'till.purchase.session_lost', { amount: money(amount.value) });
			n.hidden = false;
			return;
		}
		if (e instanceof NetError || (e instanceof ApiError && QUEUE_ON.includes(e.code))) {
			await queueOffline(body, meta, amount, e, sale);
		} else {
			/* The server refused it: nothing was recorded; the next try is a new attempt. */
			forget(a);
			queue.remove([a.key]);
			renderQueue();
			const wait = e.code === 'COOLDOWN_ACTIVE' && Number.isInteger(e.retryAfter) && gen === cardGen;
			showResult(h('div', { className: 'res res-error' }, previousSale(sale),
				h('p', { className: 'res-head' }, t('till.purchase.not_recorded')),
				h('p', null, errorNode(e, wait))));
			if (wait) countdown(e.retryAfter);
			if (e.code === 'CARD_INACTIVE' && cardIdent && gen === cardGen) lookup(cardIdent, false);
		}
	} finally {
		saleInFlight = false;
		busy(btn, false);
	}
}

/* Drops the sale's retry key, unless a later sale has its own by now. */
function forget(a) {
	if (attempts.record === a) delete attempts.record;
}

/* A purchase the server could not take now goes to the queue, unless it
 * is a second punch on the card within the cooldown: the server would
 * refuse that too, so the till says so now, as it does online. */
async function queueOffline(body, meta, amount, e, sale) {
	await ready;
	const gen = sale.gen, c = sale.card, a = sale.a;
	/* Only a card known to be a punch card: an unknown one may be a
	 * cashback card, whose next sale must not be turned away. */
	const isPunch = typeof body.punch_count === 'number' && (!c || typeOf(c).punches);
	const prior = isPunch ? queue.punchWithin(body, cooldownOf(c), Date.parse(body.client_timestamp)) : null;
	if (prior && prior.item.idempotency_key !== body.idempotency_key) {
		forget(a);
		const left = Math.ceil((Date.parse(prior.item.client_timestamp) + cooldownOf(c) * 1000 - Date.now()) / 1000);
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, t('till.purchase.not_recorded')),
			h('p', null, h('strong', null, t('till.purchase.punched_ago', { wait: waitText(Math.max(1, Math.round((Date.now() - Date.parse(prior.item.client_timestamp)) / 1000))) })),
			    ' ' + t('till.purchase.one_punch'))));
		if (left > 0 && gen === cardGen) countdown(left);
		if (gen === cardGen) resetPurchaseForm();
		return;
	}
	const ok = queue.add(body, meta);
	renderQueue();
	/* "Saved" once it is on disk: a browser killed now keeps it. */
	if (ok) await keptSoon();
	if (ok) {
		/* Saved: the next scan starts clean; pressing Record again is no
		 * longer possible for this sale, and needs no second key. */
		forget(a);
		if (gen === cardGen) resetPurchaseForm();
		setTimeout(() => syncNow(false), SYNC_SOON_MS);
	}
	/* Not stored: the answer may only have been lost, so the sale may be
	 * recorded; its key is kept and the form too, so Record again now
	 * cannot count it twice, where writing it down to type in later
	 * would. */
	showResult(h('div', { className: 'res res-warn' }, previousSale(sale),
		h('p', { className: 'res-head' }, t(ok ? 'till.purchase.queued_head' : 'till.purchase.unknown_head')),
		h('p', null, errorNode(e)),
		h('p', null, ok ? t('till.purchase.queued', { amount: money(amount.value) }) : t('till.purchase.storage_full'))));
	if (gen === cardGen) $('result-panel').focus({ preventScroll: true });
}

function recordResult(d, label, saleCard, previous) {
	const card = saleCard;
	const parts = [];
	const dup = d.idempotent === true ? h('p', { className: 'note' }, t('till.purchase.idempotent')) : null;
	parts.push(...typeOf(d).result(d, fmt, card));
	/* For the customer: to read out, or for the receipt. */
	const line = afterPurchaseLine(d, card, currency());
	if (line) parts.push(h('p', { className: 'progress-line' }, h('span', { className: 'visually-hidden' }, t('till.purchase.for_customer') + ' '), line));
	parts.push(h('p', { className: 'res-foot' }, t('till.purchase.foot', { label, id: shortId(d.transaction_id) })));
	return h('div', { className: 'res res-ok' + (d.reward_earned ? ' res-reward' : '') },
		previous ? h('p', { className: 'res-prev' }, t('till.result.previous', { label })) : null, parts, dup);
}
