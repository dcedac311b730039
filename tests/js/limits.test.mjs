import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { LIMITS, ERRORS } from '../../htdocs/js/server-tables.js';
import { applyLimits, limit } from '../../htdocs/js/limits.js';

const page = (f) => readFileSync(new URL('../../htdocs/' + f, import.meta.url), 'utf8');

test('the page tables are frozen and hold what the pages read', () => {
	assert.ok(Object.isFrozen(LIMITS) && Object.isFrozen(ERRORS));
	for (const k of ['NAME_MAX', 'NOTES_MAX', 'EMAIL_MAX', 'MONEY_MAX_CENTS', 'BATCH_MAX', 'TIERS_MAX', 'PASSWORD_MIN'])
		assert.ok(Number.isInteger(LIMITS[k]) && LIMITS[k] > 0, k);
	for (const [code, e] of Object.entries(ERRORS)) {
		assert.match(code, /^[A-Z_]+$/);
		assert.ok(e.status >= 400 && e.status < 600 && typeof e.message === 'string', code);
	}
	assert.equal(ERRORS.OK, undefined);
});

test('applyLimits sets maxlength from data-limit, and an unknown name throws', () => {
	const mk = (name) => ({ dataset: { limit: name }, attrs: {}, setAttribute(k, v) { this.attrs[k] = v; } });
	const a = mk('NOTES_MAX'), b = mk('NAME_MAX');
	const root = { querySelectorAll: (sel) => (assert.equal(sel, '[data-limit]'), [a, b]) };
	assert.equal(applyLimits(root), 2);
	assert.equal(a.attrs.maxlength, String(LIMITS.NOTES_MAX));
	assert.equal(b.attrs.maxlength, String(LIMITS.NAME_MAX));
	assert.throws(() => applyLimits({ querySelectorAll: () => [mk('NO_SUCH')] }), /no such limit/);
	assert.equal(limit('BATCH_MAX'), LIMITS.BATCH_MAX);
});

test('the pages bound fields by data-limit names the server has, not by numbers', () => {
	for (const f of ['index.html', 'card.html', 'owner.html']) {
		for (const m of page(f).matchAll(/data-limit="([^"]*)"/g))
			assert.ok(Object.hasOwn(LIMITS, m[1]), f + ': data-limit="' + m[1] + '"');
	}
	for (const f of ['index.html', 'card.html'])
		assert.doesNotMatch(page(f), /maxlength=/, f + ' restates a limit by hand');
});
