/* The customer's progress in one short sentence, to read out at the till,
 * print on the receipt or show on the customer's own card page.
 *
 * Pure functions, no DOM. The sentences come from the catalogs
 * (js/i18n.js, keys progress.*), in the page's language; money goes
 * through formatMoney of money.js (sums in the currency's minor units,
 * integers), counts are integers, plurals by Intl.PluralRules.
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

import { formatMoney, formatMinor, isNum, toMinor } from './money.js';
import { typeOf } from './cardtypes.js';
import { t, locale } from './i18n.js';
import { formatDate, shopDay } from './dates.js';

const isCount = (v) => Number.isInteger(v) && v >= 0;
const str = (v) => (typeof v === 'string' ? v.trim() : '');

/* "1 punch", "3 punches": English words given by the caller (kept for
 * the pages that still pass their own); sentences of this module use
 * the catalogs' plural texts instead. */
export function plural(n, one, many) {
	return n + ' ' + (n === 1 ? one : many);
}

/* A rate (a fraction with at most 4 decimals, 0.05) as "5%", "12.5%",
 * in the page's language ("5 %" in German). */
export function percent(rate) {
	if (!isNum(rate) || rate < 0) return '';
	const bp = Math.round(rate * 10000);	/* basis points: integer */
	return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 2 }).format(bp / 10000);
}

/* Sums and differences are made in the currency's minor units (cents,
 * yen, fils: money.js toMinor by the shop's currency_decimals), exact
 * integers whatever its decimals, and shown by formatMinor. */
const money = (minor, symbol) => formatMinor(minor, symbol);

/* A word written as a capitalised ordinary word ("Free", "Coffee"), not an
 * acronym ("XL", "VIP") or a name with inner capitals ("McFlurry"). */
const CAPITALISED = /^\p{Lu}[\p{Ll}'’-]*$/u;
const DETERMINER = /^(a|an|the|your|my|our|one|two|three|any|some|every|each|another|this|that)$/i;

/* A reward's title inside a sentence: "Free coffee" -> "a free coffee",
 * "Free Coffee" -> "a free coffee", "XL Latte" -> "an XL Latte",
 * "10% off" -> "10% off", "Free cookies" -> "free cookies",
 * "Your birthday cake" -> "your birthday cake". */
export function rewardPhrase(title) {
	const s = str(title).replace(/\s+/g, ' ').replace(/[.!]+$/, '');
	if (!s) return '';
	const words = s.split(' ');
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

/* The reward inside a sentence: English makes a phrase of the title
 * ("a free coffee"); the other languages quote it as the shop wrote it,
 * their sentences being built around it ("für: Gratis-Kaffee"). */
const rewardIn = (title) => (locale() === 'en' ? rewardPhrase(title) : str(title).replace(/[.!]+$/, ''));

/* "3 more punches for a free coffee." (short: "3 more for a free coffee.") */
function remainingLine(remaining, title, short) {
	const reward = rewardIn(title);
	/* The keys built here:
	 * i18n-keys: progress.more progress.more_for progress.more_short progress.more_short_for */
	const key = 'progress.' + (short ? 'more_short' : 'more') + (reward ? '_for' : '');
	return t(key, { n: remaining, reward });
}

/* "Your reward is waiting: Free coffee." / "2 rewards waiting." */
function pendingLine(pending, title) {
	if (pending === 1) return title ? t('progress.pending_one_title', { title }) : t('progress.pending_one');
	return t('progress.pending', { n: pending });
}

/* " Spend €120.00 more to reach VIP (10%)." for the next tier, when the
 * card names one and its threshold lies above the spend so far. */
function nextTierLine(b, extraMinor, symbol) {
	const name = str(b.next_tier_name);
	if (!name || !isNum(b.next_tier_threshold) || !isNum(b.lifetime_spend)) return '';
	const left = toMinor(b.next_tier_threshold) - toMinor(b.lifetime_spend) - extraMinor;
	if (left <= 0) return '';
	const rate = isNum(b.next_tier_rate) ? percent(b.next_tier_rate) :
	    isNum(b.next_tier_discount_rate) ? percent(b.next_tier_discount_rate) :
	    isNum(b.next_tier_cashback_rate) ? percent(b.next_tier_cashback_rate) : '';
	return t(rate ? 'progress.next_tier_rate' : 'progress.next_tier', { amount: money(left, symbol), tier: name, rate });
}

/* Sentences one after the other: a space between them, none in
 * Japanese (its full stop 。 is the gap). */
const join = (...parts) => parts.filter(Boolean).join(locale() === 'ja' ? '' : ' ');

export function progressLine(card, symbol) {
	if (!card || typeof card !== 'object') return '';
	if (card.status !== undefined && card.status !== null && card.status !== 'active')
		return t('progress.inactive');
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
		if (cur >= req) return t('progress.complete');
		return remainingLine(req - cur, title, false);
	}
	case 'cashback': {
		if (!isNum(b.cashback_balance)) return '';
		return join(t('progress.cashback_balance', { amount: formatMoney(b.cashback_balance, symbol) }), nextTierLine(b, 0, symbol));
	}
	case 'discount': {
		const rate = percent(b.discount_rate);
		if (!rate) return '';
		const tier = str(b.current_tier_name);
		const next = nextTierLine(b, 0, symbol);
		const off = t(tier ? 'progress.discount_tier' : 'progress.discount', { rate, tier });
		if (next) return join(off, next);
		/* No next tier: the top one (or the only one). */
		if (str(b.next_tier_name)) return off;
		return t(tier ? 'progress.discount_top_tier' : 'progress.discount_top', { rate, tier });
	}
	default:
		return '';
	}
}

function punchAfter(r, card) {
	const b = bal(card);
	const added = r.punches_added, now = r.new_punch_count, req = b.punch_requirement;
	const title = rewardTitle(r, card);
	const earned = isCount(r.rewards_earned) ? r.rewards_earned : r.reward_earned === true ? 1 : 0;
	const head = isCount(added) && added > 0 ? t('progress.punches_added', { n: added }) : t('progress.punch_recorded');
	const haveReq = Number.isInteger(req) && req >= 1 && isCount(now);
	if (earned > 0) {
		const reward = rewardIn(title);
		const won = earned === 1 ? t(reward ? 'progress.earned_reward' : 'progress.earned_your_reward', { head, reward }) :
		    t(title ? 'progress.earned_rewards_title' : 'progress.earned_rewards', { head, n: earned, title });
		const pending = isCount(r.pending_rewards) ? r.pending_rewards : earned;
		const waiting = pending > earned ? t('progress.waiting_in_all', { n: pending }) : '';
		const towards = haveReq && now > 0 ? t('progress.towards_next', { n: now, of: req }) : '';
		return join(won, towards, waiting);
	}
	if (!haveReq) return isCount(now) ? t('progress.on_the_card', { head, n: now }) : t('progress.head', { head });
	const left = req - now;
	return join(t('progress.now_of', { head, n: now, of: req }), left > 0 ? remainingLine(left, title, true) : '');
}

/* "You reached Silver." or the next tier, counted with this purchase. */
function tierAfter(r, card, symbol) {
	return r.tier_changed === true && str(r.current_tier_name) ?
	    t('progress.reached_tier', { tier: str(r.current_tier_name) }) :
	    nextTierLine(bal(card), toMinor(r.purchase_amount), symbol);
}

function cashbackAfter(r, card, symbol) {
	if (!isNum(r.cashback_earned) || !isNum(r.new_balance)) return '';
	const earned = toMinor(r.cashback_earned), balance = formatMoney(r.new_balance, symbol);
	const head = earned > 0 ? t('progress.cashback_earned', { amount: money(earned, symbol), balance }) :
	    t('progress.cashback_none', { balance });
	return join(head, tierAfter(r, card, symbol));
}

function discountAfter(r, card, symbol) {
	if (!isNum(r.discount_amount)) return '';
	const saved = toMinor(r.discount_amount), rate = percent(r.discount_rate);
	const head = saved > 0 ? t(rate ? 'progress.saved_rate' : 'progress.saved', { amount: money(saved, symbol), rate }) :
	    t('progress.discount_none');
	return join(head, tierAfter(r, card, symbol));
}

/* A cashback redemption's answer: the cashback used and, when the rest
 * earned some, that too. */
function redeemAfter(r, card, symbol) {
	if (!isNum(r.redeemed_amount) || !isNum(r.new_balance)) return '';
	const amount = formatMoney(r.redeemed_amount, symbol);
	if (r.earned && typeof r.earned === 'object' && isNum(r.earned.cashback_earned) && isNum(r.earned.new_balance)) {
		const e = toMinor(r.earned.cashback_earned), balance = formatMoney(r.earned.new_balance, symbol);
		return e > 0 ? t('progress.paid_earned', { amount, earned: money(e, symbol), balance }) :
		    t('progress.paid', { amount, balance });
	}
	return t('progress.paid', { amount, balance: formatMoney(r.new_balance, symbol) });
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
 * year added when it is not now's), '' when nothing expires. The day is
 * the shop's (js/dates.js), the month's name the language's; now: ms,
 * for the tests. */
export function expiryLine(card, symbol, now = Date.now()) {
	if (!card || typeof card !== 'object' || !typeOf(card).expires) return '';
	const amount = card.next_expiry_amount, at = Date.parse(card.next_expiry_at);
	if (!isNum(amount) || toMinor(amount) <= 0 || !isFinite(at)) return '';
	const parts = { day: formatDate(at, { day: 'numeric' }), month: formatDate(at, { month: 'short' }) };
	const otherYear = shopDay(at).slice(0, 4) !== shopDay(now).slice(0, 4);
	if (otherYear) parts.year = formatDate(at, { year: 'numeric' });
	const date = t(otherYear ? 'progress.day_month_year' : 'progress.day_month', parts);
	return t('progress.expires', { amount: formatMoney(amount, symbol), date });
}
