/* The warning of a page opened over plain http from another machine:
 * passwords and tokens then cross the network readable by anyone on it
 * (the shop's Wi-Fi). http://localhost (and *.localhost, 127.x, [::1])
 * is this very machine, and secure, as browsers hold. A classic script,
 * for the till (a module) and the back office (not one) alike: it puts
 * the warning (#http-warning) below the page's top bar, the one place its
 * words are kept, and marks <html data-insecure> for the pages' own use
 * (the set-up's "I understand"). */
'use strict';
(function () {
	const local = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(location.hostname);
	if (location.protocol !== 'http:' || local) return;
	document.documentElement.dataset.insecure = '1';
	function el(tag, props, ...kids) {
		const e = document.createElement(tag);
		if (props) Object.assign(e, props);
		e.append(...kids);
		return e;
	}
	const code = (t) => el('span', { className: 'code' }, t);
	const show = () => {
		const w = el('div', { id: 'http-warning', className: 'msg msg-warn http-warning', role: 'alert' },
			el('details', null,
				el('summary', null, el('strong', null, 'Not a secure connection'), ' (', code('http://'),
				    '): passwords can be read on this network.'),
				el('p', null, 'Anyone on the same network, the shop\u2019s Wi-Fi included, could read the passwords and logins this page sends. ',
				    'If the shop has an ', code('https://'), ' address, use that one. ',
				    'If not, the shop\u2019s owner can get a certificate: the guide that came with the shop (INSTALL or README, under HTTPS) says how. ',
				    'On a network that only the shop\u2019s own devices use, the risk is smaller.')));
		const bar = document.querySelector('header.topbar');
		if (bar) bar.after(w);
		else document.body.prepend(w);
	};
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
	else show();
})();
