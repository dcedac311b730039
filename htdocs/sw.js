/* Loyalty POS service worker: keeps the page itself (index.html, pos.js,
 * pos.css, the "app shell") loadable while the till has no connection, so
 * a reload or a browser restart during an outage still shows the till and
 * the offline queue (which lives in localStorage) keeps working.
 *
 * It touches nothing else. In particular every request under api/ is left
 * alone: no respondWith, no cache, so a money operation is always answered
 * by the server or fails as a network error (and the page queues it), and
 * is never answered from a cache.
 *
 * Strategy: network first, the cache as the fallback. A till must run the
 * page version the server has right now: serving the cache first would run
 * the previous pos.js for one load after every upgrade, and could pair a
 * new index.html with an old pos.js. Network first costs nothing offline
 * when the connection is refused at once; when the network hangs instead,
 * the cached copy is served after NET_TIMEOUT_MS and the network answer,
 * when it comes, still refreshes the cache.
 *
 * Registered by pos.js as 'sw.js' with scope './': every URL here is taken
 * relative to this script, so the page works from a subfolder of a shared
 * host, and the cache names carry the scope, so two copies of the page in
 * two folders of one host never delete each other's caches.
 *
 * The cached copies are refreshed by every load that reaches the server,
 * so a release of the page needs no change here. Change VERSION (and with
 * it the cache name) when this worker or the list of files changes: the
 * browser sees the changed sw.js, installs it, and its activate step
 * deletes the caches of older versions of this page. */
'use strict';

const VERSION = 'v5';
const SCOPE = new URL('./', self.location.href).href;
const PREFIX = 'loyalty-pos-shell ' + SCOPE + ' ';
const CACHE = PREFIX + VERSION;
/* The page, the modules it imports, and the camera's (loaded on the
 * first scan, so a till started offline can still scan). */
const SHELL = ['index.html', 'pos.js', 'pos.css', 'js/http-warning.js', 'js/api.js', 'js/queue.js', 'js/keys.js', 'js/money.js', 'js/progress.js',
	'js/server-tables.js', 'js/limits.js',
	'js/camera.js', 'js/camera.css', 'vendor/zxing-library-0.23.0.min.js'].map((f) => new URL(f, SCOPE).href);
const INDEX = SHELL[0];
const API = new URL('api/', SCOPE).href;
const NET_TIMEOUT_MS = 4000;

self.addEventListener('install', (e) => {
	e.waitUntil((async () => {
		const c = await caches.open(CACHE);
		/* 'reload': fresh copies, not the browser's HTTP cache. A failure
		 * fails the install and the previous worker (if any) stays. */
		await c.addAll(SHELL.map((u) => new Request(u, { cache: 'reload' })));
		/* Safe to take over at once: this worker only ever serves the shell,
		 * and serves it network first. */
		await self.skipWaiting();
	})());
});

self.addEventListener('activate', (e) => {
	e.waitUntil((async () => {
		for (const name of await caches.keys())
			if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
		await self.clients.claim();
	})());
});

/* The cache key of a shell request, or null for anything else. The page
 * itself is asked for as the folder ('.../') or as index.html. */
function shellKey(req) {
	if (req.method !== 'GET') return null;
	const u = new URL(req.url);
	u.hash = '';
	if (u.href.startsWith(API)) return null;
	u.search = '';
	if (u.href === SCOPE) return req.mode === 'navigate' ? INDEX : null;
	return SHELL.includes(u.href) ? u.href : null;
}

self.addEventListener('fetch', (e) => {
	const req = e.request;
	/* Money operations and every other API call: straight to the network,
	 * untouched (no respondWith means the browser fetches it as usual). */
	if (req.url.startsWith(API)) return;
	const key = shellKey(req);
	if (!key) return;
	e.respondWith(networkFirst(e, req, key));
});

async function networkFirst(e, req, key) {
	const cache = await caches.open(CACHE);
	const net = fetch(req, { cache: 'no-cache' }).then((res) => {
		/* Only a plain, complete answer of our own server replaces the
		 * cached copy (a redirected one may not answer a navigation). */
		if (res.ok && res.type === 'basic' && !res.redirected) {
			const put = cache.put(key, res.clone()).catch(() => {});
			try { e.waitUntil(put); } catch (x) { /* event over: put runs anyway */ }
		}
		return res;
	});
	let timer;
	const late = new Promise((resolve) => { timer = setTimeout(resolve, NET_TIMEOUT_MS, null); });
	try {
		const res = await Promise.race([net, late]);
		if (res && res.status < 500) return res;
		/* A hung network or a gateway error (5xx): the cached copy when
		 * there is one; the network's answer stays in play otherwise. */
		const hit = await cache.match(key);
		if (hit) {
			if (!res) e.waitUntil(net.catch(() => {}));
			return hit;
		}
		return res || await net;
	} catch (err) {
		const hit = await cache.match(key);
		if (hit) return hit;
		throw err;
	} finally {
		clearTimeout(timer);
	}
}
