import test from 'node:test';
import assert from 'node:assert/strict';
import './en-catalog.mjs';
import { CARD_TYPES, cardType, typeOf } from '../../htdocs/js/cardtypes.js';

const f = {
	money: (v) => '$' + Number(v).toFixed(2), pct: (r) => Math.round(r * 100) + '%', int: (n) => (Number.isInteger(n) ? String(n) : '—'),
	plural: (n, one, many) => n + ' ' + (n === 1 ? one : many), expiry: () => '',
	p: (cls, ...kids) => ({ cls, text: kids.map((k) => (typeof k === 'object' ? k.strong : k)).join('') }),
	strong: (t) => ({ strong: t })
};

test('one entry per card type, with what the pages ask of it', () => {
	assert.deepEqual(Object.keys(CARD_TYPES), ['punch', 'cashback', 'discount']);
	for (const [k, t] of Object.entries(CARD_TYPES)) {
		assert.equal(t.type, k);
		for (const fn of ['pending', 'balanceText', 'tillRows', 'pageRows', 'dots', 'result']) assert.equal(typeof t[fn], 'function', k + '.' + fn);
		for (const s of ['name', 'programName']) assert.ok(typeof t[s] === 'string' && t[s], k + '.' + s);
	}
	assert.ok(CARD_TYPES.punch.punches && CARD_TYPES.punch.rewards && !CARD_TYPES.punch.redeems);
	assert.ok(CARD_TYPES.cashback.redeems && CARD_TYPES.cashback.expires && !CARD_TYPES.cashback.punches);
	assert.ok(!CARD_TYPES.punch.expires && !CARD_TYPES.discount.expires);
	assert.ok(!CARD_TYPES.discount.redeems && !CARD_TYPES.discount.punches);
});

test('a punch card: rows, dots, pending rewards and balance text', () => {
	const d = { card_type: 'punch', balance: { current_punches: 3, punch_requirement: 10, pending_rewards: 1, lifetime_punches: 23 } };
	const t = typeOf(d);
	assert.equal(t.name, 'Punch card');
	assert.deepEqual(t.tillRows(d, f)[0], ['Punches', '3 / 10', 'big']);
	assert.deepEqual(t.pageRows(d, f)[1], ['Rewards waiting', '1', 'big good']);
	assert.deepEqual(t.dots(d), [3, 10]);
	assert.equal(t.dots({ balance: { current_punches: 3, punch_requirement: 50 } }), null);
	assert.equal(t.pending(d), 1);
	assert.equal(t.pending({ pending_rewards: 2 }), 2);
	assert.equal(t.balanceText(d.balance, f), '3 / 10 punches, 1 reward waiting');
	const r = t.result({ punches_added: 2, new_punch_count: 5, reward_earned: true, rewards_earned: 2, reward: { title: 'Coffee' } }, f, d);
	assert.deepEqual(r.map((x) => x.text), ['2 rewards earned!', 'Coffee', '+2 punches, card now at 5 / 10.']);
});

test('cashback and discount cards', () => {
	const c = { card_type: 'cashback', balance: { cashback_balance: 4.5, cashback_rate: 0.05, lifetime_cashback: 9 } };
	assert.equal(typeOf(c).balanceText(c.balance, f), '$4.50 cashback');
	assert.deepEqual(typeOf(c).tillRows(c, f)[0], ['Cashback balance', '$4.50', 'big']);
	assert.deepEqual(typeOf(c).result({ cashback_earned: 0.5, cashback_rate: 0.05, purchase_amount: 10, new_balance: 5 }, f).map((x) => x.text),
		['Cashback earned: $0.50', '5% of $10.00. New balance $5.00.']);
	const d = { card_type: 'discount', balance: { discount_rate: 0.1, current_tier_name: 'Gold', lifetime_spend: 100 } };
	assert.equal(typeOf(d).balanceText(d.balance, f), '10% discount (Gold)');
	assert.deepEqual(typeOf(d).pageRows(d, f).map((r) => r[0]), ['Discount', 'Tier', 'Next tier', 'Spent so far']);
	assert.equal(typeOf(d).result({ final_amount: 9, purchase_amount: 10, discount_rate: 0.1, discount_amount: 1, tier_changed: true }, f).length, 4);
});

test('a type the page does not know has a name and no features', () => {
	const t = cardType('stamps');
	assert.equal(t.name, 'stamps');
	assert.ok(!t.punches && !t.redeems && !t.rewards);
	assert.deepEqual(t.tillRows({}, f), []);
	assert.equal(typeOf(null).name, 'Card');
	assert.equal(cardType('toString').name, 'toString');
});
