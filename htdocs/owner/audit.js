import { cardType } from '../js/cardtypes.js';
import { $, h, money, plural, setKids, when, ymd } from './dom.js';
import { settingWords } from './settings.js';
import { SETTING_INFO, TYPE_NAMES, loadLocations, loadPrograms, loadSettings, loadUsers, shopToday, st } from './state.js';
import { clearFormError, download, loadPage, showFormError } from './ui.js';

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
	'merchant.create': 'Shop created', 'demo.create': 'Demo shop made',
	'token.create': 'Integration token made', 'token.revoke': 'Integration token revoked'
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
	/* The names its ids are shown by. */
	await Promise.all([loadUsers(), loadLocations(), loadPrograms(), st.settings.length ? null : loadSettings()]).catch(() => {});
	fillAuditSelects();
	aud.page = 1;
	loadAudit();
}

/* The fields of the audit's snapshots in the owner's words (the settings
 * by their labels in Settings); any other field by its name in words. */
const FIELD_WORDS = {
	name: 'Name', title: 'Title', customer_name: 'Customer', status: 'Status', program_id: 'Program',
	location_id: 'Location', user_id: 'Staff', staff_user_id: 'Staff', email: 'E-mail', user_type: 'Role',
	disabled: 'Login', password: 'Password', card_ids: 'Cards', transaction_id: 'Transaction',
	voided_transaction_id: 'Voids transaction', transaction_type: 'Type', reason: 'Reason',
	purchase_amount: 'Amount', cashback_balance: 'Cashback balance', lifetime_spend: 'Lifetime spend',
	lifetime_cashback: 'Lifetime cashback', current_punches: 'Punches', lifetime_punches: 'Lifetime punches',
	pending_rewards: 'Rewards waiting', punch_requirement: 'Punches for a reward', reward_title: 'Reward',
	reward_description: 'Reward description', reward_amount: 'Reward value', cooldown_seconds: 'Seconds between purchases',
	tiers: 'Tiers', expiry_days: 'Cashback expires after (days)', type: 'Type', requested_by: 'Asked by',
	error: 'Refused as', message: 'Message', field: 'Field', barcode_value: 'Barcode', share_token: 'Link'
};
export function fieldWords(k) {
	if (FIELD_WORDS[k]) return FIELD_WORDS[k];
	if (SETTING_INFO[k]) return SETTING_INFO[k][0];
	const w = String(k).replace(/_/g, ' ');
	return w.charAt(0).toUpperCase() + w.slice(1);
}
const byId = (list, id, name) => { const x = list.find((v) => v.id === id); return x ? name(x) : null; };
/* What the server calls an id of the entry (its names, as they are
 * now): a card by its customer ("No name") and barcode. */
function named(names, id) {
	const n = names && typeof id === 'string' ? names[id] : null;
	if (!n || typeof n !== 'object') return null;
	if (n.type === 'card') return (n.name || 'No name') + (n.barcode_value ? ' (' + n.barcode_value + ')' : '');
	return typeof n.name === 'string' ? n.name : null;
}
/* A value as a person reads it: known ids as names, lists counted. */
export function valueWords(k, v, names) {
	if (v === null || v === undefined) return '—';
	if (typeof v === 'boolean') return k === 'disabled' ? (v ? 'disabled' : 'enabled') : v ? 'yes' : 'no';
	if (Array.isArray(v)) {
		const noun = k === 'card_ids' ? ['card', 'cards'] : k === 'tiers' ? ['tier', 'tiers'] : ['item', 'items'];
		const names = v.map((x) => (x && typeof x === 'object' && typeof x.name === 'string' ? x.name : null)).filter(Boolean);
		return plural(v.length, noun[0], noun[1]) + (names.length === v.length && v.length && v.length <= 5 ? ' (' + names.join(', ') + ')' : '');
	}
	if (typeof v === 'object') return plural(Object.keys(v).length, 'value', 'values');
	if (typeof v === 'string') {
		if (/_id$/.test(k) && named(names, v)) return named(names, v);
		if (k === 'program_id') return byId(st.programs, v, (p) => p.title) || 'a program';
		if (k === 'location_id') return byId(st.locations, v, (l) => l.name) || 'a location';
		if (k === 'user_id' || k === 'staff_user_id') return byId(st.users, v, (u) => u.name || u.email) || 'a login';
		if (k === 'status') return v === 'active' ? 'Active' : v === 'inactive' ? 'Inactive' : v;
		if (k === 'transaction_type' || k === 'type') return TYPE_NAMES[v] || cardType(v).name;
		if (k === 'user_type') return v === 'owner' ? 'Owner' : v === 'system_user' ? 'Staff' : v;
		if (k === 'customer_name' && v === '') return 'No name';
		if (/_id$/.test(k) && /^[0-9a-f-]{36}$/i.test(v)) return v.slice(0, 8);
		return v === '' ? '(none)' : v;
	}
	if (Number.isInteger(v) && SETTING_INFO[k]) {
		const x = st.settings.find((o) => o.key === k);
		if (x && x.min === 0 && x.max === 1) return v ? 'on' : 'off';
		return settingWords(k, v) || String(v);
	}
	if (typeof v === 'number' && MONEY_FIELD.test(k)) return money(v);
	return String(v);
}
/* The snapshots' fields that hold money (as the API writes amounts). */
const MONEY_FIELD = /(^|_)(amount|balance|spend)$|^lifetime_cashback$|^cashback_(earned|redeemed|expired|used)$/;

/* The changed values of an entry: [key, before (undefined for a new
 * object), after], the unchanged left out. */
function changes(e) {
	const b = e.before && typeof e.before === 'object' ? e.before : null;
	const a = e.after && typeof e.after === 'object' ? e.after : null;
	const out = [];
	if (a) for (const k of Object.keys(a)) {
		if (b && JSON.stringify(b[k]) === JSON.stringify(a[k])) continue;
		out.push([k, b ? b[k] : undefined, a[k], !!b]);
	}
	return out;
}

/* "Name: Harbour Kiosk → Harbour Kiosk East; Cards: 10 cards": each
 * changed value in words; what was recorded (field names, ids, lists
 * whole) behind "Details", for support. */
export function auditChange(e) {
	const list = changes(e);
	if (!list.length) return '—';
	const words = list.map(([k, b, a, had]) => fieldWords(k) + ': ' + (had ? valueWords(k, b, e.names) + ' → ' : '') + valueWords(k, a, e.names)).join('; ');
	/* A list of ids named one a line, before what was recorded. */
	const lists = list.filter(([, , a]) => Array.isArray(a) && a.some((x) => named(e.names, x)))
		.map(([k, , a]) => h('span', { className: 'chg-list' }, fieldWords(k) + ': ' + a.map((x) => named(e.names, x) || x).join(', ')));
	const text = (v) => (v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
	const raw = list.map(([k, b, a, had]) => k + ': ' + (had ? text(b) + ' → ' : '') + text(a)).join('; ');
	return h('span', null, h('span', { className: 'chg-words' }, words),
		h('details', { className: 'chg-raw' }, h('summary', null, 'Details'), ...lists, h('code', null, raw)));
}

export function auditRow(e) {
	const who = e.actor_type === 'loyalty-admin' ? 'loyalty-admin (server)' :
	    e.actor_type === 'service' ? 'Automatic (expiry)' :
	    e.actor_type === 'integration' ? 'Integration token ' + (e.user_id || '') :
	    (e.user_name || e.user_id || '—') + (e.actor_type === 'owner' ? ' (owner)' : '');
	return h('tr', null,
		h('td', { dataset: { label: 'When' } }, when(e.at)),
		h('td', { dataset: { label: 'Who' } }, who),
		h('td', { dataset: { label: 'Where' } }, [e.location_name, e.terminal_id].filter(Boolean).join(' · ') || '—'),
		h('td', { dataset: { label: 'What' } }, AUDIT_ACTIONS[e.action] || e.action),
		h('td', { dataset: { label: 'Object' } }, named(e.names, e.object_id) ?
			h('span', { title: e.object_id }, (e.object_type || '') + ' ', h('strong', null, named(e.names, e.object_id))) :
			h('span', { className: 'code', title: e.object_id || '' }, (e.object_type || '') + (e.object_id ? ' ' + e.object_id.slice(0, 8) : ''))),
		h('td', { className: 'audit-change', dataset: { label: 'Change' } }, auditChange(e)));
}

export function loadAudit() {
	const form = $('audit-form');
	clearFormError(form);
	const q = auditQuery();
	q.set('page', String(aud.page));
	q.set('page_size', String(AUDIT_PAGE));
	return loadPage(aud, 'audit', {
		path: 'admin/audit?' + q.toString(), list: 'entries', row: auditRow,
		cols: 6, empty: 'No changes match.', noun: ['change', 'changes'], error: (e) => { if (e) showFormError(form, e); }
	});
}

export function downloadAuditCsv(btn) {
	const q = auditQuery();
	/* The spreadsheet's form (a header of words, the time in the shop's
	 * zone); without header=names the server sends the v1 columns. */
	q.set('format', 'csv');
	q.set('header', 'names');
	return download(btn, $('audit-msg'), 'admin/audit?' + q.toString(), { name: 'audit-' + ymd(shopToday()) + '.csv' });
}

