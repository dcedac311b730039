import { addDays as addDay, shopToday } from '../js/dates.js';
import { locale, t as tr } from '../js/i18n.js';
import { decimals } from '../js/money.js';
import { txRow } from './card.js';
import { $, addDays, h, int, money, parseYmd, s, setKids, show, uid, ymd } from './dom.js';
import { FormError, SessionEnded, apiGet } from './net.js';
import { figure } from './overview.js';
import { settingWords } from './settings.js';
import { TX_PAGE, loadSettings, settingValue, st } from './state.js';
import { busy, clearFormError, download, loadPage, setMsg, showFormError } from './ui.js';
import { calDay } from './words.js';

/* ---- reports ---------------------------------------------------------- */

export const rep = { from: '', to: '', group: 'day', seq: 0, tx: { page: 1, pages: 0, seq: 0 }, shown: false };
/* The groups' and figures' words are catalog keys (owner.reports.js.*):
 * the language may change after this module loads. */
const GROUPS = ['day', 'location', 'staff'];
const grp = (g) => (GROUPS.includes(g) ? g : 'day');
// i18n-keys: owner.reports.js.group.day owner.reports.js.group.location owner.reports.js.group.staff
export const groupLabel = (g) => tr('owner.reports.js.group.' + grp(g));
export const ALL_FIGS = [
	['purchases', 'int'], ['sales_amount', 'money'], ['punches', 'int'],
	['rewards_earned', 'int'], ['rewards_claimed', 'int'],
	['cashback_earned', 'money'], ['cashback_redeemed', 'money'],
	['discounts_given', 'money'],
	/* Shown only when the period has some: most shops never see them. */
	['cashback_expired', 'money', true], ['punches_removed', 'int', true]
];
// i18n-keys: owner.reports.js.fig.cashback_earned owner.reports.js.fig.cashback_expired
// i18n-keys: owner.reports.js.fig.cashback_redeemed owner.reports.js.fig.discounts_given
// i18n-keys: owner.reports.js.fig.punches owner.reports.js.fig.punches_removed owner.reports.js.fig.purchases
// i18n-keys: owner.reports.js.fig.rewards_claimed owner.reports.js.fig.rewards_earned
// i18n-keys: owner.reports.js.fig.sales_amount
export const figLabel = (k) => tr('owner.reports.js.fig.' + k);
export const fmtFig = (v, kind) => (kind === 'money' ? money(v) : int(v));

/* A preset's first and last day ("YYYY-MM-DD"), from the shop's today
 * (its time zone, js/dates.js), never the device's; null for custom. */
export function presetRange(p, today) {
	const tt = today || shopToday();
	const y = +tt.slice(0, 4), m = +tt.slice(5, 7);
	const first = (yy, mm) => ymd(new Date(Date.UTC(yy, mm - 1, 1)));
	switch (p) {
	case 'today': return [tt, tt];
	case 'yesterday': return [addDay(tt, -1), addDay(tt, -1)];
	case 'last7': return [addDay(tt, -6), tt];
	case 'thisweek': return [addDay(tt, -((new Date(tt + 'T00:00:00Z').getUTCDay() + 6) % 7)), tt];
	case 'thismonth': return [first(y, m), tt];
	case 'lastmonth': return [first(y, m - 1), addDay(first(y, m), -1)];
	case 'last30': return [addDay(tt, -29), tt];
	case 'thisyear': return [first(y, 1), tt];
	default: return null;
	}
}

export function applyPreset() {
	const r = presetRange($('report-preset').value);
	if (!r) return;
	$('report-from').value = r[0];
	$('report-to').value = r[1];
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
		if (!from) throw new FormError(tr('owner.reports.js.needFrom'), $('report-from'));
		if (!to) throw new FormError(tr('owner.reports.js.needTo'), $('report-to'));
		if (from > to) throw new FormError(tr('owner.reports.js.endsBefore'), $('report-to'));
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
	const period = rep.from === rep.to ? calDay(rep.from) : tr('owner.reports.js.period', { from: calDay(rep.from), to: calDay(rep.to) });
	$('report-title').textContent = tr('owner.reports.js.title', { period });
	/* The shop's named zone when it has one, else its fixed offset. */
	const zone = (st.settings.find((x) => x.key === 'time_zone') || {}).value;
	$('report-zone').textContent = tr('owner.reports.js.zone', {
		zone: typeof zone === 'string' && zone ? zone : settingWords('utc_offset_minutes', settingValue('utc_offset_minutes', 0))
	});
	setKids($('report-figures'),
		figure(figLabel('sales_amount'), money(t.sales_amount), 'big'), figure(figLabel('purchases'), int(t.purchases)),
		figure(figLabel('cashback_earned'), money(t.cashback_earned)), figure(figLabel('cashback_redeemed'), money(t.cashback_redeemed)),
		figure(figLabel('discounts_given'), money(t.discounts_given)), figure(figLabel('punches'), int(t.punches)),
		figure(tr('owner.reports.js.rewardsEarnedClaimed'), int(t.rewards_earned) + ' / ' + int(t.rewards_claimed)),
		t.cashback_expired > 0 ? figure(figLabel('cashback_expired'), money(t.cashback_expired)) : null,
		t.punches_removed > 0 ? figure(tr('owner.reports.js.punchesRemovedLong'), int(t.punches_removed)) : null,
		figure(tr('owner.reports.js.owedAtEnd'), money(d.outstanding_cashback), 'good'));
	/* The table. */
	const FIGS = ALL_FIGS.filter(([k, , rare]) => !rare || t[k] > 0);
	const rows = Array.isArray(d.rows) ? d.rows : [];
	const g = grp(rep.group);
	// i18n-keys: owner.reports.js.by.day owner.reports.js.by.location owner.reports.js.by.staff
	$('rtable-title').textContent = tr('owner.reports.js.by.' + g);
	// i18n-keys: owner.reports.js.caption.day owner.reports.js.caption.location owner.reports.js.caption.staff
	$('report-caption').textContent = tr('owner.reports.js.caption.' + g, { period });
	setKids($('report-head'), h('tr', null, h('th', { scope: 'col' }, groupLabel(g)),
		FIGS.map(([k]) => h('th', { scope: 'col', className: 'num' }, figLabel(k)))));
	const label = (r) => (g === 'day' ? calDay(r.key) : r.label || (g === 'staff' ? tr('owner.reports.js.unknownStaff') : '—'));
	setKids($('report-body'), ...rows.map((r) => h('tr', null, h('th', { scope: 'row' }, label(r)),
		FIGS.map(([k, kind]) => h('td', { className: 'num' }, fmtFig(r[k], kind))))));
	if (!rows.length) $('report-body').append(h('tr', null, h('td', { colSpan: FIGS.length + 1, className: 'empty' }, tr('owner.reports.js.nothingSold'))));
	setKids($('report-foot'), h('tr', null, h('th', { scope: 'row' }, tr('owner.reports.js.total')), FIGS.map(([k, kind]) => h('td', { className: 'num' }, fmtFig(t[k], kind)))));
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
			buckets.push({ key: k, label: calDay(k, { month: '2-digit', day: '2-digit' }), title: calDay(k), sales: r.sales_amount || 0, earned: r.cashback_earned || 0, redeemed: r.cashback_redeemed || 0 });
		}
	} else {
		const idx = new Map();
		for (let d = new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth(), 1)); d <= t; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
			const k = ymd(d).slice(0, 7);
			idx.set(k, buckets.length);
			let title = k;
			try { title = d.toLocaleDateString(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' }); } catch (e) { /* old browser */ }
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
	const per = monthly ? 'month' : 'day';
	// i18n-keys: owner.reports.js.chartTitle.day owner.reports.js.chartTitle.month
	$('chart-title').textContent = tr('owner.reports.js.chartTitle.' + per);
	const sum = (k) => buckets.reduce((n, b) => n + b[k], 0);
	if (!rows.length) {
		setKids(box, h('p', { className: 'empty-note' }, tr('owner.reports.js.noSales')));
		return;
	}
	/* Drawn at the width it shows at, so its text stays legible on a phone. */
	const W = Math.max(300, Math.min(1000, Math.round(box.clientWidth || 760)));
	/* The scales' top values are round (of the currency's minor unit), and
	 * the left margin as wide as their longest label ("￥2,000,000",
	 * "1,000.000 د.ك."), which was cut at a fixed 56 px. */
	const topS = niceTop(Math.max(...buckets.map((b) => b.sales), 0));
	const topC = niceTop(Math.max(...buckets.map((b) => Math.max(b.earned, b.redeemed)), 0));
	const scale = (top) => [0, 0.5, 1].map((fr) => money(top * fr));
	const labelW = Math.max(...[...scale(topS), ...scale(topC)].map((x) => textWidth(x, box)));
	const L = Math.min(Math.round(W / 3), Math.max(56, Math.ceil(labelW) + 12)), R = 10, TOP = 24, H1 = W < 500 ? 120 : 150, GAP = 44, H2 = W < 500 ? 64 : 80, BOT = 26;
	const H = TOP + H1 + GAP + H2 + BOT;
	const n = buckets.length, slot = (W - L - R) / n, bw = Math.max(1, Math.min(36, slot * 0.7));
	const maxS = topS || 0.01, maxC = topC || 0.01;
	const rtl = getComputedStyle(box).direction === 'rtl';
	const titleId = uid('chart'), descId = uid('chart');
	// i18n-keys: owner.reports.js.chartSvgTitle.day owner.reports.js.chartSvgTitle.month
	// i18n-keys: owner.reports.js.chartDesc.day owner.reports.js.chartDesc.month
	const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'chart-svg', role: 'img', 'aria-labelledby': titleId + ' ' + descId, preserveAspectRatio: 'xMidYMid meet' },
		s('title', { id: titleId }, tr('owner.reports.js.chartSvgTitle.' + per, { from, to })),
		s('desc', { id: descId }, tr('owner.reports.js.chartDesc.' + per, { sales: money(sum('sales')), max: money(Math.max(...buckets.map((b) => b.sales), 0)),
		    earned: money(sum('earned')), redeemed: money(sum('redeemed')) })));
	const y2 = TOP + H1 + GAP;
	/* Axes, gridlines and scale labels. */
	for (const [top, hgt, max, name] of [[TOP, H1, maxS, tr('owner.reports.js.axisSales')], [y2, H2, maxC, tr('owner.reports.js.axisCashback')]]) {
		/* The svg is drawn left to right (amounts read so); a right-to-left
		 * page has the axis's name at its start, the right. */
		svg.append(s('text', { x: rtl ? W - R : L, y: top - 8, class: 'ch-name', 'text-anchor': rtl ? 'end' : 'start' }, name));
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
			s('title', null, tr('owner.reports.js.barSales', { when: b.title, amount: money(b.sales) }))));
		const he = (b.earned / maxC) * H2, hr = (b.redeemed / maxC) * H2, half = bw / 2;
		svg.append(s('rect', { x: cx - half, y: y2 + H2 - he, width: half, height: Math.max(0, he), class: 'ch-earned' },
			s('title', null, tr('owner.reports.js.barEarned', { when: b.title, amount: money(b.earned) }))));
		svg.append(s('rect', { x: cx, y: y2 + H2 - hr, width: half, height: Math.max(0, hr), class: 'ch-redeemed' },
			s('title', null, tr('owner.reports.js.barRedeemed', { when: b.title, amount: money(b.redeemed) }))));
	});
	/* Date labels: evenly spread (a label needs about 46 px), and the last one. */
	const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor((W - L - R) / 46))));
	const marks = [];
	for (let i = 0; i < n; i += every) marks.push(i);
	if (marks[marks.length - 1] !== n - 1) {
		if (n - 1 - marks[marks.length - 1] < every / 2 + 0.5 && marks.length > 1) marks.pop();
		marks.push(n - 1);
	}
	/* Centred under its bar, but inside the chart at either end. */
	for (const i of marks) {
		const half = textWidth(buckets[i].label, box) / 2 + 1;
		svg.append(s('text', { x: Math.min(W - half, Math.max(half, L + slot * i + slot / 2)), y: H - 6, class: 'ch-date' }, buckets[i].label));
	}
	setKids(box,
		h('p', { className: 'legend', 'aria-hidden': 'true' },
			h('span', null, h('span', { className: 'key key-sales' }), tr('owner.reports.js.axisSales')),
			h('span', null, h('span', { className: 'key key-earned' }), figLabel('cashback_earned')),
			h('span', null, h('span', { className: 'key key-redeemed' }), figLabel('cashback_redeemed'))),
		svg);
}

/* The top of a scale of two steps: each step a round amount (1, 1.2,
 * 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten) of whole minor units
 * (no half yen), at least half of max. */
export function niceTop(max, d = decimals()) {
	const p = 10 ** d, half = Math.ceil(Math.round(max * p) / 2);
	if (half <= 0) return 0;
	const e = 10 ** Math.floor(Math.log10(half));
	const step = [10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100].map((m) => (m * e) / 10).find((x) => x >= half && Number.isInteger(x)) || 10 * e;
	return (2 * step) / p;
}

/* The width in px of text in the chart's scale font. */
let measure = null;
function textWidth(text, box) {
	try {
		measure = measure || document.createElement('canvas').getContext('2d');
		measure.font = '11px ' + getComputedStyle(box).fontFamily;
		return measure.measureText(text).width;
	} catch (e) {
		return String(text).length * 7;
	}
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
		cols: 6, empty: tr('owner.reports.js.noTx'), noun: 'owner.reports.js.txCount', error: (e) => setMsg('rtx-error', e)
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

