import test from 'node:test';
import assert from 'node:assert/strict';
import {
	parseMoney, formatMoney, formatMinor, toCents, toMinor, centsStr, minorStr,
	MAX_MONEY_CENTS, MAX_MONEY_MINOR, setShopFormat, decimals, amountExample, amountLimit
} from '../../htdocs/js/money.js';
import { initI18n, useCatalog, LANGS } from '../../htdocs/js/i18n.js';
import { LIMITS } from '../../htdocs/js/server-tables.js';
import { memStore } from './helpers.mjs';

/* The page's language without a page: the switch's choice, the catalogs
 * given (no fetch). */
for (const l of LANGS) useCatalog(l, {});
const store = memStore();
globalThis.localStorage = store;
async function inLang(l) {
	store.setItem('loyalty.lang', l);
	assert.equal(await initI18n(null), l);
}
const shop = (currency, currency_decimals, currency_symbol = '') =>
	setShopFormat({ currency, currency_decimals, currency_symbol });
const NB = '\u00a0';

test('parseMoney reads what a cashier types, in cents', () => {
	shop(null, 2);
	assert.deepEqual(parseMoney('12.50'), { value: 12.5, minor: 1250, cents: 1250 });
	assert.deepEqual(parseMoney('12,5'), { value: 12.5, minor: 1250, cents: 1250 });
	assert.deepEqual(parseMoney(' .5 '), { value: 0.5, minor: 50, cents: 50 });
	assert.deepEqual(parseMoney('0'), { value: 0, minor: 0, cents: 0 });
	assert.deepEqual(parseMoney('1000000'), { value: 1000000, minor: MAX_MONEY_CENTS, cents: MAX_MONEY_CENTS });
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
	assert.equal(parseMoney('1,234.50'), null, 'grouping is refused, not guessed');
	assert.equal(parseMoney('12.50', 1000), null, 'over the max given');
});

test('the limit is the server\'s, in minor units', () => {
	assert.equal(MAX_MONEY_MINOR, LIMITS.MONEY_MAX !== undefined ? LIMITS.MONEY_MAX : LIMITS.MONEY_MAX_CENTS);
	assert.equal(MAX_MONEY_MINOR, 100000000);
	assert.equal(MAX_MONEY_CENTS, MAX_MONEY_MINOR);
});

test('a 0-decimal currency takes whole numbers only, up to 100,000,000', () => {
	shop('JPY', 0);
	assert.equal(decimals(), 0);
	assert.deepEqual(parseMoney('1500'), { value: 1500, minor: 1500, cents: 1500 });
	assert.deepEqual(parseMoney('100000000'), { value: 100000000, minor: 100000000, cents: 100000000 });
	assert.equal(parseMoney('100000001'), null);
	assert.equal(parseMoney('1500.5'), null);
	assert.equal(parseMoney('1500.0'), null);
	assert.equal(parseMoney('1500,'), null);
	assert.equal(parseMoney('.5'), null);
	assert.equal(parseMoney('2000000').value, 2000000, 'a 2,000,000 yen month');
});

test('a 3-decimal currency takes fils: "1.250" is 1250', () => {
	shop('KWD', 3);
	assert.deepEqual(parseMoney('1.250'), { value: 1.25, minor: 1250, cents: 1250 });
	assert.deepEqual(parseMoney('1,250'), { value: 1.25, minor: 1250, cents: 1250 });
	assert.deepEqual(parseMoney('0.005'), { value: 0.005, minor: 5, cents: 5 });
	assert.deepEqual(parseMoney('1.5'), { value: 1.5, minor: 1500, cents: 1500 });
	assert.deepEqual(parseMoney('100000'), { value: 100000, minor: 100000000, cents: 100000000 });
	assert.equal(parseMoney('100000.001'), null);
	assert.equal(parseMoney('1.2505'), null);
	/* the decimals can be given, whatever the shop's */
	assert.equal(parseMoney('1.25', undefined, 2).minor, 125);
	assert.equal(parseMoney('1.25', undefined, 0), null);
});

test('parseMoney takes the locale\'s decimal separator and Arabic-Indic digits', async () => {
	shop('KWD', 3);
	await inLang('ar');
	assert.equal(parseMoney('١٢٫٥٠٠').minor, 12500);
	assert.equal(parseMoney('۱۲.۵').minor, 12500, 'Persian digits as well');
	assert.equal(parseMoney('12.5').minor, 12500, 'and Latin, always');
	await inLang('de');
	shop('EUR', 2);
	assert.equal(parseMoney('12,50').minor, 1250);
	assert.equal(parseMoney('12.50').minor, 1250);
	await inLang('en');
});

test('a whole number grouped as the locale groups it, when it cannot be the decimals', async () => {
	const m = (str) => { const p = parseMoney(str); return p ? p.minor : null; };
	for (const l of ['en', 'ja', 'ar']) {
		await inLang(l);
		shop('JPY', 0);
		assert.equal(m('1,500'), 1500, l + ': the page prints ￥1,500');
		assert.equal(m('100,000,000'), 100000000, l);
		assert.equal(m('100,000,001'), null, l + ': over the limit');
		assert.equal(m('1,50'), null, l + ': not groups of three');
		assert.equal(m('1,5000'), null, l);
		assert.equal(m('1500'), 1500, l);
		shop('EUR', 2);
		assert.equal(m('1,500'), 150000, l + ': 3 decimals cannot be cents');
		assert.equal(m('1,000,000'), 100000000, l);
		assert.equal(m('1,50'), 150, l + ': a decimal comma, as before');
		assert.equal(m('1.500'), null, l + ': "." is no group here');
		assert.equal(m('1,234.50'), null, l + ': mixed is refused, not guessed');
		shop('KWD', 3);
		assert.equal(m('1,500'), 1500, l + ': 1.500 dinars, a decimal');
		assert.equal(m('1.500'), 1500, l);
		assert.equal(m('12,345,000'), null, l + ': 12,345,000 dinars, over the limit');
		assert.equal(m('1,000'), 1000, l + ': one dinar');
	}
	await inLang('ar');
	shop('JPY', 0);
	assert.equal(m('١٬٥٠٠'), 1500, 'the Arabic group separator with Arabic-Indic digits');
	await inLang('de');
	shop('EUR', 2);
	assert.equal(m('1.500'), 150000, 'de: 1.500 €');
	assert.equal(m('1.000.000'), 100000000);
	assert.equal(m('1.000.001'), null, 'over the limit');
	assert.equal(m('1,500'), null, 'de: "," is the decimal, 3 decimals refused');
	assert.equal(m('1,50'), 150);
	assert.equal(m('1.50'), 150, 'a decimal dot, as before');
	shop('JPY', 0);
	assert.equal(m('1.500'), 1500, 'de: 1.500 ¥');
	assert.equal(m('1,500'), null);
	shop('KWD', 3);
	assert.equal(m('1.500'), 1500, 'de: 1,500 KWD, the decimal reading');
	assert.equal(m('1,500'), 1500);
	assert.equal(m('1.000.000'), null, 'a million dinars, over the limit');
	await inLang('en');
});

test('the hint\'s example and limit are in the page\'s language and the currency\'s decimals', async () => {
	const cases = { en: ['12.50', '1,000,000.00', '1500', '100,000,000', '12.500', '100,000.000'],
		de: ['12,50', '1.000.000,00', '1500', '100.000.000', '12,500', '100.000,000'],
		ja: ['12.50', '1,000,000.00', '1500', '100,000,000', '12.500', '100,000.000'],
		ar: ['12.50', '1,000,000.00', '1500', '100,000,000', '12.500', '100,000.000'] };
	for (const [l, want] of Object.entries(cases)) {
		await inLang(l);
		const got = [];
		for (const [cur, d] of [['EUR', 2], ['JPY', 0], ['KWD', 3]]) {
			shop(cur, d);
			got.push(amountExample(), amountLimit());
			/* what the hint says is taken */
			assert.equal(parseMoney(amountExample()).minor, d ? 1250 * 10 ** (d - 2) : 1500, l + ' ' + cur);
		}
		assert.deepEqual(got.map((x) => x.replace(/[\u200e\u200f\u061c]/g, '')), want, l);
	}
	await inLang('en');
});

test('minor units of server amounts and field text, by the decimals', () => {
	shop(null, 2);
	assert.equal(toCents(0.29), 29);
	assert.equal(toCents(1234.56), 123456);
	assert.equal(toCents('1'), 0);
	assert.equal(centsStr(1250), '12.50');
	assert.equal(centsStr(5), '0.05');
	assert.equal(centsStr(-5), '-0.05');
	shop('JPY', 0);
	assert.equal(toMinor(1500), 1500);
	assert.equal(toCents(1500), 1500, 'the old name follows the shop');
	assert.equal(minorStr(1500), '1500');
	assert.equal(centsStr(-1500), '-1500');
	shop('KWD', 3);
	assert.equal(toMinor(1.25), 1250);
	assert.equal(toMinor(0.001), 1);
	assert.equal(toMinor(1234.567), 1234567);
	assert.equal(minorStr(1250), '1.250');
	assert.equal(minorStr(5), '0.005');
	assert.equal(minorStr(-5), '-0.005');
	assert.equal(toMinor(1.25, 2), 125);
	assert.equal(minorStr(125, 2), '1.25');
	/* every field text reads back as the same amount */
	for (const d of [0, 2, 3]) {
		shop(null, d);
		for (const c of [0, 1, 9, 10, 99, 100, 101, 12345, 100000000])
			assert.equal(parseMoney(minorStr(c)).minor, c, d + ' decimals, ' + c);
	}
});

test('formatMoney puts the shop symbol before the number', async () => {
	await inLang('en');
	shop(null, 2);
	const n = formatMoney(1234.5, '');
	assert.equal(n, '1,234.50');
	assert.equal(formatMoney(4.2, '€'), '€' + formatMoney(4.2, ''));
	assert.equal(formatMoney(4.2, 'CHF'), 'CHF\u00a0' + formatMoney(4.2, ''));
	assert.equal(formatMoney(-4.2, '$'), '-$' + formatMoney(4.2, ''));
	assert.equal(formatMoney(undefined, '€'), '—');
	assert.equal(formatMoney(NaN, '€'), '—');
});

test('formatMoney writes exactly the currency\'s decimals, its own symbol when the shop set none', async () => {
	await inLang('en');
	shop('JPY', 0);
	assert.equal(formatMoney(1500), '¥1,500');
	assert.equal(formatMoney(2000000), '¥2,000,000');
	assert.equal(formatMinor(1500), '¥1,500');
	shop('KWD', 3);
	assert.equal(formatMoney(1.25), 'KWD' + NB + '1.250');
	assert.equal(formatMinor(5), 'KWD' + NB + '0.005');
	shop('EUR', 2);
	assert.equal(formatMoney(12.5), '€12.50');
	assert.equal(formatMinor(1250), '€12.50');
	shop(null, 2);
	assert.equal(formatMoney(12.5), '12.50', 'an unnamed currency: the number');
	assert.equal(formatMinor(undefined), '—');
});

test('the shop\'s symbol replaces the currency\'s own, where the language puts a symbol', async () => {
	await inLang('en');
	shop('KWD', 3, 'KD');
	assert.equal(formatMoney(1.25), 'KD' + NB + '1.250');
	assert.equal(formatMoney(1.25, 'د.ك'), 'د.ك' + NB + '1.250', 'given, it wins');
	shop('JPY', 0, '円');
	assert.equal(formatMoney(1500), '円' + NB + '1,500');
	shop(null, 2, '€');
	assert.equal(formatMoney(12.5), '€12.50', 'the setting, when no symbol is passed');
	assert.equal(formatMoney(12.5, ''), '12.50', '"" passed: none for an unnamed currency');
	shop('USD', 2, '');
	assert.equal(formatMoney(12.5, ''), '$12.50', '"" passed: the currency\'s own');
	await inLang('de');
	shop(null, 2, '€');
	assert.equal(formatMoney(-1234.5), '-1.234,50' + NB + '€');
	assert.equal(formatMoney(1234.5, 'CHF'), '1.234,50' + NB + 'CHF');
	shop('JPY', 0);
	assert.equal(formatMoney(1500), '1.500' + NB + '¥');
	await inLang('fr');
	shop('EUR', 2);
	assert.match(formatMoney(1234.5), /^1[\u202f\u00a0]234,50[\u202f\u00a0]€$/);
	await inLang('ja');
	shop('JPY', 0);
	assert.equal(formatMoney(1500), '￥1,500');
	shop('JPY', 0, '円');
	assert.equal(formatMoney(1500), '円' + NB + '1,500');
	await inLang('en');
});

test('Arabic pages show amounts in Latin digits, the symbol after the number', async () => {
	await inLang('ar');
	shop('KWD', 3);
	const s = formatMoney(1234.5);
	assert.match(s, /1,234\.500/);
	assert.doesNotMatch(s, /[\u0660-\u0669\u06f0-\u06f9]/);
	assert.match(s, /1,234\.500\u00a0د\.ك\./);
	shop(null, 2, '€');
	assert.match(formatMoney(12.5), /12\.50\u00a0€$/);
	shop('JPY', 0);
	assert.doesNotMatch(formatMoney(1500), /[\u0660-\u0669]/);
	await inLang('en');
});
