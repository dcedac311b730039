/* Loyalty POS page: a cashier's tool for the loyalty-pos API v1.
 * Plain ES2017, no dependencies. Every URL is relative (api/v1/...), so
 * the page works from a subfolder. Text from the server is only ever set
 * with textContent, never parsed as HTML. */
'use strict';
(function () {

const API = 'api/v1/';
const PAGE_SIZE = 10;
const SYNC_BATCH = 100;
const SYNC_EVERY_MS = 60000;
const MAX_MONEY_CENTS = 100000000; /* 1,000,000.00 */
/* Sync item errors (spec §7 client rules). */
const TRANSIENT = ['INTERNAL_ERROR', 'DATABASE_ERROR'];
/* Record failures that put the purchase into the offline queue. */
const QUEUE_ON = ['INTERNAL_ERROR', 'DATABASE_ERROR'];
const K = {
	access: 'pos.access_token', refresh: 'pos.refresh_token',
	user: 'pos.user', location: 'pos.location_id',
	queue: 'pos.queue.v1', review: 'pos.review.v1'
};
const TYPE_NAMES = {
	punch: 'Punch', cashback: 'Cashback', discount: 'Discount',
	reward_claim: 'Reward claim', cashback_redeem: 'Cashback redeem'
};

/* ---- small helpers ---------------------------------------------------- */

const $ = (id) => document.getElementById(id);

/* Appends children (nodes, text, nested arrays; null and false skipped). */
function add(el, kids) {
	for (const c of kids)
		if (Array.isArray(c)) add(el, c);
		else if (c !== null && c !== undefined && c !== false)
			el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
	return el;
}
/* Replaces the children of el (Element.replaceChildren is too new for
 * some till browsers). */
function setKids(el, ...kids) {
	el.textContent = '';
	return add(el, kids);
}
/* h('p', {className: 'x'}, 'text', child, ...): builds an element. */
function h(tag, props, ...kids) {
	const el = document.createElement(tag);
	if (props)
		for (const k of Object.keys(props)) {
			if (k === 'dataset') Object.assign(el.dataset, props[k]);
			else if (k.startsWith('aria-') || k === 'role') el.setAttribute(k, props[k]);
			else el[k] = props[k];
		}
	return add(el, kids);
}

function show(el, on) { (typeof el === 'string' ? $(el) : el).hidden = !on; }

/* Web storage that keeps working (in memory) when the browser refuses it. */
function storage(kind) {
	try {
		const s = window[kind], t = '__pos_test__';
		s.setItem(t, t);
		s.removeItem(t);
		return s;
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
const ls = storage('localStorage');

function readJSON(s, k, def) {
	try {
		const v = s.getItem(k);
		return v === null ? def : JSON.parse(v);
	} catch (e) { return def; }
}
function writeJSON(s, k, v) {
	try { s.setItem(k, JSON.stringify(v)); return true; } catch (e) { return false; }
}

/* UUID v4. crypto.randomUUID exists only on https and localhost, and a
 * till on the LAN is often plain http, so fall back to getRandomValues. */
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

/* A money amount typed by the cashier: digits with at most 2 decimals
 * ("12", "12.5", "12,50", ".5"), 0 to 1,000,000.00. Returns
 * {value, cents} (value is the number sent on the wire) or null. */
function parseMoney(str) {
	const s = String(str).trim().replace(',', '.');
	if (!/^(\d{1,7}|\d{0,7}\.\d{1,2})$/.test(s)) return null;
	const [i, f = ''] = s.split('.');
	const cents = parseInt(i || '0', 10) * 100 + parseInt((f + '00').slice(0, 2), 10);
	if (cents > MAX_MONEY_CENTS) return null;
	return { value: cents / 100, cents };
}
/* Cents of a server amount (display-side comparisons only). */
const toCents = (v) => (isNum(v) ? Math.round(v * 100) : 0);
const centsStr = (c) => Math.floor(c / 100) + '.' + String(c % 100).padStart(2, '0');

/* ---- API -------------------------------------------------------------- */

class ApiError extends Error {
	constructor(status, code, message, details, retryAfter) {
		super(message);
		this.status = status;
		this.code = code;
		this.details = details || null;
		this.retryAfter = retryAfter;
	}
}
/* fetch itself failed: no answer, the outcome is unknown. */
class NetError extends Error {}
/* The session ended (refresh refused); the login form is showing. */
class SessionEnded extends Error {}

function retryAfterSecs(v) {
	if (!v) return null;
	if (/^\d+$/.test(v.trim())) return parseInt(v, 10);
	const t = Date.parse(v);
	return isNaN(t) ? null : Math.max(0, Math.ceil((t - Date.now()) / 1000));
}

async function rawFetch(method, path, body, token) {
	const headers = { Accept: 'application/json' };
	if (body !== undefined) headers['Content-Type'] = 'application/json';
	if (token) headers.Authorization = 'Bearer ' + token;
	let res, text;
	try {
		res = await fetch(API + path, {
			method, headers, cache: 'no-store', credentials: 'same-origin',
			body: body === undefined ? undefined : JSON.stringify(body)
		});
		text = await res.text();
	} catch (e) {
		setNet(false);
		throw new NetError('No connection to the server.');
	}
	setNet(true);
	let data = null;
	try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
	if (res.ok && data && typeof data === 'object') return { status: res.status, data };
	const err = data && data.error && typeof data.error === 'object' ? data.error : {};
	let code = typeof err.code === 'string' ? err.code : null;
	if (!code) code = res.status >= 500 || res.ok ? 'INTERNAL_ERROR' : res.status === 401 ? 'UNAUTHORIZED' : 'HTTP_' + res.status;
	const msg = typeof err.message === 'string' ? err.message :
	    res.ok ? 'The server sent an unreadable answer.' : 'The server answered ' + res.status + '.';
	throw new ApiError(res.status, code, msg, err.details, retryAfterSecs(res.headers.get('Retry-After')));
}

let refreshing = null;

/* An authenticated call. On 401: refresh once (one refresh at a time: a
 * refresh token is single-use, and reusing one revokes the session), then
 * retry with the new access token; when the refresh is refused, back to
 * the login form. */
async function api(method, path, body) {
	const token = ss.getItem(K.access);
	if (!token) { endSession('Please log in.'); throw new SessionEnded('Not logged in.'); }
	try {
		return await rawFetch(method, path, body, token);
	} catch (e) {
		if (!(e instanceof ApiError) || e.status !== 401) throw e;
	}
	if (ss.getItem(K.access) === token) {
		if (!refreshing) refreshing = refreshTokens().finally(() => { refreshing = null; });
		await refreshing;
	}
	const fresh = ss.getItem(K.access);
	if (!fresh) throw new SessionEnded('Session ended.');
	try {
		return await rawFetch(method, path, body, fresh);
	} catch (e) {
		if (e instanceof ApiError && e.status === 401) {
			endSession('Your session has ended. Please log in again.');
			throw new SessionEnded(e.message);
		}
		throw e;
	}
}

async function refreshTokens() {
	const rt = ss.getItem(K.refresh);
	if (!rt) { endSession('Your session has ended. Please log in again.'); throw new SessionEnded('No refresh token.'); }
	let r;
	try {
		r = await rawFetch('POST', 'auth/refresh', { refresh_token: rt });
	} catch (e) {
		/* No connection or a server fault: keep the tokens and try later. */
		if (e instanceof NetError || (e instanceof ApiError && (e.status >= 500 || e.status === 429))) throw e;
		endSession('Your session has ended. Please log in again.');
		throw new SessionEnded(e.message);
	}
	const d = r.data;
	if (typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string')
		throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
	ss.setItem(K.access, d.access_token);
	ss.setItem(K.refresh, d.refresh_token);
}

/* An error as text: the message, the code, and (unless a countdown shows
 * it) the wait of a 429/503. */
function errorNode(e, noWait) {
	if (e instanceof NetError)
		return h('span', null, h('strong', null, 'No connection to the server.'), ' Check the network and try again.');
	if (e instanceof ApiError) {
		const parts = [h('strong', null, e.message), ' ', h('code', { className: 'code' }, e.code)];
		if (e.details && typeof e.details.field === 'string')
			parts.push(h('span', { className: 'detail' }, ' (field ' + e.details.field + ')'));
		if (!noWait && e.retryAfter !== null && e.retryAfter !== undefined && (e.status === 429 || e.status === 503))
			parts.push(h('span', { className: 'retry' }, ' Try again in ' + plural(e.retryAfter, 'second', 'seconds') + '.'));
		return h('span', null, parts);
	}
	return h('span', null, h('strong', null, 'Unexpected error.'), ' ' + (e && e.message ? e.message : ''));
}

function setMsg(id, e) {
	const el = $(id);
	setKids(el);
	if (e) el.append(e instanceof Node ? e : errorNode(e));
	el.hidden = !e;
}

function busy(btn, on) {
	btn.disabled = on;
	btn.setAttribute('aria-busy', on ? 'true' : 'false');
}

/* ---- state ------------------------------------------------------------ */

let user = null;          /* user object of login / me */
let card = null;          /* lookup data of the current card */
let cardIdent = null;     /* identifier the card was looked up with */
let offlineIdent = null;  /* identifier of a card that could not be looked up */
let lookupSeq = 0;
const hist = { page: 1, type: '', seq: 0, pages: 0 };
/* Idempotency keys per kind of operation: the same attempt (same
 * signature) after a network error reuses its key, anything else gets a
 * new one. */
const attempts = {};

function attempt(kind, sig) {
	let a = attempts[kind];
	if (!a || a.sig !== sig) a = attempts[kind] = { sig, key: uuid(), at: new Date().toISOString() };
	return a;
}

function currentLocation() {
	if (!user) return null;
	const id = ss.getItem(K.location);
	const list = Array.isArray(user.locations) ? user.locations : [];
	return list.find((l) => l && l.id === id) || user.location || list[0] || null;
}

/* ---- login / session -------------------------------------------------- */

function endSession(notice) {
	for (const k of [K.access, K.refresh, K.user, K.location]) ss.removeItem(k);
	user = null;
	clearCard();
	show('pos-view', false);
	show('session-bar', false);
	show('login-view', true);
	const n = $('login-notice');
	n.textContent = notice || '';
	n.hidden = !notice;
	const waiting = loadQueue().length;
	$('login-queue').textContent = waiting ? plural(waiting, 'purchase is', 'purchases are') +
	    ' waiting in the offline queue of this till; ' + (waiting === 1 ? 'it is' : 'they are') + ' sent after login.' : '';
	show('login-queue', waiting > 0);
	setMsg('login-error', null);
	$('login-password').value = '';
	($('login-email').value ? $('login-password') : $('login-email')).focus();
}

function startSession(u) {
	user = u;
	writeJSON(ss, K.user, u);
	show('login-view', false);
	show('session-bar', true);
	show('pos-view', true);
	renderUser();
	renderQueue();
	$('lookup-code').focus();
}

function renderUser() {
	$('who-email').textContent = user.email || '';
	/* The back office (owner.html) is the owner's; a cashier never sees the link. */
	show('backoffice-link', user.user_type === 'owner');
	const locs = Array.isArray(user.locations) ? user.locations.filter((l) => l && l.id) : [];
	const cur = currentLocation();
	$('where-name').textContent = cur ? cur.name : 'no location';
	if (locs.length > 1) {
		const sel = $('location-select');
		setKids(sel, ...locs.map((l) => h('option', { value: l.id, selected: cur && l.id === cur.id }, l.name)));
		show('where-pick', true);
		show('where-static', false);
	} else {
		show('where-pick', false);
		show('where-static', true);
	}
}

async function onLogin(ev) {
	ev.preventDefault();
	const email = $('login-email').value.trim(), password = $('login-password').value;
	if (!email || !password) {
		setMsg('login-error', h('span', null, 'Enter your e-mail and password.'));
		(email ? $('login-password') : $('login-email')).focus();
		return;
	}
	const btn = $('login-submit');
	busy(btn, true);
	setMsg('login-error', null);
	try {
		const r = await rawFetch('POST', 'auth/login', { email, password });
		const d = r.data;
		if (typeof d.access_token !== 'string' || typeof d.refresh_token !== 'string' || !d.user)
			throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
		ss.setItem(K.access, d.access_token);
		ss.setItem(K.refresh, d.refresh_token);
		ss.removeItem(K.location);
		$('login-password').value = '';
		show('login-notice', false);
		startSession(d.user);
		syncNow(false);
	} catch (e) {
		setMsg('login-error', e);
		$('login-password').select();
		$('login-password').focus();
	} finally {
		busy(btn, false);
	}
}

function onLogout() {
	const mine = queueFor(user).length;
	if (mine > 0 && !window.confirm(plural(mine, 'purchase is', 'purchases are') +
	    ' still waiting in the offline queue. They stay on this till and are sent after the next login. Log out?'))
		return;
	endSession('You are logged out.');
}

/* ---- card lookup ------------------------------------------------------ */

function clearCard() {
	lookupSeq++;
	hist.seq++;
	card = null;
	cardIdent = null;
	offlineIdent = null;
	for (const id of ['card-panel', 'purchase-panel', 'result-panel', 'claim-panel', 'redeem-panel', 'history-panel'])
		show(id, false);
	setMsg('lookup-error', null);
	$('lookup-submit').setAttribute('aria-busy', 'false');
	setKids($('result'));
	clearInterval(countdownTimer);
	resetPurchaseForm();
	$('redeem-form').reset();
	clearFieldErrors();
}

function identFor(code) {
	return /^\d+$/.test(code) ? { barcode_value: code } : { qr_code_data: code };
}

async function onLookup(ev) {
	if (ev) ev.preventDefault();
	const code = $('lookup-code').value.trim();
	if (!code) {
		setMsg('lookup-error', h('span', null, 'Scan a card or type its number first.'));
		$('lookup-code').focus();
		return;
	}
	clearCard();
	await lookup(identFor(code), true);
}

/* Looks the card up and shows it; focus moves to the amount when asked.
 * The button is never disabled: a new scan always goes through, and the
 * answer of an older lookup is dropped. */
async function lookup(ident, focusAmount) {
	const seq = ++lookupSeq;
	const btn = $('lookup-submit');
	btn.setAttribute('aria-busy', 'true');
	try {
		const r = await api('POST', 'cards/lookup', ident);
		if (seq !== lookupSeq) return;
		const d = r.data && r.data.data;
		if (!d || typeof d.card_instance_id !== 'string')
			throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
		const changed = !card || card.card_instance_id !== d.card_instance_id;
		card = d;
		cardIdent = ident;
		offlineIdent = null;
		setMsg('lookup-error', null);
		renderCard();
		if (changed) { hist.page = 1; loadHistory(); }
		if (focusAmount && card.status === 'active') $('purchase-amount').focus();
	} catch (e) {
		if (seq !== lookupSeq || e instanceof SessionEnded) return;
		if (e instanceof NetError && focusAmount) {
			offlineIdent = ident;
			renderOfflineCard(ident);
			$('purchase-amount').focus();
			return;
		}
		if (focusAmount || !(e instanceof NetError)) setMsg('lookup-error', e);
	} finally {
		if (seq === lookupSeq) btn.setAttribute('aria-busy', 'false');
	}
}

function balanceOf(d) {
	return d.balance && typeof d.balance === 'object' ? d.balance : d;
}

function renderCard() {
	const d = card, b = balanceOf(d), active = d.status === 'active';
	$('card-title').textContent = d.card_title || d.card_name || 'Loyalty card';
	$('card-customer').textContent = d.customer_name || 'Customer';
	$('card-merchant').textContent = d.merchant_name || '';
	show('card-merchant-sep', !!d.merchant_name);
	const type = $('card-type');
	type.textContent = ({ punch: 'Punch card', cashback: 'Cashback', discount: 'Discount' })[d.card_type] || d.card_type;
	type.className = 'tag tag-type';
	const st = $('card-status');
	st.textContent = active ? 'Active' : (d.status ? String(d.status).replace(/^./, (c) => c.toUpperCase()) : 'Unknown');
	st.className = 'tag ' + (active ? 'tag-ok' : 'tag-bad');
	$('card-panel').classList.toggle('is-inactive', !active);
	show('card-inactive', !active);
	show('card-offline', false);

	const rows = [];
	const dots = $('punch-dots');
	setKids(dots);
	if (d.card_type === 'punch') {
		const cur = b.current_punches, req = b.punch_requirement;
		rows.push(['Punches', int(cur) + ' / ' + int(req), 'big']);
		rows.push(['Rewards waiting', int(b.pending_rewards), b.pending_rewards > 0 ? 'big good' : '']);
		rows.push(['Lifetime punches', int(b.lifetime_punches), '']);
		if (Number.isInteger(req) && req > 0 && req <= 30 && Number.isInteger(cur))
			for (let i = 0; i < req; i++) dots.append(h('span', { className: 'pdot' + (i < cur ? ' on' : '') }));
	} else if (d.card_type === 'cashback') {
		rows.push(['Cashback balance', money(b.cashback_balance), 'big']);
		rows.push(['Cashback rate', pct(b.cashback_rate), '']);
		rows.push(['Tier', b.current_tier_name || '—', '']);
		rows.push(['Lifetime cashback', money(b.lifetime_cashback), '']);
	} else if (d.card_type === 'discount') {
		rows.push(['Discount', pct(b.discount_rate), 'big']);
		rows.push(['Tier', b.current_tier_name || '—', '']);
		rows.push(['Next tier', b.next_tier_name ? b.next_tier_name + ' at ' + money(b.next_tier_threshold) + ' spent' : 'Top tier reached', '']);
		rows.push(['Lifetime spend', money(b.lifetime_spend), '']);
	}
	show(dots, dots.childElementCount > 0);
	setKids($('card-balance'), ...rows.map(([k, v, cls]) =>
		h('div', { className: 'bal ' + cls }, h('dt', null, k), h('dd', null, v))));
	show('card-panel', true);

	/* Actions. */
	const isPunch = d.card_type === 'punch';
	show('purchase-panel', active);
	show('punch-field', isPunch);
	$('punch-count-label').textContent = 'Punches';
	const pending = isPunch && Number.isInteger(b.pending_rewards) ? b.pending_rewards : 0;
	show('claim-panel', active && pending > 0);
	$('claim-info').textContent = pending > 0 ? plural(pending, 'reward is', 'rewards are') + ' waiting for this customer.' : '';
	show('redeem-panel', active && d.card_type === 'cashback');
	show('history-panel', true);
}

function renderOfflineCard(ident) {
	$('card-title').textContent = ident.barcode_value ? 'Card ' + ident.barcode_value : 'Scanned QR card';
	$('card-customer').textContent = 'Unknown customer';
	$('card-merchant').textContent = '';
	show('card-merchant-sep', false);
	$('card-type').textContent = 'Not checked';
	$('card-type').className = 'tag tag-warn';
	$('card-status').textContent = 'Offline';
	$('card-status').className = 'tag tag-warn';
	$('card-panel').classList.remove('is-inactive');
	show('card-inactive', false);
	show('card-offline', true);
	show('punch-dots', false);
	setKids($('card-balance'));
	show('card-panel', true);
	show('purchase-panel', true);
	show('punch-field', true);
	$('punch-count-label').textContent = 'Punches (punch cards only)';
	for (const id of ['claim-panel', 'redeem-panel', 'history-panel', 'result-panel']) show(id, false);
}

/* ---- field validation ------------------------------------------------- */

function fieldError(inputId, text) {
	const input = $(inputId), err = $(inputId + '-error');
	input.setAttribute('aria-invalid', text ? 'true' : 'false');
	err.textContent = text || '';
	err.hidden = !text;
}
function clearFieldErrors() {
	for (const id of ['purchase-amount', 'punch-count', 'redeem-purchase', 'redeem-amount']) fieldError(id, null);
}
const MONEY_HINT = 'Enter an amount such as 12.50: at most 2 decimals, up to 1,000,000.00.';

/* ---- record a purchase ------------------------------------------------ */

function resetPurchaseForm() {
	$('purchase-amount').value = '';
	$('purchase-notes').value = '';
	$('punch-count').value = '1';
}

function stepPunch(delta) {
	const n = parseInt($('punch-count').value, 10);
	$('punch-count').value = String(Math.min(100, Math.max(1, (Number.isInteger(n) ? n : 1) + delta)));
	fieldError('punch-count', null);
}

async function onRecord(ev) {
	ev.preventDefault();
	if (!card && !offlineIdent) return;
	clearFieldErrors();
	const amount = parseMoney($('purchase-amount').value);
	const isPunch = !card || card.card_type === 'punch';
	const pcText = $('punch-count').value.trim();
	const punches = /^\d{1,3}$/.test(pcText) ? parseInt(pcText, 10) : NaN;
	let bad = null;
	if (isPunch && !(punches >= 1 && punches <= 100)) {
		fieldError('punch-count', 'Punches must be a whole number from 1 to 100.');
		bad = 'punch-count';
	}
	if (!amount) {
		fieldError('purchase-amount', MONEY_HINT);
		bad = 'purchase-amount';
	}
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const notes = $('purchase-notes').value.trim();

	/* How the card is named: by id once looked up, except a QR card,
	 * whose payload the spec's sync items expect. */
	let ident;
	if (card) ident = cardIdent && cardIdent.qr_code_data ? { qr_code_data: cardIdent.qr_code_data } : { card_instance_id: card.card_instance_id };
	else ident = offlineIdent;
	const body = Object.assign({}, ident, {
		location_id: loc ? loc.id : '',
		staff_user_id: user.id,
		purchase_amount: amount.value
	});
	if (isPunch) body.punch_count = punches;
	if (notes) body.transaction_notes = notes;
	const a = attempt('record', JSON.stringify(body));
	body.idempotency_key = a.key;
	body.client_timestamp = a.at;

	const label = card ? (card.card_title || card.card_name) + ' — ' + (card.customer_name || '') : $('card-title').textContent;
	const btn = $('purchase-submit');
	busy(btn, true);
	try {
		const r = await api('POST', 'transactions/record', body);
		const d = r.data && r.data.data;
		if (!d) throw new ApiError(r.status, 'INTERNAL_ERROR', 'The server sent an unreadable answer.');
		delete attempts.record;
		dequeue([a.key]);
		resetPurchaseForm();
		showResult(recordResult(d, label));
		$('result-panel').focus({ preventScroll: true });
		if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
		else if (offlineIdent) lookup(offlineIdent, false);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (e instanceof NetError || (e instanceof ApiError && QUEUE_ON.includes(e.code))) {
			const ok = enqueue(body, { label, card_type: card ? card.card_type : null, merchant_id: user.merchant_id });
			showResult(h('div', { className: 'res res-warn' },
				h('p', { className: 'res-head' }, ok ? 'Saved to the offline queue' : 'Not recorded'),
				h('p', null, errorNode(e)),
				h('p', null, ok ? 'The purchase of ' + money(amount.value) + ' will be sent automatically when the server is reachable. ' +
				    'Pressing Record again with the same details retries it now without counting it twice.'
				    : 'This till could not store the purchase. Write it down and enter it later.')));
		} else {
			/* The server refused it: nothing was recorded; the next try is a new attempt. */
			delete attempts.record;
			dequeue([a.key]);
			const wait = e.code === 'COOLDOWN_ACTIVE' && Number.isInteger(e.retryAfter);
			showResult(h('div', { className: 'res res-error' },
				h('p', { className: 'res-head' }, 'Purchase not recorded'),
				h('p', null, errorNode(e, wait)),
				wait ? countdown(e.retryAfter) : null));
			if (e.code === 'CARD_INACTIVE' && cardIdent) lookup(cardIdent, false);
		}
	} finally {
		busy(btn, false);
	}
}

let countdownTimer = null;
function countdown(secs) {
	const el = h('p', { className: 'countdown' });
	const until = Date.now() + secs * 1000;
	clearInterval(countdownTimer);
	const tick = () => {
		const left = Math.ceil((until - Date.now()) / 1000);
		if (left <= 0) {
			el.textContent = 'The card can be punched again now.';
			clearInterval(countdownTimer);
		} else {
			el.textContent = 'Next punch possible in ' + plural(left, 'second', 'seconds') + '.';
		}
	};
	tick();
	countdownTimer = setInterval(tick, 1000);
	return el;
}

function showResult(node) {
	/* A countdown built for this very node keeps running. */
	if (!node.querySelector('.countdown')) clearInterval(countdownTimer);
	setKids($('result'), node);
	show('result-panel', true);
	$('result-panel').scrollIntoView({ block: 'nearest' });
}

function recordResult(d, label) {
	const parts = [];
	const dup = d.idempotent === true ? h('p', { className: 'note' }, 'Already recorded earlier: this is the original result, nothing was added twice.') : null;
	if (d.card_type === 'punch') {
		if (d.reward_earned) {
			const n = Number.isInteger(d.rewards_earned) && d.rewards_earned > 1 ? d.rewards_earned : 1;
			const rw = d.reward || {};
			parts.push(h('p', { className: 'res-head' }, n > 1 ? n + ' rewards earned!' : 'Reward earned!'));
			parts.push(h('p', { className: 'reward' }, h('strong', null, rw.title || 'Reward'), rw.description ? ' — ' + rw.description : ''));
		} else {
			parts.push(h('p', { className: 'res-head' }, 'Purchase recorded'));
		}
		parts.push(h('p', null, '+' + plural(d.punches_added, 'punch', 'punches') + ', card now at ' + int(d.new_punch_count) +
		    (card && Number.isInteger(balanceOf(card).punch_requirement) ? ' / ' + balanceOf(card).punch_requirement : '') + '.'));
	} else if (d.card_type === 'cashback') {
		parts.push(h('p', { className: 'res-head' }, 'Cashback earned: ' + money(d.cashback_earned)));
		parts.push(h('p', null, pct(d.cashback_rate) + ' of ' + money(d.purchase_amount) + '. New balance ' + money(d.new_balance) + '.'));
		if (d.tier_changed) parts.push(h('p', { className: 'note good' }, 'The customer reached a new tier.'));
	} else if (d.card_type === 'discount') {
		parts.push(h('p', { className: 'res-head' }, 'Charge the customer'));
		parts.push(h('p', { className: 'charge' }, money(d.final_amount)));
		parts.push(h('p', null, 'Purchase ' + money(d.purchase_amount) + ' − discount ' + pct(d.discount_rate) + ' (' + money(d.discount_amount) + ').'));
		if (d.tier_changed) parts.push(h('p', { className: 'note good' }, 'The customer reached a new tier.'));
	} else {
		parts.push(h('p', { className: 'res-head' }, 'Purchase recorded'));
	}
	parts.push(h('p', { className: 'res-foot' }, label + ' · transaction ' + shortId(d.transaction_id)));
	return h('div', { className: 'res res-ok' + (d.reward_earned ? ' res-reward' : '') }, parts, dup);
}

const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '—');

/* ---- claim reward ----------------------------------------------------- */

async function onClaim() {
	if (!card) return;
	const loc = currentLocation();
	const body = { card_instance_id: card.card_instance_id, location_id: loc ? loc.id : '', staff_user_id: user.id };
	const a = attempt('claim', JSON.stringify([body, balanceOf(card).pending_rewards]));
	body.idempotency_key = a.key;
	const btn = $('claim-button');
	busy(btn, true);
	try {
		const r = await api('POST', 'rewards/claim', body);
		const d = r.data;
		delete attempts.claim;
		showResult(h('div', { className: 'res res-ok res-reward' },
			h('p', { className: 'res-head' }, 'Reward claimed: ' + (d.reward_name || 'reward')),
			h('p', null, 'Hand over the reward' + (toCents(d.reward_amount) > 0 ? ' (value ' + money(d.reward_amount) + ')' : '') +
			    '. Earned ' + when(d.earned_at) + '.'),
			h('p', null, plural(d.pending_rewards_remaining, 'reward', 'rewards') + ' still waiting.'),
			d.idempotent === true ? h('p', { className: 'note' }, 'Already claimed earlier: this is the original result.') : null));
		lookup(cardIdent, false);
		hist.page = 1;
		loadHistory();
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError)) delete attempts.claim;
		showResult(h('div', { className: 'res res-error' },
			h('p', { className: 'res-head' }, 'Reward not claimed'), h('p', null, errorNode(e)),
			e instanceof NetError ? h('p', null, 'Press Claim again to retry; it will not be claimed twice.') : null));
		if (!(e instanceof NetError)) lookup(cardIdent, false);
	} finally {
		busy(btn, false);
	}
}

/* ---- redeem cashback -------------------------------------------------- */

function onRedeemMax() {
	if (!card) return;
	const bal = toCents(balanceOf(card).cashback_balance);
	const p = parseMoney($('redeem-purchase').value);
	const c = p ? Math.min(bal, p.cents) : bal;
	$('redeem-amount').value = centsStr(c);
	fieldError('redeem-amount', null);
}

async function onRedeem(ev) {
	ev.preventDefault();
	if (!card) return;
	clearFieldErrors();
	const p = parseMoney($('redeem-purchase').value), r = parseMoney($('redeem-amount').value);
	const bal = toCents(balanceOf(card).cashback_balance);
	let bad = null;
	if (!r || r.cents <= 0) { fieldError('redeem-amount', MONEY_HINT.replace('an amount', 'an amount above 0')); bad = 'redeem-amount'; }
	else if (r.cents > bal) { fieldError('redeem-amount', 'The balance is only ' + money(balanceOf(card).cashback_balance) + '.'); bad = 'redeem-amount'; }
	else if (p && r.cents > p.cents) { fieldError('redeem-amount', 'Cannot use more cashback than the purchase amount.'); bad = 'redeem-amount'; }
	if (!p) { fieldError('redeem-purchase', MONEY_HINT); bad = 'redeem-purchase'; }
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const body = {
		card_instance_id: card.card_instance_id, redemption_amount: r.value, purchase_amount: p.value,
		location_id: loc ? loc.id : '', staff_user_id: user.id, earn_on_remainder: $('redeem-earn').checked
	};
	const a = attempt('redeem', JSON.stringify(body));
	body.idempotency_key = a.key;
	const btn = $('redeem-submit');
	busy(btn, true);
	try {
		const res = await api('POST', 'cashback/redeem', body);
		const d = res.data;
		delete attempts.redeem;
		$('redeem-form').reset();
		$('redeem-earn').checked = true;
		showResult(redeemResult(d));
		lookup(cardIdent, false);
		hist.page = 1;
		loadHistory();
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError)) delete attempts.redeem;
		showResult(h('div', { className: 'res res-error' },
			h('p', { className: 'res-head' }, 'Cashback not redeemed'), h('p', null, errorNode(e)),
			e instanceof NetError ? h('p', null, 'Press Redeem again to retry; it will not be counted twice.') : null));
	} finally {
		busy(btn, false);
	}
}

function redeemResult(d) {
	const entries = Array.isArray(d.redeemed_entries) ? d.redeemed_entries : [];
	const kids = [
		h('p', { className: 'res-head' }, 'Charge the customer'),
		h('p', { className: 'charge' }, money(d.final_purchase_amount)),
		h('p', null, 'Cashback used ' + money(d.redeemed_amount) + '. Balance now ' + money(d.new_balance) + '.')
	];
	if (entries.length)
		kids.push(h('details', { className: 'entries' },
			h('summary', null, 'Cashback used from ' + plural(entries.length, 'earning', 'earnings')),
			h('table', { className: 'mini' },
				h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Earned'), h('th', { scope: 'col' }, 'Transaction'), h('th', { scope: 'col', className: 'num' }, 'Used'))),
				h('tbody', null, entries.map((x) => h('tr', null,
					h('td', null, when(x.earned_at)), h('td', null, shortId(x.earning_transaction_id)), h('td', { className: 'num' }, money(x.amount_used))))))));
	const e = d.earned;
	if (e && typeof e === 'object')
		kids.push(h('p', { className: 'note good' }, 'Also earned ' + money(e.cashback_earned) + ' cashback (' + pct(e.cashback_rate) + ' of ' +
		    money(e.purchase_amount) + '). Balance after earning ' + money(e.new_balance) + '.' + (e.tier_changed ? ' New tier reached!' : '')));
	if (d.idempotent === true) kids.push(h('p', { className: 'note' }, 'Already redeemed earlier: this is the original result.'));
	return h('div', { className: 'res res-ok' }, kids);
}

/* ---- history ---------------------------------------------------------- */

async function loadHistory() {
	if (!card) return;
	const seq = ++hist.seq;
	const q = new URLSearchParams({ card_instance_id: card.card_instance_id, page: String(hist.page), page_size: String(PAGE_SIZE) });
	if (hist.type) q.set('transaction_type', hist.type);
	$('history-panel').setAttribute('aria-busy', 'true');
	try {
		const r = await api('GET', 'transactions/history?' + q.toString());
		if (seq !== hist.seq) return;
		const d = (r.data && r.data.data) || {};
		const list = Array.isArray(d.transactions) ? d.transactions : [];
		const pg = d.pagination || {};
		hist.pages = Number.isInteger(pg.total_pages) ? pg.total_pages : 0;
		setMsg('history-error', null);
		const body = $('history-body');
		setKids(body, ...list.map(historyRow));
		if (!list.length)
			body.append(h('tr', null, h('td', { colSpan: 5, className: 'empty' }, hist.type ? 'No transactions of this type.' : 'No transactions yet.')));
		$('history-page').textContent = 'Page ' + (pg.page || hist.page) + ' of ' + Math.max(1, hist.pages) +
		    ' · ' + plural(Number.isInteger(pg.total_count) ? pg.total_count : list.length, 'transaction', 'transactions');
		$('history-prev').disabled = hist.page <= 1;
		$('history-next').disabled = hist.page >= hist.pages;
	} catch (e) {
		if (seq !== hist.seq || e instanceof SessionEnded) return;
		setMsg('history-error', e);
	} finally {
		if (seq === hist.seq) $('history-panel').removeAttribute('aria-busy');
	}
}

function historyRow(t) {
	const type = t.transaction_type;
	const det = [];
	if (type === 'punch' && Number.isInteger(t.punches_added)) det.push('+' + plural(t.punches_added, 'punch', 'punches'));
	if (isNum(t.cashback_earned) && type !== 'punch') det.push('earned ' + money(t.cashback_earned));
	if (isNum(t.discount_amount)) det.push('discount ' + money(t.discount_amount));
	if (isNum(t.redeemed_amount)) det.push('used ' + money(t.redeemed_amount));
	if (t.reward_name) det.push(type === 'reward_claim' ? t.reward_name : 'reward earned: ' + t.reward_name);
	const cells = [
		h('td', { dataset: { label: 'When' } }, when(t.created_at)),
		h('td', { dataset: { label: 'Type' } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPE_NAMES[type] || type || '—')),
		h('td', { className: 'num', dataset: { label: 'Amount' } }, type === 'reward_claim' ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: 'Details' } }, h('span', null, det.join(', ') || '—',
			t.transaction_notes ? h('span', { className: 'tnote' }, ' “' + t.transaction_notes + '”') : null)),
		h('td', { dataset: { label: 'Where / who' } }, [t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—')
	];
	return h('tr', null, cells);
}

/* ---- offline queue ---------------------------------------------------- */

/* A queue entry: {item: the sync item as sent, label, card_type,
 * merchant_id, queued_at}; a review entry adds {error, message}. */
const loadQueue = () => { const q = readJSON(ls, K.queue, []); return Array.isArray(q) ? q.filter((x) => x && x.item) : []; };
const loadReview = () => { const q = readJSON(ls, K.review, []); return Array.isArray(q) ? q.filter((x) => x && x.item) : []; };

function enqueue(item, meta) {
	const q = loadQueue();
	if (!q.some((x) => x.item.idempotency_key === item.idempotency_key))
		q.push(Object.assign({ item: Object.assign({}, item), queued_at: new Date().toISOString() }, meta));
	const ok = writeJSON(ls, K.queue, q);
	syncNote = '';
	renderQueue();
	return ok;
}

function dequeue(keys) {
	const q = loadQueue();
	const left = q.filter((x) => !keys.includes(x.item.idempotency_key));
	if (left.length !== q.length) { writeJSON(ls, K.queue, left); renderQueue(); }
}

/* The queued purchases this user may send: a staff member sends his own,
 * an owner those of his merchant. */
function queueFor(u) {
	if (!u) return [];
	return loadQueue().filter((x) => x.item.staff_user_id === u.id ||
	    (u.user_type === 'owner' && x.merchant_id === u.merchant_id));
}

function queueLine(x, review) {
	const it = x.item;
	const what = x.label || (it.barcode_value ? 'Card ' + it.barcode_value : it.card_instance_id ? 'Card ' + shortId(it.card_instance_id) : 'QR card');
	const kids = [
		h('span', { className: 'q-main' }, h('strong', null, money(it.purchase_amount)), ' ', what,
			it.punch_count > 1 ? ' · ' + plural(it.punch_count, 'punch', 'punches') : ''),
		h('span', { className: 'q-when' }, when(it.client_timestamp))
	];
	if (review) {
		kids.push(h('span', { className: 'q-err' }, h('code', { className: 'code' }, x.error || 'ERROR'), ' ', x.message || ''));
		const key = it.idempotency_key;
		kids.push(h('span', { className: 'q-actions' },
			h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRetry(key) }, 'Retry'),
			h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewDismiss(key) }, 'Dismiss')));
	} else if (x.last_error) {
		kids.push(h('span', { className: 'q-err soft' }, 'Last try: ', h('code', { className: 'code' }, x.last_error)));
	}
	return h('li', null, kids);
}

let syncing = false;
let syncNote = '';

function renderQueue() {
	const all = loadQueue(), mine = queueFor(user), review = loadReview();
	$('queue-count').textContent = String(all.length);
	$('queue-button').classList.toggle('has-items', all.length > 0);
	setKids($('queue-list'), ...all.map((x) => queueLine(x, false)));
	let s = all.length ? plural(all.length, 'purchase', 'purchases') + ' waiting to be sent.' : 'No purchases waiting.';
	if (mine.length < all.length) s += ' ' + (all.length - mine.length) + ' belong to another cashier and are sent after that login.';
	if (syncing) s = 'Sending…';
	else if (syncNote) s = syncNote + ' ' + s;
	$('queue-summary').textContent = s;
	const sb = $('sync-button');
	busy(sb, syncing);
	if (!syncing) sb.disabled = mine.length === 0;
	setKids($('review-list'), ...review.map((x) => queueLine(x, true)));
	show('review-box', review.length > 0);
}

function reviewRetry(key) {
	const r = loadReview(), x = r.find((e) => e.item.idempotency_key === key);
	if (!x) return;
	writeJSON(ls, K.review, r.filter((e) => e !== x));
	syncNote = '';
	const q = loadQueue();
	if (!q.some((e) => e.item.idempotency_key === key)) {
		delete x.error; delete x.message;
		q.push(x);
		writeJSON(ls, K.queue, q);
	}
	renderQueue();
	syncNow(true);
}

function reviewDismiss(key) {
	writeJSON(ls, K.review, loadReview().filter((e) => e.item.idempotency_key !== key));
	syncNote = '';
	renderQueue();
	$('sync-button').focus();
}

/* Sends the queue in batches of up to 100 (spec §4.7, §7): successes and
 * idempotent replays leave the queue, INTERNAL_ERROR / DATABASE_ERROR
 * stay for the next sync, anything else goes to "needs review". */
async function syncNow(manual) {
	if (syncing || !user) return;
	const todo = queueFor(user);
	if (!todo.length) { if (manual) { syncNote = 'Nothing to send.'; renderQueue(); } return; }
	syncing = true;
	syncNote = '';
	renderQueue();
	let sent = 0, kept = 0, flagged = 0, failure = null;
	try {
		for (let i = 0; i < todo.length; i += SYNC_BATCH) {
			const batch = todo.slice(i, i + SYNC_BATCH);
			const r = await api('POST', 'transactions/sync', { transactions: batch.map((x) => x.item) });
			const d = (r.data && r.data.data) || {};
			const results = Array.isArray(d.results) ? d.results : [];
			const byKey = new Map();
			for (const res of results) if (res && typeof res.idempotency_key === 'string') byKey.set(res.idempotency_key, res);
			const done = [], review = [], soft = new Map();
			batch.forEach((x, n) => {
				const key = x.item.idempotency_key;
				const res = byKey.get(key) || results[n];
				const out = res && res.result;
				if (!out) { kept++; return; }
				if (out.success === true) { done.push(key); sent++; return; }
				const code = typeof out.error === 'string' ? out.error : 'INTERNAL_ERROR';
				if (TRANSIENT.includes(code)) { soft.set(key, code); kept++; return; }
				review.push(Object.assign({}, x, { error: code, message: typeof out.message === 'string' ? out.message : '', reviewed_at: new Date().toISOString() }));
				flagged++;
			});
			if (review.length) writeJSON(ls, K.review, loadReview().concat(review));
			const gone = done.concat(review.map((x) => x.item.idempotency_key));
			const q = loadQueue().filter((x) => !gone.includes(x.item.idempotency_key));
			for (const x of q) if (soft.has(x.item.idempotency_key)) x.last_error = soft.get(x.item.idempotency_key);
			writeJSON(ls, K.queue, q);
			renderQueue();
			if (!done.length && !review.length) break; /* server in trouble: stop here */
		}
	} catch (e) {
		failure = e;
	} finally {
		syncing = false;
	}
	if (failure instanceof SessionEnded) return;
	const bits = [];
	if (sent) bits.push(plural(sent, 'purchase', 'purchases') + ' sent.');
	if (flagged) bits.push(flagged + ' need review.');
	if (kept) bits.push(kept + ' kept for the next try.');
	if (failure) bits.push(failure instanceof NetError ? 'Server not reachable; will try again.' :
	    'Sync failed: ' + failure.message + ' (' + failure.code + ').');
	syncNote = bits.join(' ');
	renderQueue();
	if (sent && card) { lookup(cardIdent, false); loadHistory(); }
}

/* ---- connection state ------------------------------------------------- */

let online = true;
function setNet(on) {
	if (on === online) return;
	online = on;
	$('net-status').classList.toggle('off', !on);
	$('net-text').textContent = on ? 'Online' : 'Offline';
}

/* ---- wiring ----------------------------------------------------------- */

function init() {
	$('login-form').addEventListener('submit', onLogin);
	$('logout-button').addEventListener('click', onLogout);
	$('lookup-form').addEventListener('submit', onLookup);
	$('lookup-clear').addEventListener('click', () => { clearCard(); $('lookup-code').value = ''; $('lookup-code').focus(); });
	$('purchase-form').addEventListener('submit', onRecord);
	$('punch-minus').addEventListener('click', () => stepPunch(-1));
	$('punch-plus').addEventListener('click', () => stepPunch(1));
	$('claim-button').addEventListener('click', onClaim);
	$('redeem-form').addEventListener('submit', onRedeem);
	$('redeem-max').addEventListener('click', onRedeemMax);
	$('history-type').addEventListener('change', () => { hist.type = $('history-type').value; hist.page = 1; loadHistory(); });
	$('history-prev').addEventListener('click', () => { if (hist.page > 1) { hist.page--; loadHistory(); } });
	$('history-next').addEventListener('click', () => { if (hist.page < hist.pages) { hist.page++; loadHistory(); } });
	$('sync-button').addEventListener('click', () => syncNow(true));
	$('queue-button').addEventListener('click', () => { $('queue-panel').scrollIntoView({ block: 'start' }); $('sync-button').focus(); });
	$('location-select').addEventListener('change', () => { ss.setItem(K.location, $('location-select').value); renderUser(); renderQueue(); });
	for (const id of ['purchase-amount', 'punch-count', 'redeem-purchase', 'redeem-amount'])
		$(id).addEventListener('input', () => fieldError(id, null));

	window.addEventListener('online', () => { setNet(true); syncNow(false); });
	window.addEventListener('offline', () => setNet(false));
	window.addEventListener('storage', (e) => { if (e.key === K.queue || e.key === K.review) renderQueue(); });
	setInterval(() => { if (user && navigator.onLine !== false && queueFor(user).length) syncNow(false); }, SYNC_EVERY_MS);

	/* A barcode scanner types like a keyboard: keys typed while no field
	 * has focus go to the card field, replacing the previous code. */
	document.addEventListener('keydown', (e) => {
		if (!user || e.ctrlKey || e.altKey || e.metaKey || e.key.length !== 1 || e.key === ' ') return;
		const t = document.activeElement;
		if (t && (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable)) return;
		const f = $('lookup-code');
		f.value = '';
		f.focus();
	});

	const token = ss.getItem(K.access), saved = readJSON(ss, K.user, null);
	if (token && saved && saved.id) {
		startSession(saved);
		api('GET', 'auth/me').then((r) => {
			if (r.data && r.data.id) { user = r.data; writeJSON(ss, K.user, user); renderUser(); }
			syncNow(false);
		}).catch(() => { /* offline: keep the saved profile */ });
	} else {
		endSession(null);
	}
}

/* The service worker (sw.js) keeps this page loadable with no connection:
 * a reload or a browser restart during an outage still opens the till. It
 * never touches api/ requests. Relative URL and scope, so the page works
 * from a subfolder. Browsers offer it only on https and localhost: on a
 * plain-http till 'serviceWorker' is missing and the page works as before,
 * without the offline start. */
function registerWorker() {
	if (!('serviceWorker' in navigator)) return;
	navigator.serviceWorker.register('sw.js', { scope: './', updateViaCache: 'none' }).catch((e) => {
		console.warn('Offline start unavailable: the service worker was not registered (' + (e && e.message ? e.message : e) + ').');
	});
}

init();
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', registerWorker);
})();
