/* The language switch: choosing Deutsch loads the page again in German,
 * and German stays on the next visit (the choice is kept), on the till,
 * the back office and the card page. The browser prefers English. */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo } from '../lib/card-helpers.mjs';
import { SWITCH, SHOWN_IN } from './pseudo.mjs';

const d = await freshDemo();
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900 });

for (const [page, url, ready] of [
	['the till', URL0, `vis('#login-form')`],
	['the back office', URL0 + 'owner.html', `vis('#login-form')`],
	['the card page', URL0 + 'card.html#' + d.cash.token, `$('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`]
]) {
	t.step(`${page}: choosing Deutsch shows it in German, kept on the next visit`, async () => {
		await t.ev(`(localStorage.removeItem('loyalty.lang'), true)`).catch(() => {});
		await t.goto('about:blank');
		await t.goto(url);
		await t.waitFor(`document.readyState === 'complete' && ${ready} && document.documentElement.lang === 'en'`, 15000);
		await t.waitFor(`!!(${SWITCH})`);
		await t.ev(`(() => { const s = ${SWITCH}; s.value = 'de'; s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`);
		await t.waitFor(`document.readyState === 'complete' && document.documentElement.lang === 'de' && ${ready}`, 15000);
		if (!(await t.ev(SHOWN_IN('de')))) throw new Error('not in German: ' + (await t.ev(`document.body.innerText.slice(0, 300)`)));
		await t.goto('about:blank');
		await t.goto(url);
		await t.waitFor(`document.readyState === 'complete' && ${ready}`, 15000);
		/* Each awaited: a promise is truthy, and one left running would
		 * outlive the step. */
		if (!(await t.ev(SHOWN_IN('de')))) throw new Error('not in German on the next visit');
		return await t.ev(`(${SWITCH}).value === 'de'`);
	}, { timeout: 60000 });
}
