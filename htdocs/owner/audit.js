import { cardType } from '../js/cardtypes.js';
import { shopToday } from '../js/dates.js';
import { t } from '../js/i18n.js';
import { typeName } from './card.js';
import { $, h, money, setKids, shortId } from './dom.js';
import { eventWords, scopeWords } from './integrations.js';
import { settingWords } from './settings.js';
import { SETTING_INFO, loadLocations, loadPrograms, loadSettings, loadUsers, st } from './state.js';
import { clearFormError, download, loadPage, showFormError } from './ui.js';
import { when } from './words.js';

/* ---- audit ------------------------------------------------------------ */

export const AUDIT_PAGE = 50;
/* The actions the log names (docs/admin-api.md), in the filter's order;
 * each one's words are owner.audit.js.action.<action>. */
export const AUDIT_ACTIONS = [
	'transaction.record', 'transaction.sync', 'transaction.sync_refused', 'transaction.void', 'reward.claim',
	'cashback.redeem', 'cashback.expire', 'card.enrol', 'card.issue', 'card.update', 'card.adjust', 'card.redraw',
	'location.create', 'location.update', 'user.create', 'user.update', 'program.create', 'program.update',
	'settings.update', 'backup.download', 'auth.login', 'auth.login_failed', 'auth.refresh', 'auth.refresh_reuse',
	'auth.logout', 'setup', 'merchant.create', 'demo.create', 'token.create', 'token.revoke',
	'webhook.create', 'webhook.update', 'webhook.delete', 'webhook.rotate', 'webhook.test', 'webhook.resend'
];
// i18n-keys: owner.audit.js.action.auth.login owner.audit.js.action.auth.login_failed
// i18n-keys: owner.audit.js.action.auth.logout owner.audit.js.action.auth.refresh
// i18n-keys: owner.audit.js.action.auth.refresh_reuse owner.audit.js.action.backup.download
// i18n-keys: owner.audit.js.action.card.adjust owner.audit.js.action.card.enrol
// i18n-keys: owner.audit.js.action.card.issue owner.audit.js.action.card.redraw
// i18n-keys: owner.audit.js.action.card.update owner.audit.js.action.cashback.expire
// i18n-keys: owner.audit.js.action.cashback.redeem owner.audit.js.action.demo.create
// i18n-keys: owner.audit.js.action.location.create owner.audit.js.action.location.update
// i18n-keys: owner.audit.js.action.merchant.create owner.audit.js.action.program.create
// i18n-keys: owner.audit.js.action.program.update owner.audit.js.action.reward.claim
// i18n-keys: owner.audit.js.action.settings.update owner.audit.js.action.setup
// i18n-keys: owner.audit.js.action.token.create owner.audit.js.action.token.revoke
// i18n-keys: owner.audit.js.action.transaction.record owner.audit.js.action.transaction.sync
// i18n-keys: owner.audit.js.action.transaction.sync_refused owner.audit.js.action.transaction.void
// i18n-keys: owner.audit.js.action.user.create owner.audit.js.action.user.update
// i18n-keys: owner.audit.js.action.webhook.create owner.audit.js.action.webhook.delete
// i18n-keys: owner.audit.js.action.webhook.resend owner.audit.js.action.webhook.rotate
// i18n-keys: owner.audit.js.action.webhook.test owner.audit.js.action.webhook.update
export const actionWords = (a) => (AUDIT_ACTIONS.includes(a) ? t('owner.audit.js.action.' + a) : a);
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
	setKids(u, h('option', { value: '' }, t('owner.audit.js.anyone')),
		...st.users.map((x) => h('option', { value: x.id }, x.name || x.email)));
	setKids(a, h('option', { value: '' }, t('owner.audit.js.anything')),
		...AUDIT_ACTIONS.map((k) => h('option', { value: k }, actionWords(k))));
	setKids(l, h('option', { value: '' }, t('owner.audit.js.anywhere')),
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
const FIELDS = [
	'name', 'title', 'customer_name', 'status', 'program_id', 'location_id', 'user_id', 'staff_user_id', 'email', 'user_type',
	'disabled', 'password', 'card_ids', 'transaction_id', 'voided_transaction_id', 'transaction_type', 'reason',
	'purchase_amount', 'cashback_balance', 'lifetime_spend', 'lifetime_cashback', 'current_punches', 'lifetime_punches',
	'pending_rewards', 'punch_requirement', 'reward_title', 'reward_description', 'reward_amount', 'cooldown_seconds',
	'tiers', 'expiry_days', 'type', 'requested_by', 'error', 'message', 'field', 'barcode_value', 'share_token',
	'url', 'description', 'event_types', 'enabled', 'disabled_reason', 'scopes', 'prefix', 'revoked_at', 'event_id',
	'webhook_id', 'token_id', 'cashback_earned', 'cashback_redeemed', 'discount_amount', 'punches_added', 'redeemed_amount'
];
export function fieldWords(k) {
	// i18n-keys: owner.audit.js.field.barcode_value owner.audit.js.field.card_ids
	// i18n-keys: owner.audit.js.field.cashback_balance owner.audit.js.field.cashback_earned
	// i18n-keys: owner.audit.js.field.cashback_redeemed owner.audit.js.field.cooldown_seconds
	// i18n-keys: owner.audit.js.field.current_punches owner.audit.js.field.customer_name
	// i18n-keys: owner.audit.js.field.description owner.audit.js.field.disabled
	// i18n-keys: owner.audit.js.field.disabled_reason owner.audit.js.field.discount_amount
	// i18n-keys: owner.audit.js.field.email owner.audit.js.field.enabled owner.audit.js.field.error
	// i18n-keys: owner.audit.js.field.event_id owner.audit.js.field.event_types owner.audit.js.field.expiry_days
	// i18n-keys: owner.audit.js.field.field owner.audit.js.field.lifetime_cashback
	// i18n-keys: owner.audit.js.field.lifetime_punches owner.audit.js.field.lifetime_spend
	// i18n-keys: owner.audit.js.field.location_id owner.audit.js.field.message owner.audit.js.field.name
	// i18n-keys: owner.audit.js.field.password owner.audit.js.field.pending_rewards owner.audit.js.field.prefix
	// i18n-keys: owner.audit.js.field.program_id owner.audit.js.field.punch_requirement
	// i18n-keys: owner.audit.js.field.punches_added owner.audit.js.field.purchase_amount
	// i18n-keys: owner.audit.js.field.reason owner.audit.js.field.redeemed_amount
	// i18n-keys: owner.audit.js.field.requested_by owner.audit.js.field.revoked_at
	// i18n-keys: owner.audit.js.field.reward_amount owner.audit.js.field.reward_description
	// i18n-keys: owner.audit.js.field.reward_title owner.audit.js.field.scopes owner.audit.js.field.share_token
	// i18n-keys: owner.audit.js.field.staff_user_id owner.audit.js.field.status owner.audit.js.field.tiers
	// i18n-keys: owner.audit.js.field.title owner.audit.js.field.token_id owner.audit.js.field.transaction_id
	// i18n-keys: owner.audit.js.field.transaction_type owner.audit.js.field.type owner.audit.js.field.url
	// i18n-keys: owner.audit.js.field.user_id owner.audit.js.field.user_type
	// i18n-keys: owner.audit.js.field.voided_transaction_id owner.audit.js.field.webhook_id
	if (FIELDS.includes(k)) return t('owner.audit.js.field.' + k);
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
	if (n.type === 'card') return (n.name || t('owner.audit.js.noName')) + (n.barcode_value ? ' (' + n.barcode_value + ')' : '');
	return typeof n.name === 'string' ? n.name : null;
}
/* A value as a person reads it: known ids as names, lists counted. */
export function valueWords(k, v, names) {
	if (v === null || v === undefined) return k === 'event_types' ? t('owner.audit.js.allEvents') : '—';
	// i18n-keys: owner.audit.js.disabledReason.failing owner.audit.js.disabledReason.gone
	// i18n-keys: owner.audit.js.disabledReason.owner
	if (k === 'disabled_reason' && typeof v === 'string') return DISABLED.includes(v) ? t('owner.audit.js.disabledReason.' + v) : v;
	if (typeof v === 'boolean') return t(k === 'disabled' ? (v ? 'owner.audit.js.disabled' : 'owner.audit.js.enabled') : v ? 'owner.audit.js.yes' : 'owner.audit.js.no');
	if (Array.isArray(v)) {
		/* A webhook's events and a token's scopes read as their words. */
		if (k === 'event_types' && v.length <= 5) return v.map(eventWords).join(', ');
		if (k === 'scopes') return v.map(scopeWords).join(', ');
		const noun = k === 'card_ids' ? 'cards' : k === 'tiers' ? 'tiers' : k === 'event_types' ? 'events' : 'items';
		const names = v.map((x) => (x && typeof x === 'object' && typeof x.name === 'string' ? x.name : null)).filter(Boolean);
		// i18n-keys: owner.audit.js.count.cards owner.audit.js.count.events owner.audit.js.count.items
		// i18n-keys: owner.audit.js.count.tiers owner.audit.js.count.values
		return t('owner.audit.js.count.' + noun, { n: v.length }) + (names.length === v.length && v.length && v.length <= 5 ? ' (' + names.join(', ') + ')' : '');
	}
	if (typeof v === 'object') return t('owner.audit.js.count.values', { n: Object.keys(v).length });
	if (typeof v === 'string') {
		if (/_id$/.test(k) && named(names, v)) return named(names, v);
		if (k === 'program_id') return byId(st.programs, v, (p) => p.title) || t('owner.audit.js.aProgram');
		if (k === 'location_id') return byId(st.locations, v, (l) => l.name) || t('owner.audit.js.aLocation');
		if (k === 'user_id' || k === 'staff_user_id') return byId(st.users, v, (u) => u.name || u.email) || t('owner.audit.js.aLogin');
		if (k === 'status') return v === 'active' ? t('owner.audit.js.active') : v === 'inactive' ? t('owner.audit.js.inactive') : v;
		if (k === 'transaction_type' || k === 'type') return typeName(v) !== v ? typeName(v) : cardType(v).name;
		if (k === 'user_type') return v === 'owner' ? t('owner.audit.js.owner') : v === 'system_user' ? t('owner.audit.js.staff') : v;
		if (k === 'customer_name' && v === '') return t('owner.audit.js.noName');
		/* A time (a webhook's updated_at, its secret_rotated_until). */
		if (/(_at|_until)$/.test(k) && /^\d{4}-\d\d-\d\dT/.test(v)) return when(v);
		if (/_id$/.test(k) && /^[0-9a-f-]{36}$/i.test(v)) return shortId(v);
		return v === '' ? t('owner.audit.js.none') : v;
	}
	if (Number.isInteger(v) && SETTING_INFO[k]) {
		const x = st.settings.find((o) => o.key === k);
		if (x && x.min === 0 && x.max === 1) return t(v ? 'owner.audit.js.on' : 'owner.audit.js.off');
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
		/* the record as stored: the API's own field names and values */
		h('details', { className: 'chg-raw' }, h('summary', null, t('owner.audit.js.details')), ...lists, h('code', { translate: false, dir: 'ltr' }, raw)));
}

/* Why the deliverer or the owner turned a webhook off. */
const DISABLED = ['owner', 'gone', 'failing'];

/* The kinds of object of the log (docs/admin-api.md), in words. */
const OBJECTS = ['card', 'transaction', 'location', 'user', 'program', 'settings', 'backup', 'session', 'token', 'webhook', 'merchant'];
// i18n-keys: owner.audit.js.object.backup owner.audit.js.object.card owner.audit.js.object.location
// i18n-keys: owner.audit.js.object.merchant owner.audit.js.object.program owner.audit.js.object.session
// i18n-keys: owner.audit.js.object.settings owner.audit.js.object.token owner.audit.js.object.transaction
// i18n-keys: owner.audit.js.object.user owner.audit.js.object.webhook
const objectWords = (o) => (OBJECTS.includes(o) ? t('owner.audit.js.object.' + o) : o || '');

export function auditRow(e) {
	const who = e.actor_type === 'loyalty-admin' ? t('owner.audit.js.whoServer') :
	    e.actor_type === 'service' ? t(e.action.startsWith('webhook.') ? 'owner.audit.js.whoDeliverer' : 'owner.audit.js.whoExpiry') :
	    e.actor_type === 'integration' ? t('owner.audit.js.whoToken', { name: named(e.names, e.user_id) || shortId(e.user_id) }) :
	    e.actor_type === 'owner' ? t('owner.audit.js.whoOwner', { name: e.user_name || e.user_id || '—' }) : (e.user_name || e.user_id || '—');
	return h('tr', null,
		h('td', { dataset: { label: t('owner.audit.js.colWhen') } }, when(e.at)),
		h('td', { dataset: { label: t('owner.audit.js.colWho') } }, who),
		h('td', { dataset: { label: t('owner.audit.js.colWhere') } }, [e.location_name, e.terminal_id].filter(Boolean).join(' · ') || '—'),
		h('td', { dataset: { label: t('owner.audit.js.colWhat') } }, e.actor_type === 'service' && e.action === 'webhook.update' ?
			t('owner.audit.js.webhookTurnedOff') : actionWords(e.action)),
		h('td', { dataset: { label: t('owner.audit.js.colObject') } }, named(e.names, e.object_id) ?
			h('span', null, objectWords(e.object_type) + ' ', h('strong', { title: e.object_id, translate: false }, named(e.names, e.object_id))) :
			h('span', { className: 'code' }, objectWords(e.object_type),
				e.object_id ? [' ', h('span', { title: e.object_id, translate: false }, shortId(e.object_id))] : null)),
		h('td', { className: 'audit-change', dataset: { label: t('owner.audit.js.colChange') } }, auditChange(e)));
}

export function loadAudit() {
	const form = $('audit-form');
	clearFormError(form);
	const q = auditQuery();
	q.set('page', String(aud.page));
	q.set('page_size', String(AUDIT_PAGE));
	return loadPage(aud, 'audit', {
		path: 'admin/audit?' + q.toString(), list: 'entries', row: auditRow,
		cols: 6, empty: t('owner.audit.js.noMatch'), noun: 'owner.audit.js.changeCount', error: (e) => { if (e) showFormError(form, e); }
	});
}

export function downloadAuditCsv(btn) {
	const q = auditQuery();
	/* The spreadsheet's form (a header of words, the time in the shop's
	 * zone); without header=names the server sends the v1 columns. */
	q.set('format', 'csv');
	q.set('header', 'names');
	return download(btn, $('audit-msg'), 'admin/audit?' + q.toString(), { name: 'audit-' + shopToday() + '.csv' });
}

