/* The card's transaction history, a page at a time. */
import { SessionEnded } from '../js/api.js';
import { t } from '../js/i18n.js';
import { txDetailsNode } from '../js/txn.js';
import { card } from './card.js';
import { $, h, money, setKids, when } from './dom.js';
import { api } from './net.js';
import { setMsg } from './ui.js';

const PAGE_SIZE = 10;
/* The types the history knows by name (till.tx.<type>); another shows as it came. */
const TYPES = ['punch', 'cashback', 'discount', 'reward_claim', 'cashback_redeem', 'void', 'adjustment', 'expiry'];
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
			body.append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, t(hist.type ? 'till.history.none_of_type' : 'till.history.none'))));
		$('history-page').textContent = t('till.history.page', { page: pg.page || hist.page, pages: Math.max(1, hist.pages) }) +
		    ' · ' + t('till.history.count', { n: Number.isInteger(pg.total_count) ? pg.total_count : list.length });
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

function historyRow(x) {
	const type = x.transaction_type;
	const cells = [
		/* Data, not words of ours: the time (Intl's), the place and the cashier. */
		h('td', { translate: false, dataset: { label: t('till.history.when') } }, when(x.created_at)),
		/* The keys built here:
		 * i18n-keys: till.tx.adjustment till.tx.cashback till.tx.cashback_redeem till.tx.discount
		 * i18n-keys: till.tx.expiry till.tx.punch till.tx.reward_claim till.tx.void */
		h('td', { dataset: { label: t('till.history.type') } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPES.includes(type) ? t('till.tx.' + type) : type || '—'),
			x.voided ? h('span', { className: 'tag tag-voided' }, t('till.history.voided')) : null),
		/* A sale's amount; a correction has none (its change is in the details). */
		h('td', { className: 'num', dataset: { label: t('till.history.amount') } }, NO_AMOUNT.includes(type) ? '—' : money(x.purchase_amount)),
		h('td', { dataset: { label: t('till.history.details') } }, txDetailsNode(h, x, money)),
		h('td', { translate: type === 'expiry', dataset: { label: t('till.history.where_who') } }, type === 'expiry' ? t('till.history.automatic') :
			[x.location_name, x.staff_name].filter(Boolean).join(' · ') || '—')
	];
	return h('tr', x.voided ? { className: 'voided' } : null, cells);
}

/* Types with no purchase amount of their own. */
const NO_AMOUNT = ['reward_claim', 'void', 'adjustment', 'expiry'];
