/* A transaction in words, as the till's history (till/history.js) and the back
 * office's card history and report list (owner/card.js) show it: what
 * it did to the card, and its reason, written once for both pages. No
 * DOM of its own: each page passes its element maker h(tag, props,
 * ...kids) and its money(v) formatter (the shop's currency symbol). The
 * words are the catalog's (common.txn.*, js/i18n.js), the pages' shared
 * ones. */
import { t, locale } from './i18n.js';
import { isNum } from './money.js';

/* A transaction's (or a card's) short reference, as a page shows it: the
 * id's last 8 hex digits. Ids are UUIDv7, whose first 8 are the time in
 * minutes' worth of milliseconds, the same for every sale of a minute;
 * the end is random. "—" for no id. */
export const shortRef = (id) => (typeof id === 'string' && id ? id.replace(/-/g, '').slice(-8) : '—');

const punches = (n) => t('common.txn.punches', { n });
const signed = (v) => (v > 0 ? '+' : '−');

/* The details of transaction x as short phrases: "+2 punches",
 * "earned 0.45", "reward earned: Free coffee", "cashback taken back
 * 1.20"... (an empty list when it has none). */
export function txDetails(x, money) {
	const type = x.transaction_type;
	const det = [];
	if (type === 'punch' && Number.isInteger(x.punches_added)) det.push('+' + punches(x.punches_added));
	if (isNum(x.cashback_earned) && type !== 'punch') det.push(t('common.txn.earned', { amount: money(x.cashback_earned) }));
	if (isNum(x.discount_amount)) det.push(t('common.txn.discount', { amount: money(x.discount_amount) }));
	if (isNum(x.redeemed_amount)) det.push(t('common.txn.used', { amount: money(x.redeemed_amount) }));
	if (x.reward_name) det.push(type === 'reward_claim' || type === 'void' ? x.reward_name : t('common.txn.reward_earned', { reward: x.reward_name }));
	if (Number.isInteger(x.punches_removed)) det.push('−' + punches(x.punches_removed));
	if (isNum(x.cashback_removed)) det.push(t('common.txn.cashback_removed', { amount: money(x.cashback_removed) }));
	if (isNum(x.cashback_returned)) det.push(t('common.txn.cashback_returned', { amount: money(x.cashback_returned) }));
	if (Number.isInteger(x.punches_adjusted)) det.push(signed(x.punches_adjusted) + punches(Math.abs(x.punches_adjusted)));
	if (isNum(x.cashback_adjusted)) det.push(signed(x.cashback_adjusted) + money(Math.abs(x.cashback_adjusted)));
	if (type === 'expiry' && isNum(x.expired_amount)) det.push(t('common.txn.expired', { amount: money(x.expired_amount) }));
	return det;
}

/* Items (texts, or a page's nodes) as a list in the page's language:
 * the items with the separators between them ("a, b, c"; "a、b、c";
 * "a وb وc"; "a, b und c"), by Intl.ListFormat. The narrow conjunction:
 * English's plain commas (no "and" between details), the others' own. */
export function listParts(items) {
	if (items.length < 2) return items.slice();
	let f;
	try {
		f = new Intl.ListFormat(locale(), { type: 'conjunction', style: 'narrow' });
	} catch (e) {
		return items.flatMap((x, i) => (i ? [', ', x] : [x]));	/* no Intl.ListFormat */
	}
	let i = 0;
	return f.formatToParts(items.map((_, j) => 'x' + j)).map((p) => (p.type === 'element' ? items[i++] : p.value));
}

/* The texts as one list text in the page's language. */
export const listText = (texts) => listParts(texts).join('');

/* A reason longer than this is folded. */
export const REASON_SHORT = 120;

/* "reason: …" (", reason: …" after details: sep, the list's separator
 * before it, or true for the language's between two items); a long one
 * (up to 500 characters) folded after its start, so that its row stays a
 * row; the whole in a click. */
export function reasonNode(h, text, sep) {
	if (sep === true) sep = listParts(['', ''])[1];
	if (text.length <= REASON_SHORT) return h('span', { className: 'reason' }, (sep || '') + t('common.txn.reason', { reason: text }));
	return h('details', { className: 'reason-long', title: text },
		h('summary', null, t('common.txn.reason_more', { reason: text.slice(0, 50).replace(/\s+\S*$/, '') })),
		h('span', { className: 'reason-full' }, text));
}

/* A history row's Details: the details, the reason and the cashier's
 * notes in quotes; "—" when there is none of them. */
export function txDetailsNode(h, x, money) {
	const det = txDetails(x, money);
	/* the reason is the list's last item: its separator goes before it */
	const parts = listParts(x.reason ? [...det, null] : det);
	if (x.reason) parts.pop();
	const sep = x.reason && det.length ? parts.pop() : '';
	return h('span', null, parts.join('') || (x.reason ? '' : '—'),
		x.reason ? reasonNode(h, x.reason, sep) : null,
		x.transaction_notes ? h('span', { className: 'tnote' }, ' ' + t('common.txn.note', { note: x.transaction_notes })) : null);
}
