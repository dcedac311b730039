/* Login, logout, and the session bar: who is logged in, where. */
import { writeJSON } from '../js/store.js';
import { clearCard } from './card.js';
import { $, busy, h, plural, setKids, show } from './dom.js';
import { closeEnrol } from './enrol.js';
import { api, queue, restoredNote } from './net.js';
import { renderQueue, syncNow } from './offline.js';
import { canEnrol, currentLocation, K, setUser, ss, user } from './state.js';
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
	$('login-queue').textContent = (waiting ? plural(waiting, 'purchase is', 'purchases are') +
	    ' waiting in the offline queue of this till; ' + (waiting === 1 ? 'it is' : 'they are') + ' sent after login.' : '') +
	    (review ? (waiting ? ' ' : '') + plural(review, 'purchase was', 'purchases were') +
	    ' not recorded and ' + (review === 1 ? 'needs' : 'need') + ' review: after login the offline queue says why.' : '') +
	    (restoredNote && waiting + review ? ' ' + restoredNote : '');
	show('login-queue', waiting + review > 0);
}

export function startSession(u) {
	setUser(u);
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

export async function onLogin(ev) {
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

export function onLogout() {
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
