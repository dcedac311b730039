/* The card's transaction history, a page at a time. */
import { SessionEnded } from '../js/api.js';
import { txDetailsNode } from '../js/txn.js';
import { card } from './card.js';
import { $, h, money, plural, setKids, when } from './dom.js';
import { api } from './net.js';
import { setMsg } from './ui.js';

const PAGE_SIZE = 10;
const TYPE_NAMES = {
	punch: 'Punch', cashback: 'Cashback', discount: 'Discount',
	reward_claim: 'Reward claim', cashback_redeem: 'Cashback redeem',
	void: 'Void', adjustment: 'Adjustment', expiry: 'Expiry'
};
export const hist = { page: 1, type: '', seq: 0, pages: 0 };

export async function loadHistory() {
	if (!card) return;
	const seq = ++hist.seq;
	const q = new URLSearchParams({ card_instance_id: card.card_instance_id, page: String(hist.page), page_size: String(PAGE_SIZE) });
	if (hist.type) q.set('transaction_type', hist.type);
	$('history-panel').setAttribute('aria-busy', 'true');
	try {
		const r = await api.call('GET', 'transactions/history?' + q.toString());
		if (seq !== hist.seq) return;
		const d = (r.data && r.data.data) || {};
		const list = Array.isArray(d.transactions) ? d.transactions : [];
		const pg = d.pagination || {};
		hist.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		setMsg('history-error', null);
		const body = $('history-body');
		setKids(body, ...list.map(historyRow));
		if (!list.length)
			body.append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, hist.type ? 'No transactions of this type.' : 'No transactions yet.')));
		$('history-page').textContent = 'Page ' + (pg.page || hist.page) + ' of ' + Math.max(1, hist.pages) +
		    ' · ' + plural(Number.isInteger(pg.total_count) ? pg.total_count : list.length, 'transaction', 'transactions');
		pagerState($('history-prev'), hist.page <= 1, $('history-next'));
		pagerState($('history-next'), hist.page >= hist.pages, $('history-prev'));
	} catch (e) {
		if (seq !== hist.seq || e instanceof SessionEnded) return;
		setMsg('history-error', e);
	} finally {
		if (seq === hist.seq) $('history-panel').removeAttribute('aria-busy');
	}
}

/* Disables a pager button; focus on it moves to the other one (or the
 * table) instead of falling to the page body. */
function pagerState(btn, off, other) {
	const had = document.activeElement === btn;
	btn.disabled = off;
	if (off && had) (other.disabled ? $('history-title') : other).focus();
}

function historyRow(t) {
	const type = t.transaction_type;
	const cells = [
		h('td', { dataset: { label: 'When' } }, when(t.created_at)),
		h('td', { dataset: { label: 'Type' } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPE_NAMES[type] || type || '—'),
			t.voided ? h('span', { className: 'tag tag-voided' }, 'voided') : null),
		/* A sale's amount; a correction has none (its change is in the details). */
		h('td', { className: 'num', dataset: { label: 'Amount' } }, NO_AMOUNT.includes(type) ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: 'Details' } }, txDetailsNode(h, t, money)),
		h('td', { dataset: { label: 'Where / who' } }, type === 'expiry' ? 'Automatic' :
			[t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—')
	];
	return h('tr', t.voided ? { className: 'voided' } : null, cells);
}

/* Types with no purchase amount of their own. */
const NO_AMOUNT = ['reward_claim', 'void', 'adjustment', 'expiry'];
