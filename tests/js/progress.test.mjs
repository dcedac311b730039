/* Unit tests of htdocs/js/progress.js: node --test tests/js/ (or
 * tests/js_units.sh, which runs them under LC_ALL=C.UTF-8 so numbers are
 * written the English way, as the literal sentences below expect). */
import test from 'node:test';
import assert from 'node:assert/strict';
import './en-catalog.mjs';
import { progressLine, afterPurchaseLine, rewardPhrase, percent, plural } from '../../htdocs/js/progress.js';
import { formatMoney, setShopFormat } from '../../htdocs/js/money.js';

const EN = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(1234.5) === '1,234.50';
const en = { skip: EN ? false : 'needs an English number locale (run with LC_ALL=C.UTF-8)' };
const NBSP = '\u00a0';

const punch = (cur, req, pending, title, extra) => Object.assign({
	card_type: 'punch', status: 'active',
	balance: { current_punches: cur, punch_requirement: req, pending_rewards: pending, lifetime_punches: 42 },
	reward: title === undefined ? undefined : { title, description: 'Any hot drink' }
}, extra);
const cashback = (balance, extra) => ({
	card_type: 'cashback', status: 'active',
	balance: Object.assign({ cashback_balance: balance, cashback_rate: 0.02, current_tier_name: 'Bronze', lifetime_cashback: 9.5 }, extra)
});
const discount = (rate, tier, next, threshold, spend) => ({
	card_type: 'discount', status: 'active',
	balance: { discount_rate: rate, current_tier_name: tier, next_tier_name: next, next_tier_threshold: threshold, lifetime_spend: spend }
});

test('plural and percent', () => {
	assert.equal(plural(1, 'punch', 'punches'), '1 punch');
	assert.equal(plural(0, 'punch', 'punches'), '0 punches');
	assert.equal(plural(2, 'reward', 'rewards'), '2 rewards');
	assert.equal(percent(0.05), '5%');
	assert.equal(percent(0.1), '10%');
	assert.equal(percent(0), '0%');
	assert.equal(percent(1), '100%');
	assert.equal(percent(0.07), '7%');		/* 0.07 * 100 is 7.000000000000001 */
	assert.equal(percent(0.0125), EN ? '1.25%' : percent(0.0125));
	assert.equal(percent(undefined), '');
	assert.equal(percent(-0.1), '');
	assert.equal(percent('0.05'), '');
});

test('reward titles inside a sentence', () => {
	assert.equal(rewardPhrase('Free coffee'), 'a free coffee');
	assert.equal(rewardPhrase('Free Coffee'), 'a free coffee');
	assert.equal(rewardPhrase('  Free   coffee. '), 'a free coffee');
	assert.equal(rewardPhrase('free hot chocolate'), 'a free hot chocolate');
	assert.equal(rewardPhrase('Espresso'), 'an espresso');
	assert.equal(rewardPhrase('Extra shot'), 'an extra shot');
	assert.equal(rewardPhrase('Hour of parking'), 'an hour of parking');
	assert.equal(rewardPhrase('Unicorn cupcake'), 'a unicorn cupcake');
	assert.equal(rewardPhrase('XL Latte'), 'an XL latte');
	assert.equal(rewardPhrase('VIP lounge pass'), 'a VIP lounge pass');
	assert.equal(rewardPhrase('Free cookies'), 'free cookies');
	assert.equal(rewardPhrase('Free glass'), 'a free glass');
	assert.equal(rewardPhrase('10% off'), '10% off');
	assert.equal(rewardPhrase('€5 voucher'), '€5 voucher');
	assert.equal(rewardPhrase('A free muffin'), 'a free muffin');
	assert.equal(rewardPhrase('Your birthday cake'), 'your birthday cake');
	assert.equal(rewardPhrase('The big breakfast'), 'the big breakfast');
	assert.equal(rewardPhrase('McFlurry'), 'a McFlurry');
	assert.equal(rewardPhrase('Café au lait'), 'a café au lait');
	assert.equal(rewardPhrase(''), '');
	assert.equal(rewardPhrase('   '), '');
	assert.equal(rewardPhrase(null), '');
	assert.equal(rewardPhrase(42), '');
});

test('punch card: punches to go', () => {
	assert.equal(progressLine(punch(7, 10, 0, 'Free coffee'), '€'), '3 more punches for a free coffee.');
	assert.equal(progressLine(punch(9, 10, 0, 'Free coffee'), '€'), '1 more punch for a free coffee.');
	assert.equal(progressLine(punch(0, 10, 0, 'Free coffee'), ''), '10 more punches for a free coffee.');
	assert.equal(progressLine(punch(0, 1, 0, 'Free coffee'), ''), '1 more punch for a free coffee.');
	assert.equal(progressLine(punch(3, 10, 0), '€'), '7 more punches to your reward.');
	assert.equal(progressLine(punch(3, 10, 0, ''), '€'), '7 more punches to your reward.');
	assert.equal(progressLine(punch(3, 10, 0, 'Free cookies'), '€'), '7 more punches for free cookies.');
});

test('punch card: exactly complete', () => {
	/* The server makes a reward of a full card at once; a card still
	 * shown full is never "0 more". */
	assert.equal(progressLine(punch(10, 10, 0, 'Free coffee'), '€'), 'Card complete: your reward is due.');
	assert.equal(progressLine(punch(12, 10, 0), '€'), 'Card complete: your reward is due.');
});

test('punch card: rewards waiting', () => {
	assert.equal(progressLine(punch(0, 10, 1, 'Free coffee'), '€'), 'Your reward is waiting: Free coffee.');
	assert.equal(progressLine(punch(4, 10, 1), '€'), 'Your reward is waiting.');
	assert.equal(progressLine(punch(4, 10, 2, 'Free coffee'), '€'), '2 rewards waiting.');
	assert.equal(progressLine(punch(4, 10, 12, 'Free coffee'), '€'), '12 rewards waiting.');
	/* The mycard answer's pending_rewards beside the balance. */
	const c = punch(4, 10, undefined, 'Free coffee', { pending_rewards: 3 });
	delete c.balance.pending_rewards;
	assert.equal(progressLine(c, '€'), '3 rewards waiting.');
});

test('punch card: missing or odd fields', () => {
	assert.equal(progressLine(punch(undefined, 10, 0), '€'), '');
	assert.equal(progressLine(punch(3, undefined, 0), '€'), '');
	assert.equal(progressLine(punch(3, 0, 0), '€'), '');
	assert.equal(progressLine(punch(2.5, 10, 0), '€'), '');
	assert.equal(progressLine(punch(-1, 10, 0), '€'), '');
	assert.equal(progressLine(punch('3', 10, 0), '€'), '');
	assert.equal(progressLine(punch(3, 10, -2), '€'), '7 more punches to your reward.');
	assert.equal(progressLine({ card_type: 'punch' }, '€'), '');
	/* The lookup answer's flat balance fields, no `balance`. */
	assert.equal(progressLine({ card_type: 'punch', status: 'active', current_punches: 8, punch_requirement: 10, pending_rewards: 0 }, ''),
	    '2 more punches to your reward.');
});

test('nothing to say', () => {
	for (const v of [null, undefined, 0, 'punch', [], {}, { card_type: 'loyalty' }])
		assert.equal(progressLine(v, '€'), '', JSON.stringify(v));
	for (const v of [null, undefined, 'x', {}, { card_type: 'other' }])
		assert.equal(afterPurchaseLine(v, null, '€'), '', JSON.stringify(v));
});

test('an inactive card', () => {
	assert.equal(progressLine(punch(3, 10, 1, 'Free coffee', { status: 'inactive' }), '€'), 'This card is not active.');
	assert.equal(progressLine(Object.assign(cashback(4.2), { status: 'blocked' }), '€'), 'This card is not active.');
	/* No status at all: taken as active. */
	const c = cashback(4.2);
	delete c.status;
	assert.equal(progressLine(c, '€'), 'Cashback balance ' + formatMoney(4.2, '€') + '.');
});

test('cashback card', en, () => {
	assert.equal(progressLine(cashback(4.2), '€'), 'Cashback balance €4.20.');
	assert.equal(progressLine(cashback(4.2), ''), 'Cashback balance 4.20.');
	assert.equal(progressLine(cashback(4.2), undefined), 'Cashback balance 4.20.');
	assert.equal(progressLine(cashback(4.2), 'CHF'), 'Cashback balance CHF' + NBSP + '4.20.');
	assert.equal(progressLine(cashback(0), '$'), 'Cashback balance $0.00.');
	assert.equal(progressLine(cashback(1234567.8), '€'), 'Cashback balance €1,234,567.80.');
	assert.equal(progressLine(cashback(undefined), '€'), '');
	assert.equal(progressLine(cashback('4.20'), '€'), '');
	/* The next tier, when the answer names it. */
	assert.equal(progressLine(cashback(4.2, { next_tier_name: 'Silver', next_tier_threshold: 100, lifetime_spend: 80.1 }), '€'),
	    'Cashback balance €4.20. Spend €19.90 more to reach Silver.');
	assert.equal(progressLine(cashback(4.2, { next_tier_name: 'Silver', next_tier_threshold: 100 }), '€'),
	    'Cashback balance €4.20.');
});

test('discount card', en, () => {
	assert.equal(progressLine(discount(0.05, 'Member', 'VIP', 250, 130), '€'),
	    '5% off every purchase (Member). Spend €120.00 more to reach VIP.');
	const withRate = discount(0.05, 'Member', 'VIP', 250, 130);
	withRate.balance.next_tier_rate = 0.1;
	assert.equal(progressLine(withRate, '€'), '5% off every purchase (Member). Spend €120.00 more to reach VIP (10%).');
	assert.equal(progressLine(discount(0.1, 'VIP', null, null, 300), '€'), '10% off every purchase (VIP, top tier).');
	assert.equal(progressLine(discount(0.1, '', null, null, 300), '€'), '10% off every purchase (top tier).');
	/* Floats that are not their decimals: 0.1 + 0.2 of spend. */
	assert.equal(progressLine(discount(0.05, 'Member', 'VIP', 0.3, 0.1), 'CHF'),
	    '5% off every purchase (Member). Spend CHF' + NBSP + '0.20 more to reach VIP.');
	assert.equal(progressLine(discount(0.125, 'Member', 'VIP', 250, 249.99), ''),
	    '12.5% off every purchase (Member). Spend 0.01 more to reach VIP.');
	/* Past the threshold (an answer from before the move): no "spend". */
	assert.equal(progressLine(discount(0.05, 'Member', 'VIP', 250, 250), '€'), '5% off every purchase (Member).');
	assert.equal(progressLine(discount(undefined, 'Member', 'VIP', 250, 10), '€'), '');
});

/* ---- after a purchase: the record answer's data ---- */

const card10 = punch(6, 10, 0, 'Free coffee');

test('after a punch purchase', () => {
	const r = { card_type: 'punch', punches_added: 1, new_punch_count: 7, reward_earned: false, reward: null, rewards_earned: 0, pending_rewards: 0 };
	assert.equal(afterPurchaseLine(r, card10, '€'), '1 punch added: 7 of 10. 3 more for a free coffee.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { punches_added: 2, new_punch_count: 9 }), card10, '€'),
	    '2 punches added: 9 of 10. 1 more for a free coffee.');
	assert.equal(afterPurchaseLine(r, punch(6, 10, 0), '€'), '1 punch added: 7 of 10. 3 more to your reward.');
	/* From 0: the first punch. */
	assert.equal(afterPurchaseLine(Object.assign({}, r, { new_punch_count: 1 }), punch(0, 10, 0, 'Free coffee'), ''),
	    '1 punch added: 1 of 10. 9 more for a free coffee.');
	/* Without the card: what the answer alone says. */
	assert.equal(afterPurchaseLine(r, null, '€'), '1 punch added: 7 punches on the card.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { new_punch_count: 1 }), null, '€'), '1 punch added: 1 punch on the card.');
	assert.equal(afterPurchaseLine({ card_type: 'punch' }, null, '€'), 'Punch recorded.');
});

test('after a punch purchase that earns rewards', () => {
	const r = { card_type: 'punch', punches_added: 1, new_punch_count: 0, reward_earned: true,
		reward: { reward_id: 'x', title: 'Free coffee', description: 'Any hot drink', status: 'pending_claim' }, rewards_earned: 1, pending_rewards: 1 };
	assert.equal(afterPurchaseLine(r, punch(9, 10, 0, 'Free coffee'), '€'), '1 punch added: you earned a free coffee!');
	/* Carried over: 9 + 3 is a reward and 2 towards the next. */
	assert.equal(afterPurchaseLine(Object.assign({}, r, { punches_added: 3, new_punch_count: 2 }), punch(9, 10, 0, 'Free coffee'), '€'),
	    '3 punches added: you earned a free coffee! 2 of 10 towards the next.');
	/* Two rewards in one purchase, one already waiting. */
	assert.equal(afterPurchaseLine(Object.assign({}, r, { punches_added: 25, new_punch_count: 5, rewards_earned: 2, pending_rewards: 3 }), punch(10, 10, 1, 'Free coffee'), '€'),
	    '25 punches added: you earned 2 rewards (Free coffee)! 5 of 10 towards the next. 3 rewards waiting in all.');
	/* No title anywhere; only the boolean. */
	assert.equal(afterPurchaseLine({ card_type: 'punch', punches_added: 1, new_punch_count: 0, reward_earned: true, reward: { title: '' } }, null, ''),
	    '1 punch added: you earned your reward!');
	/* The title from the card when the answer lacks it. */
	assert.equal(afterPurchaseLine({ card_type: 'punch', punches_added: 1, new_punch_count: 0, rewards_earned: 1 }, punch(9, 10, 0, 'Muffin'), ''),
	    '1 punch added: you earned a muffin!');
});

test('after a cashback purchase', en, () => {
	const r = { card_type: 'cashback', purchase_amount: 30, cashback_rate: 0.02, cashback_earned: 0.6, new_balance: 4.8, tier_changed: false, current_tier_name: 'Bronze' };
	assert.equal(afterPurchaseLine(r, cashback(4.2), '€'), 'You earned €0.60 cashback; balance €4.80.');
	assert.equal(afterPurchaseLine(r, null, ''), 'You earned 0.60 cashback; balance 4.80.');
	assert.equal(afterPurchaseLine(r, null, 'CHF'), 'You earned CHF' + NBSP + '0.60 cashback; balance CHF' + NBSP + '4.80.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { cashback_earned: 0, new_balance: 4.2 }), null, '€'),
	    'No cashback on this purchase; balance €4.20.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { tier_changed: true, current_tier_name: 'Silver' }), null, '€'),
	    'You earned €0.60 cashback; balance €4.80. You reached Silver.');
	/* The next tier counted with this purchase's spend, in cents. */
	assert.equal(afterPurchaseLine(r, cashback(4.2, { next_tier_name: 'Silver', next_tier_threshold: 100, lifetime_spend: 50.1 }), '€'),
	    'You earned €0.60 cashback; balance €4.80. Spend €19.90 more to reach Silver.');
	assert.equal(afterPurchaseLine({ card_type: 'cashback', cashback_earned: 0.6 }, null, '€'), '');
});

test('after a discount purchase', en, () => {
	const r = { card_type: 'discount', purchase_amount: 20, discount_rate: 0.05, discount_amount: 1, final_amount: 19, tier_changed: false, current_tier_name: 'Member' };
	assert.equal(afterPurchaseLine(r, null, '€'), 'You saved €1.00 (5%).');
	assert.equal(afterPurchaseLine(r, discount(0.05, 'Member', 'VIP', 250, 110), '€'), 'You saved €1.00 (5%). Spend €120.00 more to reach VIP.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { tier_changed: true, current_tier_name: 'VIP' }), discount(0.05, 'Member', 'VIP', 250, 240), '€'),
	    'You saved €1.00 (5%). You reached VIP.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { discount_amount: 0, discount_rate: 0 }), null, '€'), 'No discount on this purchase.');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { discount_amount: 1234.5 }), null, 'CHF'), 'You saved CHF' + NBSP + '1,234.50 (5%).');
	assert.equal(afterPurchaseLine(Object.assign({}, r, { discount_rate: undefined }), null, ''), 'You saved 1.00.');
	/* The card's type when the answer does not say it. */
	const noType = Object.assign({}, r);
	delete noType.card_type;
	assert.equal(afterPurchaseLine(noType, discount(0.05, 'Member', null, null, 0), '€'), 'You saved €1.00 (5%).');
	assert.equal(afterPurchaseLine({ card_type: 'discount' }, null, '€'), '');
});

test('after a cashback redemption', en, () => {
	const r = { transaction_id: 't', redeemed_amount: 0.4, new_balance: 0, final_purchase_amount: 9.6, redeemed_entries: [] };
	assert.equal(afterPurchaseLine(r, null, '€'), 'You paid €0.40 with cashback; balance €0.00.');
	const e = Object.assign({}, r, { earned: { card_type: 'cashback', cashback_earned: 0.19, new_balance: 0.19 } });
	assert.equal(afterPurchaseLine(e, null, '€'), 'You paid €0.40 with cashback and earned €0.19; balance €0.19.');
});

test('money always through formatMoney, whatever the locale', () => {
	/* The same sentence as formatMoney writes the amounts. */
	assert.equal(progressLine(cashback(4.2), '€'), 'Cashback balance ' + formatMoney(4.2, '€') + '.');
	assert.equal(afterPurchaseLine({ card_type: 'cashback', cashback_earned: 0.6, new_balance: 4.8 }, null, 'CHF'),
	    'You earned ' + formatMoney(0.6, 'CHF') + ' cashback; balance ' + formatMoney(4.8, 'CHF') + '.');
	for (const line of [progressLine(cashback(NaN), '€'), progressLine(discount(0.05, 'M', 'V', NaN, 1), '€'),
		afterPurchaseLine({ card_type: 'discount', discount_amount: Infinity }, null, '€')])
		assert.ok(!/undefined|NaN|null|—/.test(line), line);
});

/* Yen have no decimals and dinars three: the sums in minor units by the
 * shop's currency_decimals (never "/ 100"), the amounts with exactly its
 * digits. */
test('money by the currency\'s decimals: JPY and KWD', en, () => {
	try {
		setShopFormat({ currency: 'JPY', currency_decimals: 0, currency_symbol: '' });
		const r = { card_type: 'cashback', purchase_amount: 1500, cashback_earned: 30, new_balance: 450 };
		assert.equal(afterPurchaseLine(r, cashback(420, { next_tier_name: 'Silver', next_tier_threshold: 10000, lifetime_spend: 2500 }), ''),
		    'You earned ¥30 cashback; balance ¥450. Spend ¥6,000 more to reach Silver.');
		assert.equal(progressLine(discount(0.05, 'Member', 'VIP', 25000, 11001), ''), '5% off every purchase (Member). Spend ¥13,999 more to reach VIP.');
		assert.equal(afterPurchaseLine({ redeemed_amount: 400, new_balance: 0 }, null, ''), 'You paid ¥400 with cashback; balance ¥0.');
		setShopFormat({ currency: 'KWD', currency_decimals: 3, currency_symbol: '' });
		const k = { card_type: 'cashback', purchase_amount: 1.25, cashback_earned: 0.025, new_balance: 1.25 };
		assert.equal(afterPurchaseLine(k, cashback(1.225, { next_tier_name: 'Silver', next_tier_threshold: 10, lifetime_spend: 3.333 }), ''),
		    'You earned KWD' + NBSP + '0.025 cashback; balance KWD' + NBSP + '1.250. Spend KWD' + NBSP + '5.417 more to reach Silver.');
		assert.equal(progressLine(cashback(1.25), ''), 'Cashback balance KWD' + NBSP + '1.250.');
	} finally {
		setShopFormat(null);
	}
});
