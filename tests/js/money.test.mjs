import test from 'node:test';
import assert from 'node:assert/strict';
import { parseMoney, formatMoney, toCents, centsStr, MAX_MONEY_CENTS } from '../../htdocs/js/money.js';

test('parseMoney reads what a cashier types, in cents', () => {
	assert.deepEqual(parseMoney('12.50'), { value: 12.5, cents: 1250 });
	assert.deepEqual(parseMoney('12,5'), { value: 12.5, cents: 1250 });
	assert.deepEqual(parseMoney(' .5 '), { value: 0.5, cents: 50 });
	assert.deepEqual(parseMoney('0'), { value: 0, cents: 0 });
	assert.deepEqual(parseMoney('1000000'), { value: 1000000, cents: MAX_MONEY_CENTS });
	/* 0.29 * 100 is 28.999999999999996 in floats: cents come from digits */
	assert.equal(parseMoney('0.29').cents, 29);
	assert.equal(parseMoney('1.005'), null);
	assert.equal(parseMoney('1000000.01'), null);
	assert.equal(parseMoney(''), null);
	assert.equal(parseMoney('4.5.0'), null);
	assert.equal(parseMoney('-1'), null);
	assert.equal(parseMoney('1e3'), null);
	assert.equal(parseMoney(null), null);
	assert.equal(parseMoney('3.202614433915442'), null);
});

test('cents of server amounts and field text', () => {
	assert.equal(toCents(0.29), 29);
	assert.equal(toCents(1234.56), 123456);
	assert.equal(toCents('1'), 0);
	assert.equal(centsStr(1250), '12.50');
	assert.equal(centsStr(5), '0.05');
	assert.equal(centsStr(-5), '-0.05');
});

test('formatMoney puts the shop symbol before the number', () => {
	const n = formatMoney(1234.5, '');
	assert.match(n, /^1.234.50$/);
	assert.equal(formatMoney(4.2, '€'), '€' + formatMoney(4.2, ''));
	assert.equal(formatMoney(4.2, 'CHF'), 'CHF\u00a0' + formatMoney(4.2, ''));
	assert.equal(formatMoney(-4.2, '$'), '-$' + formatMoney(4.2, ''));
	assert.equal(formatMoney(undefined, '€'), '—');
	assert.equal(formatMoney(NaN, '€'), '—');
});
