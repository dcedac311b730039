import { $, bytes, h, plural, saveBlob, setKids, show, when, ymd } from './dom.js';
import { SessionEnded, apiBlob, apiGet } from './net.js';
import { loadLocations, loadUsers, shopToday, st } from './state.js';
import { busy, clearFormError, setMsg, showFormError } from './ui.js';

/* ---- audit ------------------------------------------------------------ */

export const AUDIT_PAGE = 50;
export const AUDIT_ACTIONS = {
	'transaction.record': 'Purchase', 'transaction.sync': 'Purchase (offline)',
	'transaction.sync_refused': 'Offline purchase refused (not recorded)',
	'transaction.void': 'Void', 'reward.claim': 'Reward claim',
	'cashback.redeem': 'Cashback redeem', 'cashback.expire': 'Cashback expired',
	'card.enrol': 'Card issued at the till',
	'card.issue': 'Cards issued', 'card.update': 'Card changed', 'card.adjust': 'Card adjusted',
	'card.redraw': 'Card link replaced',
	'location.create': 'Location added', 'location.update': 'Location renamed',
	'user.create': 'Staff added', 'user.update': 'Staff changed',
	'program.create': 'Program added', 'program.update': 'Program changed',
	'settings.update': 'Settings changed', 'backup.download': 'Backup downloaded',
	'auth.login': 'Login', 'auth.login_failed': 'Wrong password', 'auth.refresh': 'Login renewed',
	'auth.refresh_reuse': 'Login revoked (token reused)', 'auth.logout': 'Logged out', 'setup': 'Shop set up',
	'merchant.create': 'Shop created', 'demo.create': 'Demo shop made'
};
export const aud = { page: 1, pages: 0, seq: 0, q: null };

/* The filters of the form as query parameters. */
export function auditQuery() {
	const q = new URLSearchParams();
	for (const el of $('audit-form').querySelectorAll('[data-field]')) {
		const v = el.value.trim();
		if (v) q.set(el.dataset.field, v);
	}
	return q;
}

export function fillAuditSelects() {
	const keep = (sel) => sel.value;
	const u = $('audit-user'), a = $('audit-action'), l = $('audit-location');
	const uv = keep(u), av = keep(a), lv = keep(l);
	setKids(u, h('option', { value: '' }, 'Anyone'),
		...st.users.map((x) => h('option', { value: x.id }, x.name || x.email)));
	setKids(a, h('option', { value: '' }, 'Anything'),
		...Object.keys(AUDIT_ACTIONS).map((k) => h('option', { value: k }, AUDIT_ACTIONS[k])));
	setKids(l, h('option', { value: '' }, 'Anywhere'),
		...st.locations.map((x) => h('option', { value: x.id }, x.name)));
	u.value = uv; a.value = av; l.value = lv;
}

export async function showAudit() {
	await Promise.all([loadUsers(), loadLocations()]).catch(() => {});
	fillAuditSelects();
	aud.page = 1;
	loadAudit();
}

/* "name: old → new" for each value that changed; a new object's values. */
export function auditChange(e) {
	const b = e.before && typeof e.before === 'object' ? e.before : null;
	const a = e.after && typeof e.after === 'object' ? e.after : null;
	const text = (v) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
	const out = [];
	if (a) for (const k of Object.keys(a)) {
		if (b && JSON.stringify(b[k]) === JSON.stringify(a[k])) continue;
		out.push(b ? k + ': ' + text(b[k]) + ' → ' + text(a[k]) : k + ': ' + text(a[k]));
	}
	return out.join('; ') || '—';
}

export function auditRow(e) {
	const who = e.actor_type === 'loyalty-admin' ? 'loyalty-admin (server)' :
	    e.actor_type === 'service' ? 'Automatic (expiry)' :
	    (e.user_name || e.user_id || '—') + (e.actor_type === 'owner' ? ' (owner)' : '');
	return h('tr', null,
		h('td', { dataset: { label: 'When' } }, when(e.at)),
		h('td', { dataset: { label: 'Who' } }, who),
		h('td', { dataset: { label: 'Where' } }, [e.location_name, e.terminal_id].filter(Boolean).join(' · ') || '—'),
		h('td', { dataset: { label: 'What' } }, AUDIT_ACTIONS[e.action] || e.action),
		h('td', { dataset: { label: 'Object' } }, h('span', { className: 'code', title: e.object_id || '' }, (e.object_type || '') + (e.object_id ? ' ' + e.object_id.slice(0, 8) : ''))),
		h('td', { className: 'audit-change', dataset: { label: 'Change' } }, auditChange(e)));
}

export async function loadAudit() {
	const seq = ++aud.seq;
	const form = $('audit-form');
	clearFormError(form);
	const q = auditQuery();
	q.set('page', String(aud.page));
	q.set('page_size', String(AUDIT_PAGE));
	const tbl = $('audit-table');
	tbl.setAttribute('aria-busy', 'true');
	try {
		const d = await apiGet('admin/audit?' + q.toString());
		if (seq !== aud.seq) return;
		const list = Array.isArray(d.entries) ? d.entries : [];
		const pg = d.pagination || {};
		aud.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		setKids($('audit-body'), ...list.map(auditRow));
		if (!list.length) $('audit-body').append(h('tr', null, h('td', { colSpan: 6, className: 'empty' }, 'No changes match.')));
		$('audit-page').textContent = 'Page ' + (pg.page || aud.page) + ' of ' + Math.max(1, aud.pages) + ' · ' +
		    plural(Number.isInteger(pg.total_count) ? pg.total_count : list.length, 'change', 'changes');
		$('audit-prev').disabled = aud.page <= 1;
		$('audit-next').disabled = aud.page >= aud.pages;
	} catch (e) {
		if (seq === aud.seq && !(e instanceof SessionEnded)) showFormError(form, e);
	} finally {
		if (seq === aud.seq) tbl.removeAttribute('aria-busy');
	}
}

export async function downloadAuditCsv(btn) {
	const msg = $('audit-msg');
	const q = auditQuery();
	q.set('format', 'csv');
	busy(btn, true);
	try {
		const r = await apiBlob('admin/audit?' + q.toString());
		const name = 'audit-' + ymd(shopToday()) + '.csv';
		saveBlob(r.blob, name);
		msg.className = 'msg notice';
		setKids(msg, 'Downloaded ' + name + ' (' + bytes(r.blob.size) + ').');
		show(msg, true);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		msg.className = 'msg msg-error';
		setMsg(msg, e);
	} finally {
		busy(btn, false);
	}
}

