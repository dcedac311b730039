import { typeOf } from '../js/cardtypes.js';
import { t as tr } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { isNum, parseMoney, shopFormat } from '../js/money.js';
import { txDetailsNode } from '../js/txn.js';
import { loadCards } from './cards.js';
import { $, h, int, money, parseIntIn, pct, plural, saveBlob, setKids, show } from './dom.js';
import { ApiError, FormError, SessionEnded, apiBlob, apiCreate, apiGet, apiPatch, payload } from './net.js';
import { figure } from './overview.js';
import { publicUrl } from './print.js';
import { loadReportTx, rep } from './reports.js';
import { HIST_PAGE, NOT_VOIDABLE, st, user } from './state.js';
import { busy, confirmDialog, field, loadPage, openDialog, setMsg, toast } from './ui.js';
import { cardName as customerName, day, theCard, up, when } from './words.js';

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
	expiry: (d) => (d.next_expiry_at ? tr('owner.card.js.expiryOn', { amount: money(d.next_expiry_amount), date: day(d.next_expiry_at) }) : '')
};
export const balanceRows = (d) => typeOf(d).tillRows(d, FMT);

export function renderCard() {
	const d = card, active = d.status === 'active';
	$('detail-title').textContent = customerName(d);
	$('detail-title').classList.toggle('no-name', !d.customer_name);
	/* the customer's name is data; "No name" is ours */
	$('detail-title').translate = !d.customer_name;
	$('detail-sub').textContent = d.card_title || '';
	$('detail-type').textContent = typeOf(d).name;
	const stt = $('detail-status');
	stt.textContent = tr(active ? 'owner.card.js.active' : 'owner.card.js.inactive');
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
	$('detail-no-link').textContent = noLink ? tr('owner.card.js.noLink') : '';
	show('detail-no-link', noLink);
	$('detail-qr').alt = tr('owner.card.js.qrAlt', { card: theCard(d) });
	$('detail-barcode').alt = tr('owner.card.js.barcodeAlt', { card: theCard(d), number: d.barcode_value || '' });
	show('detail-adjust', active && adjustable(d));
	$('detail-toggle').textContent = tr(active ? 'owner.card.js.deactivate' : 'owner.card.js.activate');
	$('detail-toggle').classList.toggle('btn-warn', active);
}

/* The images need the token: fetched, shown from blob: URLs. */
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
		cols: 5, empty: tr('owner.card.js.noHistory'), noun: 'owner.card.js.txCount', error: (e) => setMsg('dhist-error', e)
	});
}

/* A transaction type's name: as a label ("Punch"), and inside a sentence
 * ("Void the punch of …"), which some languages write otherwise. */
const TX_TYPES = ['punch', 'cashback', 'discount', 'reward_claim', 'cashback_redeem', 'void', 'adjustment', 'expiry'];
// i18n-keys: owner.type.adjustment owner.type.cashback owner.type.cashback_redeem owner.type.discount
// i18n-keys: owner.type.expiry owner.type.punch owner.type.reward_claim owner.type.void
export const typeName = (type) => (TX_TYPES.includes(type) ? tr('owner.type.' + type) : type || '—');
// i18n-keys: owner.card.js.typeIn.adjustment owner.card.js.typeIn.cashback
// i18n-keys: owner.card.js.typeIn.cashback_redeem owner.card.js.typeIn.discount owner.card.js.typeIn.expiry
// i18n-keys: owner.card.js.typeIn.punch owner.card.js.typeIn.reward_claim owner.card.js.typeIn.transaction
// i18n-keys: owner.card.js.typeIn.void
const typeInSentence = (type) => (TX_TYPES.includes(type) ? tr('owner.card.js.typeIn.' + type) : type || tr('owner.card.js.typeIn.transaction'));

/* A transaction row (a card's history, or the report's list with the
 * customer). */
export function txRow(t, withCustomer) {
	const type = t.transaction_type;
	const canVoid = !t.voided && !NOT_VOIDABLE.includes(type) && typeof t.transaction_id === 'string';
	return h('tr', t.voided ? { className: 'voided' } : null,
		h('td', { dataset: { label: tr('owner.card.js.colWhen') } }, when(t.created_at)),
		withCustomer ? h('td', { dataset: { label: tr('owner.card.js.colCustomer') } }, t.customer_name || (t.card_instance_id ? tr('owner.card.js.noName') : '—')) : null,
		h('td', { dataset: { label: tr('owner.card.js.colType') } }, h('span', { className: 'tx tx-' + (type || 'x') }, typeName(type)),
			t.voided ? h('span', { className: 'tag tag-bad tag-voided' }, tr('owner.card.js.voided')) : null),
		h('td', { className: 'num', dataset: { label: tr('owner.card.js.colAmount') } }, type === 'reward_claim' || NOT_VOIDABLE.includes(type) ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: tr('owner.card.js.colDetails') } }, txDetailsNode(h, t, money),
			canVoid ? h('button', { type: 'button', className: 'btn btn-small btn-void', dataset: { txn: t.transaction_id },
			    'aria-label': t.customer_name ? tr('owner.card.js.voidAriaOf', { type: typeInSentence(type), when: when(t.created_at), customer: t.customer_name }) :
			        tr('owner.card.js.voidAria', { type: typeInSentence(type), when: when(t.created_at) }),
			    onclick: () => voidTxn(t) }, tr('owner.card.js.voidButton')) : null),
		/* An expiry is the service's own, whoever the card's last sale was. */
		h('td', { dataset: { label: tr('owner.card.js.colWhere') } }, type === 'expiry' ? tr('owner.card.js.automatic') :
			[t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—'));
}

/* A required text of a dialog: its sentence when empty or too long. */
function needText(input, missing, tooLong, max) {
	const v = input.value.trim();
	if (!v) throw new FormError(tr(missing), input);
	if (max && v.length > max) throw new FormError(tr(tooLong, { max }), input);
	return v;
}

/* Void any transaction of the shop: a reason is required, the dialog
 * names what is undone. Recorded at the transaction's location (the
 * shop's first when a card's history does not say), by the owner. */
export function voidTxn(t) {
	const type = TX_TYPES.includes(t.transaction_type) ? typeName(t.transaction_type) : t.transaction_type || tr('owner.card.js.typeIn.transaction');
	const f = field({ label: tr('owner.card.js.reason'), field: 'reason', limit: 'NOTES_MAX', hint: tr('owner.card.js.voidReasonHint') });
	const who = t.customer_name || (card ? customerName(card) : '');
	const base = t.transaction_type === 'reward_claim' ? tr('owner.card.js.voidWhat', { type, when: when(t.created_at) }) :
	    tr('owner.card.js.voidWhatAmount', { type, when: when(t.created_at), amount: money(t.purchase_amount) });
	const what = who ? tr('owner.card.js.voidWhatWho', { what: base, customer: who }) : base;
	return openDialog({
		title: tr('owner.card.js.voidTitle'), intro: tr('owner.card.js.voidIntro', { what }),
		body: f, submitLabel: tr('owner.card.js.voidSubmit'), danger: true,
		onSubmit: async () => {
			const reason = needText(f.input, 'owner.card.js.reasonMissing', 'owner.card.js.reasonTooLong', limit('NOTES_MAX'));
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
				if (cancel) { cancel.textContent = tr('owner.card.js.close'); setTimeout(() => cancel.focus(), 0); }
				f.input.readOnly = true;
				if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
				if (st.section === 'reports' && rep.from) loadReportTx();
				const err = new FormError(tr('owner.card.js.alreadyVoided'));
				err.code = e.code;
				throw err;
			}
			const spent = isNum(d.cashback_not_removed) && d.cashback_not_removed > 0 ? ' ' + tr('owner.card.js.cashbackNotRemoved', { amount: money(d.cashback_not_removed) }) : '';
			toast(tr('owner.card.js.voidedToast', { what }) + spent);
			if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
			if (st.section === 'reports' && rep.from) loadReportTx();
		}
	});
}

/* The owner corrects punches or a cashback balance, up or down, with a
 * reason, never below zero; a discount card has nothing to correct. */
const adjustable = (c) => typeOf(c).punches || typeOf(c).redeems;

/* "2.50" and "1.00" in the shop's currency's decimals ("250" and "100"
 * with none): the examples of a cashback correction. */
function adjustExamples() {
	const dec = shopFormat().currency_decimals;
	return dec > 0 ? [(2.5).toFixed(dec), (1).toFixed(dec)] : ['250', '100'];
}

export function adjustCard() {
	if (!card || !adjustable(card)) return;
	const c = card, punch = typeOf(c).punches;
	const [plus, minus] = adjustExamples();
	const f = field(punch ? { label: tr('owner.card.js.adjustPunches'), field: 'punches', inputMode: 'numeric', placeholder: tr('owner.card.js.adjustPunchesExample') } :
	    { label: tr('owner.card.js.adjustCashback'), field: 'cashback_amount', inputMode: 'decimal', placeholder: tr('owner.card.js.adjustCashbackExample', { plus, minus }) });
	/* A number typed with Latin digits, left to right in any language. */
	f.input.dir = 'ltr';
	const r = field({ label: tr('owner.card.js.reason'), field: 'reason', limit: 'NOTES_MAX', hint: tr('owner.card.js.adjustReasonHint') });
	return openDialog({
		title: tr('owner.card.js.adjustTitle', { card: theCard(c) }), body: h('div', null, f, r), submitLabel: tr('owner.card.js.adjustSubmit'),
		onSubmit: async () => {
			const t = f.input.value.trim().replace(/^\+/, '');
			const body = {};
			if (punch) {
				const m = limit('PUNCH_ADJUST_MAX');
				const n = parseIntIn(t, -m, m);
				if (n === null || n === 0) throw new FormError(tr('owner.card.js.adjustPunchesBad', { max: m }), f.input);
				body.punches = n;
			} else {
				const neg = t.startsWith('-'), m = parseMoney(neg ? t.slice(1) : t);
				if (!m || !m.value) {
					const dec = shopFormat().currency_decimals;
					throw new FormError(dec > 0 ? tr('owner.card.js.adjustCashbackBad', { n: dec, plus, minus }) :
					    tr('owner.card.js.adjustCashbackBadWhole', { plus, minus }), f.input);
				}
				body.cashback_amount = neg ? -m.value : m.value;
			}
			body.reason = needText(r.input, 'owner.card.js.reasonMissing', 'owner.card.js.reasonTooLong', limit('NOTES_MAX'));
			const d = payload(await apiCreate('adjust', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/adjust', body));
			toast(up(tr('owner.card.js.adjustedToast', { card: theCard(c) })) +
			    (d.rewards_earned > 0 ? ' ' + tr('owner.card.js.rewardsEarned', { n: d.rewards_earned }) : ''));
			if (card && card.card_instance_id === c.card_instance_id) { openCard(c.card_instance_id); dh.page = 1; loadCardHistory(); }
		}
	});
}

export function renameCard() {
	if (!card) return;
	const c = card;
	const f = field({ label: tr('owner.card.js.customerName'), value: c.customer_name || '', field: 'customer_name', limit: 'NAME_MAX' });
	openDialog({
		title: tr(c.customer_name ? 'owner.card.js.renameTitle' : 'owner.card.js.nameTitle', { card: theCard(c) }), body: f, submitLabel: tr('owner.card.js.renameSubmit'),
		onSubmit: async () => {
			const name = needText(f.input, 'owner.card.js.nameMissing', 'owner.card.js.nameTooLong', limit('NAME_MAX'));
			const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { customer_name: name });
			if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
			toast(tr('owner.card.js.renamedToast', { name }));
			loadCards();
		}
	});
}

/* A new link for the customer's page (POST admin/cards/ID/redraw): the
 * old one stops at once, for a link that went astray. */
export async function redrawCard() {
	if (!card) return;
	const c = card;
	if (!await confirmDialog(tr('owner.card.js.redrawTitle', { card: theCard(c) }), tr('owner.card.js.redrawText'), tr('owner.card.js.redrawSubmit'), true))
		return;
	const btn = $('detail-redraw');
	busy(btn, true);
	try {
		const d = payload(await apiCreate('redraw', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/redraw', { card: c.card_instance_id }));
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast(up(tr('owner.card.js.redrawnToast', { card: theCard(c) })));
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
	if (off && !await confirmDialog(tr('owner.card.js.deactivateTitle', { card: theCard(c) }), tr('owner.card.js.deactivateText'), tr('owner.card.js.deactivate'), true))
		return;
	const btn = $('detail-toggle');
	busy(btn, true);
	try {
		const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { status: off ? 'inactive' : 'active' });
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast(up(tr(off ? 'owner.card.js.deactivatedToast' : 'owner.card.js.activatedToast', { card: theCard(c) })));
		loadCards();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('detail-error', e);
	} finally {
		busy(btn, false);
		btn.focus();
	}
}
