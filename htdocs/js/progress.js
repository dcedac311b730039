/* The customer's progress in one short sentence, to read out at the till,
 * print on the receipt or show on the customer's own card page.
 *
 * Pure functions, no DOM. Money goes through formatMoney of money.js
 * (sums in integer cents), counts are integers, plurals are right.
 *
 *   progressLine(card, symbol)
 *       card: a lookup answer's data or a mycard answer's data
 *       ({card_type, status, balance, reward, pending_rewards}).
 *       "3 more punches for a free coffee.", "Your reward is waiting:
 *       Free coffee.", "Cashback balance €4.20.", "5% off every purchase
 *       (Member). Spend €120.00 more to reach VIP." ...
 *   afterPurchaseLine(result, card, symbol)
 *       result: the data of POST transactions/record (or a sync item's
 *       answer, or a cashback redemption's); card: the card as looked up
 *       before the purchase (for the punch requirement, the reward's title
 *       and the next tier), may be null.
 *       "1 punch added: 7 of 10. 3 more for a free coffee.", "You earned
 *       €0.60 cashback; balance €4.80.", "You saved €1.00 (5%)." ...
 *
 * Both return '' when there is nothing sensible to say (an unknown card
 * type, the fields missing): the caller then shows nothing. `symbol` is
 * the shop's currency symbol ('' for none). */

import { formatMoney, toCents, isNum } from './money.js';
import { typeOf } from './cardtypes.js';

const isCount = (v) => Number.isInteger(v) && v >= 0;
const str = (v) => (typeof v === 'string' ? v.trim() : '');

/* "1 punch", "3 punches". */
export function plural(n, one, many) {
	return n + ' ' + (n === 1 ? one : many);
}

/* A rate (a fraction with at most 4 decimals, 0.05) as "5%", "12.5%". */
const pctFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
export function percent(rate) {
	if (!isNum(rate) || rate < 0) return '';
	const bp = Math.round(rate * 10000);	/* basis points: integer */
	return pctFmt.format(bp / 100) + '%';
}

const money = (cents, symbol) => formatMoney(cents / 100, symbol);

/* A word written as a capitalised ordinary word ("Free", "Coffee"), not an
 * acronym ("XL", "VIP") or a name with inner capitals ("McFlurry"). */
const CAPITALISED = /^\p{Lu}[\p{Ll}'’-]*$/u;
const DETERMINER = /^(a|an|the|your|my|our|one|two|three|any|some|every|each|another|this|that)$/i;

/* A reward's title inside a sentence: "Free coffee" -> "a free coffee",
 * "Free Coffee" -> "a free coffee", "XL Latte" -> "an XL Latte",
 * "10% off" -> "10% off", "Free cookies" -> "free cookies",
 * "Your birthday cake" -> "your birthday cake". */
export function rewardPhrase(title) {
	const t = str(title).replace(/\s+/g, ' ').replace(/[.!]+$/, '');
	if (!t) return '';
	const words = t.split(' ');
	const letters = words.filter((w) => /\p{L}/u.test(w));
	/* Title Case ("Free Hot Chocolate"): every word lowered; otherwise
	 * only the first word, and only when it is an ordinary word. */
	const titleCase = letters.length > 1 && letters.every((w) => CAPITALISED.test(w) || /^\p{Lu}{2,}$/u.test(w));
	const low = words.map((w, i) => ((i === 0 || titleCase) && CAPITALISED.test(w) ? w.toLowerCase() : w));
	const phrase = low.join(' ');
	/* A number or a determiner of its own: no article. */
	if (/^[\d\p{Sc}]/u.test(low[0]) || DETERMINER.test(low[0])) return phrase;
	/* A plural ("free cookies") takes none either. */
	const last = low[low.length - 1];
	if (/\p{Ll}s$/u.test(last) && !/(ss|us|is)$/.test(last)) return phrase;
	return article(phrase) + ' ' + phrase;
}

function article(phrase) {
	const p = phrase.toLowerCase();
	/* Acronyms are read letter by letter: "an XL", "an MRI", "a VIP". */
	const acro = phrase.match(/^(\p{Lu}{2,})\b/u);
	if (acro) return /^[AEFHILMNORSX]/.test(acro[1]) ? 'an' : 'a';
	if (/^(hour|honest|honou?r|heir)/.test(p)) return 'an';
	if (/^(uni|use|usu|uti|eu|ewe|one|once|ufo)/.test(p)) return 'a';
	return /^[aeiou]/.test(p) ? 'an' : 'a';
}

/* The reward's title of a card or a purchase answer. */
function rewardTitle(...objs) {
	for (const o of objs)
		if (o && o.reward && str(o.reward.title)) return str(o.reward.title);
	return '';
}

/* The balance members, whether in `balance` or flat beside it. */
function bal(card) {
	if (!card || typeof card !== 'object') return {};
	return card.balance && typeof card.balance === 'object' ? card.balance : card;
}

/* "3 more punches for a free coffee." (short: "3 more for a free coffee.") */
function remainingLine(remaining, title, short) {
	const what = rewardPhrase(title);
	const n = short ? remaining + ' more' : plural(remaining, 'more punch', 'more punches');
	return what ? n + ' for ' + what + '.' : n + ' to your reward.';
}

/* "Your reward is waiting: Free coffee." / "2 rewards waiting." */
function pendingLine(pending, title) {
	if (pending === 1) return title ? 'Your reward is waiting: ' + title + '.' : 'Your reward is waiting.';
	return plural(pending, 'reward', 'rewards') + ' waiting.';
}

/* " Spend €120.00 more to reach VIP (10%)." for the next tier, when the
 * card names one and its threshold lies above the spend so far. */
function nextTierLine(b, extraCents, symbol) {
	const name = str(b.next_tier_name);
	if (!name || !isNum(b.next_tier_threshold) || !isNum(b.lifetime_spend)) return '';
	const left = toCents(b.next_tier_threshold) - toCents(b.lifetime_spend) - extraCents;
	if (left <= 0) return '';
	const rate = isNum(b.next_tier_rate) ? percent(b.next_tier_rate) :
	    isNum(b.next_tier_discount_rate) ? percent(b.next_tier_discount_rate) :
	    isNum(b.next_tier_cashback_rate) ? percent(b.next_tier_cashback_rate) : '';
	return 'Spend ' + money(left, symbol) + ' more to reach ' + name + (rate ? ' (' + rate + ')' : '') + '.';
}

const join = (...parts) => parts.filter(Boolean).join(' ');

export function progressLine(card, symbol) {
	if (!card || typeof card !== 'object') return '';
	if (card.status !== undefined && card.status !== null && card.status !== 'active')
		return 'This card is not active.';
	const b = bal(card);
	switch (card.card_type) {
	case 'punch': {
		const title = rewardTitle(card);
		const pending = isCount(b.pending_rewards) ? b.pending_rewards :
		    isCount(card.pending_rewards) ? card.pending_rewards : 0;
		if (pending > 0) return pendingLine(pending, title);
		const cur = b.current_punches, req = b.punch_requirement;
		if (!isCount(cur) || !Number.isInteger(req) || req < 1) return '';
		/* The server turns a full card into a reward at once; should a
		 * card still show as full, say so rather than "0 more". */
		if (cur >= req) return 'Card complete: your reward is due.';
		return remainingLine(req - cur, title, false);
	}
	case 'cashback': {
		if (!isNum(b.cashback_balance)) return '';
		return join('Cashback balance ' + formatMoney(b.cashback_balance, symbol) + '.', nextTierLine(b, 0, symbol));
	}
	case 'discount': {
		const p = percent(b.discount_rate);
		if (!p) return '';
		const tier = str(b.current_tier_name);
		const next = nextTierLine(b, 0, symbol);
		if (next) return p + ' off every purchase' + (tier ? ' (' + tier + ')' : '') + '. ' + next;
		/* No next tier: the top one (or the only one). */
		if (str(b.next_tier_name)) return p + ' off every purchase' + (tier ? ' (' + tier + ')' : '') + '.';
		return p + ' off every purchase (' + (tier ? tier + ', ' : '') + 'top tier).';
	}
	default:
		return '';
	}
}

function punchAfter(r, card, symbol) {
	const b = bal(card);
	const added = r.punches_added, now = r.new_punch_count, req = b.punch_requirement;
	const title = rewardTitle(r, card);
	const earned = isCount(r.rewards_earned) ? r.rewards_earned : r.reward_earned === true ? 1 : 0;
	const head = isCount(added) && added > 0 ? plural(added, 'punch', 'punches') + ' added' : 'Punch recorded';
	const haveReq = Number.isInteger(req) && req >= 1 && isCount(now);
	if (earned > 0) {
		const what = rewardPhrase(title);
		const won = earned === 1 ? 'you earned ' + (what || 'your reward') + '!' :
		    'you earned ' + plural(earned, 'reward', 'rewards') + (title ? ' (' + title + ')' : '') + '!';
		const pending = isCount(r.pending_rewards) ? r.pending_rewards : earned;
		const waiting = pending > earned ? plural(pending, 'reward', 'rewards') + ' waiting in all.' : '';
		const towards = haveReq && now > 0 ? now + ' of ' + req + ' towards the next.' : '';
		return join(head + ': ' + won, towards, waiting);
	}
	if (!haveReq) return isCount(now) ? head + ': ' + plural(now, 'punch', 'punches') + ' on the card.' : head + '.';
	const left = req - now;
	return join(head + ': ' + now + ' of ' + req + '.', left > 0 ? remainingLine(left, title, true) : '');
}

function cashbackAfter(r, card, symbol) {
	if (!isNum(r.cashback_earned) || !isNum(r.new_balance)) return '';
	const earned = toCents(r.cashback_earned);
	const head = earned > 0 ? 'You earned ' + money(earned, symbol) + ' cashback; balance ' :
	    'No cashback on this purchase; balance ';
	const tier = r.tier_changed === true && str(r.current_tier_name) ?
	    'You reached ' + str(r.current_tier_name) + '.' :
	    nextTierLine(bal(card), toCents(r.purchase_amount), symbol);
	return join(head + formatMoney(r.new_balance, symbol) + '.', tier);
}

function discountAfter(r, card, symbol) {
	if (!isNum(r.discount_amount)) return '';
	const saved = toCents(r.discount_amount), p = percent(r.discount_rate);
	const head = saved > 0 ? 'You saved ' + money(saved, symbol) + (p ? ' (' + p + ')' : '') + '.' :
	    'No discount on this purchase.';
	const tier = r.tier_changed === true && str(r.current_tier_name) ?
	    'You reached ' + str(r.current_tier_name) + '.' :
	    nextTierLine(bal(card), toCents(r.purchase_amount), symbol);
	return join(head, tier);
}

/* A cashback redemption's answer: the cashback used and, when the rest
 * earned some, that too. */
function redeemAfter(r, card, symbol) {
	if (!isNum(r.redeemed_amount) || !isNum(r.new_balance)) return '';
	const used = 'You paid ' + formatMoney(r.redeemed_amount, symbol) + ' with cashback';
	if (r.earned && typeof r.earned === 'object' && isNum(r.earned.cashback_earned) && isNum(r.earned.new_balance)) {
		const e = toCents(r.earned.cashback_earned);
		return used + (e > 0 ? ' and earned ' + money(e, symbol) : '') + '; balance ' +
		    formatMoney(r.earned.new_balance, symbol) + '.';
	}
	return used + '; balance ' + formatMoney(r.new_balance, symbol) + '.';
}

export function afterPurchaseLine(result, card, symbol) {
	if (!result || typeof result !== 'object') return '';
	if (result.redeemed_amount !== undefined) return redeemAfter(result, card, symbol);
	const type = result.card_type || (card && card.card_type);
	switch (type) {
	case 'punch': return punchAfter(result, card, symbol);
	case 'cashback': return cashbackAfter(result, card, symbol);
	case 'discount': return discountAfter(result, card, symbol);
	default: return '';
	}
}

/* The cashback that expires next, from a lookup's or a mycard answer's
 * next_expiry_amount and next_expiry_at: "€2.40 expires on 3 Dec" (the
 * year added when it is not now's), '' when nothing expires. The date is
 * the browser's own day of that instant; now: ms, for the tests. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug',
    'Sep', 'Oct', 'Nov', 'Dec'];

export function expiryLine(card, symbol, now = Date.now()) {
	if (!card || typeof card !== 'object' || !typeOf(card).expires) return '';
	const amount = card.next_expiry_amount, at = Date.parse(card.next_expiry_at);
	if (!isNum(amount) || toCents(amount) <= 0 || !isFinite(at)) return '';
	const d = new Date(at), year = d.getFullYear();
	return formatMoney(amount, symbol) + ' expires on ' + d.getDate() + ' ' +
	    MONTHS[d.getMonth()] + (year !== new Date(now).getFullYear() ? ' ' + year : '');
}
