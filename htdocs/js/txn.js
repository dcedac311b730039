/* A transaction in words, as the till's history (till/history.js) and the back
 * office's card history and report list (owner/card.js) show it: what
 * it did to the card, and its reason, written once for both pages. No
 * DOM of its own: each page passes its element maker h(tag, props,
 * ...kids) and its money(v) formatter (the shop's currency symbol). */
import { isNum } from './money.js';

const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
const signed = (v) => (v > 0 ? '+' : '−');

/* The details of transaction t as short phrases: "+2 punches",
 * "earned 0.45", "reward earned: Free coffee", "cashback taken back
 * 1.20"... (an empty list when it has none). */
export function txDetails(t, money) {
	const type = t.transaction_type;
	const det = [];
	if (type === 'punch' && Number.isInteger(t.punches_added)) det.push('+' + plural(t.punches_added, 'punch', 'punches'));
	if (isNum(t.cashback_earned) && type !== 'punch') det.push('earned ' + money(t.cashback_earned));
	if (isNum(t.discount_amount)) det.push('discount ' + money(t.discount_amount));
	if (isNum(t.redeemed_amount)) det.push('used ' + money(t.redeemed_amount));
	if (t.reward_name) det.push(type === 'reward_claim' || type === 'void' ? t.reward_name : 'reward earned: ' + t.reward_name);
	if (Number.isInteger(t.punches_removed)) det.push('−' + plural(t.punches_removed, 'punch', 'punches'));
	if (isNum(t.cashback_removed)) det.push('cashback taken back ' + money(t.cashback_removed));
	if (isNum(t.cashback_returned)) det.push('cashback given back ' + money(t.cashback_returned));
	if (Number.isInteger(t.punches_adjusted)) det.push(signed(t.punches_adjusted) + plural(Math.abs(t.punches_adjusted), 'punch', 'punches'));
	if (isNum(t.cashback_adjusted)) det.push(signed(t.cashback_adjusted) + money(Math.abs(t.cashback_adjusted)));
	if (type === 'expiry' && isNum(t.expired_amount)) det.push('cashback expired −' + money(t.expired_amount));
	return det;
}

/* A reason longer than this is folded. */
export const REASON_SHORT = 120;

/* "reason: …" (", reason: …" after details when sep); a long one (up
 * to 500 characters) folded after its start, so that its row stays a
 * row; the whole in a click. */
export function reasonNode(h, text, sep) {
	if (text.length <= REASON_SHORT) return h('span', { className: 'reason' }, (sep ? ', reason: ' : 'reason: ') + text);
	return h('details', { className: 'reason-long', title: text },
		h('summary', null, 'reason: ' + text.slice(0, 50).replace(/\s+\S*$/, '') + '… (more)'),
		h('span', { className: 'reason-full' }, text));
}

/* A history row's Details: the details, the reason and the cashier's
 * notes in quotes; "—" when there is none of them. */
export function txDetailsNode(h, t, money) {
	const det = txDetails(t, money);
	return h('span', null, det.join(', ') || (t.reason ? '' : '—'),
		t.reason ? reasonNode(h, t.reason, det.length > 0) : null,
		t.transaction_notes ? h('span', { className: 'tnote' }, ' “' + t.transaction_notes + '”') : null);
}
