/* The card: its lookup (scanned, typed, from the camera) and the card
 * panel, and the keys typed while a lookup runs. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { typeOf } from '../js/cardtypes.js';
import { t } from '../js/i18n.js';
import { $, fmt, h, nameOf, setKids, show } from './dom.js';
import { hist, loadHistory } from './history.js';
import { api } from './net.js';
import { claimConfirm } from './rewards.js';
import { resetPurchaseForm, saleInFlight } from './sale.js';
import { canEnrol, user } from './state.js';
import { clearFieldErrors, errorNode, setMsg, stopCountdown } from './ui.js';
import { voidCardChanged } from './void.js';

export let card = null;          /* lookup data of the current card */
export let cardIdent = null;     /* identifier the card was looked up with */
export let offlineIdent = null;  /* identifier of a card that could not be looked up */
let lookupSeq = 0;
export let lookupPending = false;
/* Counts the cards shown: an answer for a sale of an earlier card must
 * not clear what is being typed for the next one. */
export let cardGen = 0;
/* Keys typed while a lookup runs, for the field they were meant for. */
export const held = { text: '', enter: false };

export function clearCard() {
	lookupSeq++;
	cardGen++;
	lookupPending = false;
	hist.seq++;
	card = null;
	cardIdent = null;
	offlineIdent = null;
	held.text = '';
	held.enter = false;
	for (const id of ['card-panel', 'purchase-panel', 'result-panel', 'claim-panel', 'redeem-panel', 'history-panel'])
		show(id, false);
	setMsg('lookup-error', null);
	$('lookup-submit').setAttribute('aria-busy', 'false');
	setKids($('result'));
	stopCountdown();
	resetPurchaseForm();
	$('redeem-form').reset();
	claimConfirm(false);
	clearFieldErrors();
	voidCardChanged();
}

function identFor(code) {
	return /^\d+$/.test(code) ? { barcode_value: code } : { qr_code_data: code };
}

/* The time-based code of the card page's QR code: the 6 digits after its
 * payload's '.' (base64 holds no '.'). A claim or a redemption sends it
 * as card_code, which the shop may require (redeem_needs_card_code); the
 * lookup, purchases and the offline queue send the whole text, which
 * names the card all the same. null: a printed card, a typed number. */
export function cardCodeOf(ident) {
	const m = ident && typeof ident.qr_code_data === 'string' ? /\.(\d{6})$/.exec(ident.qr_code_data) : null;
	return m ? m[1] : null;
}

/* A new card, however it came (scanner, camera, typed): the old one and
 * everything typed for it go. */
export function startLookup(code) {
	code = String(code).trim();
	const f = $('lookup-code');
	f.value = code;
	if (!code) {
		setMsg('lookup-error', h('span', null, t('till.lookup.empty')));
		f.focus();
		return;
	}
	clearCard();
	if (document.activeElement !== f) f.focus();
	lookup(identFor(code), true);
}

export function onLookup(ev) {
	if (ev) ev.preventDefault();
	startLookup($('lookup-code').value);
}

/* Looks the card up and shows it; focus moves to the amount when asked,
 * and keys typed meanwhile land there. The button is never disabled: a
 * new scan always goes through, and the answer of an older lookup is
 * dropped. */
export async function lookup(ident, focusAmount) {
	if (!ident) return;
	const seq = ++lookupSeq;
	const btn = $('lookup-submit');
	btn.setAttribute('aria-busy', 'true');
	if (focusAmount) lookupPending = true;
	try {
		const r = await api.call('POST', 'cards/lookup', ident);
		if (seq !== lookupSeq) return;
		const d = r.data && r.data.data;
		if (!d || typeof d.card_instance_id !== 'string') throw api.unreadable(r.status);
		const changed = !card || card.card_instance_id !== d.card_instance_id;
		card = d;
		cardIdent = ident;
		offlineIdent = null;
		setMsg('lookup-error', null);
		renderCard();
		/* A scan of the card shown reads its history again too: the
		 * lookup may have recorded an expiry, another till a sale. */
		if (changed || focusAmount) { hist.page = 1; loadHistory(); }
		if (focusAmount) {
			if (card.status === 'active') releaseHeld();
			else dropHeld($('lookup-code'));
		}
	} catch (e) {
		if (seq !== lookupSeq || e instanceof SessionEnded) return;
		if (e instanceof NetError && focusAmount) {
			offlineIdent = ident;
			renderOfflineCard(ident);
			releaseHeld();
			return;
		}
		if (focusAmount || !(e instanceof NetError))
			setMsg('lookup-error', e instanceof ApiError && e.code === 'CARD_NOT_FOUND' ?
			    h('span', null, errorNode(e), ' ' + t(canEnrol() ? 'till.lookup.not_found_enrol' : 'till.lookup.not_found')) : e);
		/* The next scan replaces the code instead of adding to it. */
		if (focusAmount) dropHeld($('lookup-code'));
	} finally {
		if (seq === lookupSeq) {
			btn.setAttribute('aria-busy', 'false');
			lookupPending = false;
		}
	}
}

/* The lookup is over and the card takes a purchase: what was typed
 * meanwhile goes into the amount, and a held Enter records it. */
function releaseHeld() {
	const f = $('purchase-amount');
	const text = held.text, enter = held.enter;
	held.text = '';
	held.enter = false;
	lookupPending = false;
	f.value = text;
	f.focus();
	f.setSelectionRange(text.length, text.length);
	if (enter && !saleInFlight) $('purchase-form').requestSubmit($('purchase-submit'));
}

/* The lookup failed: keys typed meanwhile are dropped, focus goes back. */
function dropHeld(f) {
	held.text = '';
	held.enter = false;
	lookupPending = false;
	f.focus();
	f.select();
}

/* A marked element's text by its key (kept, so applyI18n keeps it). */
function setText(el, key) {
	el.dataset.i18n = key;
	el.textContent = t(key);
}

export const balanceOf = (d) => (d.balance && typeof d.balance === 'object' ? d.balance : d);

/* A card's status as a word: the statuses the server has, else the
 * status as it came (capitalised), so a new one still shows. */
const STATUSES = ['active', 'inactive'];
function statusText(st) {
	/* The keys built here:
	 * i18n-keys: till.card.status.active till.card.status.inactive */
	if (STATUSES.includes(st)) return t('till.card.status.' + st);
	return st ? String(st).replace(/^./, (c) => c.toUpperCase()) : t('till.card.status.unknown');
}

export function renderCard() {
	const d = card, active = d.status === 'active';
	$('card-title').textContent = d.card_title || d.card_name || t('till.card.default_title');
	$('card-customer').textContent = nameOf(d, t('till.card.customer'));
	$('card-merchant').textContent = d.merchant_name || '';
	show('card-merchant-sep', !!d.merchant_name);
	const type = $('card-type');
	const ct = typeOf(d);
	type.textContent = ct.name;
	type.className = 'tag tag-type';
	const st = $('card-status');
	st.textContent = statusText(d.status);
	st.className = 'tag ' + (active ? 'tag-ok' : 'tag-bad');
	$('card-panel').classList.toggle('is-inactive', !active);
	show('card-inactive', !active);
	show('card-offline', false);

	const rows = [];
	const dots = $('punch-dots');
	setKids(dots);
	rows.push(...ct.tillRows(d, fmt));
	const dd = ct.dots(d);
	if (dd) for (let i = 0; i < dd[1]; i++) dots.append(h('span', { className: 'pdot' + (i < dd[0] ? ' on' : '') }));
	show(dots, dots.childElementCount > 0);
	setKids($('card-balance'), ...rows.map(([k, v, cls]) =>
		h('div', { className: 'bal ' + cls }, h('dt', null, k), h('dd', null, v))));
	show('card-panel', true);

	/* Actions. */
	const isPunch = ct.punches;
	show('purchase-panel', active);
	show('punch-field', isPunch);
	setText($('punch-count-label'), 'till.purchase.punches');
	const pending = ct.rewards ? ct.pending(d) : 0;
	show('claim-panel', active && pending > 0);
	if (!(active && pending > 0)) claimConfirm(false);
	$('claim-info').textContent = pending > 0 ? t('till.claim.waiting', { n: pending }) : '';
	show('redeem-panel', active && ct.redeems);
	/* The shop wants the phone's code for these, and this scan had
	 * none (a printed card, a typed number): said before the amounts. */
	const needCode = !!(user && user.shop && user.shop.card_code_required) && !cardCodeOf(cardIdent);
	show('claim-code-note', needCode);
	show('redeem-code-note', needCode);
	show('history-panel', true);
	voidCardChanged();
}

function renderOfflineCard(ident) {
	$('card-title').textContent = ident.barcode_value ? t('till.card.numbered', { number: ident.barcode_value }) : t('till.card.scanned_qr');
	$('card-customer').textContent = t('till.card.unknown_customer');
	$('card-merchant').textContent = '';
	show('card-merchant-sep', false);
	$('card-type').textContent = t('till.card.not_checked');
	$('card-type').className = 'tag tag-warn';
	$('card-status').textContent = t('till.card.offline');
	$('card-status').className = 'tag tag-warn';
	$('card-panel').classList.remove('is-inactive');
	show('card-inactive', false);
	show('card-offline', true);
	show('punch-dots', false);
	setKids($('card-balance'));
	show('card-panel', true);
	show('purchase-panel', true);
	show('punch-field', true);
	setText($('punch-count-label'), 'till.purchase.punches_offline');
	for (const id of ['claim-panel', 'redeem-panel', 'history-panel', 'result-panel']) show(id, false);
}
