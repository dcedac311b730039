import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const htdocs = new URL('../../htdocs/', import.meta.url);
const src = (f) => readFileSync(new URL(f, htdocs), 'utf8');

/* A worker of scope base run in a fake ServiceWorkerGlobalScope: its
 * listeners and what lcCacheFiles returned. */
function worker(file, base) {
	const listeners = {};
	let made = null;
	const self = { location: { href: base + file }, addEventListener: (t, fn) => { listeners[t] = fn; } };
	const ctx = vm.createContext({ self, URL, Request: class {}, caches: {}, fetch: () => {}, setTimeout, clearTimeout,
		importScripts: (p) => {
			assert.equal(p, 'js/sw-cache.js');
			vm.runInContext(src('js/sw-cache.js') + '\n;globalThis.lcCacheFiles = lcCacheFiles;', ctx);
			const real = ctx.lcCacheFiles;
			ctx.lcCacheFiles = (o) => (made = real(o));
		} });
	vm.runInContext(src(file), ctx);
	return { listeners, made };
}

test('sw.js and card-sw.js both cache through js/sw-cache.js', () => {
	const base = 'https://shop.example/pos/';
	for (const [file, name] of [['sw.js', 'loyalty-pos-shell'], ['card-sw.js', 'loyalty-card-page']]) {
		const w = worker(file, base);
		assert.deepEqual(Object.keys(w.listeners).sort(), ['activate', 'fetch', 'install'], file);
		assert.match(w.made.CACHE, new RegExp('^' + name + ' ' + base + ' v\\d+$'), file);
		for (const u of w.made.FILES) assert.ok(u.startsWith(base) && !u.includes('/api/'), u);
	}
});

test('the files a worker keeps are those its page loads', () => {
	const base = 'https://shop.example/';
	const till = worker('sw.js', base).made.FILES.map((u) => u.slice(base.length));
	const card = worker('card-sw.js', base).made.FILES.map((u) => u.slice(base.length));
	/* Every module a page imports (and those they import) is kept. */
	const imports = (f, seen = new Set()) => {
		for (const m of src(f).matchAll(/^import .* from '(\.\.?\/[^']+)';$/gm)) {
			const dep = new URL(m[1], 'https://x/' + f).pathname.slice(1);
			if (!seen.has(dep)) { seen.add(dep); imports(dep, seen); }
		}
		return seen;
	};
	for (const dep of imports('till/main.js')) assert.ok(till.includes(dep), 'sw.js does not keep ' + dep);
	for (const dep of imports('card.js')) assert.ok(card.includes(dep), 'card-sw.js does not keep ' + dep);
});

test('keyOf: the files and the folder\'s page, never the API', () => {
	const base = 'https://shop.example/pos/';
	const k = worker('sw.js', base).made.keyOf;
	assert.equal(k({ method: 'GET', url: base + 'till/main.js?x=1#y' }), base + 'till/main.js');
	assert.equal(k({ method: 'GET', url: base, mode: 'navigate' }), base + 'index.html');
	assert.equal(k({ method: 'GET', url: base, mode: 'no-cors' }), null);
	assert.equal(k({ method: 'GET', url: base + 'api/v1/auth/me' }), null);
	assert.equal(k({ method: 'POST', url: base + 'till/main.js' }), null);
	assert.equal(k({ method: 'GET', url: base + 'owner.js' }), null);
	const c = worker('card-sw.js', base).made.keyOf;
	assert.equal(c({ method: 'GET', url: base, mode: 'navigate' }), null);
	assert.equal(c({ method: 'GET', url: base + 'card.html' }), base + 'card.html');
});
