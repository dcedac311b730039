/* The back office's set-up over plain http by a local network's name
 * (till.lan) warns and asks for "I understand" before it sets the shop
 * up: a form sent without it is refused, the focus on the box. */
import { LAN, httpsBrowser, open } from '../lib/https.mjs';

const t = await httpsBrowser();

t.step('the back office over http by a local network\'s name warns, and its set-up asks for "I understand"', async () => {
	await t.viewport(1280, 900);
	await open(t, LAN + 'owner.html');
	await t.waitFor(`vis('#setup-form')`);
	await t.shot('owner-setup-http-lan');
	if (!await t.ev(`vis('#http-warning') && vis('#setup-insecure') && !$('#setup-insecure-ok').checked`)) throw new Error('no warning or no "I understand"');
	await t.ev(`fill('#setup-code', 'ABCD-EFGH') && fill('#setup-shop', 'Corner') && fill('#setup-location', 'High Street') && pick('#setup-currency', 'EUR') &&
	    fill('#setup-name', 'Olive') && fill('#setup-email', 'olive@corner.example') && fill('#setup-password', 'a long password') &&
	    fill('#setup-password2', 'a long password') && click('#setup-submit')`);
	await t.waitFor(`text('#setup-error').includes('I understand')`);
	await t.shot('owner-setup-http-lan-refused');
	return t.ev(`document.activeElement === $('#setup-insecure-ok')`);
});
