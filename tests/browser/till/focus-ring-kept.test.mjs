/* tests/browser/till/focus-ring-kept.test.mjs:
 * A focus ring even without :focus-visible. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS } from '../lib/browser.mjs';
import { tillReady } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);

before(async () => {
	await tillReady(tab);
});

/* 12. A focus ring even without :focus-visible. */
tab.step('no style sheet removes the focus ring for every :focus', async () => {
	const bad = await tab.ev(`Array.from(document.styleSheets).flatMap((s) => Array.from(s.cssRules)).filter((r) =>
		r.selectorText && /(^|,)\\s*:focus\\s*(,|$)/.test(r.selectorText) && /none/.test(r.style.outline || r.style.outlineStyle)).map((r) => r.cssText)`);
	if (bad.length) throw new Error(bad.join(' | '));
	await tab.ev(`$('#lookup-code').blur() || true`);
	await tab.S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
	await tab.S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 });
	const st = await tab.ev(`[focused(), document.activeElement.className, getComputedStyle(document.activeElement).outlineStyle]`);
	if (st[2] === 'none') throw new Error('no ring on ' + st.join(' '));
	return true;
});
