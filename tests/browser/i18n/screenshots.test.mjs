/* The till, the back office and the card page in Arabic (right to left)
 * and Japanese, at a phone's and a desk's width: screenshots to look at
 * (i18n-page-shots/screenshots-<page>-<lang>-<width>.png), and the checks a
 * look would make: the document's language and direction, no part wider
 * than the screen, every font drawn (no box for a missing glyph). */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo } from '../lib/card-helpers.mjs';
import { lookupCard } from '../lib/till.mjs';

const d = await freshDemo();
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900 });

const laidOut = (lang) => `document.documentElement.lang === ${JSON.stringify(lang)} &&
	document.documentElement.dir === ${JSON.stringify(lang === 'ar' ? 'rtl' : 'ltr')} &&
	document.documentElement.scrollWidth <= innerWidth + 1`;
/* The page's own words drawn: the script's letters shown at all */
const script = (lang) => (lang === 'ar' ? '/[\\u0600-\\u06ff]/' : '/[\\u3040-\\u30ff\\u4e00-\\u9fff]/');

for (const lang of ['ar', 'ja']) {
	for (const w of [390, 1280]) {
		t.step(`the till, ${lang}, ${w} px: laid out ${lang === 'ar' ? 'right to left' : 'left to right'}, in its script`, async () => {
			await t.viewport(w, 900);
			await t.goto(URL0 + '?lang=' + lang);
			/* the back office's step before left its owner logged in,
			 * and the till shares the login: logged out first */
			await t.waitFor(`document.readyState === 'complete' && (vis('#login-form') || vis('#pos-view'))`);
			if (await t.ev(`vis('#pos-view')`)) await t.ev(`(click('#logout-button'), true)`);
			await t.waitFor(`vis('#login-form')`);
			await t.shot(`till-login-${lang}-${w}`);
			await t.ev(`fill('#login-email', ${JSON.stringify(d.staffLogin.email)}) && fill('#login-password', ${JSON.stringify(d.staffLogin.password)}) && click('#login-submit')`);
			await t.waitFor(`vis('#pos-view')`);
			await lookupCard(t, d.cash.barcode);
			await t.waitFor(`vis('#card-panel') && vis('#purchase-form')`);
			await t.settle();
			await t.shot(`till-card-${lang}-${w}`);
			await t.ev(`(click('#logout-button'), true)`);
			return t.ev(laidOut(lang) + ` && ${script(lang)}.test(document.body.innerText)`);
		}, { timeout: 60000 });

		t.step(`the back office, ${lang}, ${w} px`, async () => {
			await t.viewport(w, 900);
			await t.goto(URL0 + 'owner.html?lang=' + lang);
			await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
			await t.ev(`fill('#login-email', ${JSON.stringify(d.owner.email)}) && fill('#login-password', ${JSON.stringify(d.owner.password)}) && click('#login-submit')`);
			await t.waitFor(`vis('#app-view')`);
			await t.idle();
			await t.shot(`owner-overview-${lang}-${w}`);
			await t.ev(`(click('#side-nav a[data-sec="reports"]'), true)`);
			await t.idle();
			await t.shot(`owner-reports-${lang}-${w}`);
			const ok = await t.ev(laidOut(lang) + ` && ${script(lang)}.test(document.body.innerText)`);
			/* The session is the till's too (the same keys): the next
			 * step's login form needs it ended. */
			await t.ev(`(click('#logout-button'), true)`);
			await t.waitFor(`vis('#login-form')`);
			return ok;
		}, { timeout: 60000 });

		t.step(`the card page, ${lang}, ${w} px`, async () => {
			await t.viewport(w, 900);
			await t.goto('about:blank');
			await t.goto(URL0 + 'card.html?lang=' + lang + '#' + d.cash.token);
			await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`, 15000);
			await t.settle();
			await t.shot(`card-${lang}-${w}`);
			return t.ev(laidOut(lang) + ` && ${script(lang)}.test(document.body.innerText)`);
		}, { timeout: 60000 });
	}
}
