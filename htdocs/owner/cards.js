import { cardType } from '../js/cardtypes.js';
import { t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { openCard } from './card.js';
import { $, h, parseIntIn, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiGet, payload } from './net.js';
import { renderPrintLinkWarning, sheetPages } from './print.js';
import { CARDS_PAGE, ISSUE_MAX, SHEET_MAX, loadPrograms, loadSettings, st } from './state.js';
import { setMsg, toast } from './ui.js';
import { cardName as customerName, tNodes, theCard } from './words.js';

/* ---- cards ------------------------------------------------------------ */

export const cq = { q: '', program_id: '', status: '', page: 1, pages: 0, seq: 0, loaded: false };
export const selected = new Map(); /* card id -> customer name */
let pageCards = [];
let pendingProgram = null;
let issuedIds = [];

/* Cards opens with its issue form on program id (Programs' "Issue cards"). */
export function issueFor(id) { pendingProgram = id; }

/* Forgets the last owner's search and selection. */
export function resetCards() {
	selected.clear();
	Object.assign(cq, { q: '', program_id: '', status: '', page: 1, pages: 0, loaded: false });
	cq.seq++;
	pageCards = [];
	issuedIds = [];
}
export const issuedCardIds = () => issuedIds;

export function programOptions(sel, current, withAll, onlyWithCards) {
	const opts = [];
	if (withAll) opts.push(h('option', { value: '' }, withAll));
	for (const p of st.programs)
		if (!onlyWithCards || p.card_count > 0)
			opts.push(h('option', { value: p.id, selected: p.id === current }, p.title + ' (' + cardType(p.type).name + ')'));
	setKids(sel, ...opts);
	if (current && !st.programs.some((p) => p.id === current)) sel.value = withAll ? '' : (sel.options[0] ? sel.options[0].value : '');
}

export function renderCardSelects() {
	const ip = pendingProgram || $('issue-program').value;
	programOptions($('issue-program'), ip, null, false);
	if (pendingProgram) $('issue-program').value = pendingProgram;
	programOptions($('search-program'), cq.program_id, t('owner.cards.js.allPrograms'), false);
	programOptions($('sheet-program'), $('sheet-program').value, null, true);
	if (!$('sheet-program').options.length) $('sheet-program').append(h('option', { value: '' }, t('owner.cards.js.noCardsOption')));
	sheetPages();
	const none = !st.programs.length, box = $('issue-form').querySelector('.form-msg');
	$('issue-form').querySelector('button[type="submit"]').disabled = none;
	if (none) setMsg(box, h('span', { className: 'no-program' }, ...tNodes('owner.cards.js.addProgramFirst', { link: h('a', { href: '#programs' }, t('owner.cards.js.programsLink')) })));
	else if (box.querySelector('.no-program')) setMsg(box, null);
}

export async function showCards() {
	issueKindChanged();
	renderCardSelects();
	renderPrintLinkWarning();
	if (!st.settings.length) loadSettings().then(renderPrintLinkWarning).catch(() => {});
	try {
		await loadPrograms();
		renderCardSelects();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('search-error', e);
	}
	if (pendingProgram) {
		pendingProgram = null;
		$('issue-names').focus();
	}
	loadCards();
}

export async function loadCards() {
	const seq = ++cq.seq;
	const q = new URLSearchParams({ page: String(cq.page), page_size: String(CARDS_PAGE) });
	if (cq.q) q.set('q', cq.q);
	if (cq.program_id) q.set('program_id', cq.program_id);
	if (cq.status) q.set('status', cq.status);
	$('search-wrap').setAttribute('aria-busy', 'true');
	try {
		const d = await apiGet('admin/cards?' + q.toString());
		if (seq !== cq.seq) return;
		setMsg('search-error', null);
		pageCards = Array.isArray(d.cards) ? d.cards : [];
		const pg = d.pagination || {};
		cq.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		cq.loaded = true;
		renderCardRows();
		const total = Number.isInteger(pg.total_count) ? pg.total_count : pageCards.length;
		$('cards-page').textContent = total ? t('owner.cards.js.pageOf', { page: pg.page || cq.page, pages: Math.max(1, cq.pages), count: t('owner.cards.js.cardCount', { n: total }) }) : '';
		$('cards-prev').disabled = cq.page <= 1;
		$('cards-next').disabled = cq.page >= cq.pages;
	} catch (e) {
		if (seq === cq.seq && !(e instanceof SessionEnded)) setMsg('search-error', e);
	} finally {
		if (seq === cq.seq) $('search-wrap').removeAttribute('aria-busy');
	}
}

export function statusTag(status) {
	const on = status === 'active';
	return h('span', { className: 'tag ' + (on ? 'tag-ok' : 'tag-bad') }, on ? t('owner.cards.js.active') : status === 'inactive' ? t('owner.cards.js.inactive') : String(status || '—'));
}

export function renderCardRows() {
	const body = $('cards-body');
	setKids(body, ...pageCards.map((c) => {
		const name = customerName(c);
		const box = h('input', { type: 'checkbox', checked: selected.has(c.card_instance_id), 'aria-label': t('owner.cards.js.selectCard', { card: theCard(c) }) });
		box.addEventListener('change', () => toggleSelect(c, box));
		return h('tr', { className: c.status === 'active' ? '' : 'is-off' },
			h('td', { className: 'check-col' }, box),
			h('td', { dataset: { label: t('owner.cards.js.colCustomer') } }, h('span', null, name, h('span', { className: 'cust-sub' }, c.card_title || ''))),
			h('td', { dataset: { label: t('owner.cards.js.colBarcode') } }, h('span', { className: 'code' }, c.barcode_value || '—')),
			h('td', { dataset: { label: t('owner.cards.js.colStatus') } }, statusTag(c.status)),
			h('td', { className: 'actions' }, h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.cards.js.viewCard', { card: theCard(c) }), onclick: () => openCard(c.card_instance_id) }, t('owner.cards.js.view'))));
	}));
	if (!pageCards.length)
		body.append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, t(cq.q || cq.program_id || cq.status ? 'owner.cards.js.noMatch' : 'owner.cards.js.noCards'))));
	renderSelection();
}

export function toggleSelect(c, box) {
	if (box.checked) {
		if (selected.size >= SHEET_MAX) {
			box.checked = false;
			setMsg('search-error', h('span', null, t('owner.cards.js.sheetFull', { max: SHEET_MAX })));
			return;
		}
		selected.set(c.card_instance_id, c.customer_name || '');
	} else {
		selected.delete(c.card_instance_id);
	}
	renderSelection();
}

export function renderSelection() {
	const n = selected.size;
	$('select-count').textContent = n ? t('owner.cards.js.selected', { n }) : t('owner.cards.js.noneSelected');
	$('print-selected').disabled = n === 0;
	$('clear-selected').disabled = n === 0;
	const onPage = pageCards.filter((c) => selected.has(c.card_instance_id)).length;
	const all = $('select-page');
	all.checked = pageCards.length > 0 && onPage === pageCards.length;
	all.indeterminate = onPage > 0 && onPage < pageCards.length;
	all.disabled = pageCards.length === 0;
}

export function selectPage() {
	const on = $('select-page').checked;
	for (const c of pageCards) {
		if (on && selected.size >= SHEET_MAX) break;
		if (on) selected.set(c.card_instance_id, c.customer_name || '');
		else selected.delete(c.card_instance_id);
	}
	renderCardRows();
}

/* The issue form asks names, or a number of cards without names. */
export const issueBlank = () => $('issue-kind-blank').checked;
export function issueKindChanged() {
	show('issue-names-field', !issueBlank());
	show('issue-count-field', issueBlank());
}

export async function onIssue(form) {
	const pid = $('issue-program').value;
	if (!pid) throw new FormError(t('owner.cards.js.chooseProgram'), $('issue-program'));
	let body;
	if (issueBlank()) {
		const n = parseIntIn($('issue-count').value, 1, ISSUE_MAX);
		if (n === null) throw new FormError(t('owner.cards.js.countRange', { max: ISSUE_MAX }), $('issue-count'));
		body = { program_id: pid, count: n };
	} else {
		const names = $('issue-names').value.split(/\r?\n/).map((x) => x.trim()).filter(Boolean);
		if (!names.length) throw new FormError(t('owner.cards.js.namesMissing'), $('issue-names'));
		if (names.length > ISSUE_MAX) throw new FormError(t('owner.cards.js.namesTooMany', { max: ISSUE_MAX, n: names.length }), $('issue-names'));
		const long = names.find((x) => x.length > limit('NAME_MAX'));
		if (long) throw new FormError(t('owner.cards.js.nameTooLong', { max: limit('NAME_MAX'), name: long.slice(0, 40) }), $('issue-names'));
		body = names.length === 1 ? { program_id: pid, customer_name: names[0] } : { program_id: pid, customer_names: names };
	}
	const d = payload(await apiCreate('cards', 'admin/cards', body));
	const cards = Array.isArray(d.cards) ? d.cards : [];
	if (!body.count) $('issue-names').value = '';
	issuedIds = cards.map((c) => c.card_instance_id);
	$('issued-text').textContent = t(body.count ? 'owner.cards.js.issuedBlank' : 'owner.cards.js.issuedNamed', { n: cards.length, program: cards[0] ? cards[0].card_title : '' });
	setKids($('issued-list'), ...cards.map((c) => h('li', null,
		h('button', { type: 'button', className: 'linkish', onclick: () => openCard(c.card_instance_id) }, customerName(c)),
		' ', h('span', { className: 'code' }, c.barcode_value))));
	$('issued-print').textContent = cards.length === 1 ? t('owner.cards.js.printOne') : t('owner.cards.js.printMany', { n: cards.length });
	show('issued', cards.length > 0);
	toast(t('owner.cards.js.issuedToast', { n: cards.length }));
	loadPrograms().then(renderCardSelects).catch(() => {});
	cq.page = 1;
	loadCards();
}

