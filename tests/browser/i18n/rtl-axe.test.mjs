/* axe-core (installed beside playwright-core by lc_install_playwright)
 * finds no WCAG 2 A/AA violation on the pages in Arabic, right to left:
 * the till (login, a card), the back office (login, overview, reports),
 * the card page. */
import fs from 'node:fs';
import path from 'node:path';
import { openBrowser, TILL_HELPERS, URL0, env } from '../lib/browser.mjs';
import { freshDemo } from '../lib/card-helpers.mjs';
import { lookupCard } from '../lib/till.mjs';

const AXE = fs.readFileSync(path.join(env.PLAYWRIGHT_DIR || path.join(env.HOME || '/root', '.cache/loyalty-pos/playwright'),
	'node_modules/axe-core/axe.min.js'), 'utf8');
const d = await freshDemo();
/* axe is put into the page by the driver, past the pages' CSP (which
 * allows no inline script, rightly) */
const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900, context: { bypassCSP: true } });

async function axe(where) {
	await t.page.evaluate(AXE);
	const v = await t.page.evaluate(async () => {
		const r = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
		return r.violations.map((x) => x.id + ' (' + x.impact + '): ' + x.help + ' — ' + x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
	});
	if (!(await t.ev(`document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar'`)))
		throw new Error(where + ': the page is not right to left in Arabic');
	if (v.length) throw new Error(where + ':\n' + v.join('\n'));
}

t.step('the till in Arabic: no axe violation, logged out or with a card', async () => {
	await t.goto(URL0 + '?lang=ar');
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	await axe('till login');
	await t.ev(`fill('#login-email', ${JSON.stringify(d.staffLogin.email)}) && fill('#login-password', ${JSON.stringify(d.staffLogin.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#pos-view')`);
	await lookupCard(t, d.cash.barcode);
	await t.waitFor(`vis('#card-panel') && vis('#purchase-form')`);
	await t.settle();
	await axe('till card');
	/* The back office shares the till's session: logged out, its
	 * login form shows. */
	await t.ev(`(click('#logout-button'), true)`);
	await t.waitFor(`vis('#login-form')`);
	return true;
}, { timeout: 60000 });

t.step('the back office in Arabic: no axe violation', async () => {
	await t.goto(URL0 + 'owner.html?lang=ar');
	await t.waitFor(`document.readyState === 'complete' && vis('#login-form')`);
	await axe('back office login');
	await t.ev(`fill('#login-email', ${JSON.stringify(d.owner.email)}) && fill('#login-password', ${JSON.stringify(d.owner.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#app-view')`);
	await t.idle();
	await axe('back office overview');
	await t.ev(`(click('#side-nav a[data-sec="reports"]'), true)`);
	await t.idle();
	await axe('back office reports');
	return true;
}, { timeout: 60000 });

t.step('the card page in Arabic: no axe violation', async () => {
	await t.goto('about:blank');
	await t.goto(URL0 + 'card.html?lang=ar#' + d.cash.token);
	await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false' && vis('#card-view')`, 15000);
	await axe('card page');
	return true;
}, { timeout: 60000 });
