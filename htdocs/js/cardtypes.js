/* The card types, one table each: what the pages (the till, the card
 * page) say and do differently for a punch card, a cashback card and a
 * discount card, so that no page compares type strings of its own. A
 * new card type is one more entry here (and its server side, lib/).
 *
 * The functions take f, the page's own formatters:
 *   f.money(v), f.pct(rate), f.int(n), f.plural(n, one, many) (no
 *   longer called here: the catalogs' plurals are), f.expiry(card) (the
 *   next expiry line, or ''),
 *   f.p(cls, ...kids) and f.strong(text): DOM builders (results)
 * and return text or rows [label, value, cls]. The words come from the
 * catalogs (js/i18n.js, keys cardtype.*) when asked for, so a page that
 * changes its language reads them anew (name, programName are getters).
 * No DOM of its own: node's test runner drives it with plain formatters. */

import { t } from './i18n.js';

/* A card's balance: its balance object (the lookup's), else the fields
 * of the card itself (as some answers carry them). */
const bal = (d) => (d && d.balance && typeof d.balance === 'object' ? d.balance : d && typeof d === 'object' ? d : {});
const pending = (d) => {
	const b = bal(d);
	return Number.isInteger(b.pending_rewards) ? b.pending_rewards :
	    d && Number.isInteger(d.pending_rewards) ? d.pending_rewards : 0;
};
const str = (v) => (typeof v === 'string' ? v : '');
const isNum = (v) => typeof v === 'number' && isFinite(v);
const nextTier = (b, f) => (str(b.next_tier_name) && isNum(b.next_tier_threshold) ?
    t('cardtype.next_tier_at', { tier: b.next_tier_name, amount: f.money(b.next_tier_threshold) }) : t('cardtype.top_tier'));

const PUNCH = Object.freeze({
	type: 'punch',
	get name() { return t('cardtype.punch.name'); },		/* the card's tag */
	get programName() { return t('cardtype.punch.program'); },	/* a program in a list: "Coffee (punch card)" */
	punches: true,			/* a purchase carries punch_count */
	rewards: true,			/* rewards wait on it to be claimed */
	redeems: false,			/* cashback can be spent */
	expires: false,			/* what it earns expires (next_expiry_*) */
	pending,
	balanceText(b, f) {
		if (!Number.isInteger(b.current_punches)) return '';
		const count = f.int(b.current_punches) + (Number.isInteger(b.punch_requirement) ? ' / ' + f.int(b.punch_requirement) : '');
		const punches = t('cardtype.punch.balance', { count, n: b.current_punches });
		return b.pending_rewards > 0 ? t('cardtype.punch.balance_waiting', { punches, n: b.pending_rewards }) : punches;
	},
	tillRows(d, f) {
		const b = bal(d);
		return [[t('cardtype.punches'), f.int(b.current_punches) + ' / ' + f.int(b.punch_requirement), 'big'],
			[t('cardtype.rewards_waiting'), f.int(b.pending_rewards), b.pending_rewards > 0 ? 'big good' : ''],
			[t('cardtype.lifetime_punches'), f.int(b.lifetime_punches), '']];
	},
	pageRows(d, f) {
		const b = bal(d), n = pending(d);
		return [[t('cardtype.punches'), t('cardtype.punch.of', { n: f.int(b.current_punches), of: f.int(b.punch_requirement) }), 'big'],
			[t('cardtype.rewards_waiting'), f.int(n), n > 0 ? 'big good' : ''],
			[t('cardtype.punches_so_far'), f.int(b.lifetime_punches), '']];
	},
	/* The dots of the card: [filled, of], or null for none (over 30). */
	dots(d) {
		const b = bal(d), cur = b.current_punches, req = b.punch_requirement;
		return Number.isInteger(req) && req > 0 && req <= 30 && Number.isInteger(cur) ? [cur, req] : null;
	},
	/* The till's result of a purchase: paragraphs. card: the card as
	 * looked up (its requirement), or null. */
	result(d, f, card) {
		const out = [];
		if (d.reward_earned) {
			const n = Number.isInteger(d.rewards_earned) && d.rewards_earned > 1 ? d.rewards_earned : 1;
			const rw = d.reward || {};
			out.push(f.p('res-head', n > 1 ? t('cardtype.punch.rewards_earned', { n }) : t('cardtype.punch.reward_earned')));
			out.push(f.p('reward', f.strong(rw.title || t('cardtype.punch.reward')), rw.description ? ' — ' + rw.description : ''));
		} else {
			out.push(f.p('res-head', t('cardtype.purchase_recorded')));
		}
		const req = card ? bal(card).punch_requirement : null;
		const at = f.int(d.new_punch_count) + (Number.isInteger(req) ? ' / ' + req : '');
		out.push(f.p(null, t('cardtype.punch.added', { n: d.punches_added, at })));
		return out;
	}
});

const CASHBACK = Object.freeze({
	type: 'cashback',
	get name() { return t('cardtype.cashback.name'); },
	get programName() { return t('cardtype.cashback.program'); },
	punches: false,
	rewards: false,
	redeems: true,
	expires: true,
	pending: () => 0,
	balanceText: (b, f) => (isNum(b.cashback_balance) ? t('cardtype.cashback.balance', { amount: f.money(b.cashback_balance) }) : ''),
	tillRows(d, f) {
		const b = bal(d);
		const rows = [[t('cardtype.cashback_balance'), f.money(b.cashback_balance), 'big'],
			[t('cardtype.cashback_rate'), f.pct(b.cashback_rate), ''],
			[t('cardtype.tier'), b.current_tier_name || '—', ''],
			[t('cardtype.lifetime_cashback'), f.money(b.lifetime_cashback), '']];
		const exp = f.expiry(d);
		if (exp) rows.push([t('cardtype.next_expiry'), exp, 'good']);
		return rows;
	},
	pageRows(d, f) {
		const b = bal(d);
		const rows = [[t('cardtype.cashback_balance'), f.money(b.cashback_balance), 'big'],
			[t('cardtype.cashback_rate'), f.pct(b.cashback_rate) + (str(b.current_tier_name) ? ' (' + b.current_tier_name + ')' : ''), '']];
		if (str(b.next_tier_name) && isNum(b.next_tier_threshold)) rows.push([t('cardtype.next_tier'), nextTier(b, f), '']);
		rows.push([t('cardtype.cashback_so_far'), f.money(b.lifetime_cashback), '']);
		const exp = f.expiry(d);
		if (exp) rows.push([t('cardtype.next_expiry'), exp, 'good']);
		return rows;
	},
	dots: () => null,
	result(d, f) {
		const out = [f.p('res-head', t('cardtype.cashback.earned', { amount: f.money(d.cashback_earned) })),
			f.p(null, t('cardtype.cashback.result', { rate: f.pct(d.cashback_rate), purchase: f.money(d.purchase_amount), balance: f.money(d.new_balance) }))];
		if (d.tier_changed) out.push(f.p('note good', t('cardtype.new_tier')));
		return out;
	}
});

const DISCOUNT = Object.freeze({
	type: 'discount',
	get name() { return t('cardtype.discount.name'); },
	get programName() { return t('cardtype.discount.program'); },
	punches: false,
	rewards: false,
	redeems: false,
	expires: false,
	pending: () => 0,
	balanceText: (b, f) => (isNum(b.discount_rate) ?
	    t(b.current_tier_name ? 'cardtype.discount.balance_tier' : 'cardtype.discount.balance', { rate: f.pct(b.discount_rate), tier: b.current_tier_name }) : ''),
	tillRows(d, f) {
		const b = bal(d);
		return [[t('cardtype.discount'), f.pct(b.discount_rate), 'big'],
			[t('cardtype.tier'), b.current_tier_name || '—', ''],
			[t('cardtype.next_tier'), nextTier(b, f), ''],
			[t('cardtype.lifetime_spend'), f.money(b.lifetime_spend), '']];
	},
	pageRows(d, f) {
		const b = bal(d);
		const rows = [[t('cardtype.discount'), f.pct(b.discount_rate), 'big']];
		if (str(b.current_tier_name)) rows.push([t('cardtype.tier'), b.current_tier_name, '']);
		rows.push([t('cardtype.next_tier'), nextTier(b, f), ''], [t('cardtype.spent_so_far'), f.money(b.lifetime_spend), '']);
		return rows;
	},
	dots: () => null,
	result(d, f) {
		const out = [f.p('res-head', t('cardtype.discount.charge')), f.p('charge', f.money(d.final_amount)),
			f.p(null, t('cardtype.discount.result', { purchase: f.money(d.purchase_amount), rate: f.pct(d.discount_rate), amount: f.money(d.discount_amount) }))];
		if (d.tier_changed) out.push(f.p('note good', t('cardtype.new_tier')));
		return out;
	}
});

/* A type the page does not know (a newer server): shown by its name,
 * nothing of its own. */
function unknown(type) {
	const named = typeof type === 'string' && type;
	return Object.freeze({
		type,
		get name() { return named ? type : t('cardtype.card'); },
		get programName() { return typeof type === 'string' ? type : t('cardtype.card_program'); },
		punches: false, rewards: false, redeems: false, expires: false, pending: () => 0,
		balanceText: () => '', tillRows: () => [], pageRows: () => [], dots: () => null,
		result: (d, f) => [f.p('res-head', t('cardtype.purchase_recorded'))]
	});
}

export const CARD_TYPES = Object.freeze({ punch: PUNCH, cashback: CASHBACK, discount: DISCOUNT });

/* The entry of a type string (a card's or a program's card_type); one
 * of no features for a type not in the table. */
export function cardType(type) {
	return Object.prototype.hasOwnProperty.call(CARD_TYPES, type) ? CARD_TYPES[type] : unknown(type);
}

/* The entry of a card (or a program, or an answer) by its card_type. */
export const typeOf = (x) => cardType(x && typeof x === 'object' ? x.card_type : undefined);
