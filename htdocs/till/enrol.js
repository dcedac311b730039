/* Issuing a new card at the till (enrolment), and its QR codes and
 * link for the customer. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { cardType } from '../js/cardtypes.js';
import { t } from '../js/i18n.js';
import { card, clearCard, offlineIdent } from './card.js';
import { $, busy, h, setKids, show } from './dom.js';
import { api } from './net.js';
import { attempt, attempts, canEnrol, currentLocation, user } from './state.js';
import { clearFieldErrors, errorNode, fieldError, setMsg } from './ui.js';

export let enrolCard = null;

export async function openEnrol() {
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
	setKids(sel, h('option', { value: '' }, t('common.loading')));
	$('enrol-panel').scrollIntoView({ block: 'nearest' });
	$('enrol-name').focus();
	try {
		const r = await api.call('GET', 'cards/enrol');
		const d = (r.data && r.data.data) || {};
		const progs = Array.isArray(d.programs) ? d.programs : [];
		if (d.can_enrol === false || !progs.length) {
			setKids(sel);
			setMsg('enrol-error', h('span', null, t(d.can_enrol === false ? 'till.enrol.off' : 'till.enrol.no_program')));
			return;
		}
		/* No program chosen for the cashier: a card of the wrong one
		 * must not be one Enter away. */
		setKids(sel, h('option', { value: '' }, t('till.enrol.choose')),
			...progs.map((p) => h('option', { value: p.id }, t('till.enrol.program_option', { title: p.title, type: cardType(p.card_type).programName }))));
		sel.dataset.loaded = '1';
	} catch (e) {
		if (e instanceof SessionEnded) return;
		setKids(sel);
		setMsg('enrol-error', e);
	}
}

export function closeEnrol() {
	show('enrol-panel', false);
	enrolCard = null;
	delete attempts.enrol;
}

export async function onEnrol(ev) {
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
	if (!name) { fieldError('enrol-name', t('till.enrol.name_required')); bad = 'enrol-name'; }
	if (!pid) { fieldError('enrol-program', t('till.enrol.program_required')); bad = 'enrol-program'; }
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
	$('enrol-done-title').textContent = d.card_title ? t('till.enrol.done', { card: d.card_title, name: d.customer_name || t('till.claim.the_customer') }) :
	    t('till.enrol.done_any', { name: d.customer_name || t('till.claim.the_customer') });
	$('enrol-qr').src = 'api/v1/mycard/' + tok + '/qr.svg';
	$('enrol-qr').alt = t('till.enrol.qr_alt', { number: d.barcode_value || '' });
	$('enrol-link-qr').src = 'api/v1/mycard/' + tok + '/link.svg';
	$('enrol-link-qr').alt = t('till.enrol.link_qr_alt');
	$('enrol-barcode').textContent = d.barcode_value || '—';
	$('enrol-link').href = link;
	$('enrol-link').textContent = link;
	show('enrol-form', false);
	show('enrol-done', true);
	$('enrol-done').focus();
}

export function enrolAgain() {
	$('enrol-form').reset();
	enrolCard = null;
	show('enrol-done', false);
	show('enrol-form', true);
	openEnrol();
}
