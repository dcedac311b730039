/* The pages' service workers' one way of caching, written once: sw.js
 * (the till and the back office's shell) and card-sw.js (the customer's
 * card page) each load it with importScripts('js/sw-cache.js') and call
 * lcCacheFiles() with what they keep. A classic script, not a module:
 * module workers are not in every browser a phone or a till has.
 *
 * What it does, for either:
 *  - install: the files are fetched fresh ('reload', not the browser's
 *    HTTP cache) into the cache PREFIX + version; a failure fails the
 *    install and the previous worker (if any) stays. Then it takes over at
 *    once (skipWaiting): it only ever serves these files, network first.
 *  - activate: the caches of older versions of this same worker (same
 *    prefix, which carries the scope, so two copies of a page in two
 *    folders of one host never delete each other's) are deleted.
 *  - fetch: nothing under api/ is ever touched (no respondWith, no
 *    cache): a money operation is answered by the server or fails as a
 *    network error, never from a cache. One of the files is served
 *    network first, the cache as the fallback: a page must run the
 *    version the server has now (cache first would run the previous
 *    script for a load after every upgrade, and could pair a new page
 *    with an old script). When the network hangs, the cached copy is
 *    served after NET_TIMEOUT_MS and the network's answer, when it comes,
 *    still refreshes the cache; a gateway error (5xx) is answered from
 *    the cache when it has the file.
 *
 * o: {name, version, files, index}
 *   name     the cache's name before the scope ('loyalty-pos-shell')
 *   version  'v5': change it (in the worker) when the worker, this
 *            script or the list of files changes
 *   files    the files, relative to the worker's folder
 *   index    a file the folder itself stands for in a navigation
 *            ('index.html'), or none
 * Returns {CACHE, FILES, keyOf} (keyOf: the cache key of a request, or
 * null: tests/js/sw-cache.test.mjs drives it). */
'use strict';

/* exported lcCacheFiles */
function lcCacheFiles(o) {
	const NET_TIMEOUT_MS = 4000;
	const BASE = new URL('./', self.location.href).href;
	const PREFIX = o.name + ' ' + BASE + ' ';
	const CACHE = PREFIX + o.version;
	const FILES = o.files.map((f) => new URL(f, BASE).href);
	const INDEX = o.index ? new URL(o.index, BASE).href : null;
	const API = new URL('api/', BASE).href;

	/* The cache key of a request for one of the files, or null. */
	function keyOf(req) {
		if (req.method !== 'GET') return null;
		const u = new URL(req.url);
		u.hash = '';
		if (u.href.startsWith(API)) return null;
		u.search = '';
		if (INDEX && u.href === BASE) return req.mode === 'navigate' ? INDEX : null;
		return FILES.includes(u.href) ? u.href : null;
	}

	async function networkFirst(e, req, key) {
		const cache = await caches.open(CACHE);
		const net = fetch(req, { cache: 'no-cache' }).then((res) => {
			/* Only a plain, complete answer of our own server replaces
			 * the cached copy (a redirected one may not answer a
			 * navigation). */
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
			/* A hung network or a gateway error: the cached copy when
			 * there is one; the network's answer stays in play
			 * otherwise. */
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

	self.addEventListener('install', (e) => {
		e.waitUntil((async () => {
			const c = await caches.open(CACHE);
			await c.addAll(FILES.map((u) => new Request(u, { cache: 'reload' })));
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

	self.addEventListener('fetch', (e) => {
		const req = e.request;
		/* Money operations and every other API call: straight to the
		 * network, untouched (no respondWith: the browser fetches it as
		 * usual). */
		if (req.url.startsWith(API)) return;
		const key = keyOf(req);
		if (!key) return;
		e.respondWith(networkFirst(e, req, key));
	});

	return { CACHE, FILES, keyOf };
}
