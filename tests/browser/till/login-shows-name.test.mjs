/* The cashier's login: the top bar names the person, not the e-mail. */
import { openBrowser, TILL_HELPERS } from '../lib/browser.mjs';
import { tillReady } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });

t.step('after login the top bar shows the cashier\'s name, not the e-mail', async () => {
	await tillReady(t);
	const who = await t.ev(`text('#who-name')`);
	if (who !== 'Sam Staff') throw new Error('top bar: ' + who);
	for (const w of [390, 768, 1280]) {
		await t.viewport(w, 800);
		await t.shot('logged-in-' + w);
	}
	return t.ev(`!text('#session-bar').includes('staff@demo.example')`);
});
