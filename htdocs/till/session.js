/* Login, logout, and the session bar: who is logged in, where. */
import { applyI18n, setShopLanguage, t } from '../js/i18n.js';
import { setShopFormat } from '../js/money.js';
import { writeJSON } from '../js/store.js';
import { card, clearCard, renderCard } from './card.js';
import { $, busy, h, setKids, show, zeroAmount } from './dom.js';
import { loadHistory } from './history.js';
import { closeEnrol } from './enrol.js';
import { api, queue, restoredNote } from './net.js';
import { renderQueue, syncNow } from './offline.js';
import { canEnrol, currentLocation, K, setUser, ss, user } from './state.js';
import { renderScannerSetting } from './settings.js';
import { setMsg } from './ui.js';
import { loadVoidable, renderVoid } from './void.js';

export function endSession(notice) {
	for (const k of [K.access, K.refresh, K.user, K.location]) ss.removeItem(k);
	setUser(null);
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

export function renderLoginQueue() {
	const waiting = queue.load().length, review = queue.loadReview().length;
	$('login-queue').textContent = (waiting ? t('till.login.queue_waiting', { n: waiting }) : '') +
	    (review ? (waiting ? ' ' : '') + t('till.login.queue_review', { n: review }) : '') +
	    (restoredNote && waiting + review ? ' ' + restoredNote : '');
	show('login-queue', waiting + review > 0);
}

/* The shop of the user logged in (the login's and auth/me's user.shop):
 * its currency and time zone format the amounts and times
 * (js/money.js, js/dates.js), and its language is the page's when
 * nothing else chose one; then the page is worded again. */
export async function useShop(u) {
	const shop = u && u.shop && typeof u.shop === 'object' ? u.shop : null;
	setShopFormat(shop);
	for (const id of ['purchase-amount', 'redeem-purchase', 'redeem-amount']) $(id).placeholder = zeroAmount();
	if (shop && await setShopLanguage(shop.language)) relabel();
}

/* The page in the language just loaded: the marked text, and what the
 * code wrote (the bar, the queue, the scanner's setting, the card). */
export function relabel() {
	applyI18n();
	if (user) {
		renderUser();
		renderQueue();
		if (card && !$('card-panel').hidden) { renderCard(); loadHistory(); }
	} else {
		renderLoginQueue();
	}
	renderScannerSetting();
}

export function startSession(u) {
	setUser(u);
	useShop(u);
	writeJSON(ss, K.user, u);
	show('login-view', false);
	show('session-bar', true);
	show('pos-view', true);
	renderUser();
	renderQueue();
	$('lookup-code').focus();
}

export function renderUser() {
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
	$('where-name').textContent = cur ? cur.name : t('till.bar.no_location');
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

export async function onLogin(ev) {
	ev.preventDefault();
	const email = $('login-email').value.trim(), password = $('login-password').value;
	if (!email || !password) {
		setMsg('login-error', h('span', null, t('till.login.empty')));
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

export function onLogout() {
	const mine = queue.forUser(user).length;
	if (mine > 0 && !window.confirm(t('till.logout.confirm', { n: mine })))
		return;
	api.logout().then((how) => {
		/* Still on the login form: say what the server could not do. */
		if (how !== 'unreachable' || user) return;
		const n = $('login-notice');
		n.textContent = t('till.logout.unreachable');
		n.hidden = false;
	});
	endSession(t('till.logout.done'));
}
