/* Unit tests of expiryLine (htdocs/js/progress.js): the cashback a card
 * loses next, in one line for the till and the customer's page. Every
 * date here is noon UTC: the same day in any time zone from UTC-11 to
 * UTC+11, so the tests hold wherever they run. */
import test from 'node:test';
import assert from 'node:assert/strict';
import './en-catalog.mjs';
import { expiryLine } from '../../htdocs/js/progress.js';

const EN = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(1234.5) === '1,234.50';
const en = { skip: EN ? false : 'needs an English number locale (run with LC_ALL=C.UTF-8)' };
const now = Date.parse('2026-11-22T12:00:00Z');
const card = (amount, at) => ({ card_type: 'cashback', status: 'active',
	balance: { cashback_balance: 5 }, next_expiry_amount: amount, next_expiry_at: at });

test('the amount and the day it expires', en, () => {
	assert.equal(expiryLine(card(2.4, '2026-12-03T12:00:00.000Z'), '€', now), '€2.40 expires on 3 Dec');
	assert.equal(expiryLine(card(0.05, '2026-11-23T12:00:00.000Z'), '', now), '0.05 expires on 23 Nov');
});

test('the year when it is not this one', en, () => {
	assert.equal(expiryLine(card(12, '2027-01-15T12:00:00.000Z'), '€', now), '€12.00 expires on 15 Jan 2027');
});

test('nothing to say: no expiry, a punch card, junk', () => {
	assert.equal(expiryLine(card(null, null), '€', now), '');
	assert.equal(expiryLine(card(0, '2026-12-03T12:00:00.000Z'), '€', now), '');
	assert.equal(expiryLine(card(1, 'soon'), '€', now), '');
	assert.equal(expiryLine(card('1', '2026-12-03T12:00:00.000Z'), '€', now), '');
	assert.equal(expiryLine({ card_type: 'punch', next_expiry_amount: 1, next_expiry_at: '2026-12-03T12:00:00.000Z' }, '€', now), '');
	assert.equal(expiryLine(null, '€', now), '');
});
