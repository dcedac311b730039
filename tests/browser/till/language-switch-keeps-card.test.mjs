/* Switching the language mid-sale: the switch loads the page again
 * (js/i18n.js langSwitcher); the card on screen comes back, looked up
 * again, in the new language. A card not on screen stays gone. */
import { openBrowser, TILL_HELPERS, newProgram, issueCard } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
const prog = newProgram({ type: 'punch', title: 'Switch Stamp', punches: 10, reward: 'Free tea' });
const card = issueCard(prog, 'Lena Lang');
const choose = (l) => `(() => { const s = $('#lang-bar'); s.value = '${l}'; s.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`;

tab.step('the card looked up before the switch is looked up again after it', async () => {
	await tab.ev(`(localStorage.removeItem('loyalty.lang'), true)`).catch(() => {});
	await tillReady(tab);
	await lookupCard(tab, card.barcode);
	await tab.waitFor(`text('#card-title') === 'Switch Stamp' && vis('#card-panel')`);
	await tab.ev(choose('de'));
	await tab.waitFor(`document.readyState === 'complete' && document.documentElement.lang === 'de'`, 15000);
	await tab.waitFor(`vis('#card-panel') && text('#card-title') === 'Switch Stamp'`, 15000);
	const r = await tab.ev(`({ code: $('#lookup-code').value, panel: text('#card-panel'), kept: sessionStorage.getItem('pos.lang_switch_card') })`);
	if (r.code !== card.barcode || !r.panel.includes('Lena Lang') || r.kept !== null) throw new Error(JSON.stringify(r));
	return true;
}, { timeout: 60000 });

tab.step('with no card on screen the switch brings none back', async () => {
	await tab.ev(`(click('#lookup-clear'), true)`);
	await tab.waitFor(`!vis('#card-panel')`);
	await tab.ev(choose('en'));
	await tab.waitFor(`document.readyState === 'complete' && document.documentElement.lang === 'en' && vis('#lookup-form')`, 15000);
	await new Promise((res) => setTimeout(res, 1500));
	const r = await tab.ev(`({ panel: vis('#card-panel'), code: $('#lookup-code').value })`);
	if (r.panel || r.code) throw new Error(JSON.stringify(r));
	await tab.ev(`(localStorage.removeItem('loyalty.lang'), true)`);
	return true;
}, { timeout: 60000 });
