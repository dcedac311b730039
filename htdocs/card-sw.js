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
 * the cache as the fallback, as sw.js: js/sw-cache.js does both. Change
 * VERSION when this worker, js/sw-cache.js or its list of files changes. */
'use strict';

importScripts('js/sw-cache.js');

const VERSION = 'v3';
/* the catalogs of every language: the switch reloads the page, perhaps
 * offline, in any of them */
lcCacheFiles({
	name: 'loyalty-card-page', version: VERSION,
	files: ['card.html', 'card.js', 'card.css', 'js/progress.js', 'js/money.js', 'js/server-tables.js', 'js/store.js', 'js/cardtypes.js',
		'js/i18n.js', 'js/dates.js',
		'i18n/en.json', 'i18n/de.json', 'i18n/fr.json', 'i18n/es.json', 'i18n/pt.json', 'i18n/ja.json', 'i18n/ar.json',
		'card.webmanifest', 'card-icon.svg', 'card-icon-maskable.svg', 'card-icon-180.png', 'card-icon-192.png']
});
