/* The offline queue's panel: the purchases waiting, those that need
 * review, and sending them (js/queue.js does the sending). */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { lang, t } from '../js/i18n.js';
import { uuid } from '../js/store.js';
import { card, cardIdent, lookup } from './card.js';
import { $, busy, h, money, setKids, shortId, show, when } from './dom.js';
import { loadHistory } from './history.js';
import { api, queue, ready, restoredNote } from './net.js';
import { user } from './state.js';
import { codeText } from './ui.js';
import { loadVoidable } from './void.js';

export const SYNC_EVERY_MS = 60000;

/* Refusals for which sending the same purchase again cannot help. */
const NO_RETRY = ['COOLDOWN_ACTIVE', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'];

function queueLine(x, review) {
	const it = x.item;
	const what = x.label || (it.barcode_value ? t('till.card.numbered', { number: it.barcode_value }) :
	    it.card_instance_id ? t('till.card.numbered', { number: shortId(it.card_instance_id) }) : t('till.queue.qr_card'));
	const kids = [
		h('span', { className: 'q-main' }, h('strong', null, money(it.purchase_amount)), ' ', what,
			it.punch_count > 1 ? ' · ' + t('till.punches', { n: it.punch_count }) : ''),
		h('span', { className: 'q-when' }, when(it.client_timestamp))
	];
	if (review) {
		kids.push(h('span', { className: 'q-err', dataset: { code: x.error || '' } }, reviewText(x)));
		const key = it.idempotency_key;
		const acts = [];
		if (x.error === 'COOLDOWN_ACTIVE')
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRecordNow(key, x) }, t('till.queue.record_now')));
		else if (!NO_RETRY.includes(x.error))
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRetry(key) }, t('common.retry')));
		acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewDismiss(key) }, t('till.queue.dismiss')));
		kids.push(h('span', { className: 'q-actions' }, acts));
	} else if (x.last_error) {
		kids.push(h('span', { className: 'q-err soft', dataset: { code: x.last_error } }, t('till.queue.last_try', { error: codeText(x.last_error) })));
	}
	return h('li', null, kids);
}

function reviewText(x) {
	if (x.error === 'COOLDOWN_ACTIVE')
		return t('till.queue.cooldown');
	const said = codeText(x.error, x.message);
	/* The queue's own notes (js/queue.js: QUEUE_NOTES) by their key,
	 * in the page's language; the server's message only in English,
	 * which it writes. */
	const note = x.note ? t(x.note, { n: x.note_n }) : lang() === 'en' ? x.message : '';
	return said + (note && note !== said ? ' ' + note : '');
}

let syncing = false;
let syncNote = '';

export function renderQueue() {
	const all = queue.load(), mine = queue.forUser(user), review = queue.loadReview();
	$('queue-count').textContent = String(all.length);
	$('queue-button').classList.toggle('has-items', all.length > 0);
	setKids($('queue-list'), ...all.map((x) => queueLine(x, false)));
	let s = all.length ? t('till.queue.waiting', { n: all.length }) : t('till.queue.empty');
	if (mine.length < all.length) s += ' ' + t('till.queue.others', { n: all.length - mine.length });
	if (syncing) s = t('till.queue.sending');
	else if (syncNote) s = syncNote + ' ' + s;
	if (restoredNote) s += ' ' + restoredNote;
	$('queue-summary').textContent = s;
	const sb = $('sync-button');
	busy(sb, syncing);
	if (!syncing) sb.disabled = mine.length === 0;
	setKids($('review-list'), ...review.map((x) => queueLine(x, true)));
	show('review-box', review.length > 0);
}

async function reviewRetry(key) {
	await ready;
	queue.requeue(key, false);
	syncNote = '';
	renderQueue();
	syncNow(true);
}

async function reviewRecordNow(key, x) {
	if (!window.confirm(t('till.queue.record_now_confirm', { amount: money(x.item.purchase_amount) })))
		return;
	await ready;
	queue.requeue(key, true, uuid());
	syncNote = '';
	renderQueue();
	syncNow(true);
}

async function reviewDismiss(key) {
	await ready;
	queue.dismiss(key);
	syncNote = '';
	renderQueue();
	$('sync-button').focus();
}

/* Sends the queue (js/queue.js: batches within the host's body limit,
 * split when the host refuses one). */
export async function syncNow(manual) {
	await ready;
	if (syncing || !user) return;
	if (!queue.forUser(user).length) { if (manual) { syncNote = t('till.queue.nothing'); renderQueue(); } return; }
	syncing = true;
	syncNote = '';
	renderQueue();
	let st;
	try {
		st = await queue.sync(api, user, () => renderQueue());
	} finally {
		syncing = false;
	}
	if (st.failure instanceof SessionEnded) return;
	const bits = [];
	if (st.sent) bits.push(t('till.queue.sent', { n: st.sent }));
	if (st.flagged) bits.push(t('till.queue.flagged', { n: st.flagged }));
	if (st.kept) bits.push(t('till.queue.kept', { n: st.kept }));
	const f = st.failure;
	if (f) bits.push(f instanceof NetError ? t('till.queue.unreachable') :
	    t('till.queue.stopped', { error: f instanceof ApiError ? codeText(f.code, f.message) : f.message }));
	syncNote = bits.join(' ');
	renderQueue();
	if (st.sent) loadVoidable();
	if (st.sent && card) { lookup(cardIdent, false); loadHistory(); }
}
