/* Loyalty POS page: a cashier's tool for the loyalty-pos API v1, as ES
 * modules with no build step: the API client, the offline queue, the
 * scanner's key bursts and money live in js/ (tested with node's test
 * runner); the modules here are the page. Every URL is relative
 * (api/v1/...), so the page works from a subfolder. Text from the server
 * is only ever set with textContent, never parsed as HTML.
 *
 * The modules, each one concern:
 *   main.js      this: the wiring of the page's controls, and the start
 *   state.js     what the parts share: keys, the user, retry keys, location
 *   dom.js       elements and formatting
 *   ui.js        messages, field errors, the result panel, the countdown
 *   net.js       the API client, the queue's store, the connection state
 *   session.js   login, logout, the session bar
 *   card.js      the card's lookup and its panel
 *   scanner.js   a scan told from typing (key bursts, the scanner's frame)
 *   settings.js  this till's settings (the scanner's prefix and suffix)
 *   sale.js      recording a purchase
 *   rewards.js   claiming a reward, redeeming cashback
 *   history.js   the card's history
 *   void.js      voiding a sale
 *   offline.js   the offline queue's panel and its sending
 *   enrol.js     issuing a new card
 *   camera.js    the camera button */
import { applyI18n, initI18n, langSwitcher } from '../js/i18n.js';
import { applyLimits } from '../js/limits.js';
import { readJSON, writeJSON } from '../js/store.js';
import { openCamera, setupCamera } from './camera.js';
import { card, cardIdent, clearCard, onLookup, startLookup } from './card.js';
import { $ } from './dom.js';
import { closeEnrol, enrolAgain, enrolCard, onEnrol, openEnrol } from './enrol.js';
import { hist, loadHistory } from './history.js';
import { api, queue, ready, setNet } from './net.js';
import { renderQueue, SYNC_EVERY_MS, syncNow } from './offline.js';
import { claimConfirm, onClaim, onRedeem, onRedeemMax } from './rewards.js';
import { onRecord, purchaseConfirm, stepPunch } from './sale.js';
import { onFrameClick, onKeyCapture, savedFrame, setFrame } from './scanner.js';
import { endSession, onLogin, onLogout, renderLoginQueue, renderUser, startSession, useShop } from './session.js';
import { onScannerSave, renderScannerSetting } from './settings.js';
import { K, SCANNER_KEY, setUser, ss, user } from './state.js';
import { fieldError } from './ui.js';
import { closeVoid, doVoid, onVoid, onVoidSaleChange, openVoid, renderVoid, voidConfirm } from './void.js';

function init() {
	applyLimits(document);
	$('scanner-form').addEventListener('submit', onScannerSave);
	renderScannerSetting();
	document.addEventListener('mousedown', onFrameClick, true);
	/* Another tab or program of the till changed it. */
	window.addEventListener('storage', (e) => { if (e.key === SCANNER_KEY) { setFrame(savedFrame()); renderScannerSetting(); } });
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
	$('void-sale').addEventListener('change', onVoidSaleChange);
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
			if (r.data && r.data.id) { setUser(r.data); writeJSON(ss, K.user, user); renderUser(); useShop(user); }
			syncNow(false);
		}).catch(() => { /* offline: keep the saved profile */ });
		/* the card of the sale the language switch reloaded in */
		const kept = readJSON(ss, KEPT_CARD, null);
		ss.removeItem(KEPT_CARD);
		if (kept && kept.ident) startLookup(kept.ident.barcode_value || kept.ident.qr_code_data || '');
	} else {
		ss.removeItem(KEPT_CARD);
		endSession(null);
	}
	setupCamera();
}

/* The language switch loads the page again (js/i18n.js langSwitcher):
 * the card on screen is kept for this tab and looked up again after it
 * (by what it was looked up with: the lookup takes a code, not an id). */
const KEPT_CARD = 'pos.lang_switch_card';
function keepCardOnSwitch(select) {
	select.addEventListener('change', () => {
		if (card && cardIdent) writeJSON(ss, KEPT_CARD, { id: card.card_instance_id, ident: cardIdent });
		else ss.removeItem(KEPT_CARD);
	});
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

/* The words first: the catalogs (js/i18n.js) load before anything is
 * shown (the login form stays hidden until then), in the language of
 * the shop last logged in on this tab when nothing else chose one. */
async function start() {
	const saved = readJSON(ss, K.user, null);
	await initI18n(saved && saved.shop ? saved.shop.language : null);
	applyI18n();
	langSwitcher($('lang-login'));
	keepCardOnSwitch($('lang-bar'));	/* before the switch's own reload */
	langSwitcher($('lang-bar'));
	init();
}

start();
if (document.readyState === 'complete') registerWorker();
else window.addEventListener('load', registerWorker);
