/* Neither the till nor the back office warns on localhost (127.0.0.1)
 * or over https, and the set-up asks for no "I understand" there. */
import { LOCAL, SECURE, httpsBrowser, open } from '../lib/https.mjs';

const t = await httpsBrowser();

for (const [name, url] of [['localhost (127.0.0.1)', LOCAL], ['https', SECURE]]) {
	t.step(`neither page warns over ${name}; the set-up asks nothing more there`, async () => {
		await open(t, url + 'index.html');
		const till = await t.ev(`!vis('#http-warning')`);
		await open(t, url + 'owner.html');
		await t.waitFor(`vis('#setup-form')`);
		await t.shot('owner-setup-' + (url === SECURE ? 'https' : 'localhost'));
		return till && await t.ev(`!vis('#http-warning') && !vis('#setup-insecure')`);
	});
}
