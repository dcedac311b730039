/* Loyalty POS page: a cashier's tool for the loyalty-pos API v1.
 * An ES module with no build step: the API client, the offline queue,
 * the scanner's key bursts and money live in js/ (tested with node's
 * test runner); this file is the page. Every URL is relative (api/v1/...),
 * so the page works from a subfolder. Text from the server is only ever
 * set with textContent, never parsed as HTML. */

import { createApi, ApiError, NetError, SessionEnded } from './js/api.js';
import { storage, readJSON, writeJSON, uuid } from './js/store.js';
import { sentence } from './js/errors.js';
import { cardType, typeOf } from './js/cardtypes.js';
import { createQueue, DEFAULT_COOLDOWN_S } from './js/queue.js';
import { KeyBursts, ScanFrame, frameSetting, readsKey, FRAME_PAUSE_MS } from './js/keys.js';
import { txDetailsNode } from './js/txn.js';
import { parseMoney, formatMoney, toCents, centsStr, isNum } from './js/money.js';
import { afterPurchaseLine, expiryLine } from './js/progress.js';
import { applyLimits } from './js/limits.js';

const PAGE_SIZE = 10;
const SYNC_EVERY_MS = 60000;
/* A purchase queued after a lost answer or a fault is tried again soon,
 * not only at the next minute. */
const SYNC_SOON_MS = 15000;
/* Above these a purchase needs a second press: a slip of the finger
 * (999999 for 9.99, 100 punches for 1) must not reach the books. */
const CONFIRM_CENTS = 100000;		/* 1,000.00 */
const CONFIRM_PUNCHES = 5;
/* Record failures that put the purchase into the offline queue: the
 * server's faults, and its set-up (CONFIGURATION_ERROR, sent once the
 * host is fixed). */
const QUEUE_ON = ['INTERNAL_ERROR', 'DATABASE_ERROR', 'SERVICE_UNAVAILABLE', 'CONFIGURATION_ERROR'];
const K = {
	access: 'pos.access_token', refresh: 'pos.refresh_token',
	user: 'pos.user', location: 'pos.location_id',
	queue: 'pos.queue.v1', review: 'pos.review.v1', seq: 'pos.queue.seq.v1'
};
/* This till's scanner frame ({prefix, suffix}), kept on the till: a
 * setting of the device, not of a login. */
const SCANNER_KEY = 'pos.scanner.v1';
const TYPE_NAMES = {
	punch: 'Punch', cashback: 'Cashback', discount: 'Discount',
	reward_claim: 'Reward claim', cashback_redeem: 'Cashback redeem',
	void: 'Void', adjustment: 'Adjustment', expiry: 'Expiry'
};

/* Codes whose message the till words itself (the server's names the
 * void by its id). */
const OWN_TEXT = ['ALREADY_VOIDED'];
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

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

const ss = storage('sessionStorage');
const ls = storage('localStorage');

/* ---- formatting ------------------------------------------------------- */

const pctFmt = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 });
const currency = () => (user && user.shop && typeof user.shop.currency_symbol === 'string' ? user.shop.currency_symbol : '');
const money = (v) => formatMoney(v, currency());
const pct = (v) => (isNum(v) ? pctFmt.format(v) : '—');
const int = (v) => (Number.isInteger(v) ? String(v) : '—');
const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
/* A card's customer as the back office names them: a card issued
 * without a name (customer_name "") is "No name"; none said at all (a
 * card not checked), dflt. */
const nameOf = (c, dflt) => (c && typeof c.customer_name === 'string' ? c.customer_name || 'No name' : dflt || '');
const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '—');
function when(iso) {
	const d = new Date(iso);
	if (!iso || isNaN(d)) return iso ? String(iso) : '—';
	try {
		return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
	} catch (e) { return d.toLocaleString(); }
}
/* The formatters and builders js/cardtypes.js writes with. */
const fmt = {
	money, pct, int, plural, expiry: (d) => expiryLine(d, currency()),
	p: (cls, ...kids) => h('p', cls ? { className: cls } : null, ...kids),
	strong: (t) => h('strong', null, t)
};
const MONEY_HINT = 'Enter an amount such as 12.50: at most 2 decimals, up to 1,000,000.00.';

/* ---- API and queue ---------------------------------------------------- */

const api = createApi({
	base: 'api/v1/', store: ss, keys: K, fetch: (u, o) => window.fetch(u, o),
	onNet: (on) => setNet(on), onSessionEnd: (notice) => endSession(notice)
});
/* The queue's durable copy (js/queue.js, createQueue): one record in
 * IndexedDB, on disk when its transaction completes ('strict': flushed,
 * a power cut included), where localStorage's writes may wait minutes
 * in the browser's memory. Null without IndexedDB: the queue then lives
 * in localStorage alone. */
function idbCopy(name) {
	let idb = null;
	try { idb = window.indexedDB || null; } catch (e) { idb = null; }
	if (!idb) return null;
	/* Refused for good (a private window of some browsers): no copy, at
	 * once, rather than the waits restore() gives a copy not yet open. */
	const REFUSED = ['InvalidStateError', 'SecurityError', 'NotSupportedError', 'NotAllowedError'];
	let conn = null, refused = null;
	function open() {
		if (refused) return Promise.reject(refused);
		if (!conn)
			conn = new Promise((resolve, reject) => {
				const r = idb.open(name, 1);
				r.onupgradeneeded = () => r.result.createObjectStore('state');
				r.onsuccess = () => {
					const db = r.result;
					db.onversionchange = () => { db.close(); conn = null; };
					db.onclose = () => { conn = null; };
					resolve(db);
				};
				r.onerror = () => reject(r.error);
				r.onblocked = () => reject(new Error('IndexedDB blocked'));
			}).catch((e) => {
				conn = null;
				if (e && REFUSED.includes(e.name)) refused = e;
				throw e;
			});
		return conn;
	}
	async function run(mode, fn) {
		const db = await open();
		return new Promise((resolve, reject) => {
			const t = db.transaction('state', mode, { durability: 'strict' });
			let out = null;
			fn(t.objectStore('state'), (v) => { out = v; });
			t.oncomplete = () => resolve(out);
			t.onerror = t.onabort = () => reject(t.error || new Error('IndexedDB transaction aborted'));
		});
	}
	return {
		load: () => run('readonly', (st, set) => { const g = st.get('queue'); g.onsuccess = () => set(g.result || null); })
			.catch((e) => { if (refused) return null; throw e; }),
		/* Never over a newer copy: another tab of the till may have saved it. */
		save: (snap) => run('readwrite', (st) => {
			const g = st.get('queue');
			g.onsuccess = () => { if (!g.result || !(g.result.seq > snap.seq)) st.put(snap, 'queue'); };
		})
	};
}
const queue = createQueue({ store: ls, keys: K, durable: idbCopy('loyalty-pos.queue') });
/* The queue as the till last had it, before anything reads or sends it:
 * after the browser was killed, localStorage may hold an older one. */
let restoredNote = '';
const ready = queue.restore().then((back) => {
	if (back) restoredNote = 'The queue was brought back from this till\'s saved copy (the browser had stopped before keeping it).';
	return back;
}, () => false);
/* Waits (2 s at most) until what was just queued is in the durable copy. */
const keptSoon = () => Promise.race([queue.flush(), new Promise((resolve) => setTimeout(resolve, 2000))]);

/* What a cashier reads for an error code (js/errors.js): the server's
 * message when the code has no sentence, and never the bare code. */
const codeText = sentence;

/* An error as text for the cashier: a sentence, never a bare code (the
 * code is kept in a data attribute for support), and the wait of a
 * 429/503 unless a countdown shows it. */
function errorNode(e, noWait) {
	if (e instanceof NetError)
		return h('span', null, h('strong', null, 'No connection to the server.'), ' Check the network and try again.');
	if (e instanceof ApiError) {
		/* The server's message names what it refers to by id: a
		 * cashier reads this till's words for those, and short ids. */
		const msg = e.message && !/^[A-Z_]+$/.test(e.message) && !OWN_TEXT.includes(e.code) ?
		    e.message.replace(UUID_RE, (id) => shortId(id)) : codeText(e.code);
		const parts = [h('strong', { dataset: { code: e.code } }, msg)];
		/* The field names what to correct only where input was refused. */
		if (e.code === 'VALIDATION_ERROR' && e.details && typeof e.details.field === 'string')
			parts.push(h('span', { className: 'detail' }, ' (field ' + e.details.field + ')'));
		if (!noWait && isNum(e.retryAfter) && (e.status === 429 || e.status === 503))
			parts.push(h('span', { className: 'retry' }, ' Try again in ' + waitText(e.retryAfter) + '.'));
		return h('span', null, parts);
	}
	return h('span', null, h('strong', null, 'Unexpected error.'), ' ' + (e && e.message ? e.message : ''));
}
function waitText(secs) {
	return secs >= 120 ? plural(Math.ceil(secs / 60), 'minute', 'minutes') : plural(secs, 'second', 'seconds');
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
let lookupPending = false;
/* Counts the cards shown: an answer for a sale of an earlier card must
 * not clear what is being typed for the next one. */
let cardGen = 0;
const hist = { page: 1, type: '', seq: 0, pages: 0 };
/* Idempotency keys per kind of operation: the same attempt (same
 * signature) after a network error reuses its key, anything else gets a
 * new one. */
const attempts = {};
/* Keys typed while a lookup runs, for the field they were meant for. */
const held = { text: '', enter: false };
/* The purchase waiting for its second press ({sig}). */
let confirmPending = null;
/* A sale is being recorded: one at a time, so a second Enter (or the
 * Enter held during a lookup) cannot start another beside it. */
let saleInFlight = false;

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
	closeEnrol();
	show('pos-view', false);
	show('session-bar', false);
	show('login-view', true);
	const n = $('login-notice');
	n.textContent = notice || '';
	n.hidden = !notice;
	renderLoginQueue();
	setMsg('login-error', null);
	$('login-password').value = '';
	($('login-email').value ? $('login-password') : $('login-email')).focus();
}

function renderLoginQueue() {
	const waiting = queue.load().length, review = queue.loadReview().length;
	$('login-queue').textContent = (waiting ? plural(waiting, 'purchase is', 'purchases are') +
	    ' waiting in the offline queue of this till; ' + (waiting === 1 ? 'it is' : 'they are') + ' sent after login.' : '') +
	    (review ? (waiting ? ' ' : '') + plural(review, 'purchase was', 'purchases were') +
	    ' not recorded and ' + (review === 1 ? 'needs' : 'need') + ' review: after login the offline queue says why.' : '') +
	    (restoredNote && waiting + review ? ' ' + restoredNote : '');
	show('login-queue', waiting + review > 0);
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

function canEnrol() {
	return !!(user && user.shop && user.shop.can_enrol === true);
}

function renderUser() {
	$('who-name').textContent = user.name || user.email || '';
	$('who-name').title = user.email || '';
	/* The back office (owner.html) is the owner's; a cashier never sees the link. */
	show('backoffice-link', user.user_type === 'owner');
	show('enrol-button', canEnrol());
	if (!canEnrol()) closeEnrol();
	renderVoid();
	loadVoidable();
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
	/* "You are logged out" is news no more once a login is tried. */
	show('login-notice', false);
	try {
		const u = await api.login(email, password);
		ss.removeItem(K.location);
		$('login-password').value = '';
		show('login-notice', false);
		startSession(u);
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
	const mine = queue.forUser(user).length;
	if (mine > 0 && !window.confirm(plural(mine, 'purchase is', 'purchases are') +
	    ' still waiting in the offline queue. They stay on this till and are sent after the next login. Log out?'))
		return;
	api.logout().then((how) => {
		/* Still on the login form: say what the server could not do. */
		if (how !== 'unreachable' || user) return;
		const n = $('login-notice');
		n.textContent = 'You are logged out on this till. The server was out of reach and could not end the login there too; it ends by itself when its 30 days are over.';
		n.hidden = false;
	});
	endSession('You are logged out.');
}

/* ---- card lookup ------------------------------------------------------ */

function clearCard() {
	lookupSeq++;
	cardGen++;
	lookupPending = false;
	hist.seq++;
	card = null;
	cardIdent = null;
	offlineIdent = null;
	held.text = '';
	held.enter = false;
	for (const id of ['card-panel', 'purchase-panel', 'result-panel', 'claim-panel', 'redeem-panel', 'history-panel'])
		show(id, false);
	setMsg('lookup-error', null);
	$('lookup-submit').setAttribute('aria-busy', 'false');
	setKids($('result'));
	stopCountdown();
	resetPurchaseForm();
	$('redeem-form').reset();
	claimConfirm(false);
	clearFieldErrors();
	voidCardChanged();
}

function identFor(code) {
	return /^\d+$/.test(code) ? { barcode_value: code } : { qr_code_data: code };
}

/* The time-based code of the card page's QR code: the 6 digits after its
 * payload's '.' (base64 holds no '.'). A claim or a redemption sends it
 * as card_code, which the shop may require (redeem_needs_card_code); the
 * lookup, purchases and the offline queue send the whole text, which
 * names the card all the same. null: a printed card, a typed number. */
function cardCodeOf(ident) {
	const m = ident && typeof ident.qr_code_data === 'string' ? /\.(\d{6})$/.exec(ident.qr_code_data) : null;
	return m ? m[1] : null;
}

/* A new card, however it came (scanner, camera, typed): the old one and
 * everything typed for it go. */
function startLookup(code) {
	code = String(code).trim();
	const f = $('lookup-code');
	f.value = code;
	if (!code) {
		setMsg('lookup-error', h('span', null, 'Scan a card or type its number first.'));
		f.focus();
		return;
	}
	clearCard();
	if (document.activeElement !== f) f.focus();
	lookup(identFor(code), true);
}

function onLookup(ev) {
	if (ev) ev.preventDefault();
	startLookup($('lookup-code').value);
}

/* Looks the card up and shows it; focus moves to the amount when asked,
 * and keys typed meanwhile land there. The button is never disabled: a
 * new scan always goes through, and the answer of an older lookup is
 * dropped. */
async function lookup(ident, focusAmount) {
	if (!ident) return;
	const seq = ++lookupSeq;
	const btn = $('lookup-submit');
	btn.setAttribute('aria-busy', 'true');
	if (focusAmount) lookupPending = true;
	try {
		const r = await api.call('POST', 'cards/lookup', ident);
		if (seq !== lookupSeq) return;
		const d = r.data && r.data.data;
		if (!d || typeof d.card_instance_id !== 'string') throw api.unreadable(r.status);
		const changed = !card || card.card_instance_id !== d.card_instance_id;
		card = d;
		cardIdent = ident;
		offlineIdent = null;
		setMsg('lookup-error', null);
		renderCard();
		/* A scan of the card shown reads its history again too: the
		 * lookup may have recorded an expiry, another till a sale. */
		if (changed || focusAmount) { hist.page = 1; loadHistory(); }
		if (focusAmount) {
			if (card.status === 'active') releaseHeld();
			else dropHeld($('lookup-code'));
		}
	} catch (e) {
		if (seq !== lookupSeq || e instanceof SessionEnded) return;
		if (e instanceof NetError && focusAmount) {
			offlineIdent = ident;
			renderOfflineCard(ident);
			releaseHeld();
			return;
		}
		if (focusAmount || !(e instanceof NetError))
			setMsg('lookup-error', e instanceof ApiError && e.code === 'CARD_NOT_FOUND' ?
			    h('span', null, errorNode(e), canEnrol() ? ' Check the number, or issue a new card with "New card".' : ' Check the number.') : e);
		/* The next scan replaces the code instead of adding to it. */
		if (focusAmount) dropHeld($('lookup-code'));
	} finally {
		if (seq === lookupSeq) {
			btn.setAttribute('aria-busy', 'false');
			lookupPending = false;
		}
	}
}

/* The lookup is over and the card takes a purchase: what was typed
 * meanwhile goes into the amount, and a held Enter records it. */
function releaseHeld() {
	const f = $('purchase-amount');
	const text = held.text, enter = held.enter;
	held.text = '';
	held.enter = false;
	lookupPending = false;
	f.value = text;
	f.focus();
	f.setSelectionRange(text.length, text.length);
	if (enter && !saleInFlight) $('purchase-form').requestSubmit($('purchase-submit'));
}

/* The lookup failed: keys typed meanwhile are dropped, focus goes back. */
function dropHeld(f) {
	held.text = '';
	held.enter = false;
	lookupPending = false;
	f.focus();
	f.select();
}

const balanceOf = (d) => (d.balance && typeof d.balance === 'object' ? d.balance : d);

function renderCard() {
	const d = card, active = d.status === 'active';
	$('card-title').textContent = d.card_title || d.card_name || 'Loyalty card';
	$('card-customer').textContent = nameOf(d, 'Customer');
	$('card-merchant').textContent = d.merchant_name || '';
	show('card-merchant-sep', !!d.merchant_name);
	const type = $('card-type');
	const ct = typeOf(d);
	type.textContent = ct.name;
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
	rows.push(...ct.tillRows(d, fmt));
	const dd = ct.dots(d);
	if (dd) for (let i = 0; i < dd[1]; i++) dots.append(h('span', { className: 'pdot' + (i < dd[0] ? ' on' : '') }));
	show(dots, dots.childElementCount > 0);
	setKids($('card-balance'), ...rows.map(([k, v, cls]) =>
		h('div', { className: 'bal ' + cls }, h('dt', null, k), h('dd', null, v))));
	show('card-panel', true);

	/* Actions. */
	const isPunch = ct.punches;
	show('purchase-panel', active);
	show('punch-field', isPunch);
	$('punch-count-label').textContent = 'Punches';
	const pending = ct.rewards ? ct.pending(d) : 0;
	show('claim-panel', active && pending > 0);
	if (!(active && pending > 0)) claimConfirm(false);
	$('claim-info').textContent = pending > 0 ? plural(pending, 'reward is', 'rewards are') + ' waiting for this customer.' : '';
	show('redeem-panel', active && ct.redeems);
	/* The shop wants the phone's code for these, and this scan had
	 * none (a printed card, a typed number): said before the amounts. */
	const needCode = !!(user && user.shop && user.shop.card_code_required) && !cardCodeOf(cardIdent);
	show('claim-code-note', needCode);
	show('redeem-code-note', needCode);
	show('history-panel', true);
	voidCardChanged();
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

/* ---- the scanner always wins ------------------------------------------ */

/*
 * Every key goes through here first (capture phase). A burst of
 * characters ending in Enter is a scan: whatever field it landed in
 * gets its old text back and the code is looked up as a new card. While
 * a lookup runs, keys meant for the amount are held (not typed into
 * the card field) and land in the amount when the card is shown.
 */
const bursts = new KeyBursts();
let burstAt = null;   /* {el, value} where the current burst began */
/* The scanner's prefix and suffix, when the till has them (js/keys.js,
 * ScanFrame): a framed scan is a scan whatever its timing. */
let frame = new ScanFrame(savedFrame());
let frameAt = null;   /* {el, value} where the current frame began */

function savedFrame() {
	const v = readJSON(ls, SCANNER_KEY, null);
	const f = v && typeof v === 'object' ? frameSetting(String(v.prefix || ''), String(v.suffix || '')) : null;
	return f && typeof f === 'object' ? f : { prefix: '', suffix: '' };
}

/* Puts back what a field held before a scan landed in it. */
function putBack(at) {
	if (at && at.el && at.el !== $('lookup-code') && 'value' in at.el && at.el.value !== at.value) {
		at.el.value = at.value;
		at.el.dispatchEvent(new Event('input', { bubbles: true }));
	}
}

/* Types text into the focused field at its cursor: the start of a
 * prefix that turned out to be typing. */
function typeInto(el, text) {
	if (!isField(el) || !('value' in el) || el.tagName === 'SELECT') return;
	try {
		el.setRangeText(text, el.selectionStart, el.selectionEnd, 'end');
	} catch (e) {
		el.value += text;	/* e-mail and number fields have no selection */
	}
	el.dispatchEvent(new Event('input', { bubbles: true }));
}

/* A frame begun by mistake (a ~ typed in a note): once the keys stop
 * for FRAME_PAUSE_MS, what it held is given back into the field. */
let frameTimer = null;
function frameIdle() {
	frameTimer = null;
	const r = frame.idle(performance.now());
	if (r && r.replay) { typeInto(document.activeElement, r.replay); frameAt = null; }
}

/* A key seen by the frame; true when it was the frame's (swallowed). */
function frameKey(e, t) {
	if (!frame.active || (t && t.closest && t.closest('#scanner-settings'))) return false;
	const r = e.key === 'Enter' ? frame.enter(e.timeStamp) : [...e.key].length === 1 ? frame.key(e.key, e.timeStamp) :
	    e.key === 'Tab' || e.key === 'Escape' ? frame.other(e.key, e.timeStamp) : null;
	if (!r) return false;
	if (r.replay) typeInto(t, r.replay);
	if (r.begun) frameAt = { el: t, value: t && 'value' in t ? t.value : '' };
	clearTimeout(frameTimer);
	frameTimer = r.hold && r.code === undefined ? setTimeout(frameIdle, FRAME_PAUSE_MS + 50) : null;
	if (!r.hold) return false;
	e.preventDefault();
	e.stopPropagation();
	if (r.code !== undefined) {
		putBack(frameAt);
		frameAt = null;
		bursts.reset();
		burstAt = null;
		startLookup(r.code);
	}
	return true;
}

function isField(t) {
	return t && (/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t.isContentEditable);
}

function onKeyCapture(e) {
	/* Shortcuts are not typing; AltGr (Ctrl+Alt on Windows) is: it
	 * types a prefix such as ~ on German or French layouts. */
	if (!user || !readsKey(e)) return;
	/* The camera's dialog keeps its keys (Escape closes it). */
	if (document.querySelector('dialog[open]')) return;
	const t = document.activeElement, lookupField = $('lookup-code');
	const holding = lookupPending && (t === lookupField || !isField(t) || t === document.body);
	if (frameKey(e, t)) return;
	if (e.key === 'Enter') {
		const code = bursts.enter(e.timeStamp);
		if (code !== null) {
			e.preventDefault();
			e.stopPropagation();
			if (burstAt && burstAt.el && burstAt.el !== lookupField && 'value' in burstAt.el) {
				burstAt.el.value = burstAt.value;
				burstAt.el.dispatchEvent(new Event('input', { bubbles: true }));
			}
			burstAt = null;
			startLookup(code);
			return;
		}
		if (holding) {
			e.preventDefault();
			e.stopPropagation();
			/* Enter alone (a scanner's CR LF, a double press) is no sale. */
			if (held.text) held.enter = true;
		}
		return;
	}
	if (e.key.length !== 1) return;
	if (bursts.key(e.key, e.timeStamp))
		burstAt = { el: t, value: t && 'value' in t ? t.value : '' };
	if (holding) {
		e.preventDefault();
		held.text += e.key;
		return;
	}
	if (e.key === ' ' || isField(t)) return;
	/* No field has focus: with a card ready for a sale the keys are the
	 * amount; else a new code in the card field. A scan is caught at its
	 * Enter either way. */
	const f = !$('purchase-panel').hidden ? $('purchase-amount') : lookupField;
	if (f === lookupField) lookupField.value = '';
	burstAt = { el: f, value: f.value };
	if (frameAt && frameAt.el === t) frameAt = { el: f, value: f.value };
	f.focus();
}

/* The till's scanner setting: the prefix and suffix its scanner sends
 * (docs/scanner.md says how to set them on the scanner). */
function renderScannerSetting() {
	const f = savedFrame();
	$('scanner-prefix').value = f.prefix;
	$('scanner-suffix').value = f.suffix;
	$('scanner-state').textContent = f.prefix || f.suffix ?
	    'This till takes a scan framed by ' + (f.prefix ? 'the prefix ' + f.prefix : 'no prefix') + ' and ' + (f.suffix ? 'the suffix ' + f.suffix : 'Enter') + ', however slowly it comes.' :
	    'No prefix or suffix: this till tells a scan from typing by its speed alone.';
}
function onScannerSave(ev) {
	ev.preventDefault();
	const f = frameSetting($('scanner-prefix').value, $('scanner-suffix').value);
	fieldError('scanner-prefix', typeof f === 'string' ? f : null);
	if (typeof f === 'string') { $('scanner-prefix').focus(); return; }
	if (f.prefix || f.suffix) writeJSON(ls, SCANNER_KEY, f);
	else ls.removeItem(SCANNER_KEY);
	frame = new ScanFrame(f);
	frameAt = null;
	renderScannerSetting();
}

/* ---- field validation ------------------------------------------------- */

function fieldError(inputId, text) {
	const input = $(inputId), err = $(inputId + '-error');
	input.setAttribute('aria-invalid', text ? 'true' : 'false');
	err.textContent = text || '';
	err.hidden = !text;
}
function clearFieldErrors() {
	for (const id of ['purchase-amount', 'punch-count', 'redeem-purchase', 'redeem-amount', 'enrol-program', 'enrol-name'])
		fieldError(id, null);
}

/* ---- record a purchase ------------------------------------------------ */

function resetPurchaseForm() {
	$('purchase-amount').value = '';
	$('purchase-notes').value = '';
	$('punch-count').value = '1';
	purchaseConfirm(null);
}

function maxPunches() {
	const m = card && card.program && Number.isInteger(card.program.max_punches_per_purchase) ? card.program.max_punches_per_purchase :
	    card && Number.isInteger(card.max_punches_per_purchase) ? card.max_punches_per_purchase : 100;
	return Math.min(100, Math.max(1, m));
}

function stepPunch(delta) {
	const n = parseInt($('punch-count').value, 10);
	$('punch-count').value = String(Math.min(maxPunches(), Math.max(1, (Number.isInteger(n) ? n : 1) + delta)));
	fieldError('punch-count', null);
	purchaseConfirm(null);
}

function purchaseConfirm(text, sig) {
	confirmPending = text ? { sig } : null;
	$('purchase-confirm-text').textContent = text || '';
	show('purchase-confirm', !!text);
	show('purchase-submit', !text);
}

function cooldownOf(c) {
	const v = c && c.program && Number.isInteger(c.program.cooldown_seconds) ? c.program.cooldown_seconds :
	    c && Number.isInteger(c.cooldown_seconds) ? c.cooldown_seconds : DEFAULT_COOLDOWN_S;
	return Math.max(0, v);
}

function onRecord(ev, confirmed) {
	if (ev) ev.preventDefault();
	if ((!card && !offlineIdent) || saleInFlight) return;
	clearFieldErrors();
	const amount = parseMoney($('purchase-amount').value);
	const isPunch = !card || typeOf(card).punches;
	const pcText = $('punch-count').value.trim();
	const punches = /^\d{1,3}$/.test(pcText) ? parseInt(pcText, 10) : NaN;
	const maxP = maxPunches();
	let bad = null;
	if (isPunch && !(punches >= 1 && punches <= maxP)) {
		fieldError('punch-count', 'Punches must be a whole number from 1 to ' + maxP + '.');
		bad = 'punch-count';
	}
	if (!amount) {
		fieldError('purchase-amount', MONEY_HINT);
		bad = 'purchase-amount';
	} else if (amount.cents === 0) {
		fieldError('purchase-amount', 'Enter the amount the customer pays: it must be above 0.');
		bad = 'purchase-amount';
	}
	if (bad) {
		/* The result of an earlier try is not this one's. */
		purchaseConfirm(null);
		show('result-panel', false);
		stopCountdown();
		$(bad).focus();
		return;
	}
	const notes = $('purchase-notes').value.trim();
	const sig = [amount.cents, isPunch ? punches : 0, notes].join('|');
	const big = amount.cents >= CONFIRM_CENTS || (isPunch && punches > CONFIRM_PUNCHES);
	if (big && !(confirmed && confirmPending && confirmPending.sig === sig)) {
		const what = [];
		if (amount.cents >= CONFIRM_CENTS) what.push('a purchase of ' + money(amount.value));
		if (isPunch && punches > CONFIRM_PUNCHES) what.push(plural(punches, 'punch', 'punches') + ' at once');
		purchaseConfirm('Record ' + what.join(' with ') + '? Check the amount with the customer.', sig);
		/* On "Change it": a second Enter, or a key held down, must not
		 * say yes. */
		$('purchase-no').focus();
		return;
	}
	purchaseConfirm(null);
	record(amount, isPunch ? punches : null, notes);
}

async function record(amount, punches, notes) {
	const loc = currentLocation();
	const isPunch = punches !== null;
	/* How the card is named: by id once looked up, except a QR card,
	 * whose payload the sync items take (docs/integrators.md, Offline). */
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

	const label = card ? (card.card_title || card.card_name) + ' — ' + nameOf(card) : $('card-title').textContent;
	const meta = { label, card_type: card ? card.card_type : null, merchant_id: user.merchant_id };
	/* The sale's own card: the answer may come when another is shown. */
	const sale = { card, gen: cardGen, label, a };
	const gen = cardGen;
	const btn = $('purchase-submit');
	busy(btn, true);
	saleInFlight = true;
	try {
		const r = await api.call('POST', 'transactions/record', body);
		const d = r.data && r.data.data;
		if (!d) throw api.unreadable(r.status);
		forget(a);
		queue.remove([a.key]);
		renderQueue();
		showResult(recordResult(d, label, sale.card, gen !== cardGen));
		loadVoidable();
		/* Another card came meanwhile: its typing stays, focus too. */
		if (gen !== cardGen) return;
		resetPurchaseForm();
		$('result-panel').focus({ preventScroll: true });
		if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
		else if (offlineIdent) lookup(offlineIdent, false);
	} catch (e) {
		if (e instanceof SessionEnded) {
			/* Nothing was recorded: keep the sale for after the next login,
			 * and say so on the login form. */
			await ready;
			const ok = queue.add(body, meta);
			forget(a);
			await keptSoon();
			renderLoginQueue();
			const n = $('login-notice');
			n.textContent = (n.textContent ? n.textContent + ' ' : '') + (ok ?
			    'The purchase of ' + money(amount.value) + ' in progress was saved to the offline queue; it is sent after the next login.' :
			    'The purchase of ' + money(amount.value) + ' in progress was NOT recorded: write it down.');
			n.hidden = false;
			return;
		}
		if (e instanceof NetError || (e instanceof ApiError && QUEUE_ON.includes(e.code))) {
			await queueOffline(body, meta, amount, e, sale);
		} else {
			/* The server refused it: nothing was recorded; the next try is a new attempt. */
			forget(a);
			queue.remove([a.key]);
			renderQueue();
			const wait = e.code === 'COOLDOWN_ACTIVE' && Number.isInteger(e.retryAfter) && gen === cardGen;
			showResult(h('div', { className: 'res res-error' }, previousSale(sale),
				h('p', { className: 'res-head' }, 'Purchase not recorded'),
				h('p', null, errorNode(e, wait))));
			if (wait) countdown(e.retryAfter);
			if (e.code === 'CARD_INACTIVE' && cardIdent && gen === cardGen) lookup(cardIdent, false);
		}
	} finally {
		saleInFlight = false;
		busy(btn, false);
	}
}

/* Drops the sale's retry key, unless a later sale has its own by now. */
function forget(a) {
	if (attempts.record === a) delete attempts.record;
}

/* A heading for the answer of a sale of a card no longer on screen, so
 * the cashier never reads it as the new card's. */
function previousSale(sale) {
	return sale.gen === cardGen ? null : h('p', { className: 'res-prev' }, 'Previous sale: ' + sale.label);
}

/* A purchase the server could not take now goes to the queue, unless it
 * is a second punch on the card within the cooldown: the server would
 * refuse that too, so the till says so now, as it does online. */
async function queueOffline(body, meta, amount, e, sale) {
	await ready;
	const gen = sale.gen, c = sale.card, a = sale.a;
	/* Only a card known to be a punch card: an unknown one may be a
	 * cashback card, whose next sale must not be turned away. */
	const isPunch = typeof body.punch_count === 'number' && (!c || typeOf(c).punches);
	const prior = isPunch ? queue.punchWithin(body, cooldownOf(c), Date.parse(body.client_timestamp)) : null;
	if (prior && prior.item.idempotency_key !== body.idempotency_key) {
		forget(a);
		const left = Math.ceil((Date.parse(prior.item.client_timestamp) + cooldownOf(c) * 1000 - Date.now()) / 1000);
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, 'Purchase not recorded'),
			h('p', null, h('strong', null, 'This card was punched ' + waitText(Math.max(1, Math.round((Date.now() - Date.parse(prior.item.client_timestamp)) / 1000))) +
			    ' ago (kept in the offline queue).'), ' A card takes one punch per visit.')));
		if (left > 0 && gen === cardGen) countdown(left);
		if (gen === cardGen) resetPurchaseForm();
		return;
	}
	const ok = queue.add(body, meta);
	renderQueue();
	/* "Saved" once it is on disk: a browser killed now keeps it. */
	if (ok) await keptSoon();
	if (ok) {
		/* Saved: the next scan starts clean; pressing Record again is no
		 * longer possible for this sale, and needs no second key. */
		forget(a);
		if (gen === cardGen) resetPurchaseForm();
		setTimeout(() => syncNow(false), SYNC_SOON_MS);
	}
	/* Not stored: the answer may only have been lost, so the sale may be
	 * recorded; its key is kept and the form too, so Record again now
	 * cannot count it twice, where writing it down to type in later
	 * would. */
	showResult(h('div', { className: 'res res-warn' }, previousSale(sale),
		h('p', { className: 'res-head' }, ok ? 'Saved to the offline queue' : 'Outcome unknown'),
		h('p', null, errorNode(e)),
		h('p', null, ok ? 'The purchase of ' + money(amount.value) + ' is sent automatically when the server is reachable; it will not be counted twice.'
		    : 'This till cannot store the purchase (its storage is full). Press Record again now with the same details: it will not be counted twice.')));
	if (gen === cardGen) $('result-panel').focus({ preventScroll: true });
}

/* The cooldown's countdown: outside the live region, so a screen reader
 * reads the wait once (in the message) and not every second. */
let countdownTimer = null;
function countdown(secs) {
	const el = $('countdown');
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
	show(el, true);
	countdownTimer = setInterval(tick, 1000);
}
function stopCountdown() {
	clearInterval(countdownTimer);
	show('countdown', false);
}

function showResult(node) {
	stopCountdown();
	setKids($('result'), node);
	show('result-panel', true);
	$('result-panel').scrollIntoView({ block: 'nearest' });
}

function recordResult(d, label, saleCard, previous) {
	const card = saleCard;
	const parts = [];
	const dup = d.idempotent === true ? h('p', { className: 'note' }, 'Already recorded earlier: this is the original result, nothing was added twice.') : null;
	parts.push(...typeOf(d).result(d, fmt, card));
	/* For the customer: to read out, or for the receipt. */
	const line = afterPurchaseLine(d, card, currency());
	if (line) parts.push(h('p', { className: 'progress-line' }, h('span', { className: 'visually-hidden' }, 'For the customer: '), line));
	parts.push(h('p', { className: 'res-foot' }, label + ' · transaction ' + shortId(d.transaction_id)));
	return h('div', { className: 'res res-ok' + (d.reward_earned ? ' res-reward' : '') },
		previous ? h('p', { className: 'res-prev' }, 'Previous sale: ' + label) : null, parts, dup);
}

/* ---- claim reward ----------------------------------------------------- */

/* Claiming hands over goods: a second, deliberate press. */
function claimConfirm(on) {
	show('claim-confirm', on);
	show('claim-button', !on);
	if (on && card) {
		const b = balanceOf(card), rw = card.reward || {};
		$('claim-confirm-text').textContent = 'Hand over ' + (rw.title ? rw.title : 'the reward') + ' to ' + (card.customer_name || 'the customer') +
		    ' now?' + (b.pending_rewards > 1 ? ' (' + plural(b.pending_rewards, 'reward', 'rewards') + ' waiting; one is claimed.)' : '');
		/* On Cancel: a second Enter must not hand the reward over. */
		$('claim-no').focus();
	}
}

async function onClaim() {
	if (!card) return;
	claimConfirm(false);
	const loc = currentLocation();
	const body = { card_instance_id: card.card_instance_id, location_id: loc ? loc.id : '', staff_user_id: user.id };
	const a = attempt('claim', JSON.stringify([body, balanceOf(card).pending_rewards]));
	body.idempotency_key = a.key;
	const code = cardCodeOf(cardIdent);
	if (code) body.card_code = code;
	/* The answer may come when another card is shown: it then says whose
	 * it is and leaves that card alone. */
	const sale = { gen: cardGen, label: (card.card_title || '') + ' — ' + nameOf(card), ident: cardIdent };
	const here = () => sale.gen === cardGen;
	const btn = $('claim-button');
	busy(btn, true);
	try {
		const r = await api.call('POST', 'rewards/claim', body);
		const d = r.data;
		if (attempts.claim === a) delete attempts.claim;
		loadVoidable();
		showResult(h('div', { className: 'res res-ok res-reward' }, previousSale(sale),
			h('p', { className: 'res-head' }, 'Reward claimed: ' + (d.reward_name || 'reward')),
			h('p', null, 'Hand over the reward' + (toCents(d.reward_amount) > 0 ? ' (value ' + money(d.reward_amount) + ')' : '') +
			    '. Earned ' + when(d.earned_at) + '.'),
			h('p', null, plural(d.pending_rewards_remaining, 'reward', 'rewards') + ' still waiting.'),
			d.idempotent === true ? h('p', { className: 'note' }, 'Already claimed earlier: this is the original result.') : null));
		if (here()) {
			lookup(sale.ident, false);
			hist.page = 1;
			loadHistory();
		}
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError) && attempts.claim === a) delete attempts.claim;
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, 'Reward not claimed'), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, 'Press Claim again to retry; it will not be claimed twice.') : null));
		if (!(e instanceof NetError) && here()) lookup(sale.ident, false);
	} finally {
		busy(btn, false);
		/* The claim box may be gone: focus stays on the page's content. */
		if (here()) $('result-panel').focus({ preventScroll: true });
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
	if (!p || p.cents === 0) { fieldError('redeem-purchase', p ? 'Enter the amount of the purchase: it must be above 0.' : MONEY_HINT); bad = 'redeem-purchase'; }
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const body = {
		card_instance_id: card.card_instance_id, redemption_amount: r.value, purchase_amount: p.value,
		location_id: loc ? loc.id : '', staff_user_id: user.id,
		/* Nothing left to pay: no 0.00 purchase to earn on. */
		earn_on_remainder: $('redeem-earn').checked && r.cents < p.cents
	};
	const a = attempt('redeem', JSON.stringify(body));
	body.idempotency_key = a.key;
	const code = cardCodeOf(cardIdent);
	if (code) body.card_code = code;
	const sale = { gen: cardGen, label: (card.card_title || '') + ' — ' + nameOf(card), ident: cardIdent };
	const here = () => sale.gen === cardGen;
	const btn = $('redeem-submit');
	busy(btn, true);
	try {
		const res = await api.call('POST', 'cashback/redeem', body);
		const d = res.data;
		if (attempts.redeem === a) delete attempts.redeem;
		loadVoidable();
		const node = redeemResult(d);
		const prev = previousSale(sale);
		if (prev) node.prepend(prev);
		showResult(node);
		if (!here()) return;
		$('redeem-form').reset();
		$('redeem-earn').checked = true;
		$('result-panel').focus({ preventScroll: true });
		lookup(sale.ident, false);
		hist.page = 1;
		loadHistory();
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError) && attempts.redeem === a) delete attempts.redeem;
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, 'Cashback not redeemed'), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, 'Press Redeem again to retry; it will not be counted twice.') : null));
		if (!here()) return;
		if (e instanceof ApiError && e.code === 'INSUFFICIENT_BALANCE') {
			/* Another till spent it: show the balance as it is now, and
			 * let Max fill in that one. */
			$('redeem-amount').value = '';
			lookup(sale.ident, false);
			$('redeem-amount').focus();
		} else {
			$('result-panel').focus({ preventScroll: true });
		}
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
		const r = await api.call('GET', 'transactions/history?' + q.toString());
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
		pagerState($('history-prev'), hist.page <= 1, $('history-next'));
		pagerState($('history-next'), hist.page >= hist.pages, $('history-prev'));
	} catch (e) {
		if (seq !== hist.seq || e instanceof SessionEnded) return;
		setMsg('history-error', e);
	} finally {
		if (seq === hist.seq) $('history-panel').removeAttribute('aria-busy');
	}
}

/* Disables a pager button; focus on it moves to the other one (or the
 * table) instead of falling to the page body. */
function pagerState(btn, off, other) {
	const had = document.activeElement === btn;
	btn.disabled = off;
	if (off && had) (other.disabled ? $('history-title') : other).focus();
}

function historyRow(t) {
	const type = t.transaction_type;
	const cells = [
		h('td', { dataset: { label: 'When' } }, when(t.created_at)),
		h('td', { dataset: { label: 'Type' } }, h('span', { className: 'tx tx-' + (type || 'x') }, TYPE_NAMES[type] || type || '—'),
			t.voided ? h('span', { className: 'tag tag-voided' }, 'voided') : null),
		/* A sale's amount; a correction has none (its change is in the details). */
		h('td', { className: 'num', dataset: { label: 'Amount' } }, NO_AMOUNT.includes(type) ? '—' : money(t.purchase_amount)),
		h('td', { dataset: { label: 'Details' } }, txDetailsNode(h, t, money)),
		h('td', { dataset: { label: 'Where / who' } }, type === 'expiry' ? 'Automatic' :
			[t.location_name, t.staff_name].filter(Boolean).join(' · ') || '—')
	];
	return h('tr', t.voided ? { className: 'voided' } : null, cells);
}

/* Types with no purchase amount of their own. */
const NO_AMOUNT = ['reward_claim', 'void', 'adjustment', 'expiry'];

/* ---- void last sale ---------------------------------------------------- */

/* What this cashier may still void here, as the server lists it
 * (GET transactions/void): their own sales, claims and redemptions,
 * whichever till or tab recorded them, queued sales once sent. Kept
 * between reads; each row's voidable_until ends it on time offline too. */
let voidable = [];
let voidableSeq = 0;
/* The window as the last list read says (the owner may change it while
 * the till is open), else as the login said. */
let listedWindow = null;
const voidWindow = () => (Number.isInteger(listedWindow) ? listedWindow :
    user && user.shop && Number.isInteger(user.shop.void_window_minutes) ? user.shop.void_window_minutes : 0);
const isOwner = () => !!(user && user.user_type === 'owner');

function recentSales() {
	const loc = currentLocation(), now = Date.now();
	if (!user || !loc) return [];
	return voidable.filter((x) => x && x.location_id === loc.id && x.staff_user_id === user.id &&
	    (x.voidable_until == null || Date.parse(x.voidable_until) > now));
}

async function loadVoidable() {
	const loc = currentLocation();
	const seq = ++voidableSeq;
	if (!user || !loc || (!isOwner() && voidWindow() <= 0)) {
		voidable = [];
		renderVoid();
		return;
	}
	const q = new URLSearchParams({ location_id: loc.id, staff_user_id: user.id });
	try {
		const r = await api.call('GET', 'transactions/void?' + q.toString());
		const d = r.data && r.data.data;
		if (seq !== voidableSeq || !d || !Array.isArray(d.transactions)) return;
		voidable = d.transactions;
		if (Number.isInteger(d.void_window_minutes)) listedWindow = d.void_window_minutes;
		renderVoid();
	} catch (e) {
		/* Not reachable or refused: the list stays as last read. */
	}
}

/* "14:02 · 4.50 — Coffee Card — Ann": when (first, as it tells a
 * cashier's sales apart, and with seconds when secs), what, whose. */
function saleText(x, secs) {
	const t = x.transaction_type;
	const what = t === 'cashback_redeem' ? money(x.redeemed_amount) + ' redeemed' :
	    t === 'reward_claim' ? 'reward ' + (x.reward_name || 'claim') :
	    t === 'punch' && !(toCents(x.purchase_amount) > 0) ? plural(x.punches_added || 0, 'punch', 'punches') :
	    money(x.purchase_amount);
	const whose = [x.card_title, x.customer_name].filter((v) => typeof v === 'string' && v).join(' — ');
	return saleTime(x, secs) + ' · ' + what + (whose ? ' — ' + whose : '');
}
function saleTime(x, secs) {
	return new Date(x.created_at).toLocaleTimeString([], secs ? { hour: '2-digit', minute: '2-digit', second: '2-digit' } :
	    { hour: '2-digit', minute: '2-digit' });
}
/* The options of the list: seconds where two share a minute. */
function saleOptions(sales) {
	const minutes = sales.map((x) => saleTime(x, false));
	return sales.map((x, i) => saleText(x, minutes.indexOf(minutes[i]) !== minutes.lastIndexOf(minutes[i])));
}

const LATE_TEXT = 'The time to void this sale has passed: the owner can void it from the back office.';
/* The sale chosen in an open form that left the window meanwhile: kept,
 * so that the form and its reason stay, and said. */
let lateSale = null;
/* The sale the open form is for, as it was listed. */
let chosenSale = null;

/* The panel shows while there is a sale to void; the form opens on demand. */
function renderVoid() {
	const sales = recentSales();
	const open = !$('void-form').hidden, was = $('void-sale').value;
	if (open && was && !sales.some((x) => x.transaction_id === was)) {
		/* The chosen sale left the list (a list read since no longer
		 * has it): the cashier is told, never switched silently to
		 * another sale, whether others remain or none. */
		const x = voidable.find((v) => v.transaction_id === was) || (chosenSale && chosenSale.transaction_id === was ? chosenSale : null);
		const late = !x || (x.voidable_until != null && Date.parse(x.voidable_until) <= Date.now());
		const text = (x ? saleText(x) + ': ' : '') + (late ? LATE_TEXT : 'this sale can no longer be voided here; it may have been voided from another till.');
		if (!sales.length) {
			closeVoid();
			showResult(h('div', { className: 'res res-error' },
				h('p', { className: 'res-head' }, 'Sale not voided'),
				h('p', null, text)));
		} else if (x) {
			lateSale = x;
			voidConfirm(false);
			setMsg('void-late', h('span', null, text));
		}
	}
	show('void-panel', sales.length > 0);
	$('void-scope').textContent = isOwner() ?
	    'Your sales here in the last ' + plural(voidWindow() || 30, 'minute', 'minutes') + '; any other sale from the back office.' :
	    'Your own sales here, up to ' + plural(voidWindow(), 'minute', 'minutes') + ' after each; later, the owner voids them.';
	if (!sales.length) { closeVoid(); return; }
	const sel = $('void-sale'), names = saleOptions(sales);
	const opts = sales.map((x, i) => h('option', { value: x.transaction_id, selected: x.transaction_id === was }, names[i]));
	/* The late sale stays chosen, unvoidable, until another is picked. */
	if (open && lateSale && lateSale.transaction_id === was)
		opts.unshift(h('option', { value: was, selected: true, disabled: true }, 'Too late: ' + saleText(lateSale)));
	setKids(sel, ...opts);
	voidCardChanged();
}

/* The card on screen changed (or the list did): the button says which
 * sale it opens, and an open form says whose its sale is. */
function voidCardChanged() {
	const id = cardOnScreen();
	$('void-open').textContent = id && recentSales().some((x) => x.card_instance_id === id) ?
	    'Void this card\u2019s last sale\u2026' : 'Void last sale\u2026';
	if (!$('void-form').hidden) voidOtherNote();
}

/* The card on screen's id, or null. */
const cardOnScreen = () => (card && !$('card-panel').hidden && typeof card.card_instance_id === 'string' ? card.card_instance_id : null);

/* The sale a cashier means by "Void last sale": with a card on screen,
 * the last sale of that card (a cashier who has the customer in front of
 * them voids that customer's sale, never the next customer's); with none
 * on screen, or when the card on screen has no sale to void here, the
 * last sale, which the form then says is another customer's and the
 * confirmation names. */
function lastSaleFor(sales) {
	const id = cardOnScreen();
	return (id && sales.find((x) => x.card_instance_id === id)) || sales[0];
}

/* Says so when the chosen sale is not the card on screen's: whose it
 * is, before anything is voided. */
function voidOtherNote() {
	const id = cardOnScreen();
	const x = recentSales().find((v) => v.transaction_id === $('void-sale').value);
	const other = !!(id && x && x.card_instance_id !== id);
	const whose = x && typeof x.customer_name === 'string' && x.customer_name ? x.customer_name + '\u2019s' : 'another customer\u2019s';
	const shown = (card && card.customer_name) || 'the customer on screen';
	const none = id && !recentSales().some((v) => v.card_instance_id === id);
	$('void-other').textContent = !other ? '' : 'Not the card on screen: this is ' + whose + ' sale' +
	    (none ? '. ' + shown.replace(/^./, (c) => c.toUpperCase()) + ' has no sale of yours to void here.' : ', not ' + shown + '\u2019s.');
	show('void-other', other);
	return other;
}

function openVoid() {
	loadVoidable();
	renderVoid();
	const sales = recentSales();
	if (!sales.length) return;
	/* The last sale first: the one a cashier voids nearly always; of
	 * the card on screen when there is one. */
	const pick = lastSaleFor(sales);
	$('void-sale').value = pick.transaction_id;
	chosenSale = pick;
	setMsg('void-late', null);
	voidOtherNote();
	show('void-form', true);
	show('void-open', false);
	voidConfirm(false);
	$('void-reason').focus();
}

function closeVoid() {
	lateSale = null;
	chosenSale = null;
	setMsg('void-late', null);
	show('void-other', false);
	show('void-form', false);
	show('void-open', true);
	voidConfirm(false);
	fieldError('void-reason', null);
	$('void-reason').value = '';
}

function voidConfirm(on) {
	show('void-confirm', on);
	show('void-submit', !on);
	if (!on) return;
	const x = recentSales().find((s) => s.transaction_id === $('void-sale').value);
	const other = voidOtherNote();
	$('void-confirm-text').textContent = 'Void the sale of ' + (x ? saleText(x) : 'this sale') +
	    (other ? ', which is not the card on screen' : '') +
	    '? What it did to the card is undone; it stays in the history, marked voided.';
	$('void-yes').focus();
}

/* First press: the reason is checked and the sale named; the second
 * (Yes) voids it. */
function onVoid(ev) {
	ev.preventDefault();
	fieldError('void-reason', null);
	if (!$('void-sale').value) return;
	if (lateCheck()) return;
	if (!$('void-reason').value.trim()) {
		fieldError('void-reason', 'Say why the sale is voided: a reason is required.');
		$('void-reason').focus();
		return;
	}
	voidConfirm(true);
}

/* The chosen sale is past its time (the list is re-read every 30 s):
 * said in the form, which stays. */
function lateCheck() {
	const id = $('void-sale').value;
	if (recentSales().some((s) => s.transaction_id === id)) {
		setMsg('void-late', null);
		return false;
	}
	renderVoid();
	if (!$('void-form').hidden && !$('void-late').hidden) {
		voidConfirm(false);
		$('void-sale').focus();
	}
	return true;
}

async function doVoid() {
	const id = $('void-sale').value, reason = $('void-reason').value.trim();
	const x = recentSales().find((s) => s.transaction_id === id);
	if (!x && lateCheck()) return;
	if (!x || !reason) { voidConfirm(false); return; }
	const body = { transaction_id: id, reason, location_id: x.location_id, staff_user_id: user.id };
	/* The card as shown before, when it is the sale's: what a punch
	 * void could not take back is told from it. */
	const before = card && card.card_instance_id === x.card_instance_id ? balanceOf(card) : null;
	const a = attempt('void', JSON.stringify(body));
	body.idempotency_key = a.key;
	const btn = $('void-yes');
	busy(btn, true);
	try {
		const r = await api.call('POST', 'transactions/void', body);
		const d = r.data && r.data.data;
		if (!d) throw api.unreadable(r.status);
		delete attempts.void;
		voidable = voidable.filter((v) => v.transaction_id !== id);
		closeVoid();
		renderVoid();
		loadVoidable();
		showResult(voidResult(d, x, before));
		$('result-panel').focus({ preventScroll: true });
		if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError)) delete attempts.void;
		/* Voided already, or past the window: nothing to offer any more. */
		if (e instanceof ApiError && ['ALREADY_VOIDED', 'NOT_VOIDABLE', 'FORBIDDEN', 'NOT_FOUND'].includes(e.code)) {
			voidable = voidable.filter((v) => v.transaction_id !== id);
			closeVoid();
			renderVoid();
			loadVoidable();
			/* Voided elsewhere meanwhile: the card and its history as they are now. */
			if (card && cardIdent) { lookup(cardIdent, false); hist.page = 1; loadHistory(); }
		} else {
			voidConfirm(false);
		}
		showResult(h('div', { className: 'res res-error' },
			h('p', { className: 'res-head' }, 'Sale not voided'),
			h('p', null, errorNode(e))));
	} finally {
		busy(btn, false);
	}
}

function voidResult(d, x, before) {
	const parts = [h('p', { className: 'res-head' }, 'Sale voided')];
	const b = d.balance && typeof d.balance === 'object' ? d.balance : null;
	if (Number.isInteger(d.punches_removed)) {
		parts.push(h('p', null, '−' + plural(d.punches_removed, 'punch', 'punches') +
		    (d.rewards_withdrawn ? ', ' + plural(d.rewards_withdrawn, 'reward', 'rewards') + ' withdrawn' : '') + '.'));
		/* Punches the card no longer had (the server stops at 0): their
		 * reward was handed out and stays claimed. */
		const req = b && b.punch_requirement > 0 ? b.punch_requirement : 0;
		const had = before && Number.isInteger(before.current_punches) ? before.current_punches + (d.rewards_withdrawn || 0) * req : null;
		if (had !== null && had < d.punches_removed)
			parts.push(h('p', { className: 'note' }, 'The card had ' + (had ? 'only ' + plural(had, 'punch', 'punches') : 'no punches') +
			    ' left: the reward these punches earned was already handed out, and stays claimed.'));
	}
	if (isNum(d.cashback_returned)) {
		parts.push(h('p', null, 'Cashback given back: ' + money(d.cashback_returned) + '.'));
		if (d.cashback_not_returned > 0)
			parts.push(h('p', { className: 'note' }, money(d.cashback_not_returned) + ' is not given back: it was earned on a sale voided since.'));
	}
	if (d.reward_id) parts.push(h('p', null, 'The reward is waiting on the card again.'));
	if (isNum(d.cashback_removed)) {
		parts.push(h('p', null, 'Cashback taken back: ' + money(d.cashback_removed) + '.'));
		if (d.cashback_not_removed > 0)
			parts.push(h('p', { className: 'note' }, money(d.cashback_not_removed) + ' of its cashback was already spent or expired: it is not taken back.'));
	}
	const now = b ? balanceText(d.card_type, b) : '';
	if (now) parts.push(h('p', { className: 'res-balance' }, 'The card now: ' + now + '.'));
	parts.push(h('p', { className: 'res-foot' }, saleText(x) + ' · void ' + shortId(d.transaction_id)));
	return h('div', { className: 'res res-ok' }, parts);
}

/* A balance in a few words, by the card's type. */
function balanceText(type, b) {
	return cardType(type).balanceText(b, fmt);
}

/* ---- offline queue ---------------------------------------------------- */

/* Refusals for which sending the same purchase again cannot help. */
const NO_RETRY = ['COOLDOWN_ACTIVE', 'VALIDATION_ERROR', 'PAYLOAD_TOO_LARGE'];

function queueLine(x, review) {
	const it = x.item;
	const what = x.label || (it.barcode_value ? 'Card ' + it.barcode_value : it.card_instance_id ? 'Card ' + shortId(it.card_instance_id) : 'QR card');
	const kids = [
		h('span', { className: 'q-main' }, h('strong', null, money(it.purchase_amount)), ' ', what,
			it.punch_count > 1 ? ' · ' + plural(it.punch_count, 'punch', 'punches') : ''),
		h('span', { className: 'q-when' }, when(it.client_timestamp))
	];
	if (review) {
		kids.push(h('span', { className: 'q-err', dataset: { code: x.error || '' } }, reviewText(x)));
		const key = it.idempotency_key;
		const acts = [];
		if (x.error === 'COOLDOWN_ACTIVE')
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRecordNow(key, x) }, 'Record now'));
		else if (!NO_RETRY.includes(x.error))
			acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewRetry(key) }, 'Retry'));
		acts.push(h('button', { type: 'button', className: 'btn btn-small', onclick: () => reviewDismiss(key) }, 'Dismiss'));
		kids.push(h('span', { className: 'q-actions' }, acts));
	} else if (x.last_error) {
		kids.push(h('span', { className: 'q-err soft', dataset: { code: x.last_error } }, 'Last try: ' + codeText(x.last_error)));
	}
	return h('li', null, kids);
}

function reviewText(x) {
	if (x.error === 'COOLDOWN_ACTIVE')
		return 'Refused: the card had been punched shortly before, and a card takes one punch per visit. ' +
		    '"Record now" records it with the present time, if the customer should have this punch.';
	const said = codeText(x.error, x.message);
	return said + (x.message && x.message !== said ? ' ' + x.message : '');
}

let syncing = false;
let syncNote = '';

function renderQueue() {
	const all = queue.load(), mine = queue.forUser(user), review = queue.loadReview();
	$('queue-count').textContent = String(all.length);
	$('queue-button').classList.toggle('has-items', all.length > 0);
	setKids($('queue-list'), ...all.map((x) => queueLine(x, false)));
	let s = all.length ? plural(all.length, 'purchase', 'purchases') + ' waiting to be sent.' : 'No purchases waiting.';
	if (mine.length < all.length) s += ' ' + (all.length - mine.length) + ' belong to another cashier and are sent after that login.';
	if (syncing) s = 'Sending…';
	else if (syncNote) s = syncNote + ' ' + s;
	if (restoredNote) s += ' ' + restoredNote;
	$('queue-summary').textContent = s;
	const sb = $('sync-button');
	busy(sb, syncing);
	if (!syncing) sb.disabled = mine.length === 0;
	setKids($('review-list'), ...review.map((x) => queueLine(x, true)));
	show('review-box', review.length > 0);
}

async function reviewRetry(key) {
	await ready;
	queue.requeue(key, false);
	syncNote = '';
	renderQueue();
	syncNow(true);
}

async function reviewRecordNow(key, x) {
	if (!window.confirm('Record the punch of ' + money(x.item.purchase_amount) + ' now, with the present time?'))
		return;
	await ready;
	queue.requeue(key, true, uuid());
	syncNote = '';
	renderQueue();
	syncNow(true);
}

async function reviewDismiss(key) {
	await ready;
	queue.dismiss(key);
	syncNote = '';
	renderQueue();
	$('sync-button').focus();
}

/* Sends the queue (js/queue.js: batches within the host's body limit,
 * split when the host refuses one). */
async function syncNow(manual) {
	await ready;
	if (syncing || !user) return;
	if (!queue.forUser(user).length) { if (manual) { syncNote = 'Nothing to send.'; renderQueue(); } return; }
	syncing = true;
	syncNote = '';
	renderQueue();
	let st;
	try {
		st = await queue.sync(api, user, () => renderQueue());
	} finally {
		syncing = false;
	}
	if (st.failure instanceof SessionEnded) return;
	const bits = [];
	if (st.sent) bits.push(plural(st.sent, 'purchase', 'purchases') + ' sent.');
	if (st.flagged) bits.push(st.flagged + (st.flagged === 1 ? ' needs' : ' need') + ' review: not recorded, see why below.');
	if (st.kept) bits.push(st.kept + ' kept for the next try.');
	const f = st.failure;
	if (f) bits.push(f instanceof NetError ? 'Server not reachable; will try again.' :
	    f instanceof ApiError ? 'Sync stopped: ' + codeText(f.code, f.message) : 'Sync stopped: ' + f.message);
	syncNote = bits.join(' ');
	renderQueue();
	if (st.sent) loadVoidable();
	if (st.sent && card) { lookup(cardIdent, false); loadHistory(); }
}

/* ---- enrolment -------------------------------------------------------- */

let enrolCard = null;

async function openEnrol() {
	if (!canEnrol()) return;
	/* A new customer: the card on screen goes, so no sale lands on it. */
	if (card || offlineIdent) {
		clearCard();
		$('lookup-code').value = '';
	}
	show('enrol-panel', true);
	show('enrol-form', true);
	show('enrol-done', false);
	setMsg('enrol-error', null);
	clearFieldErrors();
	const sel = $('enrol-program');
	delete sel.dataset.loaded;
	setKids(sel, h('option', { value: '' }, 'Loading…'));
	$('enrol-panel').scrollIntoView({ block: 'nearest' });
	$('enrol-name').focus();
	try {
		const r = await api.call('GET', 'cards/enrol');
		const d = (r.data && r.data.data) || {};
		const progs = Array.isArray(d.programs) ? d.programs : [];
		if (d.can_enrol === false || !progs.length) {
			setKids(sel);
			setMsg('enrol-error', h('span', null, d.can_enrol === false ? 'Issuing cards at the till is turned off for your account.' :
			    'The shop has no active program to issue cards of.'));
			return;
		}
		/* No program chosen for the cashier: a card of the wrong one
		 * must not be one Enter away. */
		setKids(sel, h('option', { value: '' }, 'Choose a program…'),
			...progs.map((p) => h('option', { value: p.id }, p.title + ' (' + cardType(p.card_type).programName + ')')));
		sel.dataset.loaded = '1';
	} catch (e) {
		if (e instanceof SessionEnded) return;
		setKids(sel);
		setMsg('enrol-error', e);
	}
}

function closeEnrol() {
	show('enrol-panel', false);
	enrolCard = null;
	delete attempts.enrol;
}

async function onEnrol(ev) {
	ev.preventDefault();
	clearFieldErrors();
	setMsg('enrol-error', null);
	const pid = $('enrol-program').value, name = $('enrol-name').value.trim();
	if (!$('enrol-program').dataset.loaded) {
		/* The programs never came (no connection): fetch them again,
		 * and say so rather than blame the form. */
		openEnrol();
		return;
	}
	let bad = null;
	if (!name) { fieldError('enrol-name', 'Enter the customer\'s name as it goes on the card.'); bad = 'enrol-name'; }
	if (!pid) { fieldError('enrol-program', 'Choose the program of the card.'); bad = 'enrol-program'; }
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const body = { program_id: pid, customer_name: name };
	if (loc) body.location_id = loc.id;
	const a = attempt('enrol', JSON.stringify(body));
	body.idempotency_key = a.key;
	const btn = $('enrol-submit');
	busy(btn, true);
	try {
		const r = await api.call('POST', 'cards/enrol', body);
		const d = r.data && r.data.data;
		if (!d || typeof d.share_token !== 'string') throw api.unreadable(r.status);
		delete attempts.enrol;
		showEnrolled(d);
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError)) delete attempts.enrol;
		if (e instanceof ApiError && e.details && e.details.field === 'customer_name') { fieldError('enrol-name', errorNode(e).textContent); $('enrol-name').focus(); }
		else setMsg('enrol-error', e);
	} finally {
		busy(btn, false);
	}
}

/* Whether a link names this very computer: no phone can open it. */
function loopback(u) {
	return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(u.hostname);
}

function showEnrolled(d) {
	enrolCard = d;
	const tok = encodeURIComponent(d.share_token);
	/* The same address as the QR code below it and the printed card:
	 * public_url when the owner set it, else this till's own folder. */
	const pub = user && user.shop && user.shop.public_url ? user.shop.public_url : '';
	const url = new URL(d.card_page || 'card.html#' + d.share_token, pub || document.baseURI);
	const link = url.href;
	show('enrol-link-warn', !pub && loopback(url));
	$('enrol-done-title').textContent = 'Card issued: ' + (d.card_title || 'card') + ' for ' + (d.customer_name || 'the customer');
	$('enrol-qr').src = 'api/v1/mycard/' + tok + '/qr.svg';
	$('enrol-qr').alt = 'QR code of the card ' + (d.barcode_value || '');
	$('enrol-link-qr').src = 'api/v1/mycard/' + tok + '/link.svg';
	$('enrol-link-qr').alt = 'QR code of the link to the customer\'s card page';
	$('enrol-barcode').textContent = d.barcode_value || '—';
	$('enrol-link').href = link;
	$('enrol-link').textContent = link;
	show('enrol-form', false);
	show('enrol-done', true);
	$('enrol-done').focus();
}

function enrolAgain() {
	$('enrol-form').reset();
	enrolCard = null;
	show('enrol-done', false);
	show('enrol-form', true);
	openEnrol();
}

/* ---- camera ----------------------------------------------------------- */

let camera = null;
async function openCamera() {
	const opener = $('camera-button');
	try {
		const m = await import('./js/camera.js');
		camera = m.openCameraScan({
			onCode: (text) => { camera = null; startLookup(text); },
			onClose: () => { camera = null; if (document.activeElement === document.body) opener.focus(); }
		});
	} catch (e) {
		setMsg('lookup-error', h('span', null, 'The camera could not be started: ' + (e && e.message ? e.message : e)));
	}
}

/* The same test as js/camera.js's cameraAvailable, without loading it:
 * the module comes on the first scan (and a till started offline still
 * shows the button). */
function setupCamera() {
	const ok = !!(window.isSecureContext && navigator.mediaDevices && typeof navigator.mediaDevices.getUserMedia === 'function');
	show('camera-button', ok);
	show('camera-hint', !ok && !window.isSecureContext);
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
	applyLimits(document);
	$('scanner-form').addEventListener('submit', onScannerSave);
	renderScannerSetting();
	/* A click ends what was being typed: a suffix alone frames what came after it. */
	document.addEventListener('mousedown', (e) => { const r = frame.other('click', e.timeStamp); if (r.replay) typeInto(document.activeElement, r.replay); }, true);
	/* Another tab or program of the till changed it. */
	window.addEventListener('storage', (e) => { if (e.key === SCANNER_KEY) { frame = new ScanFrame(savedFrame()); renderScannerSetting(); } });
	$('login-form').addEventListener('submit', onLogin);
	$('logout-button').addEventListener('click', onLogout);
	$('lookup-form').addEventListener('submit', onLookup);
	$('lookup-clear').addEventListener('click', () => { clearCard(); $('lookup-code').value = ''; $('lookup-code').focus(); });
	$('purchase-form').addEventListener('submit', (e) => onRecord(e, false));
	$('purchase-yes').addEventListener('click', () => onRecord(null, true));
	$('purchase-no').addEventListener('click', () => { purchaseConfirm(null); $('purchase-amount').focus(); $('purchase-amount').select(); });
	$('punch-minus').addEventListener('click', () => stepPunch(-1));
	$('punch-plus').addEventListener('click', () => stepPunch(1));
	$('claim-button').addEventListener('click', () => claimConfirm(true));
	$('claim-yes').addEventListener('click', onClaim);
	$('claim-no').addEventListener('click', () => { claimConfirm(false); $('claim-button').focus(); });
	$('redeem-form').addEventListener('submit', onRedeem);
	$('redeem-max').addEventListener('click', onRedeemMax);
	$('history-type').addEventListener('change', () => { hist.type = $('history-type').value; hist.page = 1; loadHistory(); });
	$('history-prev').addEventListener('click', () => { if (hist.page > 1) { hist.page--; loadHistory(); } });
	$('history-next').addEventListener('click', () => { if (hist.page < hist.pages) { hist.page++; loadHistory(); } });
	$('sync-button').addEventListener('click', () => syncNow(true));
	$('queue-button').addEventListener('click', () => { $('queue-panel').scrollIntoView({ block: 'start' }); $('sync-button').focus(); });
	$('location-select').addEventListener('change', () => { ss.setItem(K.location, $('location-select').value); renderUser(); renderQueue(); });
	$('enrol-button').addEventListener('click', openEnrol);
	$('enrol-close').addEventListener('click', () => { closeEnrol(); $('enrol-button').focus(); });
	$('enrol-form').addEventListener('submit', onEnrol);
	$('enrol-again').addEventListener('click', enrolAgain);
	$('enrol-print').addEventListener('click', () => window.print());
	$('enrol-use').addEventListener('click', () => {
		const d = enrolCard;
		closeEnrol();
		if (d) startLookup(d.barcode_value || d.qr_code_data);
	});
	$('camera-button').addEventListener('click', openCamera);
	$('void-open').addEventListener('click', openVoid);
	$('void-form').addEventListener('submit', onVoid);
	$('void-yes').addEventListener('click', doVoid);
	$('void-no').addEventListener('click', () => { voidConfirm(false); $('void-reason').focus(); });
	$('void-cancel').addEventListener('click', () => { closeVoid(); $('void-open').focus(); });
	$('void-form').addEventListener('keydown', (e) => { if (e.key === 'Escape') { e.preventDefault(); closeVoid(); $('void-open').focus(); } });
	$('void-sale').addEventListener('change', () => {
		voidConfirm(false);
		chosenSale = recentSales().find((s) => s.transaction_id === $('void-sale').value) || chosenSale;
		if (lateCheck() === false) { lateSale = null; renderVoid(); }
		voidOtherNote();
	});
	$('void-reason').addEventListener('input', () => { fieldError('void-reason', null); voidConfirm(false); });
	/* A sale leaves the list when its window closes. */
	setInterval(() => { if (user) renderVoid(); }, 30000);
	for (const id of ['purchase-amount', 'punch-count', 'redeem-purchase', 'redeem-amount', 'enrol-name'])
		$(id).addEventListener('input', () => { fieldError(id, null); if (id === 'purchase-amount' || id === 'punch-count') purchaseConfirm(null); });
	$('purchase-notes').addEventListener('input', () => purchaseConfirm(null));

	window.addEventListener('online', () => { setNet(true); syncNow(false); });
	window.addEventListener('offline', () => setNet(false));
	window.addEventListener('storage', (e) => { if (e.key === K.queue || e.key === K.review) renderQueue(); });
	setInterval(() => { if (user && navigator.onLine !== false && queue.forUser(user).length) syncNow(false); }, SYNC_EVERY_MS);
	document.addEventListener('keydown', onKeyCapture, true);

	/* The queue brought back from its durable copy: shown as it is. */
	ready.then(() => { if (user) renderQueue(); else renderLoginQueue(); });

	const token = ss.getItem(K.access), saved = readJSON(ss, K.user, null);
	if (token && saved && saved.id) {
		startSession(saved);
		api.call('GET', 'auth/me').then((r) => {
			if (r.data && r.data.id) { user = r.data; writeJSON(ss, K.user, user); renderUser(); }
			syncNow(false);
		}).catch(() => { /* offline: keep the saved profile */ });
	} else {
		endSession(null);
	}
	setupCamera();
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
