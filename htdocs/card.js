/* The customer's own card (card.html#TOKEN): the card's QR code and
 * barcode to show at the till, its balance or punches, rewards waiting.
 * Read-only, and nothing else of the shop.
 *
 * The token (32 lowercase hex) is in the URL's fragment, which no browser
 * sends to a server or in a Referer; the API calls below carry it in
 * their path (the web server's access log has it, the service's own log
 * cuts it off). It is kept in localStorage with the
 * last copy of the card, because a home-screen icon opens the manifest's
 * start_url (card.html) without the fragment; several cards on one phone
 * are kept as a short list with a switcher. The last copy (and the two
 * codes as SVG text) is what the page shows when the server cannot be
 * reached, marked as possibly out of date.
 *
 * API: GET api/v1/mycard/TOKEN (no auth; 404 NOT_FOUND for an unknown
 * token), api/v1/mycard/TOKEN/qr.svg and /barcode.svg, POST
 * api/v1/mycard/TOKEN/redraw (a new link; the old one is 404 from then).
 *
 * When the shop asks for the card's time-based code (card_code_required),
 * the QR code holds the current one and changes each minute: the page
 * fetches it again at qr_changes_at and every minute after, while it
 * shows the live card.
 *
 * Every sentence is the catalogs' (js/i18n.js; card.* and the shared
 * modules' keys), in the language the customer's browser prefers, else
 * the shop's (the answer's language), with a switch in the footer; the
 * card's amounts and times follow its shop's currency and time zone
 * (setShopFormat, js/dates.js). */
import { progressLine, percent, expiryLine } from './js/progress.js';
import { storage, readJSON, writeJSON } from './js/store.js';
import { typeOf } from './js/cardtypes.js';
import { formatMoney, setShopFormat, isNum } from './js/money.js';
import { initI18n, applyI18n, setShopLanguage, langSwitcher, t } from './js/i18n.js';
import { formatDateTime, formatTime, shopDay, zoneDiffers, TIME_ZONED, DATE_TIME_ZONED } from './js/dates.js';

const STORE = 'loyalty.mycard.v1';
const MAX_CARDS = 8;
const TOKEN = /^[0-9a-f]{32}$/;
const API = 'api/v1/mycard/';
const TIMEOUT_MS = 10000;
const RECHECK_MS = 60000;	/* back on the page after this: ask again */

const $ = (id) => document.getElementById(id);
const show = (id, on) => { (typeof id === 'string' ? $(id) : id).hidden = !on; };
function h(tag, props, ...kids) {
	const e = document.createElement(tag);
	if (props) Object.assign(e, props);
	for (const k of kids) if (k !== null && k !== undefined) e.append(k);
	return e;
}
const str = (v) => (typeof v === 'string' ? v : '');
/* The browser's storages, or ones in memory when it refuses them. */
const ls = storage('localStorage');
const ss = storage('sessionStorage');
const int = (v) => (Number.isInteger(v) ? String(v) : '—');

/* ---- the kept cards ---------------------------------------------------- */

/* {current: token, cards: [{token, data, at, used, codes, qr, bar, gone}],
 * moved: {old token: new token}}: data is the last answer's data, at when
 * it came (ms), used when the card was last shown, qr and bar the SVG
 * texts of its codes (for offline), codes what they encode, gone set once
 * the shop no longer knows the link; moved the links this phone re-drew,
 * so an old bookmark finds the new link. */
function loadStore() {
	try {
		const s = readJSON(ls, STORE, null);
		if (s && Array.isArray(s.cards)) {
			const moved = {};
			if (s.moved && typeof s.moved === 'object')
				for (const [a, b] of Object.entries(s.moved))
					if (TOKEN.test(a) && TOKEN.test(b)) moved[a] = b;
			return { current: TOKEN.test(s.current) ? s.current : null, moved,
				cards: s.cards.filter((c) => c && TOKEN.test(c.token) && c.data && typeof c.data === 'object') };
		}
	} catch (e) { /* unreadable: start afresh */ }
	return { current: null, cards: [], moved: {} };
}
function saveStore(st) {
	st.cards.sort((a, b) => (b.used || 0) - (a.used || 0));
	st.cards.length = Math.min(st.cards.length, MAX_CARDS);
	/* The moves that still lead to a kept card. */
	const kept = new Set(st.cards.map((c) => c.token));
	st.moved = Object.fromEntries(Object.entries(st.moved || {}).filter(([, b]) => kept.has(b)));
	for (let tries = 0; tries < 2; tries++) {
		if (writeJSON(ls, STORE, st)) return true;
		/* Full (or storage refused): keep the data, drop the other
		 * cards' pictures, once. */
		for (const c of st.cards) if (c.token !== st.current) { c.qr = null; c.bar = null; }
	}
	return false;
}
const entryOf = (st, token) => st.cards.find((c) => c.token === token) || null;

/* ---- what the page shows ------------------------------------------------ */

/* A moment in the shop's time zone: "today at 10:32" on the shop's
 * today, else its date and time. */
function when(ms) {
	if (typeof ms !== 'number' || !isFinite(ms)) return t('card.unknown_time');
	/* the shop's time: its zone named when the phone is elsewhere */
	const zoned = zoneDiffers();
	return shopDay(ms) === shopDay(Date.now()) ? t('card.today_at', { time: formatTime(ms, zoned ? TIME_ZONED : undefined) }) :
	    formatDateTime(ms, zoned ? DATE_TIME_ZONED : { dateStyle: 'medium', timeStyle: 'short' });
}

/* An element's text of a catalog key: marked data-i18n when the text has
 * no parameters, so applyI18n() writes it again in another language;
 * key null: no text. */
function say(id, key, params) {
	const el = typeof id === 'string' ? $(id) : id;
	if (key && !params) el.setAttribute('data-i18n', key);
	else el.removeAttribute('data-i18n');
	el.textContent = key ? t(key, params) : '';
}

/* Our text, or the shop's data (a name, a title): data is not
 * translated (the pseudo-locale's test skips it too). */
function data(id, text) {
	const el = $(id);
	el.removeAttribute('data-i18n');
	el.textContent = text;
	el.translate = false;
}
function ours(id, key) {
	$(id).translate = true;
	say(id, key);
}

function resetShop() {
	ours('shop-name', 'card.shop_default');
	document.title = t('card.title');
}

/* What the page shows now, to show again in another language: a message
 * ({message: [args]}) or a card ({entry, how}). */
let view = null;

/* A message instead of a card; nothing of any card stays on the page.
 * title, text, more: catalog keys (more may be null). */
function showMessage(title, text, more, opts) {
	const o = opts || {};
	view = { message: [title, text, more, opts] };
	resetShop();
	ours('page-title', title);
	say('message-text', text);
	say('message-more', more || null);
	show('message-more', !!more);
	show('retry-button', !!o.retry);
	show('forget-button', !!o.forget);
	show('loading', false);
	show('card-view', false);
	clearCard();
	show('message-view', true);
	$('main').setAttribute('aria-busy', 'false');
	renderSwitcher();
}

function clearCard() {
	stopQrTimer();
	for (const id of ['qr-image', 'barcode-image']) {
		const img = $(id);
		img.removeAttribute('src');
		img.dataset.src = '';
	}
	for (const id of ['customer-name', 'barcode-digits', 'progress-line', 'rewards-text', 'updated-text', 'stale-note', 'status-banner'])
		say(id, null);
	$('punch-dots').replaceChildren();
	$('balance').replaceChildren();
}

const svgUrl = (text) => 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);

/* Sets a code's picture: the server's when it was just reached, else the
 * kept copy; a picture that fails falls back to the kept copy, and with
 * none the page says so (the digits stay, for typing). */
function setCode(id, live, apiUrl, kept) {
	const img = $(id);
	const want = live || !kept ? apiUrl : svgUrl(kept);
	img.onerror = () => {
		if (kept && img.dataset.src !== svgUrl(kept)) {
			img.dataset.src = svgUrl(kept);
			img.src = img.dataset.src;
			return;
		}
		img.hidden = true;
		show('code-missing', true);
	};
	img.onload = () => {
		img.hidden = false;
		if (!$('qr-image').hidden && !$('barcode-image').hidden) show('code-missing', false);
	};
	/* A picture that failed before is asked for again. */
	if (img.dataset.src !== want || img.hidden) {
		img.dataset.src = want;
		img.hidden = false;
		img.src = want;
	}
}

/* A tile's text with each amount in it as an unbreakable span: a narrow
 * tile would otherwise break inside one ("0.050 د." over "ك."). */
function withAmounts(text, amounts) {
	const out = [];
	let rest = String(text);
	while (rest) {
		let at = -1, a = '';
		for (const m of amounts) {
			const i = rest.indexOf(m);
			if (i >= 0 && (at < 0 || i < at || (i === at && m.length > a.length))) [at, a] = [i, m];
		}
		if (at < 0) {
			out.push(rest);
			break;
		}
		if (at) out.push(rest.slice(0, at));
		out.push(h('span', { className: 'amount' }, a));
		rest = rest.slice(at + a.length);
	}
	return out;
}

function row(label, value, cls, amounts) {
	return h('div', { className: 'bal' + (cls ? ' ' + cls : '') }, h('dt', null, label), h('dd', null, ...withAmounts(value, amounts)));
}

/* A tile whose amount does not fit its column spans the row. */
function fitAmounts() {
	for (const b of document.querySelectorAll('#balance .bal')) {
		b.classList.remove('wide');
		const dd = b.querySelector('dd');
		if (dd && dd.clientWidth && dd.scrollWidth > dd.clientWidth) b.classList.add('wide');
	}
}
globalThis.addEventListener('resize', fitAmounts);

function balanceRows(d, symbol) {
	const amounts = new Set();
	const f = {
		money: (v) => {
			const m = formatMoney(v, symbol);
			if (isNum(v)) amounts.add(m);
			return m;
		},
		pct: (v) => percent(v) || '—', int,
		plural: (n, one, many) => n + ' ' + (n === 1 ? one : many),
		expiry: (x) => {
			if (isNum(x.next_expiry_amount)) amounts.add(formatMoney(x.next_expiry_amount, symbol));
			return expiryLine(x, symbol);
		}
	};
	return typeOf(d).pageRows(d, f).map(([k, v, cls]) => row(k, v, cls, amounts));
}

/* The coded QR code's next picture: at the server's qr_changes_at (as an
 * offset from the answer's own time, so the phone's clock does not
 * matter), then each minute. */
let qrTimer = null;
function stopQrTimer() {
	if (qrTimer) clearTimeout(qrTimer);
	qrTimer = null;
}
function scheduleQr(token, delay) {
	stopQrTimer();
	qrTimer = setTimeout(() => {
		qrTimer = null;
		if (token !== current || $('card-view').hidden) return;
		const img = $('qr-image');
		img.dataset.src = API + token + '/qr.svg?at=' + Date.now();
		img.src = img.dataset.src;
		scheduleQr(token, 60000);
	}, Math.max(1000, Math.min(delay, 60000)) + 300);
}

/* The shop's language, once a card's answer names it: when the
 * customer's browser chose none of ours, the page turns to it. */
async function followShop(lang) {
	if (!(await setShopLanguage(lang))) return;
	applyI18n();
	$('lang-select').replaceWith(langSelect());
	if (view && view.message) showMessage(...view.message);
	else if (view && view.entry) renderCard(view.entry, Object.assign({}, view.how, { again: true }));
}

/* The card. how: {live: true} just answered by the server; {checking:
 * true} a kept copy while the server is asked; {reason: 'offline' |
 * 'server'} a kept copy after the server could not be reached; again:
 * the same card once more, in another language (the codes as they are). */
function renderCard(entry, how) {
	const d = entry.data, token = entry.token;
	view = { entry, how };
	/* The card's shop: its currency and time zone (a phone may keep
	 * cards of several shops). */
	setShopFormat(d);
	const symbol = str(d.currency_symbol);
	const active = d.status === undefined || d.status === 'active';

	show('message-view', false);
	show('loading', false);
	if (str(d.merchant_name)) data('shop-name', d.merchant_name);
	else ours('shop-name', 'card.shop_default');
	if (str(d.card_title)) data('page-title', d.card_title);
	else ours('page-title', 'card.shop_default');
	document.title = (str(d.card_title) || t('card.shop_default')) + (str(d.merchant_name) ? ' · ' + d.merchant_name : '');
	$('customer-name').textContent = str(d.customer_name);
	show('customer-name', !!str(d.customer_name));

	if (active) say('status-banner', null);
	else if (str(d.status) && d.status !== 'inactive') say('status-banner', 'card.inactive_status', { status: d.status });
	else say('status-banner', 'card.inactive');
	show('status-banner', !active);
	$('card-view').classList.toggle('is-inactive', !active);

	/* The codes. A coded QR code is always the server's newest. */
	const coded = d.card_code_required === true;
	if (!how.again) {
		show('code-missing', false);
		stopQrTimer();
		setCode('qr-image', !!how.live, API + token + '/qr.svg' + (coded && how.live ? '?at=' + Date.now() : ''), entry.qr);
		if (coded && how.live) {
			const next = Date.parse(str(d.qr_changes_at)), now = Date.parse(str(how.serverTime));
			scheduleQr(token, isFinite(next) && isFinite(now) ? next - now : 60000);
		}
		setCode('barcode-image', !!how.live, API + token + '/barcode.svg', entry.bar);
	}
	show('code-hint', coded);
	$('barcode-digits').textContent = str(d.barcode_value);

	/* Progress. */
	const line = active ? progressLine(d, symbol) : '';
	$('progress-line').textContent = line;
	show('progress-line', !!line);
	const dots = $('punch-dots');
	dots.replaceChildren();
	const ct = typeOf(d), dd = ct.dots(d);
	if (dd) for (let i = 0; i < dd[1]; i++) dots.append(h('span', { className: 'pdot' + (i < dd[0] ? ' on' : '') }));
	show(dots, dots.childElementCount > 0);
	$('balance').replaceChildren(...balanceRows(d, symbol));

	const pending = ct.rewards ? ct.pending(d) : 0;
	const rw = d.reward && typeof d.reward === 'object' ? d.reward : {};
	say('rewards-title', 'card.rewards_title', { n: pending });
	const reward = str(rw.title) || t('card.your_reward');
	/* The shop's words when it named the reward. */
	$('rewards-text').translate = !str(rw.title);
	$('rewards-text').textContent = (pending > 1 ? pending + ' × ' : '') +
	    (str(rw.description) ? t('card.reward_line', { title: reward, description: rw.description }) : reward);
	show('rewards-box', active && pending > 0);

	/* How fresh. */
	const at = when(entry.at);
	say('updated-text', how.live ? 'card.updated' : how.checking ? 'card.updated_checking' : 'card.last_updated', { when: at });
	say('stale-note', how.reason === 'offline' ? 'card.stale_offline' : how.reason === 'server' ? 'card.stale_server' : null, { when: at });
	show('stale-note', !!how.reason);
	$('card-view').classList.toggle('is-stale', !!how.reason);

	show('card-view', true);
	fitAmounts();
	$('main').setAttribute('aria-busy', how.checking ? 'true' : 'false');
	renderSwitcher();
}

function renderSwitcher() {
	const st = loadStore();
	const sel = $('card-select');
	const cards = st.cards.slice().sort((a, b) => cardLabel(a, st.cards).localeCompare(cardLabel(b, st.cards)));
	sel.replaceChildren(...cards.map((c) => h('option', { value: c.token, textContent: cardLabel(c, st.cards), selected: c.token === current })));
	if (!cards.some((c) => c.token === current))
		sel.prepend(h('option', { value: '', textContent: t('card.choose'), selected: true, disabled: true }));
	show('switcher', cards.length > 1 || (cards.length === 1 && cards[0].token !== current));
}
/* "Coffee Card · Demo Coffee", with the customer's name when another kept
 * card reads the same. */
function cardLabel(c, all) {
	const d = c.data;
	const base = [str(d.card_title) || t('card.untitled'), str(d.merchant_name)].filter(Boolean).join(' · ');
	const twin = (all || []).some((o) => o !== c && str(o.data.card_title) === str(d.card_title) && str(o.data.merchant_name) === str(d.merchant_name));
	const label = twin && str(d.customer_name) ? base + ' · ' + d.customer_name : base;
	return c.gone ? t('card.old_link', { label }) : label;
}

/* ---- talking to the server --------------------------------------------- */

let current = null;	/* the token shown */
let lastTry = 0;
let inFlight = null;

async function getJson(url, signal) {
	const res = await fetch(url, { cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer',
		headers: { Accept: 'application/json' }, signal });
	let body = null;
	try { body = await res.json(); } catch (e) { /* not JSON: a server problem */ }
	return { status: res.status, body };
}

/* Asks for the card; shows what came back. */
function refresh() {
	const token = current;
	if (!token) return Promise.resolve();
	if (inFlight && inFlight.token === token) return inFlight.p;
	lastTry = Date.now();
	const btn = $('refresh-button');
	btn.disabled = true;
	btn.setAttribute('aria-busy', 'true');
	const ctl = new AbortController();
	const timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
	const p = (async () => {
		let r = null;
		try { r = await getJson(API + token, ctl.signal); } catch (e) { r = null; }
		clearTimeout(timer);
		if (token !== current) return;	/* switched meanwhile */
		const st = loadStore();
		let entry = entryOf(st, token);
		if (r && r.status === 200 && r.body && r.body.success === true && r.body.data && typeof r.body.data === 'object') {
			if (!entry) st.cards.push(entry = { token, qr: null, bar: null, codes: '' });
			entry.data = r.body.data;
			entry.at = Date.now();
			entry.used = entry.at;
			st.current = token;
			saveStore(st);
			renderCard(entry, { live: true, serverTime: r.body.meta && r.body.meta.timestamp });
			keepCodes(token);
			followShop(entry.data.language);
		} else if (r && r.status === 404) {
			if (entry && !entry.gone) {
				entry.gone = true;
				saveStore(st);
			}
			unknownCard(token, !!entry);
		} else {
			const reason = !r && !navigator.onLine ? 'offline' : 'server';
			if (entry) renderCard(entry, { reason: r ? 'server' : reason });
			else showMessage('card.title', reason === 'offline' ? 'card.offline_new' : 'card.server_unreachable',
			    'card.try_later', { retry: true });
		}
	})().finally(() => {
		if (inFlight && inFlight.p === p) inFlight = null;
		btn.disabled = false;
		btn.removeAttribute('aria-busy');
	});
	inFlight = { token, p };
	return p;
}

/* Keeps the SVG text of the card's codes for when it is offline; fetched
 * again only when what they encode has changed. */
async function keepCodes(token) {
	let st = loadStore(), entry = entryOf(st, token);
	if (!entry) return;
	const codes = str(entry.data.qr_code_data) + '|' + str(entry.data.barcode_value);
	if (entry.qr && entry.bar && entry.codes === codes) return;
	const text = async (what) => {
		try {
			const res = await fetch(API + token + '/' + what, { cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
			const body = res.ok && /svg/.test(res.headers.get('Content-Type') || '') ? await res.text() : '';
			return /<svg[\s>]/.test(body) && body.length < 200000 ? body : null;
		} catch (e) { return null; }
	};
	const [qr, bar] = await Promise.all([text('qr.svg'), text('barcode.svg')]);
	st = loadStore();
	entry = entryOf(st, token);
	if (!entry || !qr || !bar) return;
	entry.qr = qr;
	entry.bar = bar;
	entry.codes = codes;
	saveStore(st);
}

function unknownCard(token, kept) {
	showMessage('card.not_found_title', 'card.not_found', kept ? 'card.not_found_more_kept' : 'card.not_found_more', { forget: kept });
	$('forget-button').dataset.token = token;
}

/* ---- which card ---------------------------------------------------------- */

function tokenOfHash() {
	const f = location.hash.replace(/^#/, '');
	try { return decodeURIComponent(f).trim().toLowerCase(); } catch (e) { return f; }
}

function start() {
	const st = loadStore();
	const f = tokenOfHash();
	let token = null;
	if (f) {
		if (!TOKEN.test(f)) {
			current = null;
			showMessage('card.incomplete_title', 'card.incomplete', 'card.incomplete_more');
			return;
		}
		token = f;
		/* A link this phone re-drew: on to its new one. */
		if (!entryOf(st, token) && st.moved && st.moved[token] && entryOf(st, st.moved[token])) {
			token = st.moved[token];
			history.replaceState(null, '', '#' + token);
			say('relink-done', 'card.moved_here');
			show('relink-done', true);
		}
	} else {
		token = st.current && entryOf(st, st.current) ? st.current : st.cards.length ? st.cards[0].token : null;
		if (token) history.replaceState(null, '', '#' + token);
	}
	current = token;
	if (!token) {
		showMessage('card.title', 'card.none', 'card.none_more');
		return;
	}
	const entry = entryOf(st, token);
	if (entry) {
		entry.used = Date.now();
		st.current = token;
		saveStore(st);
		renderCard(entry, { checking: true });
	} else {
		show('message-view', false);
		show('card-view', false);
		clearCard();
		view = null;
		resetShop();
		ours('page-title', 'card.title');
		show('loading', true);
	}
	refresh();
}

/* ---- a new link ----------------------------------------------------------- */

function redrawConfirm(on) {
	show('redraw-confirm', on);
	show('redraw-button', !on);
	if (on) $('redraw-no').focus();
}

/* The link whose re-draw got no answer (the server may have made it). */
const LOST_KEY = 'card.redraw_unanswered';
function lostGet() { try { return ss.getItem(LOST_KEY); } catch (e) { return null; } }
function lostSet(t) { try { ss.setItem(LOST_KEY, t); } catch (e) { /* storage off */ } }

/* Asks the server for a new link; the page then moves to it (its kept
 * copy too), and the old link is refused from now on. */
async function redraw() {
	const token = current;
	if (!token) return;
	const yes = $('redraw-yes');
	yes.disabled = true;
	yes.setAttribute('aria-busy', 'true');
	show('redraw-error', false);
	let r = null;
	try {
		const res = await fetch(API + token + '/redraw', { method: 'POST', cache: 'no-store', credentials: 'omit',
			referrerPolicy: 'no-referrer', headers: { Accept: 'application/json' } });
		let body = null;
		try { body = await res.json(); } catch (e) { /* not JSON */ }
		r = { status: res.status, body };
	} catch (e) { r = null; }
	yes.disabled = false;
	yes.removeAttribute('aria-busy');
	const d = r && r.body && r.body.data;
	if (r && r.status === 200 && d && TOKEN.test(str(d.share_token))) {
		const st = loadStore();
		const entry = entryOf(st, token);
		if (entry) {
			entry.token = d.share_token;
			entry.used = Date.now();
		}
		st.current = d.share_token;
		st.moved = Object.assign({}, st.moved, { [token]: d.share_token });
		saveStore(st);
		redrawConfirm(false);
		say('relink-done', 'card.redraw_done');
		show('relink-done', true);
		location.hash = '#' + d.share_token;	/* hashchange: start() */
		return;
	}
	/* A 404 after a try whose answer was lost: that try made the new
	 * link, which only the shop can show now. */
	const lost = lostGet() === token;
	if (r && r.status === 404 && lost) {
		say('redraw-error', 'card.redraw_lost');
		show('redraw-error', true);
		return;
	}
	if (r && r.status === 404) {
		unknownCard(token, !!entryOf(loadStore(), token));
		return;
	}
	if (!r) lostSet(token);
	say('redraw-error', r ? 'card.redraw_failed' : 'card.redraw_offline');
	show('redraw-error', true);
}

$('redraw-button').addEventListener('click', () => { show('relink-done', false); redrawConfirm(true); });
$('redraw-no').addEventListener('click', () => { redrawConfirm(false); $('redraw-button').focus(); });
$('redraw-yes').addEventListener('click', () => redraw());
$('refresh-button').addEventListener('click', () => refresh());
$('retry-button').addEventListener('click', () => {
	show('retry-button', false);
	show('loading', true);
	show('message-view', false);
	refresh();
});
$('forget-button').addEventListener('click', () => {
	const token = $('forget-button').dataset.token;
	const st = loadStore();
	st.cards = st.cards.filter((c) => c.token !== token);
	if (st.current === token) st.current = st.cards.length ? st.cards[0].token : null;
	saveStore(st);
	history.replaceState(null, '', st.current ? '#' + st.current : location.pathname);
	start();
	$('main').focus();
});
$('card-select').addEventListener('change', (e) => {
	const token = e.target.value;
	if (!TOKEN.test(token) || token === current) return;
	history.replaceState(null, '', '#' + token);
	start();
});
window.addEventListener('hashchange', start);
window.addEventListener('online', () => refresh());
document.addEventListener('visibilitychange', () => {
	if (document.visibilityState === 'visible' && Date.now() - lastTry > RECHECK_MS) refresh();
});

/* The page itself for offline use (card-sw.js: this page's files only,
 * never an answer of the API). Browsers allow it on https and localhost. */
if ('serviceWorker' in navigator && window.isSecureContext)
	navigator.serviceWorker.register('card-sw.js', { scope: './card' }).catch(() => { /* the page works without */ });

/* The language switch: a fresh <select> each time (langSwitcher adds its
 * listener to the one it is given). */
function langSelect() {
	const sel = h('select', { id: 'lang-select' });
	langSwitcher(sel);
	return sel;
}

/* The words first (the catalogs, from the service worker's cache when
 * offline), then the card. The kept card's shop may already name its
 * language. */
const kept = loadStore(), keptEntry = entryOf(kept, tokenOfHash()) || entryOf(kept, kept.current);
await initI18n(keptEntry ? str(keptEntry.data.language) : null);
applyI18n();
$('lang-select').replaceWith(langSelect());
start();
