/* tests/browser/till/claim-asks-first.test.mjs:
 * Claiming a reward: a confirmation, and the focus kept, by keyboard. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, newProgram, issueCard, sleep } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const quick = newProgram({ type: 'punch', title: 'Quick Stamp', punches: 10, reward: 'Free muffin', cooldown: 10 });
const E = { PUNCH3_BARCODE: issueCard(quick, 'Claire Claim').barcode };
before(async () => {
	await tillReady(tab);
});

/* 7 and 8. Claiming: a confirmation, and the focus kept, by keyboard. */
tab.step('claiming asks first; Cancel claims nothing', async () => {
	await lookupCard(tab, E.PUNCH3_BARCODE);
	await tab.waitFor(`text('#card-title') === 'Quick Stamp'`);
	/* ten punches at once: a confirmation too */
	await tab.ev(`fill('#purchase-amount', '30.00') && fill('#punch-count', '10') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#purchase-confirm') && text('#purchase-confirm-text').includes('10 punches')`);
	await tab.ev(`click('#purchase-yes')`);
	await tab.waitFor(`text('#result').includes('Reward earned')`);
	await tab.waitFor(`vis('#claim-panel')`);
	await tab.ev(`$('#claim-button').focus()`);
	await tab.pressEnter();
	await tab.waitFor(`vis('#claim-confirm') && document.activeElement === $('#claim-no')`);
	await tab.ev(`click('#claim-no')`);
	await tab.waitFor(`!vis('#claim-confirm') && document.activeElement === $('#claim-button')`);
	return tab.ev(`vis('#claim-panel')`);
});

tab.step('a claim by keyboard (Enter, Shift+Tab to "Yes", Enter) leaves the focus on the result', async () => {
	await tab.pressEnter();
	await tab.waitFor(`document.activeElement === $('#claim-no')`);
	await tab.S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
	await tab.S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
	await tab.waitFor(`document.activeElement === $('#claim-yes')`);
	await tab.pressEnter();
	await tab.waitFor(`text('#result').includes('Reward claimed')`);
	await sleep(400);
	const f = await tab.ev(`focused()`);
	if (f === 'BODY' || f === 'none') throw new Error('focus fell to ' + f);
	return true;
});
