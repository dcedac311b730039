/* The customer's card page, loadable without a connection: this worker
 * keeps the page's own files (card.html, card.js, card.css, the modules it
 * imports, the manifest and icons), so a phone that opened the card once
 * opens it again in a shop with no signal. The card itself (the last
 * answer, the codes' pictures) is kept by card.js in localStorage; this
 * worker never answers or keeps anything under api/.
 *
 * Registered by card.js as 'card-sw.js' with scope './card': it controls
 * card.html (and nothing of the till or the back office, which sw.js of
 * scope './' serves; the longer scope wins for card.html). Network first,
 * the cache as the fallback (as sw.js: the page the server has now is the
 * one that runs), the cached copy after NET_TIMEOUT_MS of a hung network.
 * Change VERSION when this worker or its list of files changes. */
'use strict';

const VERSION = 'v2';
const BASE = new URL('./', self.location.href).href;
const PREFIX = 'loyalty-card-page ' + BASE + ' ';
const CACHE = PREFIX + VERSION;
const FILES = ['card.html', 'card.js', 'card.css', 'js/progress.js', 'js/money.js', 'js/server-tables.js', 'card.webmanifest',
	'card-icon.svg', 'card-icon-maskable.svg', 'card-icon-180.png', 'card-icon-192.png'].map((f) => new URL(f, BASE).href);
const API = new URL('api/', BASE).href;
const NET_TIMEOUT_MS = 4000;

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

/* The cache key of one of the page's files, or null. */
function fileKey(req) {
	if (req.method !== 'GET') return null;
	const u = new URL(req.url);
	if (u.href.startsWith(API)) return null;
	u.hash = '';
	u.search = '';
	return FILES.includes(u.href) ? u.href : null;
}

self.addEventListener('fetch', (e) => {
	const req = e.request;
	if (req.url.startsWith(API)) return;	/* the card itself: never here */
	const key = fileKey(req);
	if (!key) return;
	e.respondWith(networkFirst(e, req, key));
});

async function networkFirst(e, req, key) {
	const cache = await caches.open(CACHE);
	const net = fetch(req, { cache: 'no-cache' }).then((res) => {
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
