import { typeOf } from '../js/cardtypes.js';
import { limit } from '../js/limits.js';
import { isNum, parseMoney } from '../js/money.js';
import { txDetailsNode } from '../js/txn.js';
import { loadCards } from './cards.js';
import { $, day, h, int, money, parseIntIn, pct, plural, saveBlob, setKids, show, when } from './dom.js';
import { ApiError, FormError, SessionEnded, apiBlob, apiCreate, apiGet, apiPatch, payload } from './net.js';
import { figure } from './overview.js';
import { publicUrl } from './print.js';
import { loadReportTx, rep } from './reports.js';
import { HIST_PAGE, NOT_VOIDABLE, TYPE_NAMES, customerName, st, theCard, user } from './state.js';
import { busy, confirmDialog, field, loadPage, need, openDialog, setMsg, toast } from './ui.js';

/* ---- one card --------------------------------------------------------- */

export let card = null;
export const dh = { page: 1, pages: 0, seq: 0 };
export let cardSeq = 0;
export const imageUrls = [];

export function revokeImages() {
	while (imageUrls.length) URL.revokeObjectURL(imageUrls.pop());
}

export function closeCard() {
	cardSeq++;
	dh.seq++;
	card = null;
	revokeImages();
	for (const id of ['detail-qr', 'detail-barcode']) $(id).removeAttribute('src');
	show('card-detail', false);
}

export async function openCard(id) {
	const seq = ++cardSeq;
	setMsg('detail-error', null);
	try {
		const d = await apiGet('admin/cards/' + encodeURIComponent(id));
		if (seq !== cardSeq) return;
		const changed = !card || card.card_instance_id !== d.card.card_instance_id;
		card = d.card;
		renderCard();
		show('card-detail', true);
		if (changed) {
			loadImages(card);
			dh.page = 1;
			loadCardHistory();
			$('card-detail').scrollIntoView({ block: 'start' });
			$('detail-title').focus({ preventScroll: true });
		} else {
			/* Read again (View, or after a change): the card's read may
			 * have recorded an expiry the history should show. */
			loadCardHistory();
		}
	} catch (e) {
		if (seq !== cardSeq || e instanceof SessionEnded) return;
		setMsg('search-error', e);
	}
}

/* The card's figures, as the till shows them (js/cardtypes.js). */
const FMT = {
	money, pct, int, plural,
	expiry: (d) => (d.next_expiry_at ? money(d.next_expiry_amount) + ' on ' + day(d.next_expiry_at) : '')
};
export const balanceRows = (d) => typeOf(d).tillRows(d, FMT);

export function renderCard() {
	const d = card, active = d.status === 'active';
	$('detail-title').textContent = customerName(d);
	$('detail-title').classList.toggle('no-name', !d.customer_name);
	$('detail-sub').textContent = d.card_title || '';
	$('detail-type').textContent = typeOf(d).name;
	const stt = $('detail-status');
	stt.textContent = active ? 'Active' : 'Inactive';
	stt.className = 'tag ' + (active ? 'tag-ok' : 'tag-bad');
	$('card-detail').classList.toggle('is-inactive', !active);
	setKids($('detail-balance'), ...balanceRows(d).map(([k, v, c]) => figure(k, v, c)));
	$('detail-qr-data').textContent = d.qr_code_data || '';
	$('detail-barcode-value').textContent = d.barcode_value || '';
	$('detail-id').textContent = d.card_instance_id;
	$('detail-created').textContent = day(d.created_at);
	/* card_page is relative to public_url when the owner set it (as the
	 * printed card says), else to the tills' folder, which is this page's. */
	const pub = (st.settings || []).find((x) => x.key === 'public_url');
	const page = d.card_page ? new URL(d.card_page, pub && pub.value ? pub.value : location.href).href : '';
	$('detail-page').textContent = page;
	$('detail-page').href = page || '#';
	/* Printed without public_url, the card carries no link (print.js). */
	const noLink = st.settings.length > 0 && !publicUrl();
	$('detail-no-link').textContent = noLink ? 'Printed, this card carries no link to this page: set the address of this site for customers (the notice above the cards, or Settings).' : '';
	show('detail-no-link', noLink);
	$('detail-qr').alt = 'QR code of ' + theCard(d);
	$('detail-barcode').alt = 'Barcode of ' + theCard(d) + ', number ' + (d.barcode_value || '');
	show('detail-adjust', active && adjustable(d));
	$('detail-toggle').textContent = active ? 'Deactivate' : 'Activate';
	$('detail-toggle').classList.toggle('btn-warn', active);
}

/* The images need the token: fetched, shown from blob: URLs. */
const up = (t) => t.charAt(0).toUpperCase() + t.slice(1);

/* The card's images as files, named by its barcode. */
const images = { qr: null, barcode: null };
function downloadImage(what) {
	const b = images[what];
	if (!b || !card) return;
	saveBlob(b, 'card-' + (card.barcode_value || card.card_instance_id.slice(0, 8)) + (what === 'qr' ? '-qr-code.svg' : '-barcode.svg'));
}
export function wireImageDownloads() {
	$('detail-qr-dl').addEventListener('click', () => downloadImage('qr'));
	$('detail-barcode-dl').addEventListener('click', () => downloadImage('barcode'));
}

export async function loadImages(c) {
	const seq = cardSeq;
	revokeImages();
	for (const [id, what, key] of [['detail-qr', 'qr.svg', 'qr'], ['detail-barcode', 'barcode.svg', 'barcode']]) {
		const img = $(id);
		img.removeAttribute('src');
		images[key] = null;
		$(id + '-dl').disabled = true;
		try {
			const r = await apiBlob('admin/cards/' + encodeURIComponent(c.card_instance_id) + '/' + what);
			if (seq !== cardSeq) return;
			const url = URL.createObjectURL(r.blob);
			imageUrls.push(url);
			img.src = url;
			images[key] = r.blob;
			$(id + '-dl').disabled = false;
		} catch (e) {
			if (seq !== cardSeq || e instanceof SessionEnded) return;
			setMsg('detail-error', e);
		}
	}
}

export function loadCardHistory() {
	if (!card) return;
	const q = new URLSearchParams({ card_instance_id: card.card_instance_id, page: String(dh.page), page_size: String(HIST_PAGE) });
	return loadPage(dh, 'dhist', {
		path: 'transactions/history?' + q.toString(), list: 'transactions', row: (t) => txRow(t, false),
		cols: 5, empty: 'No transactions yet.', noun: ['transaction', 'transactions'], error: (e) => setMsg('dhist-error', e)
	});
}

/* A transaction row (a card's history, or the report's list with the
 * customer). */
export function txRow(t, withCustomer) {
	const type = t.transaction_type;
	const canVoid = !t.voided && !NOT_VOIDABLE.includes(type) && typeof t.transaction_id === 'string';
	return h('tr', t.voided ? { className: 'voided' } : null,
		h('td', { dataset: { label: 'When' } }, when(t.created_at)),
		withCustomer ? h('td', { dataset: { label: 'Customer' } }, t.customer_name || (t.card_instance_id ? 'No name' : '—')) : null,
		h('td', { dataset: { label: 'Type' } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPE_NAMES[type] || type || '—'),
			t.voided ? h('span', { className: 'tag tag-bad tag-voided' }, 'voided') : null),
		h('td', { className: 'num', dataset: { label: 'Amount' } }, type === 'reward_claim' || NOT_VOIDABLE.includes(type) ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: 'Details' } }, txDetailsNode(h, t, money),
			canVoid ? h('button', { type: 'button', className: 'btn btn-small btn-void', dataset: { txn: t.transaction_id },
			    'aria-label': 'Void the ' + (TYPE_NAMES[type] || type || 'transaction').toLowerCase() + ' of ' + when(t.created_at) +
			        (t.customer_name ? ' of ' + t.customer_name : ''),
			    onclick: () => voidTxn(t) }, 'Void…') : null),
		/* An expiry is the service's own, whoever the card's last sale was. */
		h('td', { dataset: { label: 'Where / who' } }, type === 'expiry' ? 'Automatic' :
			[t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—'));
}

/* Void any transaction of the shop: a reason is required, the dialog
 * names what is undone. Recorded at the transaction's location (the
 * shop's first when a card's history does not say), by the owner. */
export function voidTxn(t) {
	const type = TYPE_NAMES[t.transaction_type] || t.transaction_type || 'transaction';
	const f = field({ label: 'Reason', field: 'reason', limit: 'NOTES_MAX', hint: 'Kept with the void, in the history and the audit trail.' });
	const what = type + ' of ' + when(t.created_at) + (t.transaction_type === 'reward_claim' ? '' : ', ' + money(t.purchase_amount)) +
	    (t.customer_name ? ', ' + t.customer_name : card ? ', ' + customerName(card) : '');
	return openDialog({
		title: 'Void this transaction?', intro: what + '. What it gave the card is taken back (cashback already spent or expired is not); ' +
		    'the transaction stays in the history, marked voided. This cannot be undone.',
		body: f, submitLabel: 'Void it', danger: true,
		onSubmit: async () => {
			const reason = need(f.input, 'the reason', limit('NOTES_MAX'));
			if (!user) return;
			const loc = t.location_id || (st.locations[0] && st.locations[0].id) || '';
			let d;
			try {
				d = payload(await apiCreate('void', 'transactions/void', { transaction_id: t.transaction_id, reason, location_id: loc, staff_user_id: user.id }));
			} catch (e) {
				if (!(e instanceof ApiError) || e.code !== 'ALREADY_VOIDED') throw e;
				/* Voided meanwhile in another tab or on a till: nothing
				 * left to do here but see it. */
				const form = f.closest('form');
				const btn = form && form.querySelector('button[type="submit"]');
				if (btn) btn.remove();
				const cancel = form && form.querySelector('.dlg-btns button[type="button"]');
				if (cancel) { cancel.textContent = 'Close'; setTimeout(() => cancel.focus(), 0); }
				f.input.readOnly = true;
				if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
				if (st.section === 'reports' && rep.from) loadReportTx();
				const err = new FormError('Already voided, from another window or till.');
				err.code = e.code;
				throw err;
			}
			const spent = isNum(d.cashback_not_removed) && d.cashback_not_removed > 0 ? ' ' + money(d.cashback_not_removed) + ' of its cashback was already spent or expired.' : '';
			toast('Voided: ' + what + '.' + spent);
			if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
			if (st.section === 'reports' && rep.from) loadReportTx();
		}
	});
}

/* The owner's correction of a card: punches or cashback, up or down,
 * with a reason; never below zero. */
/* The owner corrects punches or a cashback balance; a discount card has
 * nothing to correct. */
const adjustable = (c) => typeOf(c).punches || typeOf(c).redeems;

export function adjustCard() {
	if (!card || !adjustable(card)) return;
	const c = card, punch = typeOf(c).punches;
	const f = field(punch ? { label: 'Punches to add (negative to take off)', field: 'punches', inputMode: 'numeric', placeholder: '+2 or -1' } :
	    { label: 'Cashback to add (negative to take off)', field: 'cashback_amount', inputMode: 'decimal', placeholder: '+2.50 or -1.00' });
	const r = field({ label: 'Reason', field: 'reason', limit: 'NOTES_MAX', hint: 'Shown in the card\'s history.' });
	return openDialog({
		title: 'Adjust ' + theCard(c), body: h('div', null, f, r), submitLabel: 'Adjust',
		onSubmit: async () => {
			const t = f.input.value.trim().replace(/^\+/, '');
			const body = {};
			if (punch) {
				const m = limit('PUNCH_ADJUST_MAX');
				const n = parseIntIn(t, -m, m);
				if (n === null || n === 0) throw new FormError('Punches: a whole number from -' + m + ' to ' + m + ', not 0.', f.input);
				body.punches = n;
			} else {
				const neg = t.startsWith('-'), m = parseMoney(neg ? t.slice(1) : t);
				if (!m || m.cents === 0) throw new FormError('Cashback: an amount such as 2.50 or -1.00 (at most 2 decimals), not 0.', f.input);
				body.cashback_amount = neg ? -m.value : m.value;
			}
			body.reason = need(r.input, 'the reason', limit('NOTES_MAX'));
			const d = payload(await apiCreate('adjust', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/adjust', body));
			toast(up(theCard(c)) + ' is adjusted.' +
			    (d.rewards_earned > 0 ? ' ' + plural(d.rewards_earned, 'reward', 'rewards') + ' earned.' : ''));
			if (card && card.card_instance_id === c.card_instance_id) { openCard(c.card_instance_id); dh.page = 1; loadCardHistory(); }
		}
	});
}

export function renameCard() {
	if (!card) return;
	const c = card;
	const f = field({ label: 'Customer name', value: c.customer_name || '', field: 'customer_name', limit: 'NAME_MAX' });
	openDialog({
		title: c.customer_name ? 'Rename ' + theCard(c) : 'Name ' + theCard(c), body: f, submitLabel: 'Rename',
		onSubmit: async () => {
			const name = need(f.input, 'the customer\'s name', limit('NAME_MAX'));
			const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { customer_name: name });
			if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
			toast('Card renamed to ' + name + '.');
			loadCards();
		}
	});
}

/* A new link for the customer's page (POST admin/cards/ID/redraw): the
 * old one stops at once, for a link that went astray. */
export async function redrawCard() {
	if (!card) return;
	const c = card;
	if (!await confirmDialog('Make a new link for ' + theCard(c) + '?',
	    'The card\'s page gets a new address and the old one stops working at once (use it when the link was shared by mistake). ' +
	    'Give the customer the new link; a printed card\'s link stops working too. Its QR code, barcode and balance stay.', 'Make a new link', true))
		return;
	const btn = $('detail-redraw');
	busy(btn, true);
	try {
		const d = payload(await apiCreate('redraw', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/redraw', { card: c.card_instance_id }));
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast(up(theCard(c)) + ' has a new link; the old one no longer works.');
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('detail-error', e);
	} finally {
		busy(btn, false);
		btn.focus();
	}
}

export async function toggleCard() {
	if (!card) return;
	const c = card, off = c.status === 'active';
	if (off && !await confirmDialog('Deactivate ' + theCard(c) + '?',
	    'The till refuses purchases, rewards and cashback on it until you activate it again. Its balance stays.', 'Deactivate', true))
		return;
	const btn = $('detail-toggle');
	busy(btn, true);
	try {
		const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { status: off ? 'inactive' : 'active' });
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast(up(theCard(c)) + (off ? ' is deactivated.' : ' is active again.'));
		loadCards();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('detail-error', e);
	} finally {
		busy(btn, false);
		btn.focus();
	}
}

