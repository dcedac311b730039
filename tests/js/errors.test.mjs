import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { ERRORS } from '../../htdocs/js/server-tables.js';
import { SENTENCES, sentence, isServerCode, statusOf } from '../../htdocs/js/errors.js';

const htdocs = new URL('../../htdocs/', import.meta.url);
const src = (f) => readFileSync(new URL(f, htdocs), 'utf8');

test('every sentence is for a code the server sends', () => {
	for (const code of Object.keys(SENTENCES))
		assert.ok(Object.hasOwn(ERRORS, code), 'a sentence for ' + code + ', which lib/err.c does not have');
});

test('every code the server sends has a sentence', () => {
	for (const code of Object.keys(ERRORS))
		assert.ok(typeof SENTENCES[code] === 'string' && SENTENCES[code].length > 0, code + ' has no sentence in js/errors.js');
});

/* Codes a page compares with or lists ('CARD_NOT_FOUND' in quotes): each
 * one the server sends, so no page waits for a code that never comes
 * (as the till's ACCOUNT_LOCKED did). HTTP_ prefixes the client's own
 * codes for an answer without one. */
test('the codes the pages name are the server\'s', () => {
	const files = ['card.js', ...readdirSync(new URL('till/', htdocs)).filter((f) => f.endsWith('.js')).map((f) => 'till/' + f), ...readdirSync(new URL('owner/', htdocs)).filter((f) => f.endsWith('.js')).map((f) => 'owner/' + f), ...readdirSync(new URL('js/', htdocs)).filter((f) => f.endsWith('.js') && f !== 'server-tables.js' && f !== 'errors.js').map((f) => 'js/' + f)];
	for (const f of files) {
		/* 'CODE' in quotes, or CODE: as a key of a table of sentences. */
		for (const m of src(f).matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'|\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+):\s*'/g)) {
			m[1] = m[1] || m[2];
			if (m[1].startsWith('HTTP_')) continue;
			/* Constants of the pages' own, not codes. */
			if (!/_(ERROR|FOUND|INACTIVE|REWARDS|LARGE|LONG|TYPE|BALANCE|REQUIRED|INVALID|ACTIVE|LIMITED|VOIDED|VOIDABLE|UNAVAILABLE|ALLOWED|CREDENTIALS|LOCKED|DENIED|EXPIRED)$/.test(m[1])) continue;
			assert.ok(Object.hasOwn(ERRORS, m[1]), f + ' names ' + m[1] + ', which the server never sends');
		}
	}
});

test('sentence falls back to the message, then to a plain refusal', () => {
	assert.equal(sentence('CARD_NOT_FOUND', 'x'), SENTENCES.CARD_NOT_FOUND);
	assert.equal(sentence('ACCOUNT_LOCKED', 'locked'), 'locked');
	assert.equal(sentence('HTTP_418'), 'The server refused it.');
	assert.ok(isServerCode('DATABASE_ERROR') && !isServerCode('toString'));
	assert.equal(statusOf('CARD_NOT_FOUND'), 404);
	assert.equal(statusOf('NOPE'), null);
});
