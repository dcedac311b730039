/* Loyalty back office: the shop owner's page for the owner's API
 * (docs/admin-api.md). Plain ES2017, no dependencies, no build step.
 * Every URL is relative (api/v1/...), so the page works from a subfolder.
 * Text from the server is only ever set with textContent, never parsed as
 * HTML (the card sheet is opened as a blob in its own tab, never inserted
 * into this page).
 *
 * The session is the till's: the same sessionStorage keys, so an owner
 * going from the till to the back office in the same tab stays logged
 * in, and logging out of one logs out of the other. */
'use strict';
(function () {

const API = 'api/v1/';
const K = {
	access: 'pos.access_token', refresh: 'pos.refresh_token',
	user: 'pos.user', location: 'pos.location_id'
};
const CARDS_PAGE = 20;
const HIST_PAGE = 10;
const TX_PAGE = 20;
const SHEET_MAX = 100;
const ISSUE_MAX = 100;
const TIERS_MAX = 16;
const PASSWORD_MIN = 8;
const MAX_MONEY_CENTS = 100000000;
const SECTIONS = ['overview', 'locations', 'staff', 'programs', 'cards', 'reports', 'backup', 'settings', 'audit'];
const SECTION_NAMES = {
	overview: 'Overview', locations: 'Locations', staff: 'Staff', programs: 'Programs',
	cards: 'Cards', reports: 'Reports', backup: 'Backup', settings: 'Settings', audit: 'Audit'
};
const TYPE_NAMES = {
	punch: 'Punch', cashback: 'Cashback', discount: 'Discount',
	reward_claim: 'Reward claim', cashback_redeem: 'Cashback redeem',
	void: 'Void', adjustment: 'Adjustment', expiry: 'Expiry'
};
/* Corrections are not undone by a void (an adjustment is corrected by
 * another one); what the server refuses otherwise, it says why. */
const NOT_VOIDABLE = ['void', 'adjustment', 'expiry'];
const PROGRAM_TYPES = { punch: 'Punch card', cashback: 'Cashback', discount: 'Discount' };
/* What the settings mean, in the owner's words. */
const SETTING_INFO = {
	access_token_ttl: ['Login renewal interval (seconds)', 'How long a login works before the page renews it in the background.'],
	refresh_token_ttl: ['Stay logged in for (seconds)', 'How long a till or this page keeps its login before asking for the password again.'],
	login_max_failures: ['Wrong passwords before a pause', 'Failed logins for one e-mail address before further tries are refused for a while: counted apart for each place that signed in to it lately (your tills), and together for all other places, so strangers cannot lock your tills out.'],
	login_window_seconds: ['Pause after wrong passwords (seconds)', 'How long the failed logins are counted, and so how long the pause lasts.'],
	sync_max_age_days: ['Oldest offline purchase accepted (days)', 'A purchase a till kept while offline is refused when it is older than this.'],
	utc_offset_minutes: ['Shop time zone (minutes from UTC)', 'Reports count days in this time: 60 is UTC+1, -300 is UTC−5; a multiple of 15. Summer time is not followed: change it when the clocks change.'],
	staff_enrolment: ['Staff may issue cards at the till', 'When off, only an owner logged in on the till can give a new customer a card.'],
	void_window_minutes: ['Staff may void their own sale for (minutes)', 'How long after a sale the cashier who made it can void it at the till. 0: only you void transactions, here.'],
	redeem_needs_card_code: ['Rewards and cashback need the code on the customer\'s phone', 'When on, the till hands out a reward or takes cashback only on the QR code of the customer\'s card page, which changes every minute: a photo of a card or an old screenshot no longer spends. Purchases still earn on printed cards.'],
	currency_symbol: ['Currency symbol', 'Shown before amounts on the till and on the customer\'s card page, such as € or $.'],
	public_url: ['Address of this site for customers', 'Printed on each card with the card\'s own link, such as https://shop.example/loyalty/ (the folder of this page, ending in /). Empty: cards carry no link.']
};

/* ---- small helpers ---------------------------------------------------- */

const $ = (id) => document.getElementById(id);

function add(el, kids) {
	for (const c of kids)
		if (Array.isArray(c)) add(el, c);
		else if (c !== null && c !== undefined && c !== false)
			el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
	return el;
}
function setKids(el, ...kids) {
	el.textContent = '';
	return add(el, kids);
}
/* h('p', {className: 'x'}, 'text', child, ...): builds an element. */
function h(tag, props, ...kids) {
	const el = document.createElement(tag);
	if (props)
		for (const k of Object.keys(props)) {
			const v = props[k];
			if (v === undefined || v === null) continue;
			if (k === 'dataset') Object.assign(el.dataset, v);
			else if (k.startsWith('aria-') || k === 'role' || k === 'for') el.setAttribute(k, v);
			else el[k] = v;
		}
	return add(el, kids);
}
const SVG_NS = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...kids) {
	const el = document.createElementNS(SVG_NS, tag);
	if (attrs) for (const k of Object.keys(attrs)) el.setAttribute(k, String(attrs[k]));
	return add(el, kids);
}

function show(el, on) { (typeof el === 'string' ? $(el) : el).hidden = !on; }

let uidSeq = 0;
const uid = (p) => (p || 'u') + '-' + (++uidSeq);

function storage(kind) {
	try {
		const st = window[kind], t = '__owner_test__';
		st.setItem(t, t);
		st.removeItem(t);
		return st;
	} catch (e) {
		const m = new Map();
		return {
			getItem: (k) => (m.has(k) ? m.get(k) : null),
			setItem: (k, v) => { m.set(k, String(v)); },
			removeItem: (k) => { m.delete(k); }
		};
	}
}
const ss = storage('sessionStorage');

function readJSON(st, k, def) {
	try {
		const v = st.getItem(k);
		return v === null ? def : JSON.parse(v);
	} catch (e) { return def; }
}
function writeJSON(st, k, v) {
	try { st.setItem(k, JSON.stringify(v)); return true; } catch (e) { return false; }
}

/* UUID v4 (crypto.randomUUID exists only on https and localhost). */
function uuid() {
	const c = window.crypto;
	if (c && typeof c.randomUUID === 'function') {
		try { return c.randomUUID(); } catch (e) { /* insecure context */ }
	}
	const b = new Uint8Array(16);
	if (c && typeof c.getRandomValues === 'function') c.getRandomValues(b);
	else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const x = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
	return x.slice(0, 8) + '-' + x.slice(8, 12) + '-' + x.slice(12, 16) + '-' +
	    x.slice(16, 20) + '-' + x.slice(20);
}

/* ---- formatting ------------------------------------------------------- */

const moneyFmt = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const pctFmt = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
const isNum = (v) => typeof v === 'number' && isFinite(v);
const money = (v) => (isNum(v) ? moneyFmt.format(v) : '—');
const pct = (v) => (isNum(v) ? pctFmt.format(v) : '—');
const int = (v) => (Number.isInteger(v) ? String(v) : '—');
const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
function when(iso) {
	const d = new Date(iso);
	if (!iso || isNaN(d)) return iso ? String(iso) : '—';
	try {
		return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
	} catch (e) { return d.toLocaleString(); }
}
function day(iso) {
	const d = new Date(iso);
	if (!iso || isNaN(d)) return iso ? String(iso) : '—';
	try { return d.toLocaleDateString(undefined, { dateStyle: 'medium' }); } catch (e) { return d.toLocaleDateString(); }
}
function bytes(n) {
	if (!isNum(n)) return '';
	if (n < 1024) return n + ' bytes';
	if (n < 1048576) return (n / 1024).toFixed(0) + ' KB';
	return (n / 1048576).toFixed(1) + ' MB';
}
const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '—');

/* A money amount typed by the owner: at most 2 decimals, 0 to
 * 1,000,000.00. {value, cents} or null. */
function parseMoney(str) {
	const t = String(str).trim().replace(',', '.');
	if (!/^(\d{1,7}|\d{0,7}\.\d{1,2})$/.test(t)) return null;
	const [i, f = ''] = t.split('.');
	const cents = parseInt(i || '0', 10) * 100 + parseInt((f + '00').slice(0, 2), 10);
	if (cents > MAX_MONEY_CENTS) return null;
	return { value: cents / 100, cents };
}
/* A rate typed in percent ("5", "2.5", "12,75"), 0 to 100 with at most 2
 * decimals: the fraction the API takes (at most 4 decimals), or null. */
function parsePercent(str) {
	const t = String(str).trim().replace(',', '.').replace(/\s*%$/, '');
	if (!/^(\d{1,3}|\d{0,3}\.\d{1,2})$/.test(t)) return null;
	const [i, f = ''] = t.split('.');
	const hundredths = parseInt(i || '0', 10) * 100 + parseInt((f + '00').slice(0, 2), 10);
	return hundredths > 10000 ? null : hundredths / 10000;
}
const percentText = (rate) => (isNum(rate) ? String(Math.round(rate * 10000) / 100) : '');
const moneyText = (v) => (isNum(v) ? (Math.round(v * 100) / 100).toFixed(2) : '');
function parseIntIn(str, min, max) {
	const t = String(str).trim();
	if (!/^-?\d{1,10}$/.test(t)) return null;
	const n = parseInt(t, 10);
	return n >= min && n <= max ? n : null;
}
function looksLikeEmail(e) { return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e); }

/* ---- dates (the shop's calendar) --------------------------------------- */

/* Dates are handled as UTC midnights, so no local time zone gets in. */
const ymd = (d) => d.toISOString().slice(0, 10);
const parseYmd = (t) => (/^\d{4}-\d\d-\d\d$/.test(t) && !isNaN(Date.parse(t + 'T00:00:00Z')) ? new Date(t + 'T00:00:00Z') : null);
const addDays = (d, n) => new Date(d.getTime() + n * 86400000);
/* Today in the shop's time zone (the utc_offset_minutes setting the
 * reports count days in). */
function shopToday() {
	const off = settingValue('utc_offset_minutes', 0);
	const now = new Date(Date.now() + off * 60000);
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
function presetRange(p) {
	const t = shopToday(), y = t.getUTCFullYear(), m = t.getUTCMonth();
	switch (p) {
	case 'today': return [t, t];
	case 'yesterday': return [addDays(t, -1), addDays(t, -1)];
	case 'last7': return [addDays(t, -6), t];
	case 'thisweek': return [addDays(t, -((t.getUTCDay() + 6) % 7)), t];
	case 'thismonth': return [new Date(Date.UTC(y, m, 1)), t];
	case 'lastmonth': return [new Date(Date.UTC(y, m - 1, 1)), new Date(Date.UTC(y, m, 0))];
	case 'last30': return [addDays(t, -29), t];
	case 'thisyear': return [new Date(Date.UTC(y, 0, 1)), t];
	default: return null;
	}
}

/* ---- API -------------------------------------------------------------- */

class ApiError extends Error {
	constructor(status, code, message, details, retryAfter, served) {
		super(message);
		this.status = status;
		this.code = code;
		this.details = details || null;
		this.retryAfter = retryAfter;
		/* The service answered (its answers carry X-Request-Id), not the
		 * web server in its place. */
		this.served = served !== false;
	}
}
class NetError extends Error {}
class SessionEnded extends Error {}
/* A mistake found in the page before sending: the message and the field. */
class FormError extends Error {
	constructor(message, field) { super(message); this.field = field || null; }
}

function retryAfterSecs(v) {
	if (!v) return null;
	if (/^\d+$/.test(v.trim())) return parseInt(v, 10);
	const t = Date.parse(v);
	return isNaN(t) ? null : Math.max(0, Math.ceil((t - Date.now()) / 1000));
}

/* One request. opts: body (sent as JSON), token, blob (a successful
 * answer is read as a Blob: images, the sheet, CSV, the backup). */
async function rawFetch(method, path, opts) {
	const o = opts || {};
	const headers = { Accept: o.blob ? '*/*' : 'application/json' };
	if (o.body !== undefined) headers['Content-Type'] = 'application/json';
	if (o.token) headers.Authorization = 'Bearer ' + o.token;
	let res, text = '', blob = null;
	try {
		res = await fetch(API + path, {
			method, headers, cache: 'no-store', credentials: 'same-origin',
			body: o.body === undefined ? undefined : JSON.stringify(o.body)
		});
		if (o.blob && res.ok) blob = await res.blob();
		else text = await res.text();
	} catch (e) {
		throw new NetError('No connection to the server.');
	}
	if (blob) return { status: res.status, blob, headers: res.headers };
	let data = null;
	try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
	if (res.ok && data && typeof data === 'object') return { status: res.status, data, headers: res.headers };
	const err = data && data.error && typeof data.error === 'object' ? data.error : {};
	let code = typeof err.code === 'string' ? err.code : null;
	if (!code) code = res.status >= 500 || res.ok ? 'INTERNAL_ERROR' : res.status === 401 ? 'UNAUTHORIZED' : 'HTTP_' + res.status;
	const msg = typeof err.message === 'string' && err.message ? err.message :
	    res.ok ? 'The server sent an unreadable answer.' : 'The server answered with status ' + res.status + '.';
	throw new ApiError(res.status, code, msg, err.details, retryAfterSecs(res.headers.get('Retry-After')),
	    !!(data && res.headers.get('X-Request-Id')));
}

let refreshing = null;
/* Counts logins and session ends: an answer that comes back after either
 * belongs to a session that is over, and is dropped (a refresh in flight
 * must not put logged-out tokens back). As js/api.js's. */
let epoch = 0;

/* An authenticated call, as the till makes it: on 401 one refresh at a
 * time (a refresh token is single-use), then the call again; a refused
 * refresh ends the session. */
async function api(method, path, body, opts) {
	const token = ss.getItem(K.access), e0 = epoch;
	if (!token) { endSession('Please log in.'); throw new SessionEnded('Not logged in.'); }
	const o = Object.assign({}, opts, { body });
	try {
		return await rawFetch(method, path, Object.assign({}, o, { token }));
	} catch (e) {
		if (!(e instanceof ApiError) || e.status !== 401) throw e;
	}
	if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
	if (ss.getItem(K.access) === token) {
		if (!refreshing) refreshing = refreshTokens().finally(() => { refreshing = null; });
		await refreshing;
	}
	if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
	const fresh = ss.getItem(K.access);
	if (!fresh) throw new SessionEnded('Session ended.');
	try {
		return await rawFetch(method, path, Object.assign({}, o, { token: fresh }));
	} catch (e) {
		if (e instanceof ApiError && e.status === 401) {
			endSession('Your session has ended. Please log in again.');
			throw new SessionEnded(e.message);
		}
		throw e;
	}
}

async function refreshTokens() {
	const rt = ss.getItem(K.refresh), e0 = epoch;
	if (!rt) { endSession('Your session has ended. Please log in again.'); throw new SessionEnded('No refresh token.'); }
	let r;
	try {
		r = await rawFetch('POST', 'auth/refresh', { body: { refresh_token: rt } });
	} catch (e) {
		if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
		if (e instanceof NetError || (e instanceof ApiError && (e.status >= 500 || e.status === 429))) throw e;
		endSession('Your session has ended. Please log in again.');
		throw new SessionEnded(e.message);
	}
	const d = r.data;
	if (typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string')
		throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
	if (epoch !== e0) throw new SessionEnded('Logged out meanwhile.');
	ss.setItem(K.access, d.access_token);
	ss.setItem(K.refresh, d.refresh_token);
}

/* The data of an answer in the v1 envelope. */
function payload(r) {
	const d = r && r.data && r.data.data;
	if (!d || typeof d !== 'object') throw new ApiError(r ? r.status : 0, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
	return d;
}
const apiGet = async (path) => payload(await api('GET', path));
const apiPatch = async (path, body) => payload(await api('PATCH', path, body));

/* Idempotency keys: the same attempt (same kind and body) after a lost
 * answer or a server fault reuses its key, so nothing is made twice;
 * anything else gets a new key. */
const attempts = {};
async function apiCreate(kind, path, body, raw) {
	const sig = JSON.stringify(body);
	let a = attempts[kind];
	if (!a || a.sig !== sig) a = attempts[kind] = { sig, key: uuid() };
	const b = Object.assign({}, body, { idempotency_key: a.key });
	try {
		const r = raw ? await rawFetch('POST', path, { body: b }) : await api('POST', path, b);
		delete attempts[kind];
		return r;
	} catch (e) {
		if (!(e instanceof NetError) && !(e instanceof ApiError && e.status >= 500)) delete attempts[kind];
		throw e;
	}
}

/* ---- messages --------------------------------------------------------- */

/* CONFIGURATION_ERROR: the server is set up so that the service cannot
 * run (the message says what is wrong; the server's log names the file).
 * Fixed on the server, never by retrying here. */
function configHelp(msg) {
	const items = [
		h('li', null, 'The database is the file that the ', h('code', null, 'database'), ' line of ',
			h('code', null, 'api-bin/loyalty.conf'), ' names (', h('code', null, 'data/loyalty.db'),
			' beside the pages, as downloaded), or your host\'s ', h('code', null, 'SetEnv LOYALTY_DB'),
			'. Its folder must exist.'),
		h('li', null, 'The service must be able to write in that folder, and to the database and its -wal and -shm files once they exist. ',
			'Where your host runs scripts as your own user (suEXEC, most hosts), folders of mode 755 and files of 644 that you uploaded work. ',
			'Where it runs every site as one web server user, that user must write there: make the folder 777 with your FTP program or your host\'s file manager (the back office then warns you what that means).'),
		h('li', null, 'The server\'s error log (Errors or Logs in your host\'s control panel) names the file and the user the service runs as.')];
	/* The first visit on a host that runs every site as the web server's
	 * user: what to do, first and plainly. */
	if (/folder is not writable by this user, who would create it/.test(msg || ''))
		items.unshift(h('li', null, h('strong', null, 'Your host runs the shop\'s programs as the web server\'s user, which cannot write in data/. '),
			'Set the folder data/ (inside the shop\'s folder) to 777 with your FTP program or file manager and reload this page; the page then explains what that means.'));
	return h('div', { className: 'db-help' },
		h('p', null, 'This is fixed on the server, not on this page:'),
		h('ul', null, ...items),
		h('p', null, 'Then reload this page.'));
}

/* A 500 of the web server's own (no JSON of the service's): its programs
 * did not run at all. What a shopkeeper on web hosting can check. */
function startHelp() {
	return h('div', { className: 'db-help' },
		h('p', null, 'The shop\'s programs did not answer. On web hosting this is one of:'),
		h('ul', null,
			h('li', null, 'The programs in ', h('code', null, 'api-bin/'), ' are not executable: set them to 755 (permissions, or "chmod", in your FTP program or file manager), and the folder itself to 755.'),
			h('li', null, h('strong', null, 'The download is for another kind of machine. '),
				'Most hosts are x86_64 (the download ending in ', h('code', null, 'linux-x86_64'),
				'); ARM servers and the Raspberry Pi are aarch64. Your control panel\'s server information says which ("Architecture" or "Machine"). ',
				'Upload the programs of the other download into ', h('code', null, 'api-bin/'), ' over these.'),
			h('li', null, 'Your host runs no CGI programs for this site: ask it to allow CGI or FastCGI (mod_fcgid) and .htaccess files (AllowOverride).')),
		h('p', null, 'Then reload this page. The server\'s error log (Errors or Logs in your control panel) may say more.'));
}

/* The same for a shop kept on a PostgreSQL server (the message names it):
 * nothing about files and folders. */
function pgConfigHelp() {
	return h('div', { className: 'db-help' },
		h('p', null, 'This is fixed on the server, not on this page: whoever runs the shop\'s servers sets ',
			h('code', null, 'LOYALTY_DB'), ' (or the ', h('code', null, 'database'), ' line of ',
			h('code', null, 'loyalty.conf'), ') to the PostgreSQL database, with a user and password the server accepts, and sets a new database up with ',
			h('code', null, 'loyalty-admin init'), '. The server\'s error log says what is wrong.'),
		h('p', null, 'Then reload this page.'));
}

/* An error as text: the message (the API's own); its code is kept in a
 * data attribute (for support), not shown. */
function errorNode(e, noWait) {
	if (e instanceof NetError)
		return h('span', null, h('strong', null, 'No connection to the server.'), ' Check the network and try again.');
	if (e instanceof FormError) return h('span', e.code ? { dataset: { code: e.code } } : null, e.message);
	if (e instanceof ApiError) {
		const parts = [h('strong', { dataset: { code: e.code || '' } }, e.message || e.code)];
		if (!noWait && e.retryAfter !== null && e.retryAfter !== undefined && (e.status === 429 || e.status === 503))
			parts.push(' Try again in ' + plural(e.retryAfter, 'second', 'seconds') + '.');
		/* A database deleted but half says itself what to do. */
		if (e.code === 'CONFIGURATION_ERROR' && !/-wal or -shm file is still there/.test(e.message || ''))
			parts.push(/PostgreSQL/.test(e.message || '') ? pgConfigHelp() : configHelp(e.message));
		/* The web server's own 500 in the service's place: its programs
		 * did not run (the start screen says so at more length). */
		if (e.status === 500 && e.served === false && !noWait)
			parts.push(startHelp());
		return h('span', null, parts);
	}
	return h('span', null, h('strong', null, 'Unexpected error.'), ' ' + (e && e.message ? e.message : ''));
}

function setMsg(el, e) {
	el = typeof el === 'string' ? $(el) : el;
	setKids(el);
	if (e) el.append(e instanceof Node ? e : errorNode(e));
	el.hidden = !e;
}

function busy(btn, on) {
	if (!btn) return;
	btn.disabled = on;
	btn.setAttribute('aria-busy', on ? 'true' : 'false');
}

let toastTimer = null;
/* A short confirmation ("Location added."): shown for a while, and
 * announced by a live region that is always there (a region that appears
 * with its text is not reliably read). */
function toast(text) {
	const t = $('toast'), live = $('toast-live');
	clearTimeout(toastTimer);
	t.textContent = text;
	t.hidden = false;
	live.textContent = '';
	setTimeout(() => { live.textContent = text; }, 50);
	toastTimer = setTimeout(() => { t.hidden = true; t.textContent = ''; }, 7000);
}

/* ---- forms ------------------------------------------------------------ */

function clearFormError(form) {
	for (const el of form.querySelectorAll('[aria-invalid="true"]')) el.setAttribute('aria-invalid', 'false');
	const box = form.querySelector('.form-msg');
	if (box) setMsg(box, null);
}

/* Shows an error in the form's message box and marks (and focuses) the
 * field it is about: the page's own field, or the API's details.field. */
function showFormError(form, e) {
	const box = form.querySelector('.form-msg');
	setMsg(box, e);
	let f = null;
	if (e instanceof FormError && e.field) f = typeof e.field === 'string' ? form.querySelector('[data-field="' + e.field + '"]') : e.field;
	else if (e instanceof ApiError && e.details && typeof e.details.field === 'string')
		f = form.querySelector('[data-field="' + e.details.field.replace(/[^\w.-]/g, '') + '"]');
	if (f) {
		f.setAttribute('aria-invalid', 'true');
		f.focus();
	} else {
		box.scrollIntoView({ block: 'nearest' });
	}
}

/* Runs fn on submit with the button busy; a failure shows in the form. */
function onSubmit(form, fn) {
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

function need(input, what, max) {
	const v = input.value.trim();
	if (!v) throw new FormError('Enter ' + what + '.', input);
	if (max && v.length > max) throw new FormError(what.replace(/^(a|an|the) /, '').replace(/^./, (c) => c.toUpperCase()) + ' is too long (at most ' + max + ' characters).', input);
	return v;
}
function needPassword(p1, p2) {
	if (p1.value.length < PASSWORD_MIN) throw new FormError('The password needs at least ' + PASSWORD_MIN + ' characters.', p1);
	if (p1.value !== p2.value) throw new FormError('The two passwords differ. Type the same password twice.', p2);
	return p1.value;
}

/* A labelled field: {label, type, value, field, hint, ...input props}. */
function field(o) {
	const id = uid('f');
	const hintId = o.hint ? id + '-hint' : null;
	const props = {
		id, type: o.type || 'text', value: o.value === undefined || o.value === null ? '' : String(o.value),
		autocomplete: o.autocomplete || 'off', dataset: o.field ? { field: o.field } : undefined,
		'aria-describedby': hintId || undefined
	};
	for (const k of ['maxLength', 'inputMode', 'readOnly', 'spellcheck', 'placeholder', 'min', 'max', 'step', 'className'])
		if (o[k] !== undefined) props[k] = o[k];
	const input = o.control || h('input', props);
	if (o.control) {
		input.id = id;
		if (o.field) input.dataset.field = o.field;
		if (hintId) input.setAttribute('aria-describedby', hintId);
	}
	const wrap = h('div', { className: 'field' + (o.wrapClass ? ' ' + o.wrapClass : '') },
		h('label', { htmlFor: id }, o.label, o.optional ? h('span', { className: 'optional' }, ' (optional)') : null),
		input, o.hint ? h('p', { className: 'hint', id: hintId }, o.hint) : null);
	wrap.input = input;
	return wrap;
}

/* ---- dialogs ---------------------------------------------------------- */

/* A modal form: resolves true once onSubmit(form) succeeded (then the
 * dialog closes), false when cancelled. onSubmit's errors show inside. */
function openDialog(o) {
	return new Promise((resolve) => {
		const titleId = uid('dlg');
		const back = document.activeElement;
		const err = h('div', { className: 'msg msg-error form-msg', role: 'alert', hidden: true });
		const submit = h('button', { type: 'submit', className: 'btn ' + (o.danger ? 'btn-danger' : 'btn-primary') }, o.submitLabel || 'Save');
		const cancel = h('button', { type: 'button', className: 'btn' }, o.cancelLabel || 'Cancel');
		const form = h('form', { className: 'dlg-form', noValidate: true },
			h('h2', { id: titleId }, o.title),
			o.intro ? h('p', { className: 'dlg-intro' }, o.intro) : null,
			o.body || null, err,
			h('div', { className: 'btn-row dlg-btns' }, submit, cancel));
		const dlg = h('dialog', { className: 'dlg', 'aria-labelledby': titleId }, form);
		let done = false;
		cancel.addEventListener('click', () => dlg.close());
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
		const first = form.querySelector('input:not([readonly]), select, textarea');
		(first || submit).focus();
	});
}
function confirmDialog(title, text, okLabel, danger) {
	return openDialog({ title, intro: text, submitLabel: okLabel, danger, onSubmit: async () => {} });
}

/* ---- state ------------------------------------------------------------ */

let user = null;
const st = {
	locations: [], users: [], programs: [], settings: [],
	section: null
};
const locName = (id) => { const l = st.locations.find((x) => x.id === id); return l ? l.name : '—'; };
const progOf = (id) => st.programs.find((p) => p.id === id) || null;
function settingValue(key, def) {
	const x = st.settings.find((v) => v.key === key);
	return x && Number.isInteger(x.value) ? x.value : def;
}

async function loadLocations() { st.locations = (await apiGet('admin/locations')).locations || []; }
async function loadUsers() { st.users = (await apiGet('admin/users')).users || []; }
async function loadPrograms() { st.programs = (await apiGet('admin/programs')).programs || []; }
async function loadSettings() {
	const d = await apiGet('admin/settings');
	st.settings = d.settings || [];
	showHosting('hosting-warn', d.hosting);
}

/* ---- views and session ------------------------------------------------ */

const VIEWS = ['boot-view', 'setup-view', 'login-view', 'staff-view', 'app-view'];
function showView(v) {
	for (const x of VIEWS) show(x, x === v);
	show('session-bar', v === 'app-view');
	show('side-nav', v === 'app-view');
	document.body.classList.toggle('with-nav', v === 'app-view');
}

/* The Log out buttons: the server ends the login too (else its refresh
 * token would work on for its 30 days); the page forgets it whatever the
 * answer. */
function logOut() {
	const at = ss.getItem(K.access), rt = ss.getItem(K.refresh);
	if (at || rt)
		rawFetch('POST', 'auth/logout', { token: at || undefined, body: rt ? { refresh_token: rt } : {} }).catch(() => {});
	endSession('You are logged out.');
}

function endSession(notice) {
	epoch++;
	for (const k of Object.values(K)) ss.removeItem(k);
	user = null;
	resetState();
	showLogin(notice);
	recheckSetup();
}

/* A session that ends, or a login refused, after the shop was deleted to
 * start over: the old owner's logins name a shop that is gone, and the
 * setup form is what the page needs. Else the login stays. */
async function recheckSetup() {
	try {
		const d = payload(await rawFetch('GET', 'setup'));
		if (d.setup_needed === true) showSetup(d);
	} catch (e) { /* a set-up shop (404) or no answer: the login stays */ }
}

/* Forgets what the last owner saw: the next login may be another shop's. */
function resetState() {
	st.section = null;
	st.locations = [];
	st.users = [];
	st.programs = [];
	st.settings = [];
	closeCard();
	selected.clear();
	Object.assign(cq, { q: '', program_id: '', status: '', page: 1, pages: 0, loaded: false });
	cq.seq++;
	pageCards = [];
	issuedIds = [];
	rep.shown = false;
	rep.seq++;
	rep.txSeq++;
	chartArgs = null;
	for (const id of ['issued', 'sheet-note', 'report-out', 'app-notice', 'card-detail']) show(id, false);
	for (const f of document.querySelectorAll('#app-view form')) { f.reset(); clearFormError(f); }
	resetProgramForm();
	setKids($('cards-body'));
	setKids($('cards-page'));
}

function showLogin(notice, email) {
	showView('login-view');
	document.title = 'Log in · Loyalty back office';
	const n = $('login-notice');
	n.textContent = notice || '';
	n.hidden = !notice;
	clearFormError($('login-form'));
	$('login-password').value = '';
	if (email) $('login-email').value = email;
	($('login-email').value ? $('login-password') : $('login-email')).focus();
}

function startSession(u) {
	user = u;
	writeJSON(ss, K.user, u);
	if (u.user_type !== 'owner') {
		showView('staff-view');
		document.title = 'Till login · Loyalty back office';
		$('staff-email').textContent = u.email || '';
		$('staff-till-link').focus();
		return;
	}
	$('who-email').textContent = u.email || '';
	showView('app-view');
	loadBase();
	route(true);
}

/* The lists every section uses; each failure shows in its section. */
async function loadBase() {
	await Promise.all([
		loadLocations().catch(() => {}), loadUsers().catch(() => {}),
		loadPrograms().catch(() => {}), loadSettings().catch(() => {})
	]);
}

async function boot() {
	showView('boot-view');
	document.title = 'Loyalty back office';
	$('boot-text').textContent = 'Connecting to the server…';
	setMsg('boot-error', null);
	show('boot-retry', false);
	try {
		const r = await rawFetch('GET', 'setup');
		const d = payload(r);
		if (d.setup_needed === true) showSetup(d);
		else showLogin(null);
	} catch (e) {
		if (e instanceof ApiError && e.status === 404) { showLogin(null); return; }
		$('boot-text').textContent = 'The back office could not start.';
		setMsg('boot-error', e instanceof ApiError && [500, 502, 503].includes(e.status) && !e.served ? h('span', null, errorNode(e, true), startHelp()) : e);
		show('boot-retry', true);
		$('boot-retry').focus();
	}
}

/* What the host's layout lets others reach (the hosting object of the
 * setup and settings answers): the warnings as paragraphs, or null. On
 * a shared web user the files are the web server's, not the merchant's:
 * no chmod of theirs reaches them, the host has to change. */
const HOSTING_WARNINGS = {
	shared_web_user: () =>
		'Your host runs this shop\'s programs as the web server\'s user, which every other website on this server shares. ' +
		'Any of them can read and change your shop\'s data: customers, balances and logins. That is fine for trying the service out. ' +
		'For a real shop, ask your host to run your programs as your own account ("suEXEC", or CGI "as your own user"; most hosts do) or move to a host that does; then this warning goes away. ' +
		'Before the host changes it, download a backup (Backup): the shop\'s files are the web server\'s and your account cannot read them afterwards. ' +
		'Then delete the files in data/ whose names begin with loyalty.db, set data/ to 755 and restore the backup (INSTALL, "Restoring a backup").',
	data_folder_writable_by_all: (shared) =>
		'Every user of this server may delete or swap the files in the database\'s folder (mode 777): someone else could replace your shop\'s database. ' +
		(shared ? 'It has to be so while your host runs the programs as the web server\'s user.' :
		    'Set that folder (data/, or the one api-bin/loyalty.conf names) to 700 with your FTP program or file manager.'),
	database_readable_by_all: (shared) =>
		'Every user of this server may read the database file. ' +
		(shared ? 'Remove the line "umask = 022" from api-bin/loyalty.conf; your host can make the files private (they are the web server\'s, not yours).' :
		    'Remove the line "umask = 022" from api-bin/loyalty.conf and set the files in the database\'s folder to 600.')
};
function hostingWarning(hosting, asSummary) {
	const list = hosting && Array.isArray(hosting.warnings) ? hosting.warnings.filter((w) => HOSTING_WARNINGS[w]) : [];
	if (!list.length) return null;
	const shared = list.includes('shared_web_user');
	const head = 'Your shop\'s data is not private on this host.';
	return [asSummary ? h('summary', null, h('strong', null, head)) : h('p', null, h('strong', null, head)),
		...list.map((w) => h('p', { dataset: { warning: w } }, HOSTING_WARNINGS[w](shared)))];
}
/* In the back office (a details element) the whole text on Overview and
 * Settings, the first line elsewhere: a phone's screen stays the
 * section's. */
function showHosting(id, hosting) {
	const el = $(id), n = hostingWarning(hosting, el.tagName === 'DETAILS');
	setKids(el);
	if (n) el.append(...n);
	show(el, !!n);
	if (el.tagName === 'DETAILS') el.open = st.section === 'overview' || st.section === 'settings' || !st.section;
}

/* Why the server offers no proof file (proof_unavailable), and what the
 * merchant changes so that it does. */
const PROOF_UNAVAILABLE = {
	programs_folder_open: 'The folder of the programs (api-bin/), or a folder above it, may be written by other users of this server, so a file in it proves nothing. Set api-bin/ and the shop\'s folder to 755 with your FTP program or file manager, then reload this page.',
	programs_folder_shared: 'The programs (api-bin/) belong to the web server\'s user, not to your account, so a file in their folder proves nothing. Upload the shop again with your FTP program, as your account, then reload this page.',
	programs_folder_unknown: 'The service cannot tell which folder its programs are in on this server.'
};

/* The setup's ways to show the installation is one's own: the code (its
 * file, or loyalty-admin on PostgreSQL), or a proof file put beside the
 * programs (d.proof). Where every site could read the code's file (a
 * shared web user) the server makes none, and the proof file is the
 * only way. The proof offered first is kept for the tab: a reload, once
 * the merchant has the file, must not make a new name. */
const PROOF_KEY = 'owner.setup_proof';
let setupProof = null, setupByProof = false, setupShared = false;
/* Opened over plain http from another machine (js/http-warning.js). */
function insecurePage() {
	return document.documentElement.dataset.insecure === '1';
}

function showSetup(d) {
	show('setup-insecure', insecurePage());
	const byCommand = typeof d.code_command === 'string' && d.code_command !== '';
	const codeFile = typeof d.code_file === 'string' && d.code_file ? d.code_file : '';
	const p = d.proof && typeof d.proof.secret === 'string' && typeof d.proof.file === 'string' &&
	    typeof d.proof.folder === 'string' ? d.proof : null;
	/* Kept only for the same database (round): after starting over, an
	 * old proof names nothing. */
	const kept = readJSON(ss, PROOF_KEY, null);
	setupProof = p && kept && typeof kept.secret === 'string' && typeof kept.file === 'string' &&
	    kept.folder === p.folder && kept.round === p.round ? kept : p;
	if (setupProof) ss.setItem(PROOF_KEY, JSON.stringify(setupProof));
	const hasCode = byCommand || !!codeFile;
	/* There the service cannot delete the used proof file itself. */
	setupShared = !!(d.hosting && Array.isArray(d.hosting.warnings) && d.hosting.warnings.includes('shared_web_user'));
	showView('setup-view');
	document.title = 'Set up your shop · Loyalty back office';
	showHosting('setup-hosting', d.hosting);
	$('setup-code-file').textContent = codeFile || 'loyalty.db.setup-code';
	$('setup-db-file').textContent = (codeFile || 'loyalty.db.setup-code').replace(/\.setup-code$/, '');
	const why = typeof d.proof_unavailable === 'string' ? PROOF_UNAVAILABLE[d.proof_unavailable] || PROOF_UNAVAILABLE.programs_folder_unknown : '';
	$('setup-no-proof').textContent = !setupProof && !hasCode ? why : '';
	show('setup-no-proof', !setupProof && !hasCode);
	if (setupProof) {
		$('setup-proof-name').textContent = setupProof.file;
		$('setup-proof-folder').textContent = setupProof.folder;
		const a = $('setup-proof-download');
		if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
		a.href = URL.createObjectURL(new Blob(['This file shows that this Loyalty POS installation is yours.\r\n' +
			'Its name must be exactly ' + setupProof.file + ' (a browser may add "(1)" to a second download).\r\n' +
			'Upload it into the folder ' + setupProof.folder + '/ of the shop, beside the programs.\r\n' +
			'You may delete it once your shop is set up.\r\n'], { type: 'text/plain' }));
		a.download = setupProof.file;
		$('setup-proof-why').hidden = hasCode;
	}
	setSetupWay(!!setupProof && !hasCode, byCommand, hasCode);
}
function setSetupWay(byProof, byCommand, hasCode) {
	setupByProof = byProof && !!setupProof;
	show('setup-proof', setupByProof);
	show('setup-code-in-file', !setupByProof && hasCode && !byCommand);
	show('setup-code-by-command', !setupByProof && hasCode && byCommand);
	show('setup-code-field', !setupByProof && hasCode);
	show('setup-switch', !!setupProof && hasCode);
	$('setup-switch-button').textContent = setupByProof ? 'Use the setup code instead' :
	    byCommand ? 'I cannot run that command' : 'I cannot open that file';
	$('setup-switch-button').dataset.byCommand = byCommand ? '1' : '';
	(setupByProof ? $('setup-proof-download') : hasCode ? $('setup-code') : $('setup-shop')).focus();
}

async function onSetup(form) {
	const code = setupByProof ? '' : need($('setup-code'), 'the setup code', 64);
	const shop = need($('setup-shop'), 'the shop\'s name', 200);
	const loc = need($('setup-location'), 'the name of the first location', 200);
	const name = need($('setup-name'), 'your name', 200);
	const email = need($('setup-email'), 'your e-mail address', 254);
	if (!looksLikeEmail(email)) throw new FormError('Enter an e-mail address such as you@example.com.', $('setup-email'));
	const password = needPassword($('setup-password'), $('setup-password2'));
	const proof = setupByProof ? setupProof : null;
	if (insecurePage() && !$('setup-insecure-ok').checked)
		throw new FormError('This connection is not secure: tick "I understand" to set the shop up over it anyway, or open the page with https://.', $('setup-insecure-ok'));
	try {
		await apiCreate('setup', 'setup', Object.assign(proof ? { setup_proof: proof.secret } : { setup_code: code }, {
			merchant_name: shop, location_name: loc,
			owner_name: name, owner_email: email, owner_password: password
		}), true);
	} catch (e) {
		if (e instanceof ApiError && e.status === 404) {
			showLogin('This shop is set up already. Log in with the owner\'s e-mail and password.', email);
			return;
		}
		throw e;
	}
	for (const id of ['setup-code', 'setup-password', 'setup-password2']) $(id).value = '';
	ss.removeItem(PROOF_KEY);
	try {
		await login(email, password);
	} catch (e) {
		showLogin('Your shop is set up. Log in with your e-mail and password.', email);
		setMsg('login-error', e);
		return;
	}
	$('app-notice').textContent = 'Your shop "' + shop + '" is ready. Next: add a login for each till or cashier, then a loyalty program, then issue cards.' +
	    (proof && setupShared ? ' You may now delete the file ' + proof.file + ' from ' + proof.folder + '/.' : '');
	show('app-notice', true);
}

async function login(email, password) {
	const r = await rawFetch('POST', 'auth/login', { body: { email, password } });
	const d = r.data;
	if (!d || typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string' || !d.user)
		throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
	epoch++;
	ss.setItem(K.access, d.access_token);
	ss.setItem(K.refresh, d.refresh_token);
	ss.removeItem(K.location);
	startSession(d.user);
}

async function onLogin() {
	const email = $('login-email').value.trim(), password = $('login-password').value;
	if (!email) throw new FormError('Enter your e-mail and password.', $('login-email'));
	if (!password) throw new FormError('Enter your e-mail and password.', $('login-password'));
	show('login-notice', false);
	try {
		await login(email, password);
		$('login-password').value = '';
	} catch (e) {
		$('login-password').select();
		if (e instanceof ApiError && e.status === 401) recheckSetup();
		throw e;
	}
}

/* ---- navigation ------------------------------------------------------- */

function route(focus) {
	if (!user || user.user_type !== 'owner') return;
	let name = location.hash.slice(1);
	if (!SECTIONS.includes(name)) {
		if (st.section) return; /* the skip link (#main) and the like */
		name = 'overview';
	}
	const changed = st.section !== name;
	st.section = name;
	for (const x of SECTIONS) show('sec-' + x, x === name);
	for (const a of document.querySelectorAll('#side-nav a'))
		if (a.dataset.sec === name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
	document.title = SECTION_NAMES[name] + ' · Loyalty back office';
	if (changed) {
		if (name !== 'overview') show('app-notice', false);
		$('hosting-warn').open = name === 'overview' || name === 'settings';
		refreshSection();
		if (focus) $('h-' + name).focus({ preventScroll: true });
		window.scrollTo(0, 0);
	}
}

function refreshSection() {
	const f = {
		overview: showOverview, locations: showLocations, staff: showStaff, programs: showPrograms,
		cards: showCards, reports: showReports, backup: () => {}, settings: showSettings,
		audit: showAudit
	}[st.section];
	if (f) f();
}

/* ---- overview --------------------------------------------------------- */

async function showOverview() {
	if (st.locations.length) renderSteps();
	try {
		await Promise.all([loadLocations(), loadUsers(), loadPrograms(), st.settings.length ? null : loadSettings()]);
		renderSteps();
		const t = ymd(shopToday());
		const d = await apiGet('admin/reports/summary?' + new URLSearchParams({ from: t, to: t, group: 'day' }));
		setMsg('today-error', null);
		const tt = d.totals || {};
		setKids($('today-figures'), figure('Sales', money(tt.sales_amount), 'big'), figure('Purchases', int(tt.purchases)),
			figure('Cashback earned', money(tt.cashback_earned)), figure('Cashback owed to customers', money(d.outstanding_cashback)));
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('today-error', e);
	}
}

function renderSteps() {
	const staff = st.users.filter((u) => u.user_type === 'system_user' && !u.disabled).length;
	const cards = st.programs.reduce((n, p) => n + (Number.isInteger(p.card_count) ? p.card_count : 0), 0);
	const steps = [
		[true, 'Your shop is set up.', null, null],
		[st.locations.length > 0, plural(st.locations.length, 'location', 'locations') + '. Add one for each shop or stand.', '#locations', 'Locations'],
		[staff > 0, staff ? plural(staff, 'till login', 'till logins') + '.' : 'Add a login for each till or cashier.', '#staff', 'Staff'],
		[st.programs.length > 0, st.programs.length ? plural(st.programs.length, 'loyalty program', 'loyalty programs') + '.' : 'Create a loyalty program: punch card, cashback or discount.', '#programs', 'Programs'],
		[cards > 0, cards ? plural(cards, 'card', 'cards') + ' issued.' : 'Issue cards to your customers and print them.', '#cards', 'Cards'],
		[null, 'Record purchases on the till; follow them in the reports.', 'index.html', 'Open the till']
	];
	setKids($('steps'), ...steps.map(([done, text, href, label]) => h('li', { className: done ? 'done' : done === false ? 'todo' : '' },
		h('span', { className: 'step-mark', 'aria-hidden': 'true' }, done ? '✓' : ''),
		h('span', { className: 'visually-hidden' }, done ? 'Done: ' : done === false ? 'To do: ' : ''),
		h('span', { className: 'step-text' }, text),
		href ? h('a', { href, className: 'btn btn-small' }, label) : null)));
}

function figure(label, value, cls) {
	return h('div', { className: 'bal ' + (cls || '') }, h('dt', null, label), h('dd', null, value));
}

/* ---- locations -------------------------------------------------------- */

async function showLocations() {
	renderLocations();
	try {
		await loadLocations();
		setMsg('locations-error', null);
		renderLocations();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('locations-error', e);
	}
}

function renderLocations() {
	const rows = st.locations.map((l) => h('tr', null,
		h('td', { dataset: { label: 'Name' } }, l.name),
		h('td', { dataset: { label: 'Added' } }, day(l.created_at)),
		h('td', { className: 'actions' }, h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Rename ' + l.name, onclick: () => renameLocation(l) }, 'Rename'))));
	setKids($('locations-body'), ...rows);
	if (!rows.length) $('locations-body').append(h('tr', null, h('td', { colSpan: 3, className: 'empty' }, 'No locations yet.')));
}

async function onAddLocation(form) {
	const name = need($('location-name'), 'a name', 200);
	const d = payload(await apiCreate('location', 'admin/locations', { name }));
	$('location-name').value = '';
	toast('Location "' + d.location.name + '" added.');
	await showLocations();
	$('location-name').focus();
}

function renameLocation(l) {
	const f = field({ label: 'Name', value: l.name, field: 'name', maxLength: 200 });
	openDialog({
		title: 'Rename ' + l.name, body: f, submitLabel: 'Rename',
		onSubmit: async () => {
			const name = need(f.input, 'a name', 200);
			await apiPatch('admin/locations/' + encodeURIComponent(l.id), { name });
			toast('Location renamed to "' + name + '".');
			showLocations();
		}
	});
}

/* ---- staff ------------------------------------------------------------ */

async function showStaff() {
	renderStaff();
	try {
		await Promise.all([loadUsers(), loadLocations()]);
		setMsg('staff-error', null);
		renderStaff();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('staff-error', e);
	}
}

function locationOptions(sel, current) {
	setKids(sel, ...st.locations.map((l) => h('option', { value: l.id, selected: l.id === current }, l.name)));
}

function renderStaff() {
	const keep = $('staff-location').value;
	locationOptions($('staff-location'), keep);
	show('staff-location-field', $('staff-type').value === 'system_user');
	const rows = st.users.map((u) => {
		const who = u.name || u.email;
		const self = user && u.id === user.id;
		const actions = [
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Edit ' + who, onclick: () => editUser(u) }, 'Edit'),
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Set a new password for ' + who, onclick: () => passwordUser(u) }, 'New password')
		];
		if (!self)
			actions.push(h('button', { type: 'button', className: 'btn btn-small' + (u.disabled ? '' : ' btn-warn'), 'aria-label': (u.disabled ? 'Enable ' : 'Disable ') + who, onclick: () => toggleUser(u) }, u.disabled ? 'Enable' : 'Disable'));
		return h('tr', { className: u.disabled ? 'is-off' : '' },
			h('td', { dataset: { label: 'Name' } }, h('span', null, u.name || h('span', { className: 'muted' }, '—'), self ? h('span', { className: 'muted' }, ' (you)') : null)),
			h('td', { dataset: { label: 'E-mail' } }, h('span', { className: 'break' }, u.email)),
			h('td', { dataset: { label: 'Role' } }, u.user_type === 'owner' ? 'Owner' : 'Staff'),
			h('td', { dataset: { label: 'Location' } }, u.user_type === 'owner' ? 'All locations' : locName(u.location_id)),
			h('td', { dataset: { label: 'Status' } }, h('span', { className: 'tag ' + (u.disabled ? 'tag-bad' : 'tag-ok') }, u.disabled ? 'Disabled' : 'Active')),
			h('td', { className: 'actions' }, h('span', { className: 'btn-row' }, actions)));
	});
	setKids($('staff-body'), ...rows);
}

async function onAddStaff(form) {
	const name = need($('staff-name'), 'a name', 200);
	const email = need($('staff-email-new'), 'an e-mail address', 254);
	if (!looksLikeEmail(email)) throw new FormError('Enter an e-mail address such as sam@example.com.', $('staff-email-new'));
	const type = $('staff-type').value;
	const loc = $('staff-location').value;
	if (type === 'system_user' && !loc) throw new FormError('Add a location first.', $('staff-location'));
	const password = needPassword($('staff-password'), $('staff-password2'));
	const body = { email, password, user_type: type, name };
	if (type === 'system_user') body.location_id = loc;
	const d = payload(await apiCreate('user', 'admin/users', body));
	for (const id of ['staff-name', 'staff-email-new', 'staff-password', 'staff-password2']) $(id).value = '';
	toast((d.user.user_type === 'owner' ? 'Owner ' : 'Staff login ') + d.user.email + ' added.' +
	    (d.user.user_type === 'system_user' ? ' They log in on the till.' : ''));
	await showStaff();
	$('staff-name').focus();
}

function editUser(u) {
	const who = u.name || u.email;
	const fName = field({ label: 'Name', value: u.name || '', field: 'name', maxLength: 200 });
	const kids = [h('p', { className: 'hint' }, 'E-mail: ' + u.email), fName];
	let sel = null;
	if (u.user_type === 'system_user') {
		sel = h('select');
		locationOptions(sel, u.location_id);
		kids.push(field({ label: 'Location', control: sel, field: 'location_id', hint: 'Moving a login changes where its purchases are recorded from now on.' }));
	}
	openDialog({
		title: 'Edit ' + who, body: h('div', null, kids),
		onSubmit: async () => {
			const name = fName.input.value.trim();
			if (name.length > 200) throw new FormError('The name is too long (at most 200 characters).', fName.input);
			const body = { name };
			if (sel) body.location_id = sel.value;
			await apiPatch('admin/users/' + encodeURIComponent(u.id), body);
			toast('Saved ' + (name || u.email) + '.');
			showStaff();
		}
	});
}

function passwordUser(u) {
	const who = u.name || u.email;
	const p1 = field({ label: 'New password', type: 'password', field: 'password', autocomplete: 'new-password', hint: 'At least ' + PASSWORD_MIN + ' characters.' });
	const p2 = field({ label: 'New password again', type: 'password', field: 'password2', autocomplete: 'new-password' });
	openDialog({
		title: 'New password for ' + who,
		intro: user && u.id === user.id ? 'Your other sessions are logged out; this page asks you to log in again.' :
		    'Every till logged in as ' + who + ' is logged out at once.',
		body: h('div', null, p1, p2), submitLabel: 'Set password',
		onSubmit: async () => {
			const password = needPassword(p1.input, p2.input);
			await apiPatch('admin/users/' + encodeURIComponent(u.id), { password });
			if (user && u.id === user.id) {
				/* That ended this session too. */
				setTimeout(() => endSession('Your password is changed. Log in with the new one.'), 0);
				return;
			}
			toast('New password set for ' + who + '.');
			showStaff();
		}
	});
}

async function toggleUser(u) {
	const who = u.name || u.email;
	const off = !u.disabled;
	if (off && !await confirmDialog('Disable ' + who + '?',
	    who + ' can no longer log in, and every till logged in as them is logged out at once. You can enable the login again later.', 'Disable', true))
		return;
	try {
		await apiPatch('admin/users/' + encodeURIComponent(u.id), { disabled: off });
		toast(who + (off ? ' is disabled.' : ' can log in again.'));
		setMsg('staff-error', null);
		await showStaff();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('staff-error', e);
	}
}

/* ---- programs --------------------------------------------------------- */

async function showPrograms() {
	renderPrograms();
	try {
		await loadPrograms();
		setMsg('programs-error', null);
		renderPrograms();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('programs-error', e);
	}
}

function programFacts(p) {
	if (p.type === 'punch') {
		const rw = p.reward_title || 'a reward';
		return h('div', null,
			h('p', null, h('strong', null, int(p.punch_requirement) + ' punches'), ' earn ', h('strong', null, rw),
				isNum(p.reward_amount) && p.reward_amount > 0 ? ' (value ' + money(p.reward_amount) + ')' : '', '.'),
			p.reward_description ? h('p', { className: 'hint' }, p.reward_description) : null,
			h('p', { className: 'hint' }, 'At most one purchase a card every ' + plural(p.cooldown_seconds, 'second', 'seconds') + '.'));
	}
	const tiers = Array.isArray(p.tiers) ? p.tiers : [];
	const table = h('table', { className: 'mini tiers-table' },
		h('caption', { className: 'visually-hidden' }, 'Tiers of ' + p.title),
		h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Tier'), h('th', { scope: 'col', className: 'num' }, 'From lifetime spend'),
			h('th', { scope: 'col', className: 'num' }, p.type === 'cashback' ? 'Cashback' : 'Discount'))),
		h('tbody', null, tiers.map((t) => h('tr', null, h('td', null, t.name), h('td', { className: 'num' }, money(t.min_spend)), h('td', { className: 'num' }, pct(t.rate))))));
	if (p.type !== 'cashback') return table;
	return h('div', null, table, h('p', { className: 'hint' }, Number.isInteger(p.expiry_days) ?
	    'Cashback expires ' + plural(p.expiry_days, 'day', 'days') + ' after it is earned.' : 'Cashback never expires.'));
}

/* A cashback program's term: days after which each earning expires,
 * empty for never. read(): the number, or null for never. */
function expiryField(p) {
	const f = {};
	f.el = field({ label: 'Cashback expires after (days)', optional: true, value: p && Number.isInteger(p.expiry_days) ? String(p.expiry_days) : '',
	    field: 'expiry_days', inputMode: 'numeric', placeholder: 'never',
	    hint: p ? 'From 1 to 3650, empty for never. A change applies to cashback earned from now on; what customers already earned keeps its date.' :
	        'From 1 to 3650, empty for never. Each purchase\'s cashback expires that many days after it is earned.' });
	f.read = () => {
		if (f.el.input.value.trim() === '') return null;
		const n = parseIntIn(f.el.input.value, 1, 3650);
		if (n === null) throw new FormError('Cashback expires after: a whole number of days from 1 to 3650, or empty for never.', f.el.input);
		return n;
	};
	return f;
}

function renderPrograms() {
	const list = $('programs-list');
	if (!st.programs.length) {
		setKids(list, h('p', { className: 'panel empty-note' }, 'No programs yet. Add your first one below: customers get cards of a program.'));
		return;
	}
	setKids(list, ...st.programs.map((p) => h('article', { className: 'panel program', 'aria-label': p.title },
		h('div', { className: 'card-head' },
			h('div', null, h('h2', null, p.title), h('p', { className: 'card-sub' }, plural(int(p.card_count) === '—' ? 0 : p.card_count, 'card', 'cards'))),
			h('span', { className: 'tag tag-type' }, PROGRAM_TYPES[p.type] || p.type)),
		programFacts(p),
		h('p', { className: 'btn-row' },
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Edit ' + p.title, onclick: () => editProgram(p) }, 'Edit'),
			h('a', { className: 'btn btn-small', href: '#cards', 'aria-label': 'Issue cards of ' + p.title, onclick: () => { pendingProgram = p.id; } }, 'Issue cards')))));
}

/* The punch fields: for a new program (with the punch requirement) or
 * for an edit (without: it cannot change). */
function punchFields(p) {
	const f = {};
	const kids = [];
	if (!p) {
		f.req = field({ label: 'Punches for a reward', value: '10', field: 'punch_requirement', inputMode: 'numeric', hint: 'From 1 to 1000. Cannot be changed later.' });
		kids.push(f.req);
	}
	f.title = field({ label: 'Reward', value: p ? p.reward_title : '', field: 'reward_title', maxLength: 200, hint: 'For example "Free coffee".' });
	f.desc = field({ label: 'Reward description', optional: true, value: p ? p.reward_description : '', field: 'reward_description', maxLength: 500 });
	f.amount = field({ label: 'Reward value', optional: true, value: p ? moneyText(p.reward_amount) : '', field: 'reward_amount', inputMode: 'decimal', placeholder: '0.00', className: 'money-input', hint: 'What the reward is worth, for the records.' });
	f.cooldown = field({ label: 'Seconds between purchases on a card', value: p ? p.cooldown_seconds : 60, field: 'cooldown_seconds', inputMode: 'numeric', hint: '0 to 86400. Stops one purchase from being punched twice; 60 is a good start.' });
	kids.push(h('div', { className: 'form-grid' }, f.title, f.amount), f.desc, f.cooldown);
	f.el = h('div', null, kids);
	f.read = () => {
		const out = {};
		if (f.req) {
			const n = parseIntIn(f.req.input.value, 1, 1000);
			if (n === null) throw new FormError('Punches for a reward: a whole number from 1 to 1000.', f.req.input);
			out.punch_requirement = n;
		}
		out.reward_title = need(f.title.input, 'the reward', 200);
		out.reward_description = f.desc.input.value.trim();
		const a = f.amount.input.value.trim() === '' ? { value: 0 } : parseMoney(f.amount.input.value);
		if (!a) throw new FormError('Reward value: an amount such as 3.50 (at most 2 decimals).', f.amount.input);
		out.reward_amount = a.value;
		const c = parseIntIn(f.cooldown.input.value, 0, 86400);
		if (c === null) throw new FormError('Seconds between purchases: a whole number from 0 to 86400.', f.cooldown.input);
		out.cooldown_seconds = c;
		return out;
	};
	return f;
}

/* The tiers editor: rows of name, lifetime spend from which the tier
 * applies (the first at 0) and rate in percent. */
function tierEditor(type, tiers) {
	const rows = h('div', { className: 'tier-rows' });
	const addBtn = h('button', { type: 'button', className: 'btn btn-small' }, 'Add a tier');
	const rateWord = type === 'discount' ? 'Discount' : 'Cashback';
	const ed = { el: null, rows };
	function renumber() {
		const list = Array.from(rows.children);
		list.forEach((r, i) => {
			r.querySelector('.tier-no').textContent = 'Tier ' + (i + 1);
			const rm = r.querySelector('.tier-remove');
			if (rm) rm.setAttribute('aria-label', 'Remove tier ' + (i + 1));
			const sp = r.spend;
			sp.readOnly = i === 0;
			if (i === 0) sp.value = '0.00';
			r.classList.toggle('first', i === 0);
		});
		addBtn.disabled = list.length >= TIERS_MAX;
	}
	function addRow(t) {
		const name = field({ label: 'Name', value: t ? t.name : '', field: 'tier_name', maxLength: 100 });
		const spend = field({ label: 'From lifetime spend', value: t ? moneyText(t.min_spend) : '', field: 'tier_spend', inputMode: 'decimal', placeholder: '0.00', className: 'money-input' });
		const rate = field({ label: rateWord + ' (%)', value: t ? percentText(t.rate) : '', field: 'tier_rate', inputMode: 'decimal', placeholder: '5' });
		const rm = h('button', { type: 'button', className: 'btn btn-small tier-remove' }, 'Remove');
		const row = h('fieldset', { className: 'tier-row' }, h('legend', { className: 'tier-no' }, 'Tier'), name, spend, rate, h('div', { className: 'field tier-rm' }, rm));
		row.nameIn = name.input;
		row.spend = spend.input;
		row.rate = rate.input;
		rm.addEventListener('click', () => {
			const next = row.nextElementSibling || row.previousElementSibling;
			row.remove();
			renumber();
			if (next) next.nameIn.focus();
		});
		rows.append(row);
		renumber();
		return row;
	}
	addBtn.addEventListener('click', () => { addRow(null).nameIn.focus(); });
	const list = Array.isArray(tiers) && tiers.length ? tiers : [{ name: type === 'discount' ? 'Member' : 'Standard', min_spend: 0, rate: type === 'discount' ? 0.05 : 0.02 }];
	for (const t of list) addRow(t);
	ed.el = h('div', { className: 'tier-editor' },
		h('p', { className: 'hint' }, 'A customer\'s tier follows their lifetime spend. The first tier starts at 0; each next one at a higher spend. Up to ' + TIERS_MAX + ' tiers.'),
		rows, addBtn);
	ed.read = () => {
		const out = [];
		let prev = -1;
		Array.from(rows.children).forEach((r, i) => {
			const n = r.nameIn.value.trim();
			if (!n) throw new FormError('Tier ' + (i + 1) + ': enter a name.', r.nameIn);
			if (n.length > 100) throw new FormError('Tier ' + (i + 1) + ': the name is too long (at most 100 characters).', r.nameIn);
			const m = i === 0 ? { value: 0, cents: 0 } : parseMoney(r.spend.value);
			if (!m) throw new FormError('Tier ' + (i + 1) + ': the lifetime spend is an amount such as 500 or 499.99.', r.spend);
			if (m.cents <= prev) throw new FormError('Tier ' + (i + 1) + ': the lifetime spend must be higher than the tier before.', r.spend);
			prev = m.cents;
			const rt = parsePercent(r.rate.value);
			if (rt === null) throw new FormError('Tier ' + (i + 1) + ': the rate is a percentage from 0 to 100 with at most 2 decimals, such as 5 or 2.5.', r.rate);
			out.push({ name: n, min_spend: m.value, rate: rt });
		});
		if (!out.length) throw new FormError('Add at least one tier.', addBtn);
		return out;
	};
	return ed;
}

let newPunch = null, newTiers = null, newTiersType = null, newExpiry = null;
function programTypeChanged() {
	const type = document.querySelector('input[name="ptype"]:checked').value;
	show('program-punch-fields', type === 'punch');
	show('program-tier-fields', type !== 'punch');
	if (type !== 'punch' && newTiersType !== type) {
		/* A fresh editor for the type, unless the owner typed tiers. */
		const touched = newTiers && Array.from(newTiers.rows.children).some((r) => r.dataset.touched);
		if (!touched) {
			newTiers = tierEditor(type, null);
			setKids($('program-tier-fields'), newTiers.el);
			newTiers.rows.addEventListener('input', (e) => { const r = e.target.closest('.tier-row'); if (r) r.dataset.touched = '1'; });
		}
		newTiersType = type;
	}
	if (newExpiry) {
		newExpiry.el.remove();
		if (type === 'cashback') $('program-tier-fields').append(newExpiry.el);
	}
}
function resetProgramForm() {
	$('program-form').reset();
	newPunch = punchFields(null);
	setKids($('program-punch-fields'), newPunch.el);
	newExpiry = expiryField(null);
	newTiers = null;
	newTiersType = null;
	setKids($('program-tier-fields'));
	programTypeChanged();
}

async function onAddProgram(form) {
	const type = document.querySelector('input[name="ptype"]:checked').value;
	const title = need($('program-title'), 'a title', 200);
	const body = { type, title };
	if (type === 'punch') Object.assign(body, newPunch.read());
	else body.tiers = newTiers.read();
	if (type === 'cashback' && newExpiry.read() !== null) body.expiry_days = newExpiry.read();
	const d = payload(await apiCreate('program', 'admin/programs', body));
	toast('Program "' + d.program.title + '" added. Issue its cards in Cards.');
	resetProgramForm();
	await showPrograms();
	$('program-title').focus();
}

function editProgram(p) {
	const fTitle = field({ label: 'Title', value: p.title, field: 'title', maxLength: 200 });
	let part;
	const kids = [h('p', { className: 'hint' }, PROGRAM_TYPES[p.type] + (p.type === 'punch' ? ', ' + p.punch_requirement + ' punches for a reward' : '') +
	    '. The type' + (p.type === 'punch' ? ' and the number of punches' : '') + ' cannot change.'), fTitle];
	if (p.type === 'punch') {
		part = punchFields(p);
		kids.push(part.el);
	} else {
		part = tierEditor(p.type, p.tiers);
		kids.push(h('p', { className: 'hint' }, 'New tiers apply to purchases from now on; what customers earned stays.'), part.el);
	}
	const expiry = p.type === 'cashback' ? expiryField(p) : null;
	if (expiry) kids.push(expiry.el);
	openDialog({
		title: 'Edit ' + p.title, body: h('div', null, kids),
		onSubmit: async () => {
			const body = { title: need(fTitle.input, 'a title', 200) };
			if (p.type === 'punch') Object.assign(body, part.read());
			else body.tiers = part.read();
			if (expiry) body.expiry_days = expiry.read();
			await apiPatch('admin/programs/' + encodeURIComponent(p.id), body);
			toast('Program "' + body.title + '" saved.');
			showPrograms();
		}
	});
}

/* ---- cards ------------------------------------------------------------ */

const cq = { q: '', program_id: '', status: '', page: 1, pages: 0, seq: 0, loaded: false };
const selected = new Map(); /* card id -> customer name */
let pageCards = [];
let pendingProgram = null;
let issuedIds = [];

function programOptions(sel, current, withAll, onlyWithCards) {
	const opts = [];
	if (withAll) opts.push(h('option', { value: '' }, withAll));
	for (const p of st.programs)
		if (!onlyWithCards || p.card_count > 0)
			opts.push(h('option', { value: p.id, selected: p.id === current }, p.title + ' (' + (PROGRAM_TYPES[p.type] || p.type) + ')'));
	setKids(sel, ...opts);
	if (current && !st.programs.some((p) => p.id === current)) sel.value = withAll ? '' : (sel.options[0] ? sel.options[0].value : '');
}

function renderCardSelects() {
	const ip = pendingProgram || $('issue-program').value;
	programOptions($('issue-program'), ip, null, false);
	if (pendingProgram) $('issue-program').value = pendingProgram;
	programOptions($('search-program'), cq.program_id, 'All programs', false);
	programOptions($('sheet-program'), $('sheet-program').value, null, true);
	if (!$('sheet-program').options.length) $('sheet-program').append(h('option', { value: '' }, 'No cards issued yet'));
	sheetPages();
	const none = !st.programs.length, box = $('issue-form').querySelector('.form-msg');
	$('issue-form').querySelector('button[type="submit"]').disabled = none;
	if (none) setMsg(box, h('span', { className: 'no-program' }, 'Add a program first (', h('a', { href: '#programs' }, 'Programs'), ').'));
	else if (box.querySelector('.no-program')) setMsg(box, null);
}

async function showCards() {
	renderCardSelects();
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

async function loadCards() {
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
		$('cards-page').textContent = total ? 'Page ' + (pg.page || cq.page) + ' of ' + Math.max(1, cq.pages) + ' · ' + plural(total, 'card', 'cards') : '';
		$('cards-prev').disabled = cq.page <= 1;
		$('cards-next').disabled = cq.page >= cq.pages;
	} catch (e) {
		if (seq === cq.seq && !(e instanceof SessionEnded)) setMsg('search-error', e);
	} finally {
		if (seq === cq.seq) $('search-wrap').removeAttribute('aria-busy');
	}
}

function statusTag(status) {
	const on = status === 'active';
	return h('span', { className: 'tag ' + (on ? 'tag-ok' : 'tag-bad') }, on ? 'Active' : status === 'inactive' ? 'Inactive' : String(status || '—'));
}

function renderCardRows() {
	const body = $('cards-body');
	setKids(body, ...pageCards.map((c) => {
		const name = c.customer_name || 'Customer';
		const box = h('input', { type: 'checkbox', checked: selected.has(c.card_instance_id), 'aria-label': 'Select the card of ' + name });
		box.addEventListener('change', () => toggleSelect(c, box));
		return h('tr', { className: c.status === 'active' ? '' : 'is-off' },
			h('td', { className: 'check-col' }, box),
			h('td', { dataset: { label: 'Customer' } }, h('span', null, name, h('span', { className: 'cust-sub' }, c.card_title || ''))),
			h('td', { dataset: { label: 'Barcode' } }, h('span', { className: 'code' }, c.barcode_value || '—')),
			h('td', { dataset: { label: 'Status' } }, statusTag(c.status)),
			h('td', { className: 'actions' }, h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'View the card of ' + name, onclick: () => openCard(c.card_instance_id) }, 'View')));
	}));
	if (!pageCards.length)
		body.append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, cq.q || cq.program_id || cq.status ? 'No cards match.' : 'No cards issued yet.')));
	renderSelection();
}

function toggleSelect(c, box) {
	if (box.checked) {
		if (selected.size >= SHEET_MAX) {
			box.checked = false;
			setMsg('search-error', h('span', null, 'A sheet holds at most ' + SHEET_MAX + ' cards: print the selected ones first.'));
			return;
		}
		selected.set(c.card_instance_id, c.customer_name || '');
	} else {
		selected.delete(c.card_instance_id);
	}
	renderSelection();
}

function renderSelection() {
	const n = selected.size;
	$('select-count').textContent = n ? plural(n, 'card', 'cards') + ' selected.' : 'No cards selected.';
	$('print-selected').disabled = n === 0;
	$('clear-selected').disabled = n === 0;
	const onPage = pageCards.filter((c) => selected.has(c.card_instance_id)).length;
	const all = $('select-page');
	all.checked = pageCards.length > 0 && onPage === pageCards.length;
	all.indeterminate = onPage > 0 && onPage < pageCards.length;
	all.disabled = pageCards.length === 0;
}

function selectPage() {
	const on = $('select-page').checked;
	for (const c of pageCards) {
		if (on && selected.size >= SHEET_MAX) break;
		if (on) selected.set(c.card_instance_id, c.customer_name || '');
		else selected.delete(c.card_instance_id);
	}
	renderCardRows();
}

async function onIssue(form) {
	const pid = $('issue-program').value;
	if (!pid) throw new FormError('Choose a program.', $('issue-program'));
	const names = $('issue-names').value.split(/\r?\n/).map((x) => x.trim()).filter(Boolean);
	if (!names.length) throw new FormError('Type the customer\'s name, one customer a line.', $('issue-names'));
	if (names.length > ISSUE_MAX) throw new FormError('At most ' + ISSUE_MAX + ' cards at once: you typed ' + names.length + ' names.', $('issue-names'));
	const long = names.find((x) => x.length > 200);
	if (long) throw new FormError('A name is too long (at most 200 characters): ' + long.slice(0, 40) + '…', $('issue-names'));
	const body = names.length === 1 ? { program_id: pid, customer_name: names[0] } : { program_id: pid, customer_names: names };
	const d = payload(await apiCreate('cards', 'admin/cards', body));
	const cards = Array.isArray(d.cards) ? d.cards : [];
	$('issue-names').value = '';
	issuedIds = cards.map((c) => c.card_instance_id);
	$('issued-text').textContent = plural(cards.length, 'card', 'cards') + ' issued' + (cards[0] ? ' (' + cards[0].card_title + ')' : '') + ':';
	setKids($('issued-list'), ...cards.map((c) => h('li', null,
		h('button', { type: 'button', className: 'linkish', onclick: () => openCard(c.card_instance_id) }, c.customer_name),
		' ', h('span', { className: 'code' }, c.barcode_value))));
	$('issued-print').textContent = cards.length === 1 ? 'Print this card' : 'Print these ' + cards.length + ' cards';
	show('issued', cards.length > 0);
	toast(plural(cards.length, 'card', 'cards') + ' issued.');
	loadPrograms().then(renderCardSelects).catch(() => {});
	cq.page = 1;
	loadCards();
}

/* ---- one card --------------------------------------------------------- */

let card = null;
const dh = { page: 1, pages: 0, seq: 0 };
let cardSeq = 0;
const imageUrls = [];

function revokeImages() {
	while (imageUrls.length) URL.revokeObjectURL(imageUrls.pop());
}

function closeCard() {
	cardSeq++;
	dh.seq++;
	card = null;
	revokeImages();
	for (const id of ['detail-qr', 'detail-barcode']) $(id).removeAttribute('src');
	show('card-detail', false);
}

async function openCard(id) {
	const seq = ++cardSeq;
	setMsg('detail-error', null);
	try {
		const d = await apiGet('admin/cards/' + encodeURIComponent(id));
		if (seq !== cardSeq) return;
		const changed = !card || card.card_instance_id !== d.card.card_instance_id;
		card = d.card;
		renderCard();
		show('card-detail', true);
		if (changed) {
			loadImages(card);
			dh.page = 1;
			loadCardHistory();
			$('card-detail').scrollIntoView({ block: 'start' });
			$('detail-title').focus({ preventScroll: true });
		} else {
			/* Read again (View, or after a change): the card's read may
			 * have recorded an expiry the history should show. */
			loadCardHistory();
		}
	} catch (e) {
		if (seq !== cardSeq || e instanceof SessionEnded) return;
		setMsg('search-error', e);
	}
}

function balanceRows(d) {
	const b = d.balance && typeof d.balance === 'object' ? d.balance : d;
	if (d.card_type === 'punch')
		return [['Punches', int(b.current_punches) + ' / ' + int(b.punch_requirement), 'big'],
			['Rewards waiting', int(b.pending_rewards), b.pending_rewards > 0 ? 'good' : ''],
			['Lifetime punches', int(b.lifetime_punches), '']];
	if (d.card_type === 'cashback') {
		const rows = [['Cashback balance', money(b.cashback_balance), 'big'], ['Cashback rate', pct(b.cashback_rate), ''],
			['Tier', b.current_tier_name || '—', ''], ['Lifetime cashback', money(b.lifetime_cashback), '']];
		/* Only where the program lets cashback expire. */
		if (d.next_expiry_at)
			rows.splice(1, 0, ['Next expiry', money(d.next_expiry_amount) + ' on ' + day(d.next_expiry_at), '']);
		return rows;
	}
	if (d.card_type === 'discount')
		return [['Discount', pct(b.discount_rate), 'big'], ['Tier', b.current_tier_name || '—', ''],
			['Next tier', b.next_tier_name ? b.next_tier_name + ' at ' + money(b.next_tier_threshold) : 'Top tier reached', ''],
			['Lifetime spend', money(b.lifetime_spend), '']];
	return [];
}

function renderCard() {
	const d = card, active = d.status === 'active';
	$('detail-title').textContent = d.customer_name || 'Customer';
	$('detail-sub').textContent = d.card_title || '';
	$('detail-type').textContent = PROGRAM_TYPES[d.card_type] || d.card_type;
	const stt = $('detail-status');
	stt.textContent = active ? 'Active' : 'Inactive';
	stt.className = 'tag ' + (active ? 'tag-ok' : 'tag-bad');
	$('card-detail').classList.toggle('is-inactive', !active);
	setKids($('detail-balance'), ...balanceRows(d).map(([k, v, c]) => figure(k, v, c)));
	$('detail-qr-data').textContent = d.qr_code_data || '';
	$('detail-barcode-value').textContent = d.barcode_value || '';
	$('detail-id').textContent = d.card_instance_id;
	$('detail-created').textContent = day(d.created_at);
	/* card_page is relative to public_url when the owner set it (as the
	 * printed card says), else to the tills' folder, which is this page's. */
	const pub = (st.settings || []).find((x) => x.key === 'public_url');
	const page = d.card_page ? new URL(d.card_page, pub && pub.value ? pub.value : location.href).href : '';
	$('detail-page').textContent = page;
	$('detail-page').href = page || '#';
	$('detail-qr').alt = 'QR code of the card of ' + (d.customer_name || 'the customer');
	$('detail-barcode').alt = 'Barcode of the card of ' + (d.customer_name || 'the customer') + ', number ' + (d.barcode_value || '');
	show('detail-adjust', active && (d.card_type === 'punch' || d.card_type === 'cashback'));
	$('detail-toggle').textContent = active ? 'Deactivate' : 'Activate';
	$('detail-toggle').classList.toggle('btn-warn', active);
}

/* The images need the token: fetched, shown from blob: URLs. */
async function loadImages(c) {
	const seq = cardSeq;
	revokeImages();
	for (const [id, what] of [['detail-qr', 'qr.svg'], ['detail-barcode', 'barcode.svg']]) {
		const img = $(id);
		img.removeAttribute('src');
		try {
			const r = await api('GET', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/' + what, undefined, { blob: true });
			if (seq !== cardSeq) return;
			const url = URL.createObjectURL(r.blob);
			imageUrls.push(url);
			img.src = url;
		} catch (e) {
			if (seq !== cardSeq || e instanceof SessionEnded) return;
			setMsg('detail-error', e);
		}
	}
}

async function loadCardHistory() {
	if (!card) return;
	const seq = ++dh.seq;
	const q = new URLSearchParams({ card_instance_id: card.card_instance_id, page: String(dh.page), page_size: String(HIST_PAGE) });
	const tbl = $('dhist-table');
	tbl.setAttribute('aria-busy', 'true');
	try {
		const d = await apiGet('transactions/history?' + q.toString());
		if (seq !== dh.seq) return;
		const list = Array.isArray(d.transactions) ? d.transactions : [];
		const pg = d.pagination || {};
		dh.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		setMsg('dhist-error', null);
		setKids($('dhist-body'), ...list.map((t) => txRow(t, false)));
		if (!list.length) $('dhist-body').append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, 'No transactions yet.')));
		$('dhist-page').textContent = 'Page ' + (pg.page || dh.page) + ' of ' + Math.max(1, dh.pages) + ' · ' +
		    plural(Number.isInteger(pg.total_count) ? pg.total_count : list.length, 'transaction', 'transactions');
		$('dhist-prev').disabled = dh.page <= 1;
		$('dhist-next').disabled = dh.page >= dh.pages;
	} catch (e) {
		if (seq === dh.seq && !(e instanceof SessionEnded)) setMsg('dhist-error', e);
	} finally {
		if (seq === dh.seq) tbl.removeAttribute('aria-busy');
	}
}

/* A transaction row (a card's history, or the report's list with the
 * customer). */
function txRow(t, withCustomer) {
	const type = t.transaction_type;
	const det = [];
	if (type === 'punch' && Number.isInteger(t.punches_added)) det.push('+' + plural(t.punches_added, 'punch', 'punches'));
	if (isNum(t.cashback_earned) && type !== 'punch') det.push('earned ' + money(t.cashback_earned));
	if (isNum(t.discount_amount)) det.push('discount ' + money(t.discount_amount));
	if (isNum(t.redeemed_amount)) det.push('used ' + money(t.redeemed_amount));
	if (t.reward_name) det.push(type === 'reward_claim' || type === 'void' ? t.reward_name : 'reward earned: ' + t.reward_name);
	if (Number.isInteger(t.punches_removed)) det.push('−' + plural(t.punches_removed, 'punch', 'punches'));
	if (isNum(t.cashback_removed)) det.push('cashback taken back ' + money(t.cashback_removed));
	if (isNum(t.cashback_returned)) det.push('cashback given back ' + money(t.cashback_returned));
	if (Number.isInteger(t.punches_adjusted)) det.push((t.punches_adjusted > 0 ? '+' : '−') + plural(Math.abs(t.punches_adjusted), 'punch', 'punches'));
	if (isNum(t.cashback_adjusted)) det.push((t.cashback_adjusted > 0 ? '+' : '−') + money(Math.abs(t.cashback_adjusted)));
	if (type === 'expiry' && isNum(t.expired_amount)) det.push('cashback expired −' + money(t.expired_amount));
	const canVoid = !t.voided && !NOT_VOIDABLE.includes(type) && typeof t.transaction_id === 'string';
	return h('tr', t.voided ? { className: 'voided' } : null,
		h('td', { dataset: { label: 'When' } }, when(t.created_at)),
		withCustomer ? h('td', { dataset: { label: 'Customer' } }, t.customer_name || '—') : null,
		h('td', { dataset: { label: 'Type' } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPE_NAMES[type] || type || '—'),
			t.voided ? h('span', { className: 'tag tag-bad tag-voided' }, 'voided') : null),
		h('td', { className: 'num', dataset: { label: 'Amount' } }, type === 'reward_claim' || NOT_VOIDABLE.includes(type) ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: 'Details' } }, h('span', null, det.join(', ') || (t.reason ? '' : '—'),
			t.reason ? reasonNode(t.reason, det.length > 0) : null,
			t.transaction_notes ? h('span', { className: 'tnote' }, ' “' + t.transaction_notes + '”') : null),
			canVoid ? h('button', { type: 'button', className: 'btn btn-small btn-void', dataset: { txn: t.transaction_id },
			    'aria-label': 'Void the ' + (TYPE_NAMES[type] || type || 'transaction').toLowerCase() + ' of ' + when(t.created_at) +
			        (t.customer_name ? ' of ' + t.customer_name : ''),
			    onclick: () => voidTxn(t) }, 'Void…') : null),
		/* An expiry is the service's own, whoever the card's last sale was. */
		h('td', { dataset: { label: 'Where / who' } }, type === 'expiry' ? 'Automatic' :
			[t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—'));
}

const REASON_SHORT = 120;
/* "reason: …"; a long one (up to 500 characters) folded after its
 * start, so that its row stays a row; the whole in a click. */
function reasonNode(text, sep) {
	if (text.length <= REASON_SHORT) return h('span', { className: 'reason' }, (sep ? ', reason: ' : 'reason: ') + text);
	return h('details', { className: 'reason-long', title: text },
		h('summary', null, 'reason: ' + text.slice(0, 50).replace(/\s+\S*$/, '') + '… (more)'),
		h('span', { className: 'reason-full' }, text));
}

/* Void any transaction of the shop: a reason is required, the dialog
 * names what is undone. Recorded at the transaction's location (the
 * shop's first when a card's history does not say), by the owner. */
function voidTxn(t) {
	const type = TYPE_NAMES[t.transaction_type] || t.transaction_type || 'transaction';
	const f = field({ label: 'Reason', field: 'reason', maxLength: 500, hint: 'Kept with the void, in the history and the audit trail.' });
	const what = type + ' of ' + when(t.created_at) + (t.transaction_type === 'reward_claim' ? '' : ', ' + money(t.purchase_amount)) +
	    (t.customer_name ? ', ' + t.customer_name : card ? ', ' + (card.customer_name || '') : '');
	return openDialog({
		title: 'Void this transaction?', intro: what + '. What it gave the card is taken back (cashback already spent or expired is not); ' +
		    'the transaction stays in the history, marked voided. This cannot be undone.',
		body: f, submitLabel: 'Void it', danger: true,
		onSubmit: async () => {
			const reason = need(f.input, 'the reason', 500);
			if (!user) return;
			const loc = t.location_id || (st.locations[0] && st.locations[0].id) || '';
			let d;
			try {
				d = payload(await apiCreate('void', 'transactions/void', { transaction_id: t.transaction_id, reason, location_id: loc, staff_user_id: user.id }));
			} catch (e) {
				if (!(e instanceof ApiError) || e.code !== 'ALREADY_VOIDED') throw e;
				/* Voided meanwhile in another tab or on a till: nothing
				 * left to do here but see it. */
				const form = f.closest('form');
				const btn = form && form.querySelector('button[type="submit"]');
				if (btn) btn.remove();
				const cancel = form && form.querySelector('.dlg-btns button[type="button"]');
				if (cancel) { cancel.textContent = 'Close'; setTimeout(() => cancel.focus(), 0); }
				f.input.readOnly = true;
				if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
				if (st.section === 'reports' && rep.from) loadReportTx();
				const err = new FormError('Already voided, from another window or till.');
				err.code = e.code;
				throw err;
			}
			const spent = isNum(d.cashback_not_removed) && d.cashback_not_removed > 0 ? ' ' + money(d.cashback_not_removed) + ' of its cashback was already spent or expired.' : '';
			toast('Voided: ' + what + '.' + spent);
			if (card) { openCard(card.card_instance_id); dh.page = 1; loadCardHistory(); }
			if (st.section === 'reports' && rep.from) loadReportTx();
		}
	});
}

/* The owner's correction of a card: punches or cashback, up or down,
 * with a reason; never below zero. */
function adjustCard() {
	if (!card || (card.card_type !== 'punch' && card.card_type !== 'cashback')) return;
	const c = card, punch = c.card_type === 'punch';
	const f = field(punch ? { label: 'Punches to add (negative to take off)', field: 'punches', inputMode: 'numeric', placeholder: '+2 or -1' } :
	    { label: 'Cashback to add (negative to take off)', field: 'cashback_amount', inputMode: 'decimal', placeholder: '+2.50 or -1.00' });
	const r = field({ label: 'Reason', field: 'reason', maxLength: 500, hint: 'Shown in the card\'s history.' });
	return openDialog({
		title: 'Adjust the card of ' + (c.customer_name || 'the customer'), body: h('div', null, f, r), submitLabel: 'Adjust',
		onSubmit: async () => {
			const t = f.input.value.trim().replace(/^\+/, '');
			const body = {};
			if (punch) {
				const n = parseIntIn(t, -1000, 1000);
				if (n === null || n === 0) throw new FormError('Punches: a whole number from -1000 to 1000, not 0.', f.input);
				body.punches = n;
			} else {
				const neg = t.startsWith('-'), m = parseMoney(neg ? t.slice(1) : t);
				if (!m || m.cents === 0) throw new FormError('Cashback: an amount such as 2.50 or -1.00 (at most 2 decimals), not 0.', f.input);
				body.cashback_amount = neg ? -m.value : m.value;
			}
			body.reason = need(r.input, 'the reason', 500);
			const d = payload(await apiCreate('adjust', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/adjust', body));
			toast('The card of ' + (c.customer_name || 'the customer') + ' is adjusted.' +
			    (d.rewards_earned > 0 ? ' ' + plural(d.rewards_earned, 'reward', 'rewards') + ' earned.' : ''));
			if (card && card.card_instance_id === c.card_instance_id) { openCard(c.card_instance_id); dh.page = 1; loadCardHistory(); }
		}
	});
}

function renameCard() {
	if (!card) return;
	const c = card;
	const f = field({ label: 'Customer name', value: c.customer_name || '', field: 'customer_name', maxLength: 200 });
	openDialog({
		title: 'Rename the card of ' + (c.customer_name || 'the customer'), body: f, submitLabel: 'Rename',
		onSubmit: async () => {
			const name = need(f.input, 'the customer\'s name', 200);
			const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { customer_name: name });
			if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
			toast('Card renamed to ' + name + '.');
			loadCards();
		}
	});
}

/* A new link for the customer's page (POST admin/cards/ID/redraw): the
 * old one stops at once, for a link that went astray. */
async function redrawCard() {
	if (!card) return;
	const c = card;
	if (!await confirmDialog('Make a new link for the card of ' + (c.customer_name || 'the customer') + '?',
	    'The card\'s page gets a new address and the old one stops working at once (use it when the link was shared by mistake). ' +
	    'Give the customer the new link; a printed card\'s link stops working too. Its QR code, barcode and balance stay.', 'Make a new link', true))
		return;
	const btn = $('detail-redraw');
	busy(btn, true);
	try {
		const d = payload(await apiCreate('redraw', 'admin/cards/' + encodeURIComponent(c.card_instance_id) + '/redraw', { card: c.card_instance_id }));
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast('The card of ' + (c.customer_name || 'the customer') + ' has a new link; the old one no longer works.');
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('detail-error', e);
	} finally {
		busy(btn, false);
		btn.focus();
	}
}

async function toggleCard() {
	if (!card) return;
	const c = card, off = c.status === 'active';
	if (off && !await confirmDialog('Deactivate the card of ' + (c.customer_name || 'the customer') + '?',
	    'The till refuses purchases, rewards and cashback on it until you activate it again. Its balance stays.', 'Deactivate', true))
		return;
	const btn = $('detail-toggle');
	busy(btn, true);
	try {
		const d = await apiPatch('admin/cards/' + encodeURIComponent(c.card_instance_id), { status: off ? 'inactive' : 'active' });
		if (card && card.card_instance_id === c.card_instance_id) { card = d.card; renderCard(); }
		setMsg('detail-error', null);
		toast('The card of ' + c.customer_name + (off ? ' is deactivated.' : ' is active again.'));
		loadCards();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('detail-error', e);
	} finally {
		busy(btn, false);
		btn.focus();
	}
}

/* ---- printing --------------------------------------------------------- */

let sheetUrls = [];

/* The sheet is opened from a blob: URL, and such a document runs under
 * this page's Content-Security-Policy, which refuses inline styles: the
 * sheet's <style> elements become blob: style sheets (style-src allows
 * blob:). Done on the text (a <style> element ends at the first
 * "</style"), not through DOMParser, whose document would report the
 * inline style as a violation. */
function sheetBlobUrl(html) {
	const urls = [];
	const out = html.replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (m, css) => {
		const u = URL.createObjectURL(new Blob([css], { type: 'text/css' }));
		urls.push(u);
		return '<link rel="stylesheet" href="' + u + '">';
	});
	const count = (out.match(/<svg\b[^>]*\bclass="card"/g) || []).length;
	const page = URL.createObjectURL(new Blob([out], { type: 'text/html' }));
	urls.push(page);
	return { url: page, urls, count };
}

/* Opens a sheet of cards in a new tab. The tab is opened at once (while
 * the click still allows a new window), then given the sheet. */
async function openSheet(query, btn) {
	let w = null;
	try { w = window.open('', '_blank'); } catch (e) { w = null; }
	if (w) {
		try { w.document.title = 'Preparing the cards…'; w.document.body.textContent = 'Preparing the cards…'; } catch (e) { /* not ours */ }
	}
	const note = $('sheet-note');
	busy(btn, true);
	try {
		const r = await api('GET', 'admin/cards/sheet?' + query, undefined, { blob: true });
		const sh = sheetBlobUrl(await r.blob.text());
		if (!sh.count) {
			for (const u of sh.urls) URL.revokeObjectURL(u);
			if (w) w.close();
			setKids(note, 'There are no cards to print.');
			show(note, true);
			return;
		}
		for (const u of sheetUrls) URL.revokeObjectURL(u);
		sheetUrls = sh.urls;
		const link = h('a', { href: sh.url, target: '_blank', rel: 'noopener' }, 'Open the sheet again');
		show(note, true);
		if (w && !w.closed) {
			w.opener = null;
			w.location.replace(sh.url);
			setKids(note, 'The sheet of ' + plural(sh.count, 'card', 'cards') + ' opened in a new tab: print it from there (Ctrl+P), on A4, at 100 %. ', link);
			toast('The sheet of ' + plural(sh.count, 'card', 'cards') + ' opened in a new tab.');
		} else {
			link.textContent = 'Open the sheet of ' + plural(sh.count, 'card', 'cards');
			setKids(note, 'Your browser blocked the new tab. ', link, ', then print it (Ctrl+P), on A4, at 100 %.');
			note.scrollIntoView({ block: 'nearest' });
		}
	} catch (e) {
		if (w) w.close();
		if (e instanceof SessionEnded) return;
		setKids(note);
		note.append(h('span', { className: 'msg msg-error' }, errorNode(e)));
		show(note, true);
		note.scrollIntoView({ block: 'nearest' });
	} finally {
		busy(btn, false);
	}
}

function sheetPages() {
	const p = progOf($('sheet-program').value);
	const n = p && Number.isInteger(p.card_count) ? p.card_count : 0;
	const pages = Math.ceil(n / SHEET_MAX);
	const sel = $('sheet-page');
	const keep = sel.value;
	setKids(sel);
	for (let i = 1; i <= pages; i++)
		sel.append(h('option', { value: String(i), selected: String(i) === keep },
			'Cards ' + ((i - 1) * SHEET_MAX + 1) + ' to ' + Math.min(n, i * SHEET_MAX) + (i === 1 ? ' (newest)' : '')));
	show('sheet-page-field', pages > 1);
}

/* ---- reports ---------------------------------------------------------- */

const rep = { from: '', to: '', group: 'day', txPage: 1, txPages: 0, seq: 0, txSeq: 0, shown: false };
const GROUP_LABEL = { day: 'Day', location: 'Location', staff: 'Staff' };
const ALL_FIGS = [
	['purchases', 'Purchases', 'int'], ['sales_amount', 'Sales', 'money'], ['punches', 'Punches', 'int'],
	['rewards_earned', 'Rewards earned', 'int'], ['rewards_claimed', 'Rewards claimed', 'int'],
	['cashback_earned', 'Cashback earned', 'money'], ['cashback_redeemed', 'Cashback redeemed', 'money'],
	['discounts_given', 'Discounts given', 'money'],
	/* Shown only when the period has some: most shops never see them. */
	['cashback_expired', 'Cashback expired', 'money', true], ['punches_removed', 'Punches taken off', 'int', true]
];
const fmtFig = (v, kind) => (kind === 'money' ? money(v) : int(v));

function applyPreset() {
	const r = presetRange($('report-preset').value);
	if (!r) return;
	$('report-from').value = ymd(r[0]);
	$('report-to').value = ymd(r[1]);
}

/* Each visit shows the figures of now; the first one of this period's
 * preset, in the shop's calendar (so the settings first). */
async function showReports() {
	if (!rep.shown) {
		if (!st.settings.length) await loadSettings().catch(() => {});
		if ($('report-preset').value !== 'custom') applyPreset();
	}
	runReport();
}

async function runReport() {
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
	rep.txPage = 1;
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
		loadReportTx();
	} catch (e) {
		if (seq === rep.seq && !(e instanceof SessionEnded)) showFormError(form, e);
	} finally {
		if (seq === rep.seq) busy(btn, false);
	}
}

function renderReport(d, days) {
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

/* Sales (bars) and cashback earned and redeemed (bars below) per day, or
 * per month for a period over 92 days; an SVG drawn here, no library. */
function drawChart(rows, from, to) {
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
function redrawChart() {
	const w = $('chart').clientWidth;
	if (!chartArgs || !w || Math.abs(w - chartWidth) < 8) return;
	chartWidth = w;
	drawChart(...chartArgs);
}

async function loadReportTx() {
	const seq = ++rep.txSeq;
	const q = new URLSearchParams({ from: rep.from, to: rep.to, page: String(rep.txPage), page_size: String(TX_PAGE) });
	const tbl = $('rtx-table');
	tbl.setAttribute('aria-busy', 'true');
	try {
		const d = await apiGet('admin/reports/transactions?' + q.toString());
		if (seq !== rep.txSeq) return;
		const list = Array.isArray(d.transactions) ? d.transactions : [];
		const pg = d.pagination || {};
		rep.txPages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		setMsg('rtx-error', null);
		setKids($('rtx-body'), ...list.map((t) => txRow(t, true)));
		if (!list.length) $('rtx-body').append(h('tr', null, h('td', { colSpan: 6, className: 'empty' }, 'No transactions in this period.')));
		$('rtx-page').textContent = 'Page ' + (pg.page || rep.txPage) + ' of ' + Math.max(1, rep.txPages) + ' · ' +
		    plural(Number.isInteger(pg.total_count) ? pg.total_count : list.length, 'transaction', 'transactions');
		$('rtx-prev').disabled = rep.txPage <= 1;
		$('rtx-next').disabled = rep.txPage >= rep.txPages;
	} catch (e) {
		if (seq === rep.txSeq && !(e instanceof SessionEnded)) setMsg('rtx-error', e);
	} finally {
		if (seq === rep.txSeq) tbl.removeAttribute('aria-busy');
	}
}

/* Saves a Blob as a file named name. */
function saveBlob(blob, name) {
	const url = URL.createObjectURL(blob);
	const a = h('a', { href: url, download: name, hidden: true });
	document.body.append(a);
	a.click();
	a.remove();
	setTimeout(() => URL.revokeObjectURL(url), 60000);
}
function dispositionName(headers, def) {
	const cd = headers && headers.get('Content-Disposition');
	const m = cd && /filename="?([^";]+)"?/i.exec(cd);
	return m ? m[1].replace(/[\\/]/g, '_') : def;
}

async function downloadCsv(kind, btn) {
	const msg = $('report-dl-msg');
	const q = new URLSearchParams({ from: rep.from, to: rep.to, format: 'csv' });
	if (kind === 'summary') q.set('group', rep.group);
	const name = kind === 'summary' ? 'summary-by-' + rep.group + '-' + rep.from + '-to-' + rep.to + '.csv' : 'transactions-' + rep.from + '-to-' + rep.to + '.csv';
	busy(btn, true);
	try {
		const r = await api('GET', 'admin/reports/' + kind + '?' + q.toString(), undefined, { blob: true });
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

/* ---- backup ----------------------------------------------------------- */

async function downloadBackup() {
	const btn = $('backup-button'), msg = $('backup-msg');
	busy(btn, true);
	msg.className = 'msg notice';
	setKids(msg, 'Preparing the backup…');
	show(msg, true);
	try {
		const r = await api('GET', 'admin/backup', undefined, { blob: true });
		const name = dispositionName(r.headers, 'loyalty-backup-' + ymd(shopToday()) + '.db');
		saveBlob(r.blob, name);
		setKids(msg, 'Downloaded ' + name + ' (' + bytes(r.blob.size) + '). Keep it somewhere safe.');
	} catch (e) {
		if (e instanceof SessionEnded) return;
		msg.className = 'msg msg-error';
		setMsg(msg, e);
	} finally {
		busy(btn, false);
	}
}

/* ---- audit ------------------------------------------------------------ */

const AUDIT_PAGE = 50;
const AUDIT_ACTIONS = {
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
const aud = { page: 1, pages: 0, seq: 0, q: null };

/* The filters of the form as query parameters. */
function auditQuery() {
	const q = new URLSearchParams();
	for (const el of $('audit-form').querySelectorAll('[data-field]')) {
		const v = el.value.trim();
		if (v) q.set(el.dataset.field, v);
	}
	return q;
}

function fillAuditSelects() {
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

async function showAudit() {
	await Promise.all([loadUsers(), loadLocations()]).catch(() => {});
	fillAuditSelects();
	aud.page = 1;
	loadAudit();
}

/* "name: old → new" for each value that changed; a new object's values. */
function auditChange(e) {
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

function auditRow(e) {
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

async function loadAudit() {
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

async function downloadAuditCsv(btn) {
	const msg = $('audit-msg');
	const q = auditQuery();
	q.set('format', 'csv');
	busy(btn, true);
	try {
		const r = await api('GET', 'admin/audit?' + q.toString(), undefined, { blob: true });
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

/* ---- settings --------------------------------------------------------- */

let settingInputs = [];

async function showSettings() {
	const form = $('settings-form');
	try {
		await loadSettings();
		clearFormError(form);
		renderSettings();
	} catch (e) {
		if (!(e instanceof SessionEnded)) showFormError(form, e);
	}
}

/* A setting's value in words: "30 days", "UTC+01:00". */
function settingWords(key, v) {
	if (!Number.isInteger(v)) return '';
	if (key === 'utc_offset_minutes')
		return 'UTC' + (v < 0 ? '−' : '+') + String(Math.floor(Math.abs(v) / 60)).padStart(2, '0') + ':' + String(Math.abs(v) % 60).padStart(2, '0');
	if (/_days$/.test(key)) return plural(v, 'day', 'days');
	if (!/_ttl$|_seconds$/.test(key)) return '';
	const units = [[86400, 'day', 'days'], [3600, 'hour', 'hours'], [60, 'minute', 'minutes']];
	for (const [u, one, many] of units)
		if (v >= u && v % u === 0) return plural(v / u, one, many);
	return plural(v, 'second', 'seconds');
}

/* Whole numbers as number fields, 0-or-1 settings as a checkbox, text
 * settings as text fields. */
const isSwitch = (x) => x.min === 0 && x.max === 1;
const isText = (x) => typeof x.default === 'string';

function settingField(x) {
	const info = SETTING_INFO[x.key] || [x.key, ''];
	if (isText(x)) {
		const f = field({
			label: info[0], value: x.value, field: x.key, maxLength: x.max_length * (x.key === 'public_url' ? 1 : 4),
			spellcheck: false, inputMode: x.key === 'public_url' ? 'url' : undefined,
			hint: (info[1] ? info[1] + ' ' : '') + 'Up to ' + x.max_length + ' characters; empty for none.'
		});
		f.input.dataset.key = x.key;
		f.setting = x;
		return f;
	}
	if (isSwitch(x)) {
		const id = uid('f');
		const input = h('input', { type: 'checkbox', id, checked: x.value === 1, dataset: { field: x.key, key: x.key }, 'aria-describedby': id + '-hint' });
		const f = h('div', { className: 'field' },
			h('label', { className: 'check-inline', htmlFor: id }, input, info[0]),
			h('p', { className: 'hint', id: id + '-hint' }, info[1] + ' ' + (x.default === 1 ? 'On' : 'Off') + ' by default.'));
		f.input = input;
		f.setting = x;
		return f;
	}
	const f = field({
		label: info[0], value: x.value, field: x.key, type: 'number',
		min: x.min, max: x.max, step: x.key === 'utc_offset_minutes' ? 15 : 1,
		hint: (info[1] ? info[1] + ' ' : '') + 'Default ' + x.default + '; from ' + x.min + ' to ' + x.max + '.'
	});
	f.input.dataset.key = x.key;
	f.setting = x;
	const words = h('span', { className: 'setting-value', 'aria-live': 'polite' });
	const say = () => { words.textContent = settingWords(x.key, parseIntIn(f.input.value, x.min, x.max)); };
	f.input.addEventListener('input', say);
	f.input.after(words);
	say();
	return f;
}

/* What a shopkeeper sets first, before the technical ones. */
const SHOP_FIRST = ['currency_symbol', 'public_url', 'staff_enrolment', 'redeem_needs_card_code'];

function renderSettings() {
	const rank = (x) => { const i = SHOP_FIRST.indexOf(x.key); return i < 0 ? SHOP_FIRST.length : i; };
	settingInputs = st.settings.slice().sort((a, b) => rank(a) - rank(b)).map(settingField);
	setKids($('settings-fields'), ...settingInputs);
}

async function onSaveSettings(form) {
	const body = {};
	for (const f of settingInputs) {
		const x = f.setting;
		let v;
		if (isText(x)) {
			v = f.input.value.trim();
			/* An address is a folder: the slash most people leave off. */
			if (x.key === 'public_url' && v && !v.endsWith('/')) v += '/';
			if ([...v].length > x.max_length) throw new FormError(f.querySelector('label').textContent + ': at most ' + x.max_length + ' characters.', f.input);
		} else if (isSwitch(x)) {
			v = f.input.checked ? 1 : 0;
		} else {
			v = parseIntIn(f.input.value, x.min, x.max);
			if (v === null) throw new FormError(f.querySelector('label').textContent + ': a whole number from ' + x.min + ' to ' + x.max + '.', f.input);
		}
		if (v !== x.value) body[x.key] = v;
	}
	if (!Object.keys(body).length) { toast('Nothing to save: no setting changed.'); return; }
	const d = await apiPatch('admin/settings', body);
	st.settings = d.settings || st.settings;
	renderSettings();
	toast(plural(Object.keys(body).length, 'setting', 'settings') + ' saved.');
	rep.shown = false;
}

/* ---- wiring ----------------------------------------------------------- */

function init() {
	document.body.append(h('div', { id: 'toast', className: 'toast', 'aria-hidden': 'true', hidden: true }),
		h('div', { id: 'toast-live', className: 'visually-hidden', role: 'status' }));
	$('boot-retry').addEventListener('click', boot);
	onSubmit($('setup-form'), onSetup);
	$('setup-switch-button').addEventListener('click', (ev) => {
		clearFormError($('setup-form'));
		setSetupWay(!setupByProof, ev.currentTarget.dataset.byCommand === '1', true);
	});
	/* Ticked: the form's complaint about it is answered. */
	$('setup-insecure-ok').addEventListener('change', (ev) => {
		if (ev.currentTarget.checked) clearFormError($('setup-form'));
	});
	onSubmit($('login-form'), onLogin);
	$('logout-button').addEventListener('click', logOut);
	$('staff-logout').addEventListener('click', logOut);
	window.addEventListener('hashchange', () => route(true));
	/* The section showing, chosen again: its data afresh. */
	for (const a of document.querySelectorAll('#side-nav a'))
		a.addEventListener('click', () => {
			if (a.dataset.sec === st.section && location.hash === '#' + st.section) {
				refreshSection();
				$('h-' + st.section).focus({ preventScroll: true });
			}
		});
	window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(redrawChart, 150); });
	/* A field the owner corrects is no longer marked wrong. */
	document.addEventListener('input', (e) => {
		if (e.target && e.target.getAttribute && e.target.getAttribute('aria-invalid') === 'true') e.target.setAttribute('aria-invalid', 'false');
	});

	onSubmit($('location-form'), onAddLocation);
	onSubmit($('staff-form'), onAddStaff);
	$('staff-type').addEventListener('change', () => show('staff-location-field', $('staff-type').value === 'system_user'));

	resetProgramForm();
	for (const r of document.querySelectorAll('input[name="ptype"]')) r.addEventListener('change', programTypeChanged);
	onSubmit($('program-form'), onAddProgram);

	onSubmit($('issue-form'), onIssue);
	$('issued-print').addEventListener('click', (e) => openSheet('ids=' + issuedIds.map(encodeURIComponent).join(','), e.currentTarget));
	$('search-form').addEventListener('submit', (e) => {
		e.preventDefault();
		cq.q = $('search-q').value.trim();
		cq.program_id = $('search-program').value;
		cq.status = $('search-status').value;
		cq.page = 1;
		loadCards();
	});
	$('cards-prev').addEventListener('click', () => { if (cq.page > 1) { cq.page--; loadCards(); } });
	$('cards-next').addEventListener('click', () => { if (cq.page < cq.pages) { cq.page++; loadCards(); } });
	$('select-page').addEventListener('change', selectPage);
	$('print-selected').addEventListener('click', (e) => openSheet('ids=' + Array.from(selected.keys()).map(encodeURIComponent).join(','), e.currentTarget));
	$('clear-selected').addEventListener('click', () => { selected.clear(); renderCardRows(); $('search-q').focus(); });
	$('sheet-program').addEventListener('change', sheetPages);
	$('program-sheet-form').addEventListener('submit', (e) => {
		e.preventDefault();
		const pid = $('sheet-program').value;
		if (!pid) return;
		const q = new URLSearchParams({ program_id: pid });
		if (!$('sheet-page-field').hidden && $('sheet-page').value !== '1') q.set('page', $('sheet-page').value);
		openSheet(q.toString(), e.currentTarget.querySelector('button[type="submit"]'));
	});
	$('detail-rename').addEventListener('click', renameCard);
	$('detail-adjust').addEventListener('click', adjustCard);
	$('detail-toggle').addEventListener('click', toggleCard);
	$('detail-redraw').addEventListener('click', redrawCard);
	$('detail-print').addEventListener('click', (e) => { if (card) openSheet('ids=' + encodeURIComponent(card.card_instance_id), e.currentTarget); });
	$('detail-close').addEventListener('click', () => { closeCard(); $('search-q').focus(); });
	$('dhist-prev').addEventListener('click', () => { if (dh.page > 1) { dh.page--; loadCardHistory(); } });
	$('dhist-next').addEventListener('click', () => { if (dh.page < dh.pages) { dh.page++; loadCardHistory(); } });

	$('report-preset').addEventListener('change', applyPreset);
	for (const id of ['report-from', 'report-to']) $(id).addEventListener('input', () => { $('report-preset').value = 'custom'; });
	$('report-form').addEventListener('submit', (e) => { e.preventDefault(); runReport(); });
	$('csv-summary').addEventListener('click', (e) => downloadCsv('summary', e.currentTarget));
	$('csv-transactions').addEventListener('click', (e) => downloadCsv('transactions', e.currentTarget));
	$('rtx-prev').addEventListener('click', () => { if (rep.txPage > 1) { rep.txPage--; loadReportTx(); } });
	$('rtx-next').addEventListener('click', () => { if (rep.txPage < rep.txPages) { rep.txPage++; loadReportTx(); } });

	$('backup-button').addEventListener('click', downloadBackup);
	$('audit-form').addEventListener('submit', (e) => { e.preventDefault(); aud.page = 1; loadAudit(); });
	$('audit-csv').addEventListener('click', (e) => downloadAuditCsv(e.currentTarget));
	$('audit-prev').addEventListener('click', () => { if (aud.page > 1) { aud.page--; loadAudit(); } });
	$('audit-next').addEventListener('click', () => { if (aud.page < aud.pages) { aud.page++; loadAudit(); } });
	onSubmit($('settings-form'), onSaveSettings);

	const token = ss.getItem(K.access), saved = readJSON(ss, K.user, null);
	if (token && saved && saved.id) {
		startSession(saved);
		api('GET', 'auth/me').then((r) => {
			if (r.data && r.data.id && user && r.data.user_type !== user.user_type) startSession(r.data);
			else if (r.data && r.data.id) { user = r.data; writeJSON(ss, K.user, user); }
		}).catch(() => { /* offline or ended: shown where it matters */ });
	} else {
		boot();
	}
}

init();
})();
