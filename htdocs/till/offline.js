/* The offline queue's panel: the purchases waiting, those that need
 * review, and sending them (js/queue.js does the sending). */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { uuid } from '../js/store.js';
import { card, cardIdent, lookup } from './card.js';
import { $, busy, h, money, plural, setKids, shortId, show, when } from './dom.js';
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
	const what = x.label || (it.barcode_value ? 'Card ' + it.barcode_value : it.card_instance_id ? 'Card ' + shortId(it.card_instance_id) : 'QR card');
	const kids = [
		h('span', { className: 'q-main' }, h('strong', null, money(it.purchase_amount)), ' ', what,
			it.punch_count > 1 ? ' · ' + plural(it.punch_count, 'punch', 'punches') : ''),
		h('span', { className: 'q-when' }, when(it.client_timestamp))
	];
	if (review) {
		kids.push(h('span', { className: 'q-err', dataset: { code: x.error || '' } }, reviewText(x)));
		const key = it.idempotency_key;
		const acts = [];
		if (x.error === 'COOLDOWN_ACTIVE')
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRecordNow(key, x) }, 'Record now'));
		else if (!NO_RETRY.includes(x.error))
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRetry(key) }, 'Retry'));
		acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewDismiss(key) }, 'Dismiss'));
		kids.push(h('span', { className: 'q-actions' }, acts));
	} else if (x.last_error) {
		kids.push(h('span', { className: 'q-err soft', dataset: { code: x.last_error } }, 'Last try: ' + codeText(x.last_error)));
	}
	return h('li', null, kids);
}

function reviewText(x) {
	if (x.error === 'COOLDOWN_ACTIVE')
		return 'Refused: the card had been punched shortly before, and a card takes one punch per visit. ' +
		    '"Record now" records it with the present time, if the customer should have this punch.';
	const said = codeText(x.error, x.message);
	return said + (x.message && x.message !== said ? ' ' + x.message : '');
}

let syncing = false;
let syncNote = '';

export function renderQueue() {
	const all = queue.load(), mine = queue.forUser(user), review = queue.loadReview();
	$('queue-count').textContent = String(all.length);
	$('queue-button').classList.toggle('has-items', all.length > 0);
	setKids($('queue-list'), ...all.map((x) => queueLine(x, false)));
	let s = all.length ? plural(all.length, 'purchase', 'purchases') + ' waiting to be sent.' : 'No purchases waiting.';
	if (mine.length < all.length) s += ' ' + (all.length - mine.length) + ' belong to another cashier and are sent after that login.';
	if (syncing) s = 'Sending…';
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
	if (!window.confirm('Record the punch of ' + money(x.item.purchase_amount) + ' now, with the present time?'))
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
	if (!queue.forUser(user).length) { if (manual) { syncNote = 'Nothing to send.'; renderQueue(); } return; }
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
	if (st.sent) bits.push(plural(st.sent, 'purchase', 'purchases') + ' sent.');
	if (st.flagged) bits.push(st.flagged + (st.flagged === 1 ? ' needs' : ' need') + ' review: not recorded, see why below.');
	if (st.kept) bits.push(st.kept + ' kept for the next try.');
	const f = st.failure;
	if (f) bits.push(f instanceof NetError ? 'Server not reachable; will try again.' :
	    f instanceof ApiError ? 'Sync stopped: ' + codeText(f.code, f.message) : 'Sync stopped: ' + f.message);
	syncNote = bits.join(' ');
	renderQueue();
	if (st.sent) loadVoidable();
	if (st.sent && card) { lookup(cardIdent, false); loadHistory(); }
}
