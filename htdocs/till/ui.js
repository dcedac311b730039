/* Messages: errors as sentences, a field's complaint, the result
 * panel and the cooldown's countdown. */
import { ApiError, NetError } from '../js/api.js';
import { sentence } from '../js/errors.js';
import { lang, t } from '../js/i18n.js';
import { isNum } from '../js/money.js';
import { cardGen } from './card.js';
import { $, h, setKids, shortId, show } from './dom.js';

/* Codes whose message the till words itself (the server's names the
 * void by its id). */
const OWN_TEXT = ['ALREADY_VOIDED'];
const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/* What a cashier reads for an error code (js/errors.js): the server's
 * message when the code has no sentence, and never the bare code. */
export const codeText = sentence;

/* An error as text for the cashier: a sentence, never a bare code (the
 * code is kept in a data attribute for support), and the wait of a
 * 429/503 unless a countdown shows it. */
export function errorNode(e, noWait) {
	if (e instanceof NetError)
		return h('span', null, h('strong', null, t('till.error.net_head')), ' ' + t('till.error.net_body'));
	if (e instanceof ApiError) {
		/* The server's message names what it refers to by id: a
		 * cashier reads this till's words for those, and short ids. The
		 * server writes English (for integrators): in another language
		 * the cashier reads the page's own sentence of the code. */
		const msg = lang() === 'en' && e.message && !/^[A-Z_]+$/.test(e.message) && !OWN_TEXT.includes(e.code) ?
		    e.message.replace(UUID_RE, (id) => shortId(id)) : codeText(e.code);
		const parts = [h('strong', { dataset: { code: e.code } }, msg)];
		/* The field names what to correct only where input was refused. */
		if (e.code === 'VALIDATION_ERROR' && e.details && typeof e.details.field === 'string')
			parts.push(h('span', { className: 'detail' }, ' ' + t('till.error.field', { field: e.details.field })));
		if (!noWait && isNum(e.retryAfter) && (e.status === 429 || e.status === 503))
			parts.push(h('span', { className: 'retry' }, ' ' + t('till.error.retry_in', { wait: waitText(e.retryAfter) })));
		return h('span', null, parts);
	}
	return h('span', null, h('strong', null, t('till.error.unexpected')), ' ' + (e && e.message ? e.message : ''));
}
export function waitText(secs) {
	return secs >= 120 ? t('till.minutes', { n: Math.ceil(secs / 60) }) : t('till.seconds', { n: secs });
}

export function setMsg(id, e) {
	const el = $(id);
	setKids(el);
	if (e) el.append(e instanceof Node ? e : errorNode(e));
	el.hidden = !e;
}

export function fieldError(inputId, text) {
	const input = $(inputId), err = $(inputId + '-error');
	input.setAttribute('aria-invalid', text ? 'true' : 'false');
	err.textContent = text || '';
	err.hidden = !text;
}
export function clearFieldErrors() {
	for (const id of ['purchase-amount', 'punch-count', 'redeem-purchase', 'redeem-amount', 'enrol-program', 'enrol-name'])
		fieldError(id, null);
}

/* A heading for the answer of a sale of a card no longer on screen, so
 * the cashier never reads it as the new card's. */
export function previousSale(sale) {
	return sale.gen === cardGen ? null : h('p', { className: 'res-prev' }, t('till.result.previous', { label: sale.label }));
}

/* The cooldown's countdown: outside the live region, so a screen reader
 * reads the wait once (in the message) and not every second. */
let countdownTimer = null;
export function countdown(secs) {
	const el = $('countdown');
	const until = Date.now() + secs * 1000;
	clearInterval(countdownTimer);
	const tick = () => {
		const left = Math.ceil((until - Date.now()) / 1000);
		if (left <= 0) {
			el.textContent = t('till.countdown.done');
			clearInterval(countdownTimer);
		} else {
			el.textContent = t('till.countdown.left', { n: left });
		}
	};
	tick();
	show(el, true);
	countdownTimer = setInterval(tick, 1000);
}
export function stopCountdown() {
	clearInterval(countdownTimer);
	show('countdown', false);
}

export function showResult(node) {
	stopCountdown();
	setKids($('result'), node);
	show('result-panel', true);
	$('result-panel').scrollIntoView({ block: 'nearest' });
}
