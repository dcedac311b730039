/* The cashier's login: the top bar names the person, not the e-mail. */
import { openBrowser, TILL_HELPERS } from '../lib/browser.mjs';
import { tillReady } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });

tab.step('after login the top bar shows the cashier\'s name, not the e-mail', async () => {
	await tillReady(tab);
	const who = await tab.ev(`text('#who-name')`);
	if (who !== 'Sam Staff') throw new Error('top bar: ' + who);
	for (const w of [390, 768, 1280]) {
		await tab.viewport(w, 800);
		await tab.shot('logged-in-' + w);
	}
	return tab.ev(`!text('#session-bar').includes('staff@demo.example')`);
});
