import test from 'node:test';
import assert from 'node:assert/strict';
import { catalog } from './en-catalog.mjs';
import { readFileSync, readdirSync } from 'node:fs';
import { ERRORS } from '../../htdocs/js/server-tables.js';
import { sentence, sentenceKey, isServerCode, statusOf } from '../../htdocs/js/errors.js';
import { LANGS, useCatalog } from '../../htdocs/js/i18n.js';

const htdocs = new URL('../../htdocs/', import.meta.url);
const src = (f) => readFileSync(new URL(f, htdocs), 'utf8');
const errorKeys = (c) => Object.keys(c).filter((k) => k.startsWith('error.'));

test('every error sentence of a catalog is for a code the server sends', () => {
	for (const lang of LANGS)
		for (const key of errorKeys(catalog(lang)))
			assert.ok(Object.hasOwn(ERRORS, key.slice('error.'.length)), lang + '.json has ' + key + ', a code lib/err.c does not have');
});

test('every code the server sends has a sentence in every language', () => {
	for (const lang of LANGS) {
		const c = catalog(lang);
		for (const code of Object.keys(ERRORS))
			assert.ok(typeof c[sentenceKey(code)] === 'string' && c[sentenceKey(code)].length > 0, code + ' has no sentence in i18n/' + lang + '.json');
	}
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
	assert.equal(sentence('CARD_NOT_FOUND', 'x'), 'No card with this number or code.');
	assert.equal(sentence('ACCOUNT_LOCKED', 'locked'), 'locked');
	assert.equal(sentence('HTTP_418'), 'The server refused it.');
	assert.equal(sentence('toString'), 'The server refused it.');
	assert.ok(isServerCode('DATABASE_ERROR') && !isServerCode('toString'));
	assert.equal(statusOf('CARD_NOT_FOUND'), 404);
	assert.equal(statusOf('NOPE'), null);
});

test('the sentence is the page\'s language\'s', async () => {
	const { initI18n } = await import('../../htdocs/js/i18n.js');
	useCatalog('de', catalog('de'));
	/* The browser's preference, as a page's start picks it. */
	const nav = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
	Object.defineProperty(globalThis, 'navigator', { value: { languages: ['de-AT'] }, configurable: true });
	try {
		assert.equal(await initI18n(), 'de');
		assert.equal(sentence('CARD_NOT_FOUND'), 'Keine Karte mit dieser Nummer oder diesem Code.');
		assert.equal(sentence('HTTP_418'), 'Der Server hat es abgelehnt.');
	} finally {
		if (nav) Object.defineProperty(globalThis, 'navigator', nav);
		else delete globalThis.navigator;
		useCatalog('en', catalog('en'));
		await initI18n();
	}
});
