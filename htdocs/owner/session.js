import { applyI18n, setShopLanguage, t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { setShopFormat } from '../js/money.js';
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
import { fillSetupChoices, setupChoices } from './choices.js';

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
	endSession(t('owner.session.logged_out'), true);
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
	document.title = t('owner.doc.login');
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
	adoptShop(u);
	if (u.user_type !== 'owner') {
		showView('staff-view');
		document.title = t('owner.doc.till_login');
		$('staff-email').textContent = u.email || '';
		$('staff-till-link').focus();
		return;
	}
	$('who-email').textContent = u.email || '';
	showView('app-view');
	loadBase();
	route(true);
}

/* The shop's currency and time zone for every amount and date shown,
 * and its default language (used when the browser prefers none of
 * ours): a change of language shows the page again in it. */
export async function adoptShop(u) {
	const shop = u && u.shop && typeof u.shop === 'object' ? u.shop : null;
	if (!shop) return;
	setShopFormat(shop);
	if (!await setShopLanguage(shop.language)) return;
	applyI18n();
	if (!user || user.user_type !== 'owner') return;
	$('who-role').textContent = t('owner.top.owner');
	resetProgramForm();
	st.section = null;
	route(false);
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
	document.title = t('owner.brand');
	$('boot-text').textContent = t('owner.boot.connecting_to_the_server');
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
		$('boot-text').textContent = t('owner.boot.could_not_start');
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
	shared_web_user: () => t('owner.hosting.shared_web_user'),
	data_folder_writable_by_all: (shared) =>
		t('owner.hosting.folder_writable') + ' ' + (shared ? t('owner.hosting.folder_writable_shared') : t('owner.hosting.folder_writable_fix')),
	database_readable_by_all: (shared) =>
		t('owner.hosting.db_readable') + ' ' + (shared ? t('owner.hosting.db_readable_shared') : t('owner.hosting.db_readable_fix'))
};
export function hostingWarning(hosting, asSummary) {
	const list = hosting && Array.isArray(hosting.warnings) ? hosting.warnings.filter((w) => HOSTING_WARNINGS[w]) : [];
	if (!list.length) return null;
	const shared = list.includes('shared_web_user');
	const head = t('owner.hosting.head');
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
	programs_folder_open: () => t('setup.proof_unavailable.programs_folder_open'),
	programs_folder_shared: () => t('setup.proof_unavailable.programs_folder_shared'),
	programs_folder_unknown: () => t('setup.proof_unavailable.programs_folder_unknown')
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
	document.title = t('owner.doc.setup');
	fillSetupChoices();
	showHosting('setup-hosting', d.hosting);
	$('setup-code-file').textContent = codeFile || 'loyalty.db.setup-code';
	$('setup-db-file').textContent = (codeFile || 'loyalty.db.setup-code').replace(/\.setup-code$/, '');
	const why = typeof d.proof_unavailable === 'string' ? (PROOF_UNAVAILABLE[d.proof_unavailable] || PROOF_UNAVAILABLE.programs_folder_unknown)() : '';
	$('setup-no-proof').textContent = !setupProof && !hasCode ? why : '';
	show('setup-no-proof', !setupProof && !hasCode);
	if (setupProof) {
		$('setup-proof-name').textContent = setupProof.file;
		$('setup-proof-folder').textContent = setupProof.folder;
		const a = $('setup-proof-download');
		if (a.href.startsWith('blob:')) URL.revokeObjectURL(a.href);
		const lines = ['setup.proof_file.line1', 'setup.proof_file.line2', 'setup.proof_file.line3', 'setup.proof_file.line4'];
		a.href = URL.createObjectURL(new Blob([lines.map((k) => t(k, { file: setupProof.file, folder: setupProof.folder }) + '\r\n').join('')], { type: 'text/plain' }));
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
	$('setup-switch-button').textContent = setupByProof ? t('setup.use_the_code_instead') :
	    byCommand ? t('setup.cannot_run_command') : t('setup.i_cannot_open_that_file');
	$('setup-switch-button').dataset.byCommand = byCommand ? '1' : '';
	(setupByProof ? $('setup-proof-download') : hasCode ? $('setup-code') : $('setup-shop')).focus();
}

export async function onSetup(form) {
	const code = setupByProof ? '' : need($('setup-code'), 'setup.need.code', 64);
	const shop = need($('setup-shop'), 'setup.need.shop', limit('NAME_MAX'));
	const loc = need($('setup-location'), 'setup.need.location', limit('NAME_MAX'));
	const choices = setupChoices();
	const name = need($('setup-name'), 'setup.need.name', limit('NAME_MAX'));
	const email = need($('setup-email'), 'setup.need.email', limit('EMAIL_MAX'));
	if (!looksLikeEmail(email)) throw new FormError(t('setup.email_example'), $('setup-email'));
	const password = needPassword($('setup-password'), $('setup-password2'));
	const proof = setupByProof ? setupProof : null;
	if (insecurePage() && !$('setup-insecure-ok').checked)
		throw new FormError(t('setup.insecure_tick'), $('setup-insecure-ok'));
	try {
		await apiCreate('setup', 'setup', Object.assign(proof ? { setup_proof: proof.secret } : { setup_code: code }, {
			merchant_name: shop, location_name: loc,
			owner_name: name, owner_email: email, owner_password: password
		}, choices), true);
	} catch (e) {
		if (e instanceof ApiError && e.status === 404) {
			showLogin(t('setup.set_up_already'), email);
			return;
		}
		throw e;
	}
	for (const id of ['setup-code', 'setup-password', 'setup-password2']) $(id).value = '';
	ss.removeItem(PROOF_KEY);
	try {
		await login(email, password);
	} catch (e) {
		showLogin(t('setup.done_log_in'), email);
		setMsg('login-error', e);
		return;
	}
	$('app-notice').textContent = t('setup.ready', { shop }) +
	    (proof && setupShared ? ' ' + t('setup.delete_proof', { file: proof.file, folder: proof.folder }) : '');
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
	if (!email) throw new FormError(t('owner.login.enter_both'), $('login-email'));
	if (!password) throw new FormError(t('owner.login.enter_both'), $('login-password'));
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
	document.title = t('owner.doc.section', { section: SECTION_NAMES[name] });
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

