/* The Integrations section: webhooks (their state in words, the signing
 * secret shown once, a test, the delivery log and a re-send), the
 * deliverer that sends them (when it last ran, the cron line when it does
 * not), and API tokens for integrators (shown once, revoked). The API:
 * /api/v1/admin/webhooks and /api/v1/admin/tokens (docs/admin-api.md).
 * A secret lives in its dialog only: the page never stores one. */
import { $, h, plural, setKids, show, when } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiDelete, apiGet, apiPatch, payload } from './net.js';
import { confirmDialog, copyBox, field, loadPage, onSubmit, openDialog, setMsg, toast } from './ui.js';

/* ---- words -------------------------------------------------------------- */

/* The event types a webhook may ask for (lib/event.c's table), in the
 * owner's words; webhook.test is only ever a test delivery. */
export const EVENT_WORDS = {
	'transaction.recorded': 'Purchase recorded',
	'reward.earned': 'Reward earned',
	'reward.claimed': 'Reward handed out',
	'cashback.redeemed': 'Cashback spent',
	'transaction.voided': 'Transaction voided',
	'card.adjusted': 'Card adjusted by hand',
	'cashback.expired': 'Cashback expired',
	'card.enrolled': 'Card issued at the till',
	'card.issued': 'Card issued in the back office',
	'card.updated': 'Card renamed, turned off or on',
	'tier.changed': 'Card moved to another tier'
};
export const eventWords = (t) => EVENT_WORDS[t] || (t === 'webhook.test' ? 'Test event' : String(t || '—'));
export const SCOPE_WORDS = {
	'events:read': ['Read events', 'The list of everything that happens to your cards (the event feed).'],
	'webhooks:manage': ['Manage webhooks', 'Add, change and delete any of the shop\'s webhooks, as on this page. Adding one or sending an event again also needs Read events: a webhook carries the events.']
};
const scopeWords = (s) => (SCOPE_WORDS[s] ? SCOPE_WORDS[s][0] : s);

/* The deliverer counts as running when it ran within this: a cron line
 * runs it every minute, the Debian package's timer as often. */
export const DELIVERER_LATE_MS = 5 * 60000;
export const HOOK_LOG_PAGE = 20;

/* A webhook's state: {tag, cls, text} for its tag and sentence. */
export function hookState(w) {
	const st = w.status || {};
	if (!w.enabled) {
		const why = w.disabled_reason === 'gone' ? 'the receiver answered that this address is gone (410), so nothing more is sent to it' :
		    w.disabled_reason === 'failing' ? 'every delivery to it failed for 5 days' : 'it was turned off here';
		return { tag: 'Off', cls: 'tag-bad', text: 'Turned off: ' + why + '. Nothing is sent while it is off.' };
	}
	if (st.failing_since)
		return { tag: 'Failing', cls: 'tag-warn', text: 'Failing since ' + when(st.failing_since) +
		    (Number.isInteger(st.attempts) && st.attempts > 0 ? ': ' + plural(st.attempts, 'try', 'tries') + ' of the same event so far' : '') +
		    (st.next_attempt_at ? ', the next at ' + when(st.next_attempt_at) : '') +
		    '. The events wait and go in order once it answers; after 5 days of failures it is turned off.' };
	return { tag: 'Working', cls: 'tag-ok', text: st.last_success_at ? 'Events go to it as they happen; the last was delivered ' + when(st.last_success_at) + '.' :
	    'Nothing has been delivered yet: it gets what happens from the moment it was added.' };
}
const eventsText = (w) => (Array.isArray(w.event_types) ? w.event_types.map(eventWords).join(', ') : 'All events');

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
	const boxes = Object.keys(EVENT_WORDS).map((t) => h('input', { type: 'checkbox', value: t, checked: only && types.includes(t) }));
	const list = h('div', { className: 'ev-list', hidden: !only },
		...boxes.map((b) => h('label', { className: 'check-inline ev-opt' }, b, h('span', null, EVENT_WORDS[b.value], ' ', h('span', { className: 'code ev-type' }, b.value)))));
	const sync = () => { list.hidden = !some.checked; };
	all.addEventListener('change', sync);
	some.addEventListener('change', sync);
	const el = h('fieldset', { className: 'field ev-pick', tabIndex: -1, dataset: { field: 'event_types' } },
		h('legend', null, 'Events to send'),
		h('label', { className: 'check-inline' }, all, 'All events, also kinds added later'),
		h('label', { className: 'check-inline' }, some, 'Only these:'), list);
	return {
		el,
		reset() { all.checked = true; for (const b of boxes) b.checked = false; sync(); },
		value() {
			if (!some.checked) return null;
			const v = boxes.filter((b) => b.checked).map((b) => b.value);
			if (!v.length) throw new FormError('Tick at least one kind of event, or choose "All events".', el);
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
		title, noCancel: true, noFocusField: true, submitLabel: 'I have copied it',
		body: h('div', { className: 'secret-once' },
			h('p', null, intro),
			copyBox(secret, what),
			h('p', { className: 'msg msg-warn' }, h('strong', null, 'Copy it now: you will not see it again. '),
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
	if (!late) ran.textContent = 'Webhooks are sent by the deliverer, which last ran ' + when(d.last_run_at) + '.';
	show(note, late);
	if (!late) return;
	const cron = cronParts(typeof d.command === 'string' ? d.command : '');
	/* Before any webhook, a notice; with one, a warning: its events wait. */
	note.className = 'msg deliverer-note ' + (ig.hooks.length ? 'msg-warn' : 'notice');
	setKids(note,
		h('p', null, h('strong', null, ig.hooks.length ? 'Webhooks are not being sent: ' : 'Before webhooks can be sent: '),
			'the deliverer, the program that sends them, has ' + (last && !isNaN(last) ? 'not run since ' + when(d.last_run_at) : 'never run on this server') + '.'),
		h('p', null, h('strong', null, 'On web hosting'), ', add it as a cron job: in cPanel, open ', h('strong', null, 'Cron Jobs'),
			', choose ', h('strong', null, 'Once Per Minute'), ' (', h('span', { className: 'code' }, cron.every), ') and paste this command:'),
		cron.command ? copyBox(cron.command, 'the deliverer\'s command') : h('p', null, h('span', { className: 'code' }, 'loyalty-admin events deliver'), ' (the server did not say where it is).'),
		h('details', null, h('summary', null, 'The whole line, for a crontab of your own'),
			h('code', { className: 'code cron-line' }, cron.every + ' ' + (cron.command || 'loyalty-admin events deliver'))),
		h('p', null, h('strong', null, 'On a Raspberry Pi or a server with the Debian package'),
			', and with tools/serve, it runs by itself: if this note shows there, its timer is stopped; whoever runs the server can start it again.'));
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
		const actions = [h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Open the webhook to ' + w.url, onclick: () => openHook(w, true) }, 'Open')];
		if (!w.enabled) actions.push(h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Turn on the webhook to ' + w.url, onclick: () => setEnabled(w, true) }, 'Turn on'));
		return h('tr', { className: w.enabled ? '' : 'is-off', dataset: { id: w.id } },
			h('td', { dataset: { label: 'Address' } }, h('span', { className: 'hook-addr' }, h('span', null, w.url),
				w.description ? h('span', { className: 'cust-sub' }, w.description) : null)),
			h('td', { dataset: { label: 'Events' } }, h('span', null, Array.isArray(w.event_types) ? plural(w.event_types.length, 'kind', 'kinds') : 'All')),
			h('td', { dataset: { label: 'State' } }, h('span', { className: 'tag ' + s.cls, title: s.text }, s.tag)),
			h('td', { className: 'actions' }, h('span', { className: 'btn-row' }, actions)));
	});
	setKids($('hooks-body'), ...rows);
	if (!rows.length) $('hooks-body').append(h('tr', null, h('td', { colSpan: 4, className: 'empty' }, 'No webhooks yet.')));
}

export async function onAddHook(form) {
	const url = $('hook-url').value.trim();
	if (!url) throw new FormError('Enter the address the events go to.', $('hook-url'));
	if (!/^https?:\/\//i.test(url)) throw new FormError('The address begins with https:// (such as https://example.com/loyalty-events).', $('hook-url'));
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
			throw new FormError(e.message + ' Plain http:// is for a shop\'s own network only: whoever runs the server can allow it with loyalty-admin setting set webhook_allow_private 1.', $('hook-url'));
		throw e;
	}
	const w = d.webhook;
	form.reset();
	addPicker.reset();
	await secretDialog('Signing secret of the new webhook', 'the signing secret', w.secret,
		'Each delivery to ' + w.url + ' is signed with this secret (Standard Webhooks), so the receiver knows it comes from your shop. Put it into the receiving program.',
		HOOK_KEPT);
	toast('Webhook added. It gets what happens from now on.');
	await loadHooks();
	const fresh = ig.hooks.find((x) => x.id === w.id);
	if (fresh) openHook(fresh, true);
}

export function closeHook() {
	ig.hook = null;
	show('hook-detail', false);
}

const HOOK_KEPT = 'The shop keeps it to sign the deliveries (and in its backups), but never shows it again. If it is lost, make a new one with "New signing secret".';

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
	$('hook-sub').textContent = (w.description ? w.description + ' · ' : '') + 'added ' + when(w.created_at);
	$('hook-tag').textContent = s.tag;
	$('hook-tag').className = 'tag ' + s.cls;
	$('hook-state').textContent = s.text;
	const fact = (k, v) => h('div', { className: 'bal' }, h('dt', null, k), h('dd', null, v));
	setKids($('hook-facts'),
		fact('Events', eventsText(w)),
		fact('Waiting to be sent', Number.isInteger(st.pending) ? plural(st.pending, 'event', 'events') : '—'),
		fact('Last delivered', st.last_success_at ? when(st.last_success_at) : 'Not yet'));
	const rot = w.secret_rotated_until ? new Date(w.secret_rotated_until) : null;
	show('hook-rotation', !!rot && !isNaN(rot) && rot.getTime() > Date.now());
	$('hook-rotation').textContent = rot ? 'The secret was replaced: until ' + when(w.secret_rotated_until) +
	    ' each delivery carries two signatures, with the new secret and the old one, so the receiver accepts it with either.' : '';
	$('hook-toggle').textContent = w.enabled ? 'Turn off' : 'Turn on again';
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
	if (!on && !await confirmDialog('Turn off the webhook to ' + w.url + '?',
	    'Nothing is sent to it while it is off. Turn it on again at any time.', 'Turn off', true)) return;
	await act(null, ig.hook && ig.hook.id === w.id ? 'hook-error' : 'hooks-error', async () => {
		const d = await apiPatch(hookPath(w), { enabled: on });
		replaced(d.webhook);
		toast(on ? 'Webhook turned on: its waiting events are sent on the deliverer\'s next run.' : 'Webhook turned off.');
		if (on) renderDeliverer();
	});
}

export function editHook() {
	const w = ig.hook;
	if (!w) return;
	const fUrl = field({ label: 'Address (URL)', type: 'url', value: w.url, field: 'url', spellcheck: false, limit: 'WEBHOOK_URL_MAX' });
	const fDesc = field({ label: 'Description', optional: true, value: w.description || '', field: 'description', limit: 'WEBHOOK_DESC_MAX' });
	const picker = eventsPicker(Array.isArray(w.event_types) ? w.event_types : null);
	openDialog({
		title: 'Edit the webhook', body: h('div', null, fUrl, fDesc, picker.el),
		onSubmit: async () => {
			const url = fUrl.input.value.trim();
			if (!/^https?:\/\/\S/i.test(url)) throw new FormError('Enter the address, beginning with https://.', fUrl.input);
			const d = await apiPatch(hookPath(w), { url, description: fDesc.input.value.trim(), event_types: picker.value() });
			replaced(d.webhook);
			toast('Webhook saved.');
		}
	});
}

export async function rotateHook(btn) {
	const w = ig.hook;
	if (!w || !await confirmDialog('A new signing secret for ' + w.url + '?',
	    'The webhook gets a new secret, shown once. The old one goes on signing beside it for 24 hours, so the receiver keeps accepting deliveries while you put the new one in; after that only the new one signs.',
	    'Make a new secret')) return;
	await act(btn, 'hook-error', async () => {
		const d = payload(await apiCreate('webhook-rotate:' + w.id, hookPath(w, '/rotate'), {}));
		const secret = d.webhook.secret;
		delete d.webhook.secret;
		replaced(d.webhook);
		await secretDialog('New signing secret', 'the new signing secret', secret,
			'Put it into the receiving program within 24 hours: until then the old secret signs too.', HOOK_KEPT);
		toast('New signing secret made.');
	});
}

export async function testHook(btn) {
	const w = ig.hook;
	if (!w) return;
	await act(btn, 'hook-error', async () => {
		await apiCreate('webhook-test:' + w.id, hookPath(w, '/test'), {});
		toast('Test event on its way: it is sent on the deliverer\'s next run; Refresh the deliveries to see the answer.');
	});
}

export async function resendEvent(w, x, btn) {
	await act(btn, 'hlog-error', async () => {
		await apiCreate('webhook-resend:' + w.id, hookPath(w, '/resend'), { event_id: x.event_id });
		toast(eventWords(x.event_type) + ' (' + x.event_id + ') is sent again on the deliverer\'s next run.');
	});
}

export async function deleteHook() {
	const w = ig.hook;
	if (!w || !await confirmDialog('Delete the webhook to ' + w.url + '?',
	    'Nothing more is sent there, and its log of deliveries is deleted with it. This cannot be undone.', 'Delete', true)) return;
	await act(null, 'hook-error', async () => {
		await apiDelete(hookPath(w));
		closeHook();
		toast('Webhook deleted.');
		await loadHooks();
		$('h-integrations').focus({ preventScroll: true });
	});
}

/* ---- the delivery log ------------------------------------------------------------ */

const took = (ms) => (!Number.isInteger(ms) ? '—' : ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s');
const OUTCOME = { delivered: ['Delivered', 'tag-ok'], failed: ['Failed', 'tag-bad'], refused: ['Not sent', 'tag-warn'] };

export function hookLogRow(x) {
	const w = ig.hook;
	const o = OUTCOME[x.outcome] || [String(x.outcome || '—'), ''];
	/* Why it failed, in the deliverer's words, and the first bytes of
	 * what the receiver answered (both, when a 410 said why). */
	const error = typeof x.error === 'string' ? x.error : '';
	const answer = typeof x.response === 'string' ? x.response : '';
	const short = answer.length > 140 ? answer.slice(0, 140) + '…' : answer;
	const resend = x.event_id && x.event_type !== 'webhook.test' && !/^msg_test_/.test(x.event_id) ?
	    h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Send the event ' + x.event_id + ' again',
		onclick: (e) => resendEvent(w, x, e.currentTarget) }, 'Send again') : null;
	return h('tr', null,
		h('td', { dataset: { label: 'When' } }, when(x.at)),
		h('td', { dataset: { label: 'Event' } }, h('span', null, eventWords(x.event_type), h('span', { className: 'cust-sub code-sub' }, x.event_id || ''))),
		h('td', { dataset: { label: 'Try' } }, Number.isInteger(x.attempt) ? '#' + x.attempt : '—'),
		h('td', { dataset: { label: 'Result' } }, h('span', { className: 'hlog-result' }, h('span', { className: 'tag ' + o[1] }, o[0]),
			h('span', null, Number.isInteger(x.status) ? 'HTTP ' + x.status : 'no answer'))),
		h('td', { className: 'num', dataset: { label: 'Took' } }, took(x.duration_ms)),
		h('td', { className: 'hlog-answer', dataset: { label: 'Answer' } }, !answer && !error ? '—' : h('span', null,
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
		empty: 'Nothing sent yet.', noun: ['delivery', 'deliveries'],
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
			h('td', { dataset: { label: 'Name' } }, h('span', null, h('span', { className: 'break' }, k.name),
				k.prefix ? h('span', { className: 'cust-sub' }, 'begins ', h('span', { className: 'code' }, k.prefix + '…')) : null,
				h('span', { className: 'cust-sub' }, 'created ' + when(k.created_at)))),
			h('td', { dataset: { label: 'May' } }, Array.isArray(k.scopes) ? k.scopes.map(scopeWords).join(', ') : '—'),
			h('td', { dataset: { label: 'Last used' } }, k.last_used_at ? when(k.last_used_at) : 'Never'),
			h('td', { dataset: { label: 'Status' } }, off ? h('span', null, h('span', { className: 'tag tag-bad' }, 'Revoked'), h('span', { className: 'cust-sub' }, when(k.revoked_at))) :
				h('span', { className: 'tag tag-ok' }, 'Active')),
			h('td', { className: 'actions' }, off ? null :
				h('button', { type: 'button', className: 'btn btn-small btn-warn', 'aria-label': 'Revoke the token ' + k.name, onclick: () => revokeToken(k) }, 'Revoke')));
	});
	setKids($('tokens-body'), ...rows);
	if (!rows.length) $('tokens-body').append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, 'No API tokens yet.')));
}

export function fillScopes() {
	setKids($('token-scopes'), ...Object.keys(SCOPE_WORDS).map((s) => {
		const id = 'scope-' + s.replace(/\W/g, '-');
		return h('div', { className: 'scope-opt' },
			h('label', { className: 'check-inline', htmlFor: id }, h('input', { type: 'checkbox', id, value: s }), SCOPE_WORDS[s][0]),
			h('p', { className: 'hint' }, SCOPE_WORDS[s][1]));
	}));
}

export async function onCreateToken(form) {
	const nameIn = $('token-name');
	const name = nameIn.value.trim();
	if (!name) throw new FormError('Enter a name: who or what the token is for.', nameIn);
	const scopes = Array.from($('token-scopes').querySelectorAll('input:checked')).map((b) => b.value);
	if (!scopes.length) throw new FormError('Tick what the token may do.', form.querySelector('[data-field="scopes"]'));
	const d = payload(await apiCreate('token', 'admin/tokens', { name, scopes }));
	const k = d.token;
	form.reset();
	await secretDialog('API token "' + k.name + '"', 'the token', k.secret,
		'Give it to whoever connects the program, by a safe way (not in a plain e-mail). It may: ' + k.scopes.map(scopeWords).join(', ').toLowerCase() + '.',
		'The shop keeps only a fingerprint of it. If it is lost, make a new one.');
	toast('API token ' + k.name + ' created.');
	await loadTokens();
}

export async function revokeToken(k) {
	if (!await confirmDialog('Revoke the token "' + k.name + '"?',
	    'Every program using it is refused from now on. This cannot be undone: make a new token if it is needed again.', 'Revoke', true)) return;
	await act(null, 'tokens-error', async () => {
		await apiDelete('admin/tokens/' + encodeURIComponent(k.id));
		toast('Token ' + k.name + ' revoked.');
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
