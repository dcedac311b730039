import { limit } from '../js/limits.js';
import { readJSON, writeJSON } from '../js/store.js';
import { showAudit } from './audit.js';
import { closeCard } from './card.js';
import { resetCards, showCards } from './cards.js';
import { $, h, looksLikeEmail, ls, setKids, show, ss } from './dom.js';
import { resetIntegrations, showIntegrations } from './integrations.js';
import { showLocations } from './locations.js';
import { ApiError, FormError, K, apiCreate, client, payload } from './net.js';
import { showOverview } from './overview.js';
import { resetProgramForm, showPrograms } from './programs.js';
import { resetReports, showReports } from './reports.js';
import { showSettings } from './settings.js';
import { showStaff } from './staff.js';
import { SECTIONS, SECTION_NAMES, loadLocations, loadPrograms, loadSettings, loadUsers, setUser, st, user } from './state.js';
import { clearFormError, errorNode, need, needPassword, setMsg, startHelp } from './ui.js';

/* ---- views and session ------------------------------------------------ */

export const VIEWS = ['boot-view', 'setup-view', 'login-view', 'staff-view', 'app-view'];
export function showView(v) {
	for (const x of VIEWS) show(x, x === v);
	show('session-bar', v === 'app-view');
	show('side-nav', v === 'app-view');
	document.body.classList.toggle('with-nav', v === 'app-view');
}

/* The Log out buttons: the server ends the login too (else its refresh
 * token would work on for its 30 days); the page forgets it whatever the
 * answer. */
export function logOut() {
	client.logout().catch(() => {});
	endSession('You are logged out.', true);
}

/* The session is over (logged out here, or ended by the client: its
 * tokens are gone already). byOwner: the owner's own Log out, after
 * which the shop cannot have gone; else the setup is asked again, for a
 * shop deleted to start over. */
export function endSession(notice, byOwner) {
	client.logout().catch(() => {});
	for (const k of Object.values(K)) ss.removeItem(k);
	setUser(null);
	resetState();
	showLogin(notice);
	if (!byOwner) recheckSetup();
}

/* A session that ends, or a login refused, after the shop was deleted to
 * start over: the old owner's logins name a shop that is gone, and the
 * setup form is what the page needs. Else the login stays. */
export async function recheckSetup() {
	try {
		const d = payload(await client.raw('GET', 'setup'));
		if (d.setup_needed === true) { setUpSeen(false); showSetup(d); }
	} catch (e) {
		/* A set-up shop (404) or no answer: the login stays. */
		if (e instanceof ApiError && e.status === 404) setUpSeen(true);
	}
}

/* Forgets what the last owner saw: the next login may be another shop's. */
export function resetState() {
	st.section = null;
	st.locations = [];
	st.users = [];
	st.programs = [];
	st.settings = [];
	closeCard();
	resetCards();
	resetReports();
	resetIntegrations();
	for (const id of ['issued', 'sheet-note', 'report-out', 'app-notice', 'card-detail']) show(id, false);
	for (const f of document.querySelectorAll('#app-view form')) { f.reset(); clearFormError(f); }
	resetProgramForm();
	setKids($('cards-body'));
	setKids($('cards-page'));
}

export function showLogin(notice, email) {
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

export function startSession(u) {
	setUser(u);
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
export async function loadBase() {
	await Promise.all([
		loadLocations().catch(() => {}), loadUsers().catch(() => {}),
		loadPrograms().catch(() => {}), loadSettings().catch(() => {})
	]);
}

/* Whether this browser saw the shop set up (a 404 of GET setup, or a
 * login): then the page opens on the login form without asking the
 * setup, whose 404 every browser logs in its console as an error. A
 * login refused, or a session ended, asks again (recheckSetup), so a
 * shop started over still gets its setup form. */
const SETUP_SEEN = 'owner.set_up:' + location.pathname;
export function setUpSeen(on) {
	if (on === undefined) return ls.getItem(SETUP_SEEN) === '1';
	if (on) ls.setItem(SETUP_SEEN, '1'); else ls.removeItem(SETUP_SEEN);
	return on;
}

export async function boot() {
	showView('boot-view');
	document.title = 'Loyalty back office';
	$('boot-text').textContent = 'Connecting to the server…';
	setMsg('boot-error', null);
	show('boot-retry', false);
	if (setUpSeen()) { showLogin(null); return; }
	try {
		const r = await client.raw('GET', 'setup');
		const d = payload(r);
		if (d.setup_needed === true) showSetup(d);
		else showLogin(null);
	} catch (e) {
		if (e instanceof ApiError && e.status === 404) { setUpSeen(true); showLogin(null); return; }
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
export const HOSTING_WARNINGS = {
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
export function hostingWarning(hosting, asSummary) {
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
export function showHosting(id, hosting) {
	const el = $(id), n = hostingWarning(hosting, el.tagName === 'DETAILS');
	setKids(el);
	if (n) el.append(...n);
	show(el, !!n);
	if (el.tagName === 'DETAILS') el.open = st.section === 'overview' || st.section === 'settings' || !st.section;
}

/* Why the server offers no proof file (proof_unavailable), and what the
 * merchant changes so that it does. */
export const PROOF_UNAVAILABLE = {
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
export const PROOF_KEY = 'owner.setup_proof';
export let setupProof = null, setupByProof = false, setupShared = false;
/* Opened over plain http from another machine (js/http-warning.js). */
export function insecurePage() {
	return document.documentElement.dataset.insecure === '1';
}

export function showSetup(d) {
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
export function setSetupWay(byProof, byCommand, hasCode) {
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

export async function onSetup(form) {
	const code = setupByProof ? '' : need($('setup-code'), 'the setup code', 64);
	const shop = need($('setup-shop'), 'the shop\'s name', limit('NAME_MAX'));
	const loc = need($('setup-location'), 'the name of the first location', limit('NAME_MAX'));
	const name = need($('setup-name'), 'your name', limit('NAME_MAX'));
	const email = need($('setup-email'), 'your e-mail address', limit('EMAIL_MAX'));
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

export async function login(email, password) {
	const u = await client.login(email, password);
	ss.removeItem(K.location);
	setUpSeen(true);
	startSession(u);
}

export async function onLogin() {
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

export function route(focus) {
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

export function refreshSection() {
	const f = {
		overview: showOverview, locations: showLocations, staff: showStaff, programs: showPrograms,
		cards: showCards, reports: showReports, backup: () => {}, settings: showSettings,
		integrations: showIntegrations, audit: showAudit
	}[st.section];
	if (f) f();
}

