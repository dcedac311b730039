/* Loyalty back office: the shop owner's page for the owner's API
 * (docs/admin-api.md), as ES modules with no build step. Every URL is
 * relative (api/v1/...), so the page works from a subfolder. Text from
 * the server is only ever set with textContent, never parsed as HTML
 * (the card sheet is opened as a blob in its own tab).
 *
 * The modules, each one concern:
 *   main.js      this: the wiring of the page's controls, and the start
 *   net.js       the API through js/api.js's one client, files, keys
 *   session.js   views, setup, login and logout, the sections' routing
 *   state.js     what every section shares: lists, settings, the user
 *   dom.js       elements, formatting, dates, storage, saving a file
 *   ui.js        messages, forms, dialogs, toasts
 *   overview.js locations.js staff.js programs.js cards.js card.js
 *   print.js reports.js backup.js audit.js settings.js
 *   integrations.js: one section (or part) each */
import { applyI18n, initI18n, langSwitcher } from '../js/i18n.js';
import { applyLimits } from '../js/limits.js';
import { readJSON, writeJSON } from '../js/store.js';
import { aud, downloadAuditCsv, loadAudit } from './audit.js';
import { downloadBackup } from './backup.js';
import { adjustCard, card, closeCard, dh, loadCardHistory, redrawCard, renameCard, toggleCard, wireImageDownloads } from './card.js';
import { cq, issueKindChanged, issuedCardIds, loadCards, onIssue, renderCardRows, selectPage, selected } from './cards.js';
import { $, h, show, ss } from './dom.js';
import { wireIntegrations } from './integrations.js';
import { onAddLocation } from './locations.js';
import { K, client, onSessionEnd } from './net.js';
import { openSheet, sheetPages } from './print.js';
import { onAddProgram, programTypeChanged, resetProgramForm } from './programs.js';
import { applyPreset, downloadCsv, loadReportTx, onResize, rep, runReport } from './reports.js';
import { adoptShop, boot, endSession, logOut, onLogin, onSetup, refreshSection, route, setSetupWay, setupByProof, startSession } from './session.js';
import { onSaveSettings } from './settings.js';
import { onAddStaff } from './staff.js';
import { setUser, st, user } from './state.js';
import { clearFormError, onSubmit } from './ui.js';

/* ---- wiring ----------------------------------------------------------- */

function init() {
	/* The page's words, before anything shows; the switches reload the
	 * page in the language chosen. */
	applyI18n();
	for (const id of ['top-lang', 'login-lang', 'setup-lang']) langSwitcher($(id));
	/* The client ends a session whose refresh is refused: the page shows
	 * the login (or the setup of a shop started over). A call made after
	 * a logout ends nothing more. */
	onSessionEnd((notice) => { if (user) endSession(notice); });
	/* The fields' lengths are the server's (data-limit). */
	applyLimits(document);
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
	window.addEventListener('resize', onResize);
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
	for (const r of document.querySelectorAll('input[name="issue-kind"]')) r.addEventListener('change', issueKindChanged);
	$('issued-print').addEventListener('click', (e) => openSheet('ids=' + issuedCardIds().map(encodeURIComponent).join(','), e.currentTarget));
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
	wireImageDownloads();
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
	$('rtx-prev').addEventListener('click', () => { if (rep.tx.page > 1) { rep.tx.page--; loadReportTx(); } });
	$('rtx-next').addEventListener('click', () => { if (rep.tx.page < rep.tx.pages) { rep.tx.page++; loadReportTx(); } });

	$('backup-button').addEventListener('click', downloadBackup);
	$('audit-form').addEventListener('submit', (e) => { e.preventDefault(); aud.page = 1; loadAudit(); });
	$('audit-csv').addEventListener('click', (e) => downloadAuditCsv(e.currentTarget));
	$('audit-prev').addEventListener('click', () => { if (aud.page > 1) { aud.page--; loadAudit(); } });
	$('audit-next').addEventListener('click', () => { if (aud.page < aud.pages) { aud.page++; loadAudit(); } });
	onSubmit($('settings-form'), onSaveSettings);
	wireIntegrations();

	const token = ss.getItem(K.access), saved = readJSON(ss, K.user, null);
	if (token && saved && saved.id) {
		startSession(saved);
		client.call('GET', 'auth/me').then((r) => {
			if (r.data && r.data.id && user && r.data.user_type !== user.user_type) startSession(r.data);
			else if (r.data && r.data.id) { setUser(r.data); writeJSON(ss, K.user, user); adoptShop(user); }
		}).catch(() => { /* offline or ended: shown where it matters */ });
	} else {
		boot();
	}
}

/* The catalogs first (one that cannot be loaded leaves English): every
 * text the page builds is in the page's language from the start. */
await initI18n();
init();
