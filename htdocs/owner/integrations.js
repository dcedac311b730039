/* The Integrations section: webhooks (their state in words, the signing
 * secret shown once, a test, the delivery log and a re-send), the
 * deliverer that sends them (when it last ran, the cron line when it does
 * not), and API tokens for integrators (shown once, revoked). The API:
 * /api/v1/admin/webhooks and /api/v1/admin/tokens (docs/admin-api.md).
 * A secret lives in its dialog only: the page never stores one. */
import { t } from '../js/i18n.js';
import { $, h, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiDelete, apiGet, apiPatch, payload } from './net.js';
import { confirmDialog, copyBox, field, loadPage, onSubmit, openDialog, setMsg, toast } from './ui.js';
import { tNodes, when } from './words.js';

/* ---- words -------------------------------------------------------------- */

/* The event types a webhook may ask for (lib/event.c's table); each
 * one's words are owner.integrations.js.event.<type>. webhook.test is
 * only ever a test delivery. */
export const EVENT_TYPES = [
	'transaction.recorded', 'reward.earned', 'reward.claimed', 'cashback.redeemed', 'transaction.voided',
	'card.adjusted', 'cashback.expired', 'card.enrolled', 'card.issued', 'card.updated', 'tier.changed'
];
// i18n-keys: owner.integrations.js.event.card.adjusted owner.integrations.js.event.card.enrolled
// i18n-keys: owner.integrations.js.event.card.issued owner.integrations.js.event.card.updated
// i18n-keys: owner.integrations.js.event.cashback.expired owner.integrations.js.event.cashback.redeemed
// i18n-keys: owner.integrations.js.event.reward.claimed owner.integrations.js.event.reward.earned
// i18n-keys: owner.integrations.js.event.tier.changed owner.integrations.js.event.transaction.recorded
// i18n-keys: owner.integrations.js.event.transaction.voided
export const eventWords = (x) => (EVENT_TYPES.includes(x) ? t('owner.integrations.js.event.' + x) :
    x === 'webhook.test' ? t('owner.integrations.js.testEvent') : String(x || '—'));
/* What a token may do: its name (scope.<s>) and what it means (scopeHint.<s>). */
export const SCOPES = ['events:read', 'webhooks:manage'];
const scopeKey = (x) => x.replace(/\W/g, '_');
// i18n-keys: owner.integrations.js.scope.events_read owner.integrations.js.scope.webhooks_manage
export const scopeWords = (x) => (SCOPES.includes(x) ? t('owner.integrations.js.scope.' + scopeKey(x)) : x);
// i18n-keys: owner.integrations.js.scopeHint.events_read owner.integrations.js.scopeHint.webhooks_manage
const scopeHint = (x) => t('owner.integrations.js.scopeHint.' + scopeKey(x));
/* Its name inside a sentence ("It may: read events."). */
// i18n-keys: owner.integrations.js.scopeIn.events_read owner.integrations.js.scopeIn.webhooks_manage
const scopeInSentence = (x) => (SCOPES.includes(x) ? t('owner.integrations.js.scopeIn.' + scopeKey(x)) : x);

/* The deliverer counts as running when it ran within this: a cron line
 * runs it every minute, the Debian package's timer as often. */
export const DELIVERER_LATE_MS = 5 * 60000;
export const HOOK_LOG_PAGE = 20;

/* A webhook's state: {tag, cls, text} for its tag and sentence. */
export function hookState(w) {
	const st = w.status || {};
	if (!w.enabled) {
		const why = w.disabled_reason === 'gone' || w.disabled_reason === 'failing' ? w.disabled_reason : 'owner';
		// i18n-keys: owner.integrations.js.off.failing owner.integrations.js.off.gone
		// i18n-keys: owner.integrations.js.off.owner
		return { tag: t('owner.integrations.js.tagOff'), cls: 'tag-bad', text: t('owner.integrations.js.off.' + why) };
	}
	if (st.failing_since) {
		const tries = Number.isInteger(st.attempts) && st.attempts > 0;
		const next = st.next_attempt_at ? t('owner.integrations.js.failingNext', { when: when(st.next_attempt_at) }) : '';
		return { tag: t('owner.integrations.js.tagFailing'), cls: 'tag-warn',
		    text: tries ? t('owner.integrations.js.failingTries', { since: when(st.failing_since), n: st.attempts, next }) :
		        t('owner.integrations.js.failing', { since: when(st.failing_since), next }) };
	}
	return { tag: t('owner.integrations.js.tagWorking'), cls: 'tag-ok', text: st.last_success_at ? t('owner.integrations.js.working', { when: when(st.last_success_at) }) :
	    t('owner.integrations.js.workingNothingYet') };
}
const eventsText = (w) => (Array.isArray(w.event_types) ? w.event_types.map(eventWords).join(', ') : t('owner.integrations.js.allEvents'));

/* ---- state ---------------------------------------------------------------- */

export const ig = { hooks: [], tokens: [], deliverer: null, hook: null, log: { page: 1, pages: 0, seq: 0 } };

export function resetIntegrations() {
	ig.hooks = [];
	ig.tokens = [];
	ig.deliverer = null;
	ig.hook = null;
	show('hook-detail', false);
	show('deliverer-note', false);
	show('deliverer-ran', false);
	for (const id of ['hooks-body', 'tokens-body', 'hlog-body']) setKids($(id));
}

export async function showIntegrations() {
	await Promise.all([loadHooks(), loadTokens()]);
}

/* ---- the events picker ------------------------------------------------------ */

/* "All events" or "Only these" with a box a type; types: the current
 * list (null: all). Its element (data-field event_types) and value():
 * null for all, else the types ticked. */
export function eventsPicker(types) {
	const only = Array.isArray(types);
	const name = 'ev-' + Math.random().toString(36).slice(2, 8);
	const all = h('input', { type: 'radio', name, value: 'all', checked: !only });
	const some = h('input', { type: 'radio', name, value: 'some', checked: only });
	const boxes = EVENT_TYPES.map((x) => h('input', { type: 'checkbox', value: x, checked: only && types.includes(x) }));
	const list = h('div', { className: 'ev-list', hidden: !only },
		...boxes.map((b) => h('label', { className: 'check-inline ev-opt' }, b, h('span', null, eventWords(b.value), ' ', h('span', { className: 'code ev-type' }, b.value)))));
	const sync = () => { list.hidden = !some.checked; };
	all.addEventListener('change', sync);
	some.addEventListener('change', sync);
	const el = h('fieldset', { className: 'field ev-pick', tabIndex: -1, dataset: { field: 'event_types' } },
		h('legend', null, t('owner.integrations.js.eventsLegend')),
		h('label', { className: 'check-inline' }, all, t('owner.integrations.js.eventsAll')),
		h('label', { className: 'check-inline' }, some, t('owner.integrations.js.eventsSome')), list);
	return {
		el,
		reset() { all.checked = true; for (const b of boxes) b.checked = false; sync(); },
		value() {
			if (!some.checked) return null;
			const v = boxes.filter((b) => b.checked).map((b) => b.value);
			if (!v.length) throw new FormError(t('owner.integrations.js.eventsNone'), el);
			return v;
		}
	};
}
let addPicker = null;

/* ---- secrets, shown once -------------------------------------------------- */

/* A dialog with the secret and its Copy button; resolves when closed. */
/* kept: what the shop keeps of it, said beside "you will not see it
 * again" (a token's fingerprint; a webhook's secret itself, to sign). */
export function secretDialog(title, what, secret, intro, kept) {
	return openDialog({
		title, noCancel: true, noFocusField: true, submitLabel: t('owner.integrations.js.copied'),
		body: h('div', { className: 'secret-once' },
			h('p', null, intro),
			copyBox(secret, what),
			h('p', { className: 'msg msg-warn' }, h('strong', null, t('owner.integrations.js.copyNow') + ' '),
				kept)),
		onSubmit: async () => {}
	});
}

/* ---- the deliverer ---------------------------------------------------------- */

/* A cron line (five time fields and a command) as cPanel's Cron Jobs
 * takes it: {every, command}; a bare command runs every minute. */
export function cronParts(line) {
	const m = /^\s*((?:\S+\s+){4}\S+)\s+(\S.*)$/.exec(line || '');
	if (m && /^[\d*\/,-]+(\s+[\d*\/,-]+){4}$/.test(m[1])) return { every: m[1], command: m[2] };
	return { every: '* * * * *', command: String(line || '').trim() };
}

export function renderDeliverer() {
	const d = ig.deliverer || {};
	const last = d.last_run_at ? new Date(d.last_run_at) : null;
	const late = !last || isNaN(last) || Date.now() - last.getTime() > DELIVERER_LATE_MS;
	const note = $('deliverer-note'), ran = $('deliverer-ran');
	show(ran, !late);
	if (!late) ran.textContent = t('owner.integrations.js.delivererRan', { when: when(d.last_run_at) });
	show(note, late);
	if (!late) return;
	const cron = cronParts(typeof d.command === 'string' ? d.command : '');
	/* Before any webhook, a notice; with one, a warning: its events wait. */
	note.className = 'msg deliverer-note ' + (ig.hooks.length ? 'msg-warn' : 'notice');
	setKids(note,
		h('p', null, ...tNodes(last && !isNaN(last) ? 'owner.integrations.js.delivererNotSince' : 'owner.integrations.js.delivererNever', {
			head: h('strong', null, t(ig.hooks.length ? 'owner.integrations.js.notSentHead' : 'owner.integrations.js.beforeHead'))
		}, { when: last && !isNaN(last) ? when(d.last_run_at) : '' })),
		/* cPanel's own words (Cron Jobs, Once Per Minute) as cPanel
		 * shows them in the language its owner reads it in. */
		h('p', null, ...tNodes('owner.integrations.js.cronHosting', {
			hosting: h('strong', null, t('owner.integrations.js.cronHostingHead')),
			cronJobs: h('strong', null, t('owner.integrations.js.cronJobs')),
			perMinute: h('strong', null, t('owner.integrations.js.cronPerMinute')),
			every: h('span', { className: 'code', dir: 'ltr' }, cron.every)
		})),
		cron.command ? copyBox(cron.command, t('owner.integrations.js.delivererCommand')) :
			h('p', null, ...tNodes('owner.integrations.js.delivererUnknown', { command: h('span', { className: 'code', dir: 'ltr' }, 'loyalty-admin events deliver') })),
		h('details', null, h('summary', null, t('owner.integrations.js.cronWholeLine')),
			h('code', { className: 'code cron-line', dir: 'ltr', translate: false }, cron.every + ' ' + (cron.command || 'loyalty-admin events deliver'))),
		h('p', null, ...tNodes('owner.integrations.js.delivererPackage', { head: h('strong', null, t('owner.integrations.js.delivererPackageHead')) })));
}

/* ---- webhooks ---------------------------------------------------------------- */

export async function loadHooks() {
	try {
		const d = await apiGet('admin/webhooks');
		ig.hooks = Array.isArray(d.webhooks) ? d.webhooks : [];
		ig.deliverer = d.deliverer && typeof d.deliverer === 'object' ? d.deliverer : null;
		setMsg('hooks-error', null);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		setMsg('hooks-error', e);
	}
	renderHooks();
	renderDeliverer();
	if (ig.hook) {
		const w = ig.hooks.find((x) => x.id === ig.hook.id);
		if (w) renderHook(w); else closeHook();
	}
}

export function renderHooks() {
	const rows = ig.hooks.map((w) => {
		const s = hookState(w);
		const actions = [h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.integrations.js.openAria', { url: w.url }), onclick: () => openHook(w, true) }, t('owner.integrations.js.open'))];
		if (!w.enabled) actions.push(h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.integrations.js.turnOnAria', { url: w.url }), onclick: () => setEnabled(w, true) }, t('owner.integrations.js.turnOn')));
		return h('tr', { className: w.enabled ? '' : 'is-off', dataset: { id: w.id } },
			h('td', { dataset: { label: t('owner.integrations.js.colAddress') } }, h('span', { className: 'hook-addr' }, h('span', null, w.url),
				w.description ? h('span', { className: 'cust-sub' }, w.description) : null)),
			h('td', { dataset: { label: t('owner.integrations.js.colEvents') } }, h('span', null, Array.isArray(w.event_types) ? t('owner.integrations.js.kinds', { n: w.event_types.length }) : t('owner.integrations.js.all'))),
			h('td', { dataset: { label: t('owner.integrations.js.colState') } }, h('span', { className: 'tag ' + s.cls, title: s.text }, s.tag)),
			h('td', { className: 'actions' }, h('span', { className: 'btn-row' }, actions)));
	});
	setKids($('hooks-body'), ...rows);
	if (!rows.length) $('hooks-body').append(h('tr', null, h('td', { colSpan: 4, className: 'empty' }, t('owner.integrations.js.noHooks'))));
}

export async function onAddHook(form) {
	const url = $('hook-url').value.trim();
	if (!url) throw new FormError(t('owner.integrations.js.urlMissing'), $('hook-url'));
	if (!/^https?:\/\//i.test(url)) throw new FormError(t('owner.integrations.js.urlScheme'), $('hook-url'));
	const body = { url };
	const desc = $('hook-desc').value.trim();
	if (desc) body.description = desc;
	const types = addPicker.value();
	if (types) body.event_types = types;
	let d;
	try {
		d = payload(await apiCreate('webhook', 'admin/webhooks', body));
	} catch (e) {
		/* The server's rule names the setting; say who sets it, and how. */
		if (!(e instanceof SessionEnded) && e && e.details && e.details.field === 'url' && /^http:/i.test(url))
			throw new FormError(e.message + ' ' + t('owner.integrations.js.plainHttp'), $('hook-url'));
		throw e;
	}
	const w = d.webhook;
	form.reset();
	addPicker.reset();
	await secretDialog(t('owner.integrations.js.newSecretTitle'), t('owner.integrations.js.theSecret'), w.secret,
		t('owner.integrations.js.newSecretIntro', { url: w.url }), hookKept());
	toast(t('owner.integrations.js.hookAdded'));
	await loadHooks();
	const fresh = ig.hooks.find((x) => x.id === w.id);
	if (fresh) openHook(fresh, true);
}

export function closeHook() {
	ig.hook = null;
	show('hook-detail', false);
}

const hookKept = () => t('owner.integrations.js.hookKept');

export function openHook(w, focus) {
	ig.log.page = 1;
	renderHook(w);
	/* The list may be minutes old; the log below is fetched now, so the
	 * summary above it is too. */
	apiGet('admin/webhooks/' + encodeURIComponent(w.id)).then((d) => {
		if (d && d.webhook && ig.hook && ig.hook.id === d.webhook.id) replaced(d.webhook);
	}, () => {});
	show('hook-detail', true);
	setMsg('hook-error', null);
	loadHookLog();
	if (focus) {
		$('hook-detail').scrollIntoView({ block: 'start' });
		$('hook-title').focus({ preventScroll: true });
	}
}

export function renderHook(w) {
	ig.hook = w;
	const s = hookState(w), st = w.status || {};
	$('hook-title').textContent = w.url;
	/* the owner's description is data, the rest ours */
	setKids($('hook-sub'), w.description ? h('span', { translate: false }, w.description) : null, w.description ? ' · ' : null,
		t('owner.integrations.js.added', { when: when(w.created_at) }));
	$('hook-tag').textContent = s.tag;
	$('hook-tag').className = 'tag ' + s.cls;
	$('hook-state').textContent = s.text;
	const fact = (k, v) => h('div', { className: 'bal' }, h('dt', null, k), h('dd', null, v));
	setKids($('hook-facts'),
		fact(t('owner.integrations.js.factEvents'), eventsText(w)),
		fact(t('owner.integrations.js.factWaiting'), Number.isInteger(st.pending) ? t('owner.integrations.js.eventCount', { n: st.pending }) : '—'),
		fact(t('owner.integrations.js.factLast'), st.last_success_at ? when(st.last_success_at) : t('owner.integrations.js.notYet')));
	const rot = w.secret_rotated_until ? new Date(w.secret_rotated_until) : null;
	show('hook-rotation', !!rot && !isNaN(rot) && rot.getTime() > Date.now());
	$('hook-rotation').textContent = rot ? t('owner.integrations.js.rotation', { when: when(w.secret_rotated_until) }) : '';
	$('hook-toggle').textContent = t(w.enabled ? 'owner.integrations.js.turnOff' : 'owner.integrations.js.turnOnAgain');
	$('hook-toggle').classList.toggle('btn-primary', !w.enabled);
	$('hook-test').disabled = !w.enabled;
}

/* The webhook's answer (PATCH, rotate): kept in the list and shown. */
function replaced(w) {
	const i = ig.hooks.findIndex((x) => x.id === w.id);
	if (i >= 0) ig.hooks[i] = w;
	renderHooks();
	if (ig.hook && ig.hook.id === w.id) renderHook(w);
}

const hookPath = (w, rest) => 'admin/webhooks/' + encodeURIComponent(w.id) + (rest || '');

/* A button's action with the button busy; an error in the panel's box. */
async function act(btn, box, fn) {
	if (btn) btn.disabled = true;
	try {
		setMsg(box, null);
		await fn();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg(box, e);
	} finally {
		if (btn) btn.disabled = false;
	}
}

export async function setEnabled(w, on) {
	if (!on && !await confirmDialog(t('owner.integrations.js.turnOffTitle', { url: w.url }),
	    t('owner.integrations.js.turnOffText'), t('owner.integrations.js.turnOff'), true)) return;
	await act(null, ig.hook && ig.hook.id === w.id ? 'hook-error' : 'hooks-error', async () => {
		const d = await apiPatch(hookPath(w), { enabled: on });
		replaced(d.webhook);
		toast(t(on ? 'owner.integrations.js.turnedOn' : 'owner.integrations.js.turnedOff'));
		if (on) renderDeliverer();
	});
}

export function editHook() {
	const w = ig.hook;
	if (!w) return;
	const fUrl = field({ label: t('owner.integrations.js.urlLabel'), type: 'url', value: w.url, field: 'url', spellcheck: false, limit: 'WEBHOOK_URL_MAX' });
	fUrl.input.dir = 'ltr';
	const fDesc = field({ label: t('owner.integrations.js.descLabel'), optional: true, value: w.description || '', field: 'description', limit: 'WEBHOOK_DESC_MAX' });
	const picker = eventsPicker(Array.isArray(w.event_types) ? w.event_types : null);
	openDialog({
		title: t('owner.integrations.js.editTitle'), body: h('div', null, fUrl, fDesc, picker.el),
		onSubmit: async () => {
			const url = fUrl.input.value.trim();
			if (!/^https?:\/\/\S/i.test(url)) throw new FormError(t('owner.integrations.js.urlNeeded'), fUrl.input);
			const d = await apiPatch(hookPath(w), { url, description: fDesc.input.value.trim(), event_types: picker.value() });
			replaced(d.webhook);
			toast(t('owner.integrations.js.saved'));
		}
	});
}

export async function rotateHook(btn) {
	const w = ig.hook;
	if (!w || !await confirmDialog(t('owner.integrations.js.rotateTitle', { url: w.url }),
	    t('owner.integrations.js.rotateText'), t('owner.integrations.js.rotateSubmit'))) return;
	await act(btn, 'hook-error', async () => {
		const d = payload(await apiCreate('webhook-rotate:' + w.id, hookPath(w, '/rotate'), {}));
		const secret = d.webhook.secret;
		delete d.webhook.secret;
		replaced(d.webhook);
		await secretDialog(t('owner.integrations.js.rotatedTitle'), t('owner.integrations.js.theNewSecret'), secret,
			t('owner.integrations.js.rotatedIntro'), hookKept());
		toast(t('owner.integrations.js.rotatedToast'));
	});
}

export async function testHook(btn) {
	const w = ig.hook;
	if (!w) return;
	await act(btn, 'hook-error', async () => {
		await apiCreate('webhook-test:' + w.id, hookPath(w, '/test'), {});
		toast(t('owner.integrations.js.testSent'));
	});
}

export async function resendEvent(w, x, btn) {
	await act(btn, 'hlog-error', async () => {
		await apiCreate('webhook-resend:' + w.id, hookPath(w, '/resend'), { event_id: x.event_id });
		toast(t('owner.integrations.js.resent', { event: eventWords(x.event_type), id: x.event_id }));
	});
}

export async function deleteHook() {
	const w = ig.hook;
	if (!w || !await confirmDialog(t('owner.integrations.js.deleteTitle', { url: w.url }),
	    t('owner.integrations.js.deleteText'), t('owner.integrations.js.deleteSubmit'), true)) return;
	await act(null, 'hook-error', async () => {
		await apiDelete(hookPath(w));
		closeHook();
		toast(t('owner.integrations.js.deleted'));
		await loadHooks();
		$('h-integrations').focus({ preventScroll: true });
	});
}

/* ---- the delivery log ------------------------------------------------------------ */

const took = (ms) => (!Number.isInteger(ms) ? '—' : ms < 1000 ? t('owner.integrations.js.ms', { n: ms }) : t('owner.integrations.js.seconds', { n: (ms / 1000).toFixed(1) }));
const OUTCOME = { delivered: 'tag-ok', failed: 'tag-bad', refused: 'tag-warn' };

export function hookLogRow(x) {
	const w = ig.hook;
	// i18n-keys: owner.integrations.js.outcome.delivered owner.integrations.js.outcome.failed
	// i18n-keys: owner.integrations.js.outcome.refused
	const o = OUTCOME[x.outcome] ? [t('owner.integrations.js.outcome.' + x.outcome), OUTCOME[x.outcome]] : [String(x.outcome || '—'), ''];
	/* Why it failed, in the deliverer's words, and the first bytes of
	 * what the receiver answered (both, when a 410 said why). */
	const error = typeof x.error === 'string' ? x.error : '';
	const answer = typeof x.response === 'string' ? x.response : '';
	const short = answer.length > 140 ? answer.slice(0, 140) + '…' : answer;
	const resend = x.event_id && x.event_type !== 'webhook.test' && !/^msg_test_/.test(x.event_id) ?
	    h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.integrations.js.resendAria', { id: x.event_id }),
		onclick: (e) => resendEvent(w, x, e.currentTarget) }, t('owner.integrations.js.resend')) : null;
	return h('tr', null,
		h('td', { dataset: { label: t('owner.integrations.js.colWhen') } }, when(x.at)),
		h('td', { dataset: { label: t('owner.integrations.js.colEvent') } }, h('span', null, eventWords(x.event_type), h('span', { className: 'cust-sub code-sub' }, x.event_id || ''))),
		h('td', { dataset: { label: t('owner.integrations.js.colTry') } }, Number.isInteger(x.attempt) ? '#' + x.attempt : '—'),
		h('td', { dataset: { label: t('owner.integrations.js.colResult') } }, h('span', { className: 'hlog-result' }, h('span', { className: 'tag ' + o[1] }, o[0]),
			h('span', null, Number.isInteger(x.status) ? 'HTTP ' + x.status : t('owner.integrations.js.noAnswer')))),
		h('td', { className: 'num', dataset: { label: t('owner.integrations.js.colTook') } }, took(x.duration_ms)),
		h('td', { className: 'hlog-answer', dataset: { label: t('owner.integrations.js.colAnswer') } }, !answer && !error ? '—' : h('span', null,
			error ? h('span', { className: 'hlog-error' }, error) : null,
			!answer ? null : answer.length > short.length ?
				h('details', null, h('summary', null, h('code', null, short)), h('code', null, answer)) : h('code', null, answer))),
		h('td', { className: 'actions' }, resend));
}

export function loadHookLog() {
	const w = ig.hook;
	if (!w) return null;
	const p = ig.log;
	const q = new URLSearchParams({ limit: String(HOOK_LOG_PAGE), offset: String((p.page - 1) * HOOK_LOG_PAGE) });
	return loadPage(p, 'hlog', {
		path: hookPath(w, '/deliveries?' + q.toString()), list: 'deliveries', row: hookLogRow, cols: 7,
		empty: t('owner.integrations.js.noDeliveries'), noun: 'owner.integrations.js.deliveryCount',
		paging: (d) => {
			const total = Number.isInteger(d.total) ? d.total : null;
			return total === null ? null : { page: p.page, total_pages: Math.ceil(total / HOOK_LOG_PAGE), total_count: total };
		},
		error: (e) => setMsg('hlog-error', e)
	});
}

/* ---- API tokens ------------------------------------------------------------------- */

export async function loadTokens() {
	try {
		const d = await apiGet('admin/tokens');
		ig.tokens = Array.isArray(d.tokens) ? d.tokens : [];
		setMsg('tokens-error', null);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		setMsg('tokens-error', e);
	}
	renderTokens();
}

export function renderTokens() {
	const rows = ig.tokens.map((k) => {
		const off = !!k.revoked_at;
		return h('tr', { className: off ? 'is-off' : '', dataset: { id: k.id } },
			h('td', { dataset: { label: t('owner.integrations.js.colName') } }, h('span', null, h('span', { className: 'break' }, k.name),
				k.prefix ? h('span', { className: 'cust-sub' }, ...tNodes('owner.integrations.js.begins', { prefix: h('span', { className: 'code' }, k.prefix + '…') })) : null,
				h('span', { className: 'cust-sub' }, t('owner.integrations.js.created', { when: when(k.created_at) })))),
			h('td', { dataset: { label: t('owner.integrations.js.colMay') } }, Array.isArray(k.scopes) ? k.scopes.map(scopeWords).join(', ') : '—'),
			h('td', { dataset: { label: t('owner.integrations.js.colLastUsed') } }, k.last_used_at ? when(k.last_used_at) : t('owner.integrations.js.never')),
			h('td', { dataset: { label: t('owner.integrations.js.colStatus') } }, off ? h('span', null, h('span', { className: 'tag tag-bad' }, t('owner.integrations.js.revoked')), h('span', { className: 'cust-sub' }, when(k.revoked_at))) :
				h('span', { className: 'tag tag-ok' }, t('owner.integrations.js.active'))),
			h('td', { className: 'actions' }, off ? null :
				h('button', { type: 'button', className: 'btn btn-small btn-warn', 'aria-label': t('owner.integrations.js.revokeAria', { name: k.name }), onclick: () => revokeToken(k) }, t('owner.integrations.js.revoke'))));
	});
	setKids($('tokens-body'), ...rows);
	if (!rows.length) $('tokens-body').append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, t('owner.integrations.js.noTokens'))));
}

export function fillScopes() {
	setKids($('token-scopes'), ...SCOPES.map((s) => {
		const id = 'scope-' + s.replace(/\W/g, '-');
		return h('div', { className: 'scope-opt' },
			h('label', { className: 'check-inline', htmlFor: id }, h('input', { type: 'checkbox', id, value: s }), scopeWords(s)),
			h('p', { className: 'hint' }, scopeHint(s)));
	}));
}

export async function onCreateToken(form) {
	const nameIn = $('token-name');
	const name = nameIn.value.trim();
	if (!name) throw new FormError(t('owner.integrations.js.tokenNameMissing'), nameIn);
	const scopes = Array.from($('token-scopes').querySelectorAll('input:checked')).map((b) => b.value);
	if (!scopes.length) throw new FormError(t('owner.integrations.js.tokenScopesMissing'), form.querySelector('[data-field="scopes"]'));
	const d = payload(await apiCreate('token', 'admin/tokens', { name, scopes }));
	const k = d.token;
	form.reset();
	await secretDialog(t('owner.integrations.js.tokenTitle', { name: k.name }), t('owner.integrations.js.theToken'), k.secret,
		t('owner.integrations.js.tokenIntro', { scopes: k.scopes.map(scopeInSentence).join(', ') }),
		t('owner.integrations.js.tokenKept'));
	toast(t('owner.integrations.js.tokenCreated', { name: k.name }));
	await loadTokens();
}

export async function revokeToken(k) {
	if (!await confirmDialog(t('owner.integrations.js.revokeTitle', { name: k.name }),
	    t('owner.integrations.js.revokeText'), t('owner.integrations.js.revoke'), true)) return;
	await act(null, 'tokens-error', async () => {
		await apiDelete('admin/tokens/' + encodeURIComponent(k.id));
		toast(t('owner.integrations.js.revokedToast', { name: k.name }));
		await loadTokens();
	});
}

/* ---- wiring (main.js calls it once) --------------------------------------------------- */

export function wireIntegrations() {
	addPicker = eventsPicker(null);
	$('hook-events').append(addPicker.el);
	fillScopes();
	onSubmit($('hook-form'), onAddHook);
	onSubmit($('token-form'), onCreateToken);
	$('hook-close').addEventListener('click', () => { closeHook(); $('h-integrations').focus({ preventScroll: true }); });
	$('hook-edit').addEventListener('click', editHook);
	$('hook-test').addEventListener('click', (e) => testHook(e.currentTarget));
	$('hook-rotate').addEventListener('click', (e) => rotateHook(e.currentTarget));
	$('hook-toggle').addEventListener('click', () => { if (ig.hook) setEnabled(ig.hook, !ig.hook.enabled); });
	$('hook-delete').addEventListener('click', deleteHook);
	$('hlog-refresh').addEventListener('click', async () => { await loadHooks(); loadHookLog(); });
	$('hlog-prev').addEventListener('click', () => { if (ig.log.page > 1) { ig.log.page--; loadHookLog(); } });
	$('hlog-next').addEventListener('click', () => { if (ig.log.page < ig.log.pages) { ig.log.page++; loadHookLog(); } });
}
