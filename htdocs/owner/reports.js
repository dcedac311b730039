import { txRow } from './card.js';
import { $, addDays, day, h, int, money, parseYmd, s, setKids, show, uid, ymd } from './dom.js';
import { FormError, SessionEnded, apiGet } from './net.js';
import { figure } from './overview.js';
import { settingWords } from './settings.js';
import { TX_PAGE, loadSettings, presetRange, settingValue, st } from './state.js';
import { busy, clearFormError, download, loadPage, setMsg, showFormError } from './ui.js';

/* ---- reports ---------------------------------------------------------- */

export const rep = { from: '', to: '', group: 'day', seq: 0, tx: { page: 1, pages: 0, seq: 0 }, shown: false };
export const GROUP_LABEL = { day: 'Day', location: 'Location', staff: 'Staff' };
export const ALL_FIGS = [
	['purchases', 'Purchases', 'int'], ['sales_amount', 'Sales', 'money'], ['punches', 'Punches', 'int'],
	['rewards_earned', 'Rewards earned', 'int'], ['rewards_claimed', 'Rewards claimed', 'int'],
	['cashback_earned', 'Cashback earned', 'money'], ['cashback_redeemed', 'Cashback redeemed', 'money'],
	['discounts_given', 'Discounts given', 'money'],
	/* Shown only when the period has some: most shops never see them. */
	['cashback_expired', 'Cashback expired', 'money', true], ['punches_removed', 'Punches taken off', 'int', true]
];
export const fmtFig = (v, kind) => (kind === 'money' ? money(v) : int(v));

export function applyPreset() {
	const r = presetRange($('report-preset').value);
	if (!r) return;
	$('report-from').value = ymd(r[0]);
	$('report-to').value = ymd(r[1]);
}

/* Each visit shows the figures of now; the first one of this period's
 * preset, in the shop's calendar (so the settings first). */
export async function showReports() {
	if (!rep.shown) {
		if (!st.settings.length) await loadSettings().catch(() => {});
		if ($('report-preset').value !== 'custom') applyPreset();
	}
	runReport();
}

export async function runReport() {
	const form = $('report-form');
	clearFormError(form);
	const from = parseYmd($('report-from').value), to = parseYmd($('report-to').value);
	try {
		if (!from) throw new FormError('Choose the first day of the period.', $('report-from'));
		if (!to) throw new FormError('Choose the last day of the period.', $('report-to'));
		if (from > to) throw new FormError('The period ends before it starts.', $('report-to'));
	} catch (e) {
		showFormError(form, e);
		return;
	}
	rep.from = ymd(from);
	rep.to = ymd(to);
	rep.group = $('report-group').value;
	rep.tx.page = 1;
	const seq = ++rep.seq;
	const btn = form.querySelector('button[type="submit"]');
	busy(btn, true);
	try {
		const q = (g) => 'admin/reports/summary?' + new URLSearchParams({ from: rep.from, to: rep.to, group: g });
		const [d, days] = await Promise.all([apiGet(q(rep.group)), rep.group === 'day' ? null : apiGet(q('day'))]);
		if (seq !== rep.seq) return;
		rep.shown = true;
		renderReport(d, days || d);
		show('report-out', true);
		/* Drawn while hidden (the first time), the chart had no width. */
		redrawChart();
		scrollHint();
		loadReportTx();
	} catch (e) {
		if (seq === rep.seq && !(e instanceof SessionEnded)) showFormError(form, e);
	} finally {
		if (seq === rep.seq) busy(btn, false);
	}
}

export function renderReport(d, days) {
	const t = d.totals || {};
	const period = rep.from === rep.to ? day(rep.from + 'T12:00:00Z') : day(rep.from + 'T12:00:00Z') + ' to ' + day(rep.to + 'T12:00:00Z');
	$('report-title').textContent = 'Summary: ' + period;
	const off = settingValue('utc_offset_minutes', 0);
	$('report-zone').textContent = 'Days in the shop\'s time (' + settingWords('utc_offset_minutes', off) + ', see Settings).';
	setKids($('report-figures'),
		figure('Sales', money(t.sales_amount), 'big'), figure('Purchases', int(t.purchases)),
		figure('Cashback earned', money(t.cashback_earned)), figure('Cashback redeemed', money(t.cashback_redeemed)),
		figure('Discounts given', money(t.discounts_given)), figure('Punches', int(t.punches)),
		figure('Rewards earned / claimed', int(t.rewards_earned) + ' / ' + int(t.rewards_claimed)),
		t.cashback_expired > 0 ? figure('Cashback expired', money(t.cashback_expired)) : null,
		t.punches_removed > 0 ? figure('Punches taken off by adjustments', int(t.punches_removed)) : null,
		figure('Cashback owed to customers at the end', money(d.outstanding_cashback), 'good'));
	/* The table. */
	const FIGS = ALL_FIGS.filter(([k, , , rare]) => !rare || t[k] > 0);
	const rows = Array.isArray(d.rows) ? d.rows : [];
	$('rtable-title').textContent = 'By ' + GROUP_LABEL[rep.group].toLowerCase();
	$('report-caption').textContent = 'Figures by ' + GROUP_LABEL[rep.group].toLowerCase() + ', ' + period + ', with the totals';
	setKids($('report-head'), h('tr', null, h('th', { scope: 'col' }, GROUP_LABEL[rep.group]),
		FIGS.map(([, label]) => h('th', { scope: 'col', className: 'num' }, label))));
	const label = (r) => (rep.group === 'day' ? day(r.key + 'T12:00:00Z') : r.label || (rep.group === 'staff' ? 'Unknown staff' : '—'));
	setKids($('report-body'), ...rows.map((r) => h('tr', null, h('th', { scope: 'row' }, label(r)),
		FIGS.map(([k, , kind]) => h('td', { className: 'num' }, fmtFig(r[k], kind))))));
	if (!rows.length) $('report-body').append(h('tr', null, h('td', { colSpan: FIGS.length + 1, className: 'empty' }, 'Nothing was sold in this period.')));
	setKids($('report-foot'), h('tr', null, h('th', { scope: 'row' }, 'Total'), FIGS.map(([k, , kind]) => h('td', { className: 'num' }, fmtFig(t[k], kind)))));
	drawChart(Array.isArray(days.rows) ? days.rows : [], rep.from, rep.to);
}

/* "Scroll the table sideways" where it is wider than its box. */
function scrollHint() {
	const w = $('report-table').closest('.table-wrap');
	show('report-scroll-hint', w.scrollWidth > w.clientWidth + 1);
}

/* Sales (bars) and cashback earned and redeemed (bars below) per day, or
 * per month for a period over 92 days; an SVG drawn here, no library. */
export function drawChart(rows, from, to) {
	const box = $('chart');
	chartArgs = [rows, from, to];
	chartWidth = box.clientWidth;
	const byKey = new Map(rows.map((r) => [r.key, r]));
	const f = parseYmd(from), t = parseYmd(to);
	const days = Math.round((t - f) / 86400000) + 1;
	const monthly = days > 92;
	const buckets = [];
	if (!monthly) {
		for (let d = f; d <= t; d = addDays(d, 1)) {
			const k = ymd(d), r = byKey.get(k) || {};
			buckets.push({ key: k, label: k.slice(5).replace('-', '/'), title: day(k + 'T12:00:00Z'), sales: r.sales_amount || 0, earned: r.cashback_earned || 0, redeemed: r.cashback_redeemed || 0 });
		}
	} else {
		const idx = new Map();
		for (let d = new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth(), 1)); d <= t; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
			const k = ymd(d).slice(0, 7);
			idx.set(k, buckets.length);
			let title = k;
			try { title = d.toLocaleDateString(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }); } catch (e) { /* old browser */ }
			buckets.push({ key: k, label: k, title, sales: 0, earned: 0, redeemed: 0 });
		}
		for (const r of rows) {
			const b = buckets[idx.get(String(r.key).slice(0, 7))];
			if (!b) continue;
			b.sales += r.sales_amount || 0;
			b.earned += r.cashback_earned || 0;
			b.redeemed += r.cashback_redeemed || 0;
		}
	}
	$('chart-title').textContent = 'Sales and cashback per ' + (monthly ? 'month' : 'day');
	const sum = (k) => buckets.reduce((n, b) => n + b[k], 0);
	if (!rows.length) {
		setKids(box, h('p', { className: 'empty-note' }, 'No sales in this period.'));
		return;
	}
	/* Drawn at the width it shows at, so its text stays legible on a phone. */
	const W = Math.max(300, Math.min(1000, Math.round(box.clientWidth || 760)));
	const L = 56, R = 10, TOP = 24, H1 = W < 500 ? 120 : 150, GAP = 44, H2 = W < 500 ? 64 : 80, BOT = 26;
	const H = TOP + H1 + GAP + H2 + BOT;
	const n = buckets.length, slot = (W - L - R) / n, bw = Math.max(1, Math.min(36, slot * 0.7));
	const maxS = Math.max(...buckets.map((b) => b.sales), 0.01);
	const maxC = Math.max(...buckets.map((b) => Math.max(b.earned, b.redeemed)), 0.01);
	const titleId = uid('chart'), descId = uid('chart');
	const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'chart-svg', role: 'img', 'aria-labelledby': titleId + ' ' + descId, preserveAspectRatio: 'xMidYMid meet' },
		s('title', { id: titleId }, 'Sales and cashback per ' + (monthly ? 'month' : 'day') + ', ' + from + ' to ' + to),
		s('desc', { id: descId }, 'Sales ' + money(sum('sales')) + ' in all, at most ' + money(maxS === 0.01 ? 0 : maxS) + ' a ' + (monthly ? 'month' : 'day') +
		    '. Cashback earned ' + money(sum('earned')) + ', redeemed ' + money(sum('redeemed')) + '. The table below has every figure.'));
	const y2 = TOP + H1 + GAP;
	/* Axes, gridlines and scale labels. */
	for (const [top, hgt, max, name] of [[TOP, H1, maxS, 'Sales'], [y2, H2, maxC, 'Cashback']]) {
		svg.append(s('text', { x: L, y: top - 8, class: 'ch-name' }, name));
		for (const fr of [0, 0.5, 1]) {
			const y = top + hgt - fr * hgt;
			svg.append(s('line', { x1: L, x2: W - R, y1: y, y2: y, class: fr ? 'ch-grid' : 'ch-axis' }));
			svg.append(s('text', { x: L - 6, y: y + 4, class: 'ch-scale' }, money(max === 0.01 ? 0 : max * fr)));
		}
	}
	buckets.forEach((b, i) => {
		const cx = L + slot * i + slot / 2;
		const hs = (b.sales / maxS) * H1;
		svg.append(s('rect', { x: cx - bw / 2, y: TOP + H1 - hs, width: bw, height: Math.max(0, hs), class: 'ch-sales' },
			s('title', null, b.title + ': sales ' + money(b.sales))));
		const he = (b.earned / maxC) * H2, hr = (b.redeemed / maxC) * H2, half = bw / 2;
		svg.append(s('rect', { x: cx - half, y: y2 + H2 - he, width: half, height: Math.max(0, he), class: 'ch-earned' },
			s('title', null, b.title + ': cashback earned ' + money(b.earned))));
		svg.append(s('rect', { x: cx, y: y2 + H2 - hr, width: half, height: Math.max(0, hr), class: 'ch-redeemed' },
			s('title', null, b.title + ': cashback redeemed ' + money(b.redeemed))));
	});
	/* Date labels: evenly spread (a label needs about 46 px), and the last one. */
	const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor((W - L - R) / 46))));
	const marks = [];
	for (let i = 0; i < n; i += every) marks.push(i);
	if (marks[marks.length - 1] !== n - 1) {
		if (n - 1 - marks[marks.length - 1] < every / 2 + 0.5 && marks.length > 1) marks.pop();
		marks.push(n - 1);
	}
	for (const i of marks)
		svg.append(s('text', { x: L + slot * i + slot / 2, y: H - 6, class: 'ch-date' }, buckets[i].label));
	setKids(box,
		h('p', { className: 'legend', 'aria-hidden': 'true' },
			h('span', null, h('span', { className: 'key key-sales' }), 'Sales'),
			h('span', null, h('span', { className: 'key key-earned' }), 'Cashback earned'),
			h('span', null, h('span', { className: 'key key-redeemed' }), 'Cashback redeemed')),
		svg);
}

let chartArgs = null, chartWidth = 0, resizeTimer = null;
/* The window's width changed: the chart drawn again for it, once the
 * resizing stops. */
export function onResize() {
	clearTimeout(resizeTimer);
	resizeTimer = setTimeout(() => { redrawChart(); if (rep.shown) scrollHint(); }, 150);
}

/* Forgets the last owner's report. */
export function resetReports() {
	rep.shown = false;
	rep.seq++;
	rep.tx.seq++;
	chartArgs = null;
}

export function redrawChart() {
	const w = $('chart').clientWidth;
	if (!chartArgs || !w || Math.abs(w - chartWidth) < 8) return;
	chartWidth = w;
	drawChart(...chartArgs);
}

export function loadReportTx() {
	const q = new URLSearchParams({ from: rep.from, to: rep.to, page: String(rep.tx.page), page_size: String(TX_PAGE) });
	return loadPage(rep.tx, 'rtx', {
		path: 'admin/reports/transactions?' + q.toString(), list: 'transactions', row: (t) => txRow(t, true),
		cols: 6, empty: 'No transactions in this period.', noun: ['transaction', 'transactions'], error: (e) => setMsg('rtx-error', e)
	});
}


export function downloadCsv(kind, btn) {
	/* header=names: the spreadsheet's form (a header of words); without
	 * it the server sends the v1 columns. */
	const q = new URLSearchParams({ from: rep.from, to: rep.to, format: 'csv', header: 'names' });
	if (kind === 'summary') q.set('group', rep.group);
	const name = kind === 'summary' ? 'summary-by-' + rep.group + '-' + rep.from + '-to-' + rep.to + '.csv' : 'transactions-' + rep.from + '-to-' + rep.to + '.csv';
	return download(btn, $('report-dl-msg'), 'admin/reports/' + kind + '?' + q.toString(), { name });
}

