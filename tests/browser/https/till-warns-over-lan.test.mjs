/* The till opened over plain http by a local network's name (till.lan)
 * warns, in one line a phone still has room for, that the connection is
 * not secure and how to reach it over https. */
import { WIDTHS } from '../lib/browser.mjs';
import { LAN, httpsBrowser, open } from '../lib/https.mjs';

const t = await httpsBrowser();

for (const w of WIDTHS) {
	t.step(`the till over http by a local network's name warns (${w} px)`, async () => {
		await t.viewport(w, 900);
		await open(t, LAN + 'index.html');
		await t.shot('till-http-lan-' + w);
		return t.ev(`vis('#http-warning') && text('#http-warning').includes('Not a secure connection') && text('#http-warning').includes('https://') && $('#http-warning').getBoundingClientRect().height < 100`);
	});
}
