/* The catalogs (htdocs/i18n/<lang>.json) held honest: every language has
 * exactly English's keys, each plural every category its language has,
 * each translation English's placeholders, no empty text, no markup; the
 * files sorted, one key a line (so merges are line unions); and the keys
 * the pages use are English's, none missing, none orphaned.
 *
 * Which keys the pages use, read from htdocs/**\/*.{js,html}:
 *  - t('key') and hasText('key') (under the names a file imports them by
 *    from js/i18n.js), data-i18n="key", data-i18n-attr="attr:key;…" (in
 *    HTML, or in JS as 'data-i18n': 'key', setAttribute('data-i18n', 'key'),
 *    dataset.i18n = 'key');
 *  - a quoted string equal to a key, in a file that imports js/i18n.js (a
 *    key handed to a helper or kept in a table: { title: 'owner.x' });
 *  - a key built from parts must be listed in a comment
 *    "i18n-keys: key1 key2" (one or more lines, each with the marker),
 *    unless its prefix is one of KNOWN below, whose suffixes are a table
 *    the test knows (error.<CODE>: the server's codes);
 *  - t('prefix.' + x), or 'prefix.' + x anywhere in a file that imports
 *    js/i18n.js (a key made first, handed to t later: js/errors.js's
 *    'error.' + code): a prefix not KNOWN and with no listed key under it
 *    fails (the keys it may build are not written down anywhere).
 * A key in en.json used by none of these is an orphan: it fails. */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { LANGS } from '../../htdocs/js/i18n.js';
import { ERRORS } from '../../htdocs/js/server-tables.js';

const htdocs = new URL('../../htdocs/', import.meta.url);
const read = (f) => readFileSync(new URL(f, htdocs), 'utf8');

/* Prefixes whose keys a page builds, and the suffixes each may take. */
export const KNOWN = { 'error.': Object.keys(ERRORS) };

const catalog = {};
for (const l of LANGS) catalog[l] = JSON.parse(read('i18n/' + l + '.json'));
const en = catalog.en;
const keys = Object.keys(en);
const isPlural = (v) => v !== null && typeof v === 'object';
const categories = (l) => new Intl.PluralRules(l).resolvedOptions().pluralCategories;
const holes = (s) => (s.match(/\{[^{}]*\}/g) || []).sort();
/* Whether a plural category of a language covers one count only: the
 * whole numbers up to 1000 and some large ones, as counts are. */
const COUNTS = [...Array(1001).keys(), 1e4, 1e5, 1e6, 2e6, 1e7, 1e9];
export const singleNumber = (l, c) => {
	const r = new Intl.PluralRules(l);
	return COUNTS.filter((n) => r.select(n) === c).length === 1;
};
const texts = (v) => (isPlural(v) ? Object.values(v) : [v]);

test('every catalog is sorted, one key a line, no key twice', () => {
	for (const l of LANGS) {
		const lines = read('i18n/' + l + '.json').split('\n');
		assert.equal(lines[0], '{', l + ': the first line is {');
		while (lines.length && lines[lines.length - 1] === '') lines.pop();
		assert.equal(lines[lines.length - 1], '}', l + ': the last line is }');
		const body = lines.slice(1, -1);
		let prev = '';
		body.forEach((line, i) => {
			const m = /^("(?:[^"\\]|\\.)*"): (.*?)(,?)$/.exec(line);
			assert.ok(m, l + '.json line ' + (i + 2) + ' is not "key": text: ' + line);
			assert.equal(m[3], i === body.length - 1 ? '' : ',', l + '.json line ' + (i + 2) + ': a comma after all but the last');
			const k = JSON.parse(m[1]);
			JSON.parse(m[2]);
			assert.ok(k > prev, l + '.json: ' + k + (k === prev ? ' twice' : ' is not after ' + prev + ' (sort by key)'));
			prev = k;
		});
		assert.equal(body.length, Object.keys(catalog[l]).length);
	}
});

test('every catalog has exactly English\'s keys', () => {
	/* every language's differences at once: the whole list to fix */
	const wrong = {};
	for (const l of LANGS) {
		const missing = keys.filter((k) => !Object.hasOwn(catalog[l], k));
		const extra = Object.keys(catalog[l]).filter((k) => !Object.hasOwn(en, k));
		if (missing.length) wrong[l + ' lacks'] = missing;
		if (extra.length) wrong[l + ' has, en.json not'] = extra;
	}
	assert.deepEqual(wrong, {});
});

/* The pages' areas (setup. the back office's first run), and the shared modules'
 * own: api. and http. (js/api.js, js/http-warning.js), money. and date. (js/money.js,
 * js/dates.js), progress. and cardtype. (js/progress.js, js/cardtypes.js: the
 * till's and the card page's sentences of a card, written once). */
test('keys name their area', () => {
	for (const k of keys)
		assert.match(k, /^(common|till|owner|card|print|error|money|date|api|http|progress|cardtype|setup)\.[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/, k);
});

test('every plural has each category of its language, no other', () => {
	for (const l of LANGS) {
		const want = [...categories(l)].sort();
		for (const k of keys) {
			const v = catalog[l][k];
			if (v === undefined) continue;
			assert.equal(isPlural(v), isPlural(en[k]), l + ' ' + k + (isPlural(en[k]) ? ' must be a plural, as in English' : ' must be a text, as in English'));
			if (!isPlural(v)) continue;
			assert.deepEqual(Object.keys(v).sort(), want, l + ' ' + k + ': the categories of Intl.PluralRules(' + l + ')');
		}
	}
});

test('every translation has English\'s placeholders, no other', () => {
	for (const l of LANGS) {
		for (const k of keys) {
			const v = catalog[l][k], e = en[k];
			if (v === undefined || isPlural(v) !== isPlural(e)) continue;
			if (!isPlural(v)) {
				assert.deepEqual(holes(v), holes(e), l + ' ' + k + ': ' + JSON.stringify(v));
				continue;
			}
			/* Every category says all that English's 'other' says; but
			 * one that only ever covers one number (Arabic's zero, one,
			 * two; English's one) may say the number in words, without
			 * {n} (params.n, which chooses the category): "بطاقتان". */
			const all = new Set(Object.values(e).flatMap(holes));
			for (const [c, s] of Object.entries(v)) {
				const got = new Set(holes(s));
				for (const h of new Set(holes(e.other)))
					if (!(h === '{n}' && singleNumber(l, c)))
						assert.ok(got.has(h), l + ' ' + k + '.' + c + ' lacks ' + h + ': ' + JSON.stringify(s));
				for (const h of got) assert.ok(all.has(h), l + ' ' + k + '.' + c + ': ' + h + ' is not a placeholder of English');
			}
		}
	}
});

test('no text is empty, none holds markup or a stray brace', () => {
	for (const l of LANGS) {
		for (const [k, v] of Object.entries(catalog[l])) {
			for (const s of texts(v)) {
				assert.equal(typeof s, 'string', l + ' ' + k);
				assert.ok(s.trim() !== '', l + ' ' + k + ' is empty');
				assert.doesNotMatch(s, /<[A-Za-z/!]|&(#\d+|#x[0-9a-f]+|[A-Za-z]+);/i, l + ' ' + k + ' holds markup: ' + s);
				assert.doesNotMatch(s.replace(/\{[A-Za-z0-9_]+\}/g, ''), /[{}]/, l + ' ' + k + ': a brace that is no placeholder: ' + s);
			}
		}
	}
});

/* The pages' files: htdocs/**, but not the libraries of others. */
function pageFiles(dir = '', out = []) {
	for (const f of readdirSync(new URL(dir || '.', htdocs))) {
		const p = dir + f;
		if (p === 'vendor' || p === 'i18n') continue;
		if (statSync(new URL(p, htdocs)).isDirectory()) pageFiles(p + '/', out);
		else if (/\.(js|mjs|html)$/.test(f)) out.push(p);
	}
	return out;
}

const KEY = /[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+/g;

/* What one file uses: keys for certain, keys listed, quoted strings, and
 * the prefixes of keys built from parts. */
export function usesOf(text, isJs, self = false) {
	const used = new Set(), listed = new Set(), quoted = new Set(), prefixes = new Set();
	const attrKeys = (v) => v.split(';').map((p) => p.slice(p.indexOf(':') + 1).trim()).filter(Boolean);
	for (const m of text.matchAll(/i18n-keys:([^\n]*)/g))
		for (const k of m[1].replace(/\*\/.*|-->.*/, '').matchAll(KEY)) listed.add(k[0]);
	/* js/i18n.js itself: its own t() calls only (its comments show the
	 * markup with made-up keys) */
	if (self) text = text.replace(/\/\*[\s\S]*?\*\//g, '');
	for (const m of text.matchAll(/data-i18n\s*=\s*"([^"]*)"/g)) used.add(m[1].trim());
	for (const m of text.matchAll(/data-i18n-attr\s*=\s*"([^"]*)"/g)) attrKeys(m[1]).forEach((k) => used.add(k));
	if (!isJs) return { used, listed, quoted, prefixes };
	/* the names t and hasText are imported by */
	const names = self ? ['t'] : [];
	for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"][^'"]*\/i18n\.js['"]/g))
		for (const spec of m[1].split(',')) {
			const [a, b] = spec.trim().split(/\s+as\s+/);
			if (a === 't' || a === 'hasText') names.push(b || a);
		}
	const q = `(['"\`])`;
	for (const n of names) {
		const call = '(?<![\\w$.])' + n.replace(/\$/g, '\\$') + '\\(\\s*';
		for (const m of text.matchAll(new RegExp(call + q + '([^\'"`$]*?)\\1\\s*[,)]', 'g'))) used.add(m[2]);
		for (const m of text.matchAll(new RegExp(call + q + '([^\'"`$]*?)\\1\\s*\\+', 'g'))) prefixes.add(m[2]);
		for (const m of text.matchAll(new RegExp(call + '`([^`$]*)\\$\\{', 'g'))) prefixes.add(m[1]);
	}
	/* a key's start kept apart: sentenceKey = (code) => 'error.' + code */
	if (names.length || /from\s*['"][^'"]*\/i18n\.js['"]/.test(text))
		for (const m of text.matchAll(/(['"`])([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*\.)\1\s*\+/g)) prefixes.add(m[2]);
	for (const m of text.matchAll(/['"]data-i18n['"]\s*[:,]\s*['"]([^'"]+)['"]|dataset\.i18n\s*=\s*['"]([^'"]+)['"]/g)) used.add(m[1] || m[2]);
	for (const m of text.matchAll(/['"]data-i18n-attr['"]\s*[:,]\s*['"]([^'"]+)['"]|dataset\.i18nAttr\s*=\s*['"]([^'"]+)['"]/g)) attrKeys(m[1] || m[2]).forEach((k) => used.add(k));
	if (names.length || /from\s*['"][^'"]*\/i18n\.js['"]/.test(text))
		for (const m of text.matchAll(/(['"])([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)+)\1/g)) quoted.add(m[2]);
	return { used, listed, quoted, prefixes };
}

function allUses() {
	const u = { used: new Map(), listed: new Map(), quoted: new Set(), prefixes: new Map() };
	for (const f of pageFiles()) {
		const r = usesOf(read(f), !f.endsWith('.html'), f === 'js/i18n.js');
		for (const k of r.used) u.used.set(k, f);
		for (const k of r.listed) u.listed.set(k, f);
		for (const k of r.quoted) u.quoted.add(k);
		for (const p of r.prefixes) u.prefixes.set(p, f);
	}
	return u;
}

test('every key a page uses or lists is in en.json', () => {
	const u = allUses();
	const missing = [];
	for (const m of [u.used, u.listed])
		for (const [k, f] of m) if (!Object.hasOwn(en, k)) missing.push(k + ' (' + f + ')');
	assert.deepEqual(missing, [], 'keys the pages use that en.json lacks');
});

test('every key built from parts has its possible keys written down', () => {
	const u = allUses();
	for (const [p, f] of u.prefixes) {
		const ok = Object.hasOwn(KNOWN, p) || [...u.listed.keys()].some((k) => k.startsWith(p));
		assert.ok(ok, f + ' builds keys t(\'' + p + '\' + …): list them in an "i18n-keys:" comment');
	}
	/* a known prefix's table, in full: a sentence for every error code */
	for (const [p, suffixes] of Object.entries(KNOWN)) {
		if (!u.prefixes.has(p)) continue;
		const missing = suffixes.filter((s) => !Object.hasOwn(en, p + s));
		assert.deepEqual(missing, [], 'en.json lacks ' + p + '<these>, which a page builds');
	}
});

test('every key of en.json is used by a page', () => {
	const u = allUses();
	const used = (k) => u.used.has(k) || u.listed.has(k) || u.quoted.has(k) ||
		Object.entries(KNOWN).some(([p, s]) => u.prefixes.has(p) && k.startsWith(p) && s.includes(k.slice(p.length)));
	assert.deepEqual(keys.filter((k) => !used(k)), [], 'keys of en.json no page uses (or lists in an i18n-keys: comment)');
});

/* The reading of uses itself, on made-up files: it finds what it must,
 * so an orphan or a missing key cannot slip past it. */
test('the reading of uses finds calls, attributes, lists, prefixes', () => {
	const js = `import { t as tr, hasText } from '../js/i18n.js';
		tr('till.a'); tr("till.b", { n }); hasText(\`till.c\`);
		h('p', { 'data-i18n': 'till.d', 'data-i18n-attr': 'title:till.e;aria-label:till.f' });
		el.setAttribute('data-i18n', 'till.g'); el.dataset.i18n = 'till.h';
		/* i18n-keys: till.kind.cashback till.kind.punch */
		// i18n-keys: till.kind.tier
		tr('till.kind.' + type); tr(\`owner.x.\${y}\`); tr(name);
		const table = { a: 'till.i' }; const f = 'card.js'; const k = 'till.made.' + x; const d = '12.' + x;
		t('not.t.here'); attempt('not.this'); x.tr('nor.this');`;
	const r = usesOf(js, true);
	assert.deepEqual([...r.used].sort(), ['till.a', 'till.b', 'till.c', 'till.d', 'till.e', 'till.f', 'till.g', 'till.h']);
	assert.deepEqual([...r.listed].sort(), ['till.kind.cashback', 'till.kind.punch', 'till.kind.tier']);
	assert.deepEqual([...r.prefixes].sort(), ['owner.x.', 'till.kind.', 'till.made.']);
	assert.ok(r.quoted.has('till.i'));
	assert.ok(!r.used.has('not.t.here') && !r.used.has('not.this') && !r.used.has('nor.this'));
	const html = '<h1 data-i18n="owner.title">Back office</h1><input data-i18n-attr="placeholder:owner.search">' +
		'<!-- i18n-keys: owner.hidden -->';
	const h = usesOf(html, false);
	assert.deepEqual([...h.used].sort(), ['owner.search', 'owner.title']);
	assert.deepEqual([...h.listed], ['owner.hidden']);
	assert.equal(usesOf("const x = 'till.z';", true).quoted.size, 0, 'a file without i18n.js: no key by quoting');
});

/* A till or a card page opened offline in any language: both workers
 * keep every catalog (tests/js/sw-cache.test.mjs checks the modules). */
test('both service workers keep every language\'s catalog and js/i18n.js', () => {
	for (const w of ['sw.js', 'card-sw.js']) {
		const text = read(w);
		for (const f of [...LANGS.map((l) => 'i18n/' + l + '.json'), 'js/i18n.js', 'js/dates.js'])
			assert.ok(text.includes("'" + f + "'"), w + ' does not keep ' + f);
	}
});

test('the pages\' names are translated, the till\'s as the back office\'s', () => {
	for (const l of LANGS) {
		if (l === 'en') continue;
		for (const k of ['owner.brand', 'till.brand', 'till.doc_title'])
			assert.ok(!/Loyalty|POS/.test(catalog[l][k]) && catalog[l][k] !== en[k], l + ' ' + k + ': ' + catalog[l][k]);
	}
});
