/* The card types, one table each: what the pages (the till, the card
 * page) say and do differently for a punch card, a cashback card and a
 * discount card, so that no page compares type strings of its own. A
 * new card type is one more entry here (and its server side, lib/).
 *
 * The functions take f, the page's own formatters:
 *   f.money(v), f.pct(rate), f.int(n), f.plural(n, one, many),
 *   f.expiry(card) (the next expiry line, or ''),
 *   f.p(cls, ...kids) and f.strong(text): DOM builders (results)
 * and return text or rows [label, value, cls]. No DOM of its own: node's
 * test runner drives it with plain formatters. */

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
    b.next_tier_name + ' at ' + f.money(b.next_tier_threshold) + ' spent' : 'Top tier reached');

const PUNCH = Object.freeze({
	type: 'punch',
	name: 'Punch card',		/* the card's tag */
	programName: 'punch card',	/* a program in a list: "Coffee (punch card)" */
	punches: true,			/* a purchase carries punch_count */
	rewards: true,			/* rewards wait on it to be claimed */
	redeems: false,			/* cashback can be spent */
	expires: false,			/* what it earns expires (next_expiry_*) */
	pending,
	balanceText(b, f) {
		if (!Number.isInteger(b.current_punches)) return '';
		return f.int(b.current_punches) + (Number.isInteger(b.punch_requirement) ? ' / ' + f.int(b.punch_requirement) : '') + ' punches' +
		    (b.pending_rewards > 0 ? ', ' + f.plural(b.pending_rewards, 'reward', 'rewards') + ' waiting' : '');
	},
	tillRows(d, f) {
		const b = bal(d);
		return [['Punches', f.int(b.current_punches) + ' / ' + f.int(b.punch_requirement), 'big'],
			['Rewards waiting', f.int(b.pending_rewards), b.pending_rewards > 0 ? 'big good' : ''],
			['Lifetime punches', f.int(b.lifetime_punches), '']];
	},
	pageRows(d, f) {
		const b = bal(d), n = pending(d);
		return [['Punches', f.int(b.current_punches) + ' of ' + f.int(b.punch_requirement), 'big'],
			['Rewards waiting', f.int(n), n > 0 ? 'big good' : ''],
			['Punches so far', f.int(b.lifetime_punches), '']];
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
			out.push(f.p('res-head', n > 1 ? n + ' rewards earned!' : 'Reward earned!'));
			out.push(f.p('reward', f.strong(rw.title || 'Reward'), rw.description ? ' — ' + rw.description : ''));
		} else {
			out.push(f.p('res-head', 'Purchase recorded'));
		}
		const req = card ? bal(card).punch_requirement : null;
		out.push(f.p(null, '+' + f.plural(d.punches_added, 'punch', 'punches') + ', card now at ' + f.int(d.new_punch_count) +
		    (Number.isInteger(req) ? ' / ' + req : '') + '.'));
		return out;
	}
});

const CASHBACK = Object.freeze({
	type: 'cashback',
	name: 'Cashback',
	programName: 'cashback',
	punches: false,
	rewards: false,
	redeems: true,
	expires: true,
	pending: () => 0,
	balanceText: (b, f) => (isNum(b.cashback_balance) ? f.money(b.cashback_balance) + ' cashback' : ''),
	tillRows(d, f) {
		const b = bal(d);
		const rows = [['Cashback balance', f.money(b.cashback_balance), 'big'],
			['Cashback rate', f.pct(b.cashback_rate), ''],
			['Tier', b.current_tier_name || '—', ''],
			['Lifetime cashback', f.money(b.lifetime_cashback), '']];
		const exp = f.expiry(d);
		if (exp) rows.push(['Next expiry', exp, 'good']);
		return rows;
	},
	pageRows(d, f) {
		const b = bal(d);
		const rows = [['Cashback balance', f.money(b.cashback_balance), 'big'],
			['Cashback rate', f.pct(b.cashback_rate) + (str(b.current_tier_name) ? ' (' + b.current_tier_name + ')' : ''), '']];
		if (str(b.next_tier_name) && isNum(b.next_tier_threshold)) rows.push(['Next tier', nextTier(b, f), '']);
		rows.push(['Cashback earned so far', f.money(b.lifetime_cashback), '']);
		const exp = f.expiry(d);
		if (exp) rows.push(['Next expiry', exp, 'good']);
		return rows;
	},
	dots: () => null,
	result(d, f) {
		const out = [f.p('res-head', 'Cashback earned: ' + f.money(d.cashback_earned)),
			f.p(null, f.pct(d.cashback_rate) + ' of ' + f.money(d.purchase_amount) + '. New balance ' + f.money(d.new_balance) + '.')];
		if (d.tier_changed) out.push(f.p('note good', 'The customer reached a new tier.'));
		return out;
	}
});

const DISCOUNT = Object.freeze({
	type: 'discount',
	name: 'Discount',
	programName: 'discount',
	punches: false,
	rewards: false,
	redeems: false,
	expires: false,
	pending: () => 0,
	balanceText: (b, f) => (isNum(b.discount_rate) ? f.pct(b.discount_rate) + ' discount' + (b.current_tier_name ? ' (' + b.current_tier_name + ')' : '') : ''),
	tillRows(d, f) {
		const b = bal(d);
		return [['Discount', f.pct(b.discount_rate), 'big'],
			['Tier', b.current_tier_name || '—', ''],
			['Next tier', nextTier(b, f), ''],
			['Lifetime spend', f.money(b.lifetime_spend), '']];
	},
	pageRows(d, f) {
		const b = bal(d);
		const rows = [['Discount', f.pct(b.discount_rate), 'big']];
		if (str(b.current_tier_name)) rows.push(['Tier', b.current_tier_name, '']);
		rows.push(['Next tier', nextTier(b, f), ''], ['Spent so far', f.money(b.lifetime_spend), '']);
		return rows;
	},
	dots: () => null,
	result(d, f) {
		const out = [f.p('res-head', 'Charge the customer'), f.p('charge', f.money(d.final_amount)),
			f.p(null, 'Purchase ' + f.money(d.purchase_amount) + ' − discount ' + f.pct(d.discount_rate) + ' (' + f.money(d.discount_amount) + ').')];
		if (d.tier_changed) out.push(f.p('note good', 'The customer reached a new tier.'));
		return out;
	}
});

/* A type the page does not know (a newer server): shown by its name,
 * nothing of its own. */
function unknown(type) {
	return Object.freeze({
		type, name: typeof type === 'string' && type ? type : 'Card', programName: typeof type === 'string' ? type : 'card',
		punches: false, rewards: false, redeems: false, expires: false, pending: () => 0,
		balanceText: () => '', tillRows: () => [], pageRows: () => [], dots: () => null,
		result: (d, f) => [f.p('res-head', 'Purchase recorded')]
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
