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

test('a number field bound by data-limit gets max, not maxlength', () => {
	const el = { type: 'number', dataset: { limit: 'ISSUE_MAX' }, attrs: {}, setAttribute(k, v) { this.attrs[k] = v; } };
	assert.equal(applyLimits(el), 1);
	assert.deepEqual(el.attrs, { max: String(LIMITS.ISSUE_MAX) });
});

/* The rows a page asks for, read from its source (the owner's modules
 * need a browser to import): each within the server's maximum, which
 * would otherwise answer the page with a VALIDATION_ERROR. */
test('the pages ask for pages of rows within the server\'s maxima', () => {
	const sizes = [
		['owner/state.js', 'CARDS_PAGE', 'CARDS_PAGE_MAX'],
		['owner/state.js', 'HIST_PAGE', 'HISTORY_PAGE_MAX'],
		['owner/state.js', 'TX_PAGE', 'TXN_PAGE_MAX'],
		['owner/audit.js', 'AUDIT_PAGE', 'AUDIT_PAGE_MAX'],
		['till/history.js', 'PAGE_SIZE', 'HISTORY_PAGE_MAX']
	];
	for (const [f, name, max] of sizes) {
		const m = page(f).match(new RegExp('const ' + name + ' = (\\d+);'));
		assert.ok(m, f + ' has no ' + name);
		const n = Number(m[1]);
		assert.ok(n >= 1 && n <= LIMITS[max], f + ': ' + name + ' = ' + n + ' is over ' + max + ' = ' + LIMITS[max]);
	}
	assert.doesNotMatch(page('owner.html'), /maxlength=|max="\d/, 'owner.html restates a limit by hand');
});
