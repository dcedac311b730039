/* The back office's ways to speak: error messages (with what to do on
 * the server), forms and their errors, dialogs, toasts. */
import { sentence } from '../js/errors.js';
import { t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { $, bytes, count, h, plural, saveBlob, setKids, show, uid } from './dom.js';
import { ApiError, FormError, NetError, SessionEnded, apiBlob, apiGet } from './net.js';
import { PASSWORD_MIN } from './state.js';

/* ---- messages --------------------------------------------------------- */

/* CONFIGURATION_ERROR: the server is set up so that the service cannot
 * run (the message says what is wrong; the server's log names the file).
 * Fixed on the server, never by retrying here. */
export function configHelp(msg) {
	const code = (s) => h('code', { translate: false, dir: 'ltr' }, s);
	const items = [
		h('li', null, t('owner.help.db_file_1'), ' ', code('database'), ' ', t('owner.help.db_file_2'), ' ',
			code('api-bin/loyalty.conf'), ' ', t('owner.help.db_file_3'), code('data/loyalty.db'),
			' ', t('owner.help.db_file_4'), ' ', code('SetEnv LOYALTY_DB'), t('owner.help.db_file_5')),
		h('li', null, t('owner.help.writable')),
		h('li', null, t('owner.help.error_log'))];
	/* The first visit on a host that runs every site as the web server's
	 * user: what to do, first and plainly. */
	if (/folder is not writable by this user, who would create it/.test(msg || ''))
		items.unshift(h('li', null, h('strong', null, t('owner.help.shared_cannot_write')), ' ', t('owner.help.shared_777')));
	return h('div', { className: 'db-help' },
		h('p', null, t('owner.help.fixed_on_server')),
		h('ul', null, ...items),
		h('p', null, t('owner.help.then_reload')));
}

/* A 500 of the web server's own (no JSON of the service's): its programs
 * did not run at all. What a shopkeeper on web hosting can check. */
export function startHelp() {
	const code = (s) => h('code', { translate: false, dir: 'ltr' }, s);
	return h('div', { className: 'db-help' },
		h('p', null, t('owner.help.no_answer')),
		h('ul', null,
			h('li', null, t('owner.help.not_executable_1'), ' ', code('api-bin/'), ' ', t('owner.help.not_executable_2')),
			h('li', null, h('strong', null, t('owner.help.other_machine')), ' ',
				t('owner.help.arch_1'), ' ', code('linux-x86_64'), t('owner.help.arch_2'), ' ',
				t('owner.help.arch_3'), ' ', code('api-bin/'), ' ', t('owner.help.arch_4')),
			h('li', null, t('owner.help.no_cgi'))),
		h('p', null, t('owner.help.then_reload_log')));
}

/* The same for a shop kept on a PostgreSQL server (the message names it):
 * nothing about files and folders. */
export function pgConfigHelp() {
	const code = (s) => h('code', { translate: false, dir: 'ltr' }, s);
	return h('div', { className: 'db-help' },
		h('p', null, t('owner.help.pg_1'), ' ',
			code('LOYALTY_DB'), ' ', t('owner.help.pg_2'), ' ', code('database'), ' ', t('owner.help.pg_3'), ' ',
			code('loyalty.conf'), t('owner.help.pg_4'), ' ',
			code('loyalty-admin init'), t('owner.help.pg_5')),
		h('p', null, t('owner.help.then_reload')));
}

/* An error as text: the message (the API's own); its code is kept in a
 * data attribute (for support), not shown. */
export function errorNode(e, noWait) {
	if (e instanceof NetError)
		return h('span', null, h('strong', null, t('owner.error.no_connection')), ' ' + t('owner.error.check_network'));
	if (e instanceof FormError) return h('span', e.code ? { dataset: { code: e.code } } : null, e.message);
	if (e instanceof ApiError) {
		/* A message says what is wrong with this request; an answer
		 * with none (a host's bare 413, its own 500 page: the client's
		 * own "The server answered 413.", e.ownMessage) has its code's
		 * sentence (js/errors.js). */
		const bare = !e.message || !!e.ownMessage;
		const parts = [h('strong', { dataset: { code: e.code || '' } }, bare ? sentence(e.code, e.message) : e.message)];
		if (!noWait && e.retryAfter !== null && e.retryAfter !== undefined && (e.status === 429 || e.status === 503))
			parts.push(' ' + t('owner.error.try_again_in', { time: count('owner.n.seconds', e.retryAfter) }));
		/* A database deleted but half says itself what to do. */
		if (e.code === 'CONFIGURATION_ERROR' && !/-wal or -shm file is still there/.test(e.message || ''))
			parts.push(/PostgreSQL/.test(e.message || '') ? pgConfigHelp() : configHelp(e.message));
		/* The web server's own 500 in the service's place: its programs
		 * did not run (the start screen says so at more length). */
		if (e.status === 500 && !e.served && !noWait)
			parts.push(startHelp());
		return h('span', null, parts);
	}
	return h('span', null, h('strong', null, t('owner.error.unexpected')), ' ' + (e && e.message ? e.message : ''));
}

export function setMsg(el, e) {
	el = typeof el === 'string' ? $(el) : el;
	setKids(el);
	if (e) el.append(e instanceof Node ? e : errorNode(e));
	el.hidden = !e;
}

export function busy(btn, on) {
	if (!btn) return;
	btn.disabled = on;
	btn.setAttribute('aria-busy', on ? 'true' : 'false');
}

/* A file of the API's saved in the browser's downloads, and the message
 * msg saying so: "Downloaded NAME (SIZE)." and o.after. path: the API's
 * path (apiBlob); o.name: the file's name, or a function of the answer's
 * headers giving it; o.preparing: a notice in msg while it comes. btn is
 * busy meanwhile; an error goes to msg (a session that ended says so
 * itself). */
export async function download(btn, msg, path, o) {
	busy(btn, true);
	if (o.preparing) {
		msg.className = 'msg notice';
		setKids(msg, o.preparing);
		show(msg, true);
	}
	try {
		const r = await apiBlob(path);
		const name = typeof o.name === 'function' ? o.name(r.headers) : o.name;
		saveBlob(r.blob, name);
		msg.className = 'msg notice';
		setKids(msg, t('owner.download.done', { name, size: bytes(r.blob.size) }) + (o.after ? ' ' + o.after : ''));
		show(msg, true);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		msg.className = 'msg msg-error';
		setMsg(msg, e);
	} finally {
		busy(btn, false);
	}
}

export let toastTimer = null;
/* A short confirmation ("Location added."): shown for a while, and
 * announced by a live region that is always there (a region that appears
 * with its text is not reliably read). */
export function toast(text) {
	const t = $('toast'), live = $('toast-live');
	clearTimeout(toastTimer);
	t.textContent = text;
	t.hidden = false;
	live.textContent = '';
	setTimeout(() => { live.textContent = text; }, 50);
	toastTimer = setTimeout(() => { t.hidden = true; t.textContent = ''; }, 7000);
}

/* ---- forms ------------------------------------------------------------ */

export function clearFormError(form) {
	for (const el of form.querySelectorAll('[aria-invalid="true"]')) el.setAttribute('aria-invalid', 'false');
	for (const el of form.querySelectorAll('.field-msg')) el.remove();
	const box = form.querySelector('.form-msg:not(.field-msg)');
	if (box) setMsg(box, null);
}

/* Shows an error in the form's message box and marks (and focuses) the
 * field it is about: the page's own field, or the API's details.field. */
export function showFormError(form, e) {
	let f = null;
	if (e instanceof FormError && e.field) f = typeof e.field === 'string' ? form.querySelector('[data-field="' + e.field + '"]') : e.field;
	else if (e instanceof ApiError && e.details && typeof e.details.field === 'string')
		f = form.querySelector('[data-field="' + e.details.field.replace(/[^\w.-]/g, '') + '"]');
	/* e.near: said under its field (in a long form the box at the end is
	 * out of sight of the field it is about). */
	const wrap = e instanceof FormError && e.near && f ? f.closest('.field') : null;
	let box = form.querySelector('.form-msg:not(.field-msg)');
	if (wrap) {
		setMsg(box, null);
		box = h('div', { className: 'msg msg-error form-msg field-msg', role: 'alert' });
		wrap.append(box);
		const ids = (f.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
		box.id = (f.id || 'f') + '-err';
		f.setAttribute('aria-describedby', [...ids.filter((x) => x !== box.id), box.id].join(' '));
	}
	setMsg(box, e);
	if (f) {
		f.setAttribute('aria-invalid', 'true');
		f.focus({ preventScroll: true });
		(wrap || f).scrollIntoView({ block: 'center' });
	} else {
		box.scrollIntoView({ block: 'nearest' });
	}
}

/* Runs fn on submit with the button busy; a failure shows in the form. */
export function onSubmit(form, fn) {
	form.addEventListener('submit', async (ev) => {
		ev.preventDefault();
		const btn = form.querySelector('button[type="submit"]');
		if (btn && btn.disabled) return;
		clearFormError(form);
		busy(btn, true);
		try {
			await fn(form);
		} catch (e) {
			if (!(e instanceof SessionEnded)) showFormError(form, e);
		} finally {
			busy(btn, false);
		}
	});
}

/* A field that must be filled: its text, trimmed. what: the catalog's
 * key of the field, whose KEY.enter ("Enter the reason.") and KEY.long
 * ("Reason is too long (at most {max} characters).") are the complaints. */
// i18n-keys: owner.need.email.enter owner.need.email.long owner.need.name.enter
// i18n-keys: owner.need.name.long owner.need.reward.enter owner.need.reward.long
// i18n-keys: owner.need.title.enter owner.need.title.long setup.need.code.enter
// i18n-keys: setup.need.code.long setup.need.email.enter setup.need.email.long
// i18n-keys: setup.need.location.enter setup.need.location.long setup.need.name.enter
// i18n-keys: setup.need.name.long setup.need.shop.enter setup.need.shop.long
export function need(input, what, max) {
	const v = input.value.trim();
	if (!v) throw new FormError(t(what + '.enter'), input);
	if (max && v.length > max) throw new FormError(t(what + '.long', { max }), input);
	return v;
}
export function needPassword(p1, p2) {
	if (p1.value.length < PASSWORD_MIN) throw new FormError(t('owner.form.password_short', { n: PASSWORD_MIN }), p1);
	if (p1.value !== p2.value) throw new FormError(t('owner.form.passwords_differ'), p2);
	return p1.value;
}

/* A labelled field: {label, type, value, field, hint, ...input props}. */
export function field(o) {
	const id = uid('f');
	const hintId = o.hint ? id + '-hint' : null;
	const props = {
		id, type: o.type || 'text', value: o.value === undefined || o.value === null ? '' : String(o.value),
		autocomplete: o.autocomplete || 'off', dataset: o.field ? { field: o.field } : undefined,
		'aria-describedby': hintId || undefined
	};
	/* o.limit: the server's limit of that name (js/limits.js). */
	if (o.limit) { props.maxLength = limit(o.limit); props.dataset = Object.assign({}, props.dataset, { limit: o.limit }); }
	for (const k of ['maxLength', 'inputMode', 'readOnly', 'spellcheck', 'placeholder', 'min', 'max', 'step', 'className'])
		if (o[k] !== undefined) props[k] = o[k];
	const input = o.control || h('input', props);
	if (o.control) {
		input.id = id;
		if (o.field) input.dataset.field = o.field;
		if (hintId) input.setAttribute('aria-describedby', hintId);
	}
	const wrap = h('div', { className: 'field' + (o.wrapClass ? ' ' + o.wrapClass : '') },
		h('label', { htmlFor: id }, o.label, o.optional ? h('span', { className: 'optional' }, ' ' + t('owner.w.optional')) : null),
		input, o.hint ? h('p', { className: 'hint', id: hintId }, o.hint) : null);
	wrap.input = input;
	return wrap;
}

/* ---- dialogs ---------------------------------------------------------- */

/* A modal form: resolves true once onSubmit(form) succeeded (then the
 * dialog closes), false when cancelled. onSubmit's errors show inside. */
export function openDialog(o) {
	return new Promise((resolve) => {
		const titleId = uid('dlg');
		const back = document.activeElement;
		const err = h('div', { className: 'msg msg-error form-msg', role: 'alert', hidden: true });
		const submit = h('button', { type: 'submit', className: 'btn ' + (o.danger ? 'btn-danger' : 'btn-primary') }, o.submitLabel || t('common.save'));
		/* o.noCancel: one way out, the submit button (Escape still closes). */
		const cancel = o.noCancel ? null : h('button', { type: 'button', className: 'btn' }, o.cancelLabel || t('common.cancel'));
		const form = h('form', { className: 'dlg-form', noValidate: true },
			h('h2', { id: titleId }, o.title),
			o.intro ? h('p', { className: 'dlg-intro' }, o.intro) : null,
			o.body || null, err,
			h('div', { className: 'btn-row dlg-btns' }, submit, cancel));
		const dlg = h('dialog', { className: 'dlg', 'aria-labelledby': titleId }, form);
		let done = false;
		if (cancel) cancel.addEventListener('click', () => dlg.close());
		dlg.addEventListener('close', () => {
			dlg.remove();
			if (back && back.isConnected && typeof back.focus === 'function') back.focus();
			resolve(done);
		});
		onSubmit(form, async () => {
			await o.onSubmit(form);
			done = true;
			dlg.close();
		});
		document.body.append(dlg);
		dlg.showModal();
		const first = o.noFocusField ? null : form.querySelector('input:not([readonly]), select, textarea');
		(first || submit).focus();
	});
}
export function confirmDialog(title, text, okLabel, danger) {
	return openDialog({ title, intro: text, submitLabel: okLabel, danger, onSubmit: async () => {} });
}


/* A value to copy (a secret shown once, a command): the text in full,
 * selected whole by a tap, and a Copy button that says whether it
 * copied. The clipboard needs a secure page (https, or this machine);
 * elsewhere the text is selected for the owner's own Ctrl+C. */
export function copyBox(value, label) {
	const code = h('code', { className: 'copy-text', translate: false, dir: 'ltr' }, value);
	const said = h('span', { className: 'copy-said', role: 'status' });
	const selectIt = () => {
		const r = document.createRange();
		r.selectNodeContents(code);
		const sel = window.getSelection();
		sel.removeAllRanges();
		sel.addRange(r);
	};
	const btn = h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.copy.label', { what: label }) }, t('owner.copy.copy'));
	btn.addEventListener('click', async () => {
		let ok = false;
		try {
			if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(value); ok = true; }
		} catch (e) { ok = false; }
		if (!ok) {
			selectIt();
			try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
		}
		said.textContent = ok ? t('owner.copy.copied') : t('owner.copy.selected');
	});
	return h('div', { className: 'copy-box' }, code, h('span', { className: 'copy-act' }, btn, said));
}

/* One page of a list into its table (ID-table, ID-body, ID-page, ID-prev,
 * ID-next): the rows, "Page 2 of 5 · 93 changes" and the pager's buttons.
 * p holds the page asked for, the pages there are and a sequence number:
 * an answer that comes after a newer request is dropped. o: {path, list
 * (the answer's key), row, cols, empty, noun: [one, many], error(e) (e
 * null clears it; the session's end is the client's to show), paging(d)
 * (optional: the answer's pagination for a list counted otherwise than
 * by d.pagination's {page, total_pages, total_count})}. */
export async function loadPage(p, id, o) {
	const seq = ++p.seq;
	const tbl = $(id + '-table');
	tbl.setAttribute('aria-busy', 'true');
	try {
		const d = await apiGet(o.path);
		if (seq !== p.seq) return;
		const list = Array.isArray(d[o.list]) ? d[o.list] : [];
		const pg = (o.paging ? o.paging(d) : d.pagination) || {};
		p.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		o.error(null);
		setKids($(id + '-body'), ...list.map((x) => o.row(x)));
		if (!list.length) $(id + '-body').append(h('tr', null, h('td', { colSpan: o.cols, className: 'empty' }, o.empty)));
		const n = Number.isInteger(pg.total_count) ? pg.total_count : list.length;
		$(id + '-page').textContent = t('owner.pager.page_of', { page: pg.page || p.page, pages: Math.max(1, p.pages) }) + ' · ' +
		    (typeof o.noun === 'string' ? count(o.noun, n) : plural(n, o.noun[0], o.noun[1]));
		$(id + '-prev').disabled = p.page <= 1;
		$(id + '-next').disabled = p.page >= p.pages;
	} catch (e) {
		if (seq === p.seq && !(e instanceof SessionEnded)) o.error(e);
	} finally {
		if (seq === p.seq) tbl.removeAttribute('aria-busy');
	}
}
