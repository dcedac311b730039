/* The warning of a page opened over plain http from another machine:
 * passwords and tokens then cross the network readable by anyone on it
 * (the shop's Wi-Fi). http://localhost (and *.localhost, 127.x, [::1])
 * is this very machine, and secure, as browsers hold. A classic script, for the till (a module) and the
 * back office (not one) alike: it shows #http-warning and marks <html
 * data-insecure> for the pages' own use (the set-up's "I understand"). */
'use strict';
(function () {
	const local = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(location.hostname);
	if (location.protocol !== 'http:' || local) return;
	document.documentElement.dataset.insecure = '1';
	const show = () => {
		const w = document.getElementById('http-warning');
		if (w) w.hidden = false;
	};
	if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
	else show();
})();
