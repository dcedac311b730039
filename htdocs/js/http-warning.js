/* The warning of a page opened over plain http from another machine:
 * passwords and tokens then cross the network readable by anyone on it
 * (the shop's Wi-Fi). http://localhost (and *.localhost, 127.x, [::1])
 * is this very machine, and secure, as browsers hold. A classic script,
 * for the till (a module) and the back office (not one) alike: it puts
 * the warning (#http-warning) below the page's top bar and marks
 * <html data-insecure> for the pages' own use (the set-up's "I
 * understand").
 *
 * Its words are the catalogs' (http.*, i18n/<lang>.json). A classic
 * script cannot import js/i18n.js, so it follows what that module does
 * to the document: it sets <html lang> once it knows the page's language
 * (at the start, and again for the shop's default), and this script then
 * reads that language's catalog itself and writes the warning anew. The
 * English below is only what shows until a catalog has come (as the
 * pages' HTML keeps its English), and when none can be read.
 * i18n-keys: http.title http.summary http.details */
'use strict';
(function () {
	const local = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(location.hostname);
	if (location.protocol !== 'http:' || local) return;
	document.documentElement.dataset.insecure = '1';
	const LANGS = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'ar'];
	const base = document.currentScript ? document.currentScript.src : location.href;
	const pseudo = /[?&]lang=qps(&|$)/.test(location.search);
	let words = {
		'http.title': 'Not a secure connection',
		'http.summary': '{title} ({http}): passwords can be read on this network.',
		'http.details': 'Anyone on the same network, the shop\u2019s Wi-Fi included, could read the passwords and logins this page sends. ' +
		    'If the shop has an {https} address, use that one. ' +
		    'If not, the shop\u2019s owner can get a certificate: the guide that came with the shop (INSTALL or README, under HTTPS) says how. ' +
		    'On a network that only the shop\u2019s own devices use, the risk is smaller.'
	};
	function el(tag, props, ...kids) {
		const e = document.createElement(tag);
		if (props) Object.assign(e, props);
		e.append(...kids);
		return e;
	}
	const code = (t) => el('span', { className: 'code', translate: false }, t);
	/* A text with its {placeholders} as the given nodes. */
	function parts(key, nodes) {
		const s = pseudo ? '\u27e6' + words[key] + '\u27e7' : words[key];
		return s.split(/(\{[a-z]+\})/).map((p) => {
			const m = /^\{([a-z]+)\}$/.exec(p);
			return m && nodes[m[1]] ? nodes[m[1]] : p;
		}).filter((p) => p !== '');
	}
	let shown = null;
	function render() {
		const title = el('strong', null, ...parts('http.title', {}));
		const w = el('div', { id: 'http-warning', className: 'msg msg-warn http-warning', role: 'alert' },
			el('details', null,
				el('summary', null, ...parts('http.summary', { title, http: code('http://') })),
				el('p', null, ...parts('http.details', { https: code('https://') }))));
		/* Re-written in place: the reader's open <details> stays open. */
		if (shown) {
			w.firstChild.open = shown.firstChild.open;
			shown.replaceWith(w);
		} else {
			const bar = document.querySelector('header.topbar');
			if (bar) bar.after(w);
			else document.body.prepend(w);
		}
		shown = w;
	}
	/* The catalog of <html lang>; English stays when it cannot be read. */
	let asked = null;
	function follow() {
		const lang = document.documentElement.lang;
		if (!LANGS.includes(lang) || lang === asked) return;
		asked = lang;
		fetch(new URL('../i18n/' + lang + '.json', base), { cache: 'no-cache' })
			.then((r) => (r.ok ? r.json() : null))
			.then((cat) => {
				if (!cat || asked !== lang) return;
				const next = {};
				for (const k of Object.keys(words)) next[k] = typeof cat[k] === 'string' ? cat[k] : words[k];
				words = next;
				if (shown) render();
			})
			.catch(() => { /* English, as shown */ });
	}
	new MutationObserver(follow).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
	follow();
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', render);
	else render();
})();
