import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useCatalog, initI18n } from '../../htdocs/js/i18n.js';
import { memStore } from './helpers.mjs';
import { txDetails, txDetailsNode, reasonNode, REASON_SHORT, listText, shortRef } from '../../htdocs/js/txn.js';

/* The words come from the catalog (js/i18n.js): the English one, as the pages load it. */
useCatalog('en', JSON.parse(readFileSync(new URL('../../htdocs/i18n/en.json', import.meta.url), 'utf8')));

const money = (v) => '€' + v.toFixed(2);
/* An element maker that builds plain objects: {tag, props, kids}. */
const h = (tag, props, ...kids) => ({ tag, props, kids: kids.flat().filter((k) => k !== null && k !== undefined && k !== '') });

test('a transaction\'s details in the words both pages use', () => {
	assert.deepEqual(txDetails({ transaction_type: 'punch', punches_added: 1, cashback_earned: 0, reward_name: 'Free tea' }, money),
	    ['+1 punch', 'reward earned: Free tea']);
	assert.deepEqual(txDetails({ transaction_type: 'cashback', cashback_earned: 0.45, discount_amount: 1 }, money),
	    ['earned €0.45', 'discount €1.00']);
	assert.deepEqual(txDetails({ transaction_type: 'void', punches_removed: 3, cashback_removed: 1.2, cashback_returned: 0.1, reward_name: 'Free tea' }, money),
	    ['Free tea', '−3 punches', 'cashback taken back €1.20', 'cashback given back €0.10']);
	assert.deepEqual(txDetails({ transaction_type: 'adjustment', punches_adjusted: -2, cashback_adjusted: 0.5 }, money), ['−2 punches', '+€0.50']);
	assert.deepEqual(txDetails({ transaction_type: 'expiry', expired_amount: 2 }, money), ['cashback expired −€2.00']);
	assert.deepEqual(txDetails({ transaction_type: 'cashback_redeem', redeemed_amount: 3 }, money), ['used €3.00']);
	assert.deepEqual(txDetails({ transaction_type: 'reward_claim' }, money), []);
});

test('the reason: after the details or alone; a long one folded', () => {
	assert.deepEqual(reasonNode(h, 'wrong card', true), { tag: 'span', props: { className: 'reason' }, kids: [', reason: wrong card'] });
	assert.equal(reasonNode(h, 'wrong card', false).kids[0], 'reason: wrong card');
	const long = 'word '.repeat(40).trim();
	assert.ok(long.length > REASON_SHORT);
	const n = reasonNode(h, long, true);
	assert.equal(n.tag, 'details');
	assert.equal(n.props.title, long);
	assert.match(n.kids[0].kids[0], /^reason: (word ){9}word… \(more\)$/);
});

test('the Details cell: details, reason and notes; a dash when there is none', () => {
	const n = txDetailsNode(h, { transaction_type: 'void', cashback_removed: 1, reason: 'typo', transaction_notes: 'table 4' }, money);
	assert.equal(n.kids[0], 'cashback taken back €1.00');
	assert.equal(n.kids[1].kids[0], ', reason: typo');
	assert.equal(n.kids[2].kids[0], ' “table 4”');
	assert.deepEqual(txDetailsNode(h, { transaction_type: 'reward_claim' }, money).kids, ['—']);
	assert.equal(txDetailsNode(h, { transaction_type: 'reward_claim', reason: 'x' }, money).kids[0].kids[0], 'reason: x');
});

/* A list in the page's language (Intl.ListFormat), not a Latin ", ":
 * Japanese's 、, Arabic's و, German's und before the last. */
test('the details listed in the page\'s language', async () => {
	const cat = (l) => JSON.parse(readFileSync(new URL('../../htdocs/i18n/' + l + '.json', import.meta.url), 'utf8'));
	const store = memStore();
	globalThis.localStorage = store;
	const x = { transaction_type: 'void', punches_removed: 2, cashback_removed: 1, reason: 'typo' };
	try {
		for (const l of ['ja', 'ar', 'de']) useCatalog(l, cat(l));
		store.setItem('loyalty.lang', 'ja');
		assert.equal(await initI18n(null), 'ja');
		assert.equal(listText(['a', 'b', 'c']), 'a、b、c');
		let n = txDetailsNode(h, x, money);
		assert.equal(n.kids[0], '−スタンプ2個、キャッシュバック取り消し €1.00');
		assert.equal(n.kids[1].kids[0], '、理由: typo');
		store.setItem('loyalty.lang', 'ar');
		assert.equal(await initI18n(null), 'ar');
		n = txDetailsNode(h, x, money);
		assert.equal(n.kids[0], '−ختمان واسترداد نقدي مسحوب €1.00');
		assert.equal(n.kids[1].kids[0], ' والسبب: typo');
		store.setItem('loyalty.lang', 'de');
		assert.equal(await initI18n(null), 'de');
		assert.equal(listText(['a', 'b', 'c']), 'a, b und c');
		assert.equal(reasonNode(h, 'x', true).kids[0], ' und Grund: x');
	} finally {
		store.setItem('loyalty.lang', 'en');
		await initI18n(null);
	}
	assert.equal(listText(['a', 'b', 'c']), 'a, b, c');
});

test('shortRef: the id\'s random end, so sales of one minute differ', () => {
	/* two UUIDv7 of the same millisecond: the same first 8 digits */
	const a = '01a2233b-4c5d-7e6f-8a9b-0c1d2e3f4a5b', b = '01a2233b-4c5d-7f00-9123-456789abcdef';
	assert.equal(shortRef(a), '2e3f4a5b');
	assert.equal(shortRef(b), '89abcdef');
	assert.notEqual(shortRef(a), shortRef(b));
	assert.equal(shortRef(''), '—');
	assert.equal(shortRef(null), '—');
	assert.equal(shortRef(undefined), '—');
});
