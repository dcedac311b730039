/* Loyalty POS service worker: keeps the page itself (index.html, till/*.js,
 * pos.css, the "app shell") loadable while the till has no connection, so
 * a reload or a browser restart during an outage still shows the till and
 * the offline queue (which lives in localStorage) keeps working.
 *
 * It touches nothing else: every request under api/ is left alone, so a
 * money operation is always answered by the server or fails as a network
 * error (and the page queues it), and is never answered from a cache.
 * Network first, the cache as the fallback: js/sw-cache.js, which
 * card-sw.js shares, says how and why.
 *
 * Registered by till/main.js as 'sw.js' with scope './': every URL here is taken
 * relative to this script, so the page works from a subfolder of a shared
 * host, and the cache names carry the scope.
 *
 * The cached copies are refreshed by every load that reaches the server,
 * so a release of the page needs no change here. Change VERSION (and with
 * it the cache name) when this worker, js/sw-cache.js or the list of
 * files changes: the browser sees the changed worker, installs it, and its
 * activate step deletes the caches of older versions of this page. */
'use strict';

importScripts('js/sw-cache.js');

const VERSION = 'v10';
/* The page, the modules it imports, the catalogs of every language (the
 * switch reloads the page, perhaps offline, in any of them), and the
 * camera's (loaded on the first scan, so a till started offline can
 * still scan). */
lcCacheFiles({
	name: 'loyalty-pos-shell', version: VERSION, index: 'index.html',
	files: ['index.html', 'till/main.js', 'till/state.js', 'till/dom.js', 'till/ui.js', 'till/net.js', 'till/session.js', 'till/card.js',
		'till/scanner.js', 'till/settings.js', 'till/sale.js', 'till/rewards.js', 'till/history.js', 'till/void.js', 'till/offline.js',
		'till/enrol.js', 'till/camera.js', 'pos.css', 'js/http-warning.js', 'js/api.js', 'js/queue.js', 'js/keys.js', 'js/txn.js', 'js/money.js', 'js/progress.js',
		'js/server-tables.js', 'js/limits.js', 'js/store.js', 'js/errors.js', 'js/cardtypes.js', 'js/dom.js',
		'js/i18n.js', 'js/dates.js',
		'i18n/en.json', 'i18n/de.json', 'i18n/fr.json', 'i18n/es.json', 'i18n/pt.json', 'i18n/ja.json', 'i18n/ar.json',
		'js/camera.js', 'js/camera.css', 'vendor/zxing-library-0.23.0.min.js']
});
