/* A browser preferring Canadian French (fr-CA) gets the pages in French,
 * with nothing chosen: the till, the back office, the card page. */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo } from '../lib/card-helpers.mjs';
import { SHOWN_IN } from './pseudo.mjs';

const d = await freshDemo();
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900, args: ['--lang=fr-CA'], context: { locale: 'fr-CA' } });

t.step('a browser preferring fr-CA gets French on each page', async () => {
	if ((await t.ev(`navigator.languages[0]`)) !== 'fr-CA') throw new Error('the browser prefers ' + (await t.ev(`navigator.languages.join()`)));
	for (const [url, ready] of [[URL0, `vis('#login-form')`], [URL0 + 'owner.html', `vis('#login-form')`],
		[URL0 + 'card.html#' + d.cash.token, `$('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`]]) {
		await t.goto('about:blank');
		await t.goto(url);
		await t.waitFor(`document.readyState === 'complete' && ${ready}`, 15000);
		if (!(await t.ev(SHOWN_IN('fr')))) throw new Error(url + ' is not in French: lang=' + (await t.ev(`document.documentElement.lang`)));
	}
	return true;
}, { timeout: 60000 });
