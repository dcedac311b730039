/* The audit trail's money fields read as words in every language: each
 * amount the server writes into an audit row (lib/audit.c: a
 * transaction's, a card's balances, a program's reward) is in the back
 * office's field list (htdocs/owner/audit.js FIELDS, else it shows as
 * its English name made readable, "Redeemed amount" in a Japanese page),
 * is shown as money (its MONEY_FIELD), and has its word in every
 * catalog. Read from the sources: audit.js imports the DOM. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LANGS } from '../../htdocs/js/i18n.js';

const src = (f) => readFileSync(new URL('../../' + f, import.meta.url), 'utf8');
const audit = src('htdocs/owner/audit.js');
const fields = JSON.parse(audit.match(/const FIELDS = \[([^\]]*)\]/)[1].replace(/'/g, '"').replace(/^/, '[').replace(/$/, ']'));
const moneyRe = new RegExp(audit.match(/const MONEY_FIELD = \/(.*)\/;/)[1]);

/* lib/audit.c's amounts: purchase_amount and txn_field(..., cur). */
const c = src('lib/audit.c');
const fromC = [...c.matchAll(/txn_field\(dom, t, "([a-z_]+)", [^;]*, cur\)/g)].map((m) => m[1]);
if (/"purchase_amount"/.test(c)) fromC.push('purchase_amount');
/* A card's balances and a program's reward (snapshots of their API
 * shapes, whose names these are). */
const MONEY = [...fromC, 'cashback_balance', 'lifetime_spend', 'lifetime_cashback', 'reward_amount'];

test('lib/audit.c writes the amounts this test knows of', () => {
	assert.ok(fromC.includes('redeemed_amount') && fromC.includes('cashback_earned'), fromC.join(' '));
});

test('every money field of an audit row is in the field list and shown as money', () => {
	for (const k of MONEY) {
		assert.ok(fields.includes(k), k + ' is not in owner/audit.js FIELDS');
		assert.ok(moneyRe.test(k), k + ' is not matched by MONEY_FIELD');
	}
});

test('every money field of an audit row has its word in every catalog', () => {
	for (const l of LANGS) {
		const cat = JSON.parse(src('htdocs/i18n/' + l + '.json'));
		for (const k of MONEY) assert.ok(typeof cat['owner.audit.js.field.' + k] === 'string', l + ' lacks owner.audit.js.field.' + k);
	}
});
