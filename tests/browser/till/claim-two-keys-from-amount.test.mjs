/* From the amount field a waiting reward is two keys away: Shift+Tab
 * reaches "Claim reward" (its box sits right before the purchase, the
 * history no longer between), Enter asks. */
import { openBrowser, TILL_HELPERS, newProgram, issueCard, WIDTHS } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });
const program = newProgram({ type: 'punch', title: 'One Stamp', punches: 1, cooldown: 0, reward: 'Free cake' });
const card = issueCard(program, 'Kim Keys');
const shiftTab = async () => {
	await t.S('Input.dispatchKeyEvent', { type: 'keyDown', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
	await t.S('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 });
};

t.step('a purchase on a one-stamp card leaves a reward waiting, the focus back in the amount', async () => {
	await tillReady(t);
	await lookupCard(t, card.barcode);
	await t.waitFor(`text('#card-customer') === 'Kim Keys' && document.activeElement === $('#purchase-amount')`);
	await t.ev(`fill('#purchase-amount', '3.00') && submit('#purchase-submit')`);
	await t.waitFor(`text('#result').includes('Reward earned')`);
	await t.waitFor(`vis('#claim-panel') && text('#claim-info').includes('1 reward is waiting')`);
	await t.ev(`($('#purchase-amount').focus(), true)`);
	for (const w of WIDTHS) {
		await t.viewport(w, 900);
		await t.shot('reward-waiting-' + w);
	}
	await t.viewport(1280, 900);
	return t.ev(`document.activeElement === $('#purchase-amount')`);
});

t.step('Shift+Tab from the amount is on "Claim reward"; Enter asks, the focus on Cancel', async () => {
	await shiftTab();
	await t.waitFor(`document.activeElement === $('#claim-button')`);
	await t.pressEnter();
	return t.waitFor(`vis('#claim-confirm') && document.activeElement === $('#claim-no')`);
});

t.step('Shift+Tab to "Yes", Enter: the reward is claimed', async () => {
	await shiftTab();
	await t.waitFor(`document.activeElement === $('#claim-yes')`);
	await t.pressEnter();
	await t.waitFor(`text('#result').includes('Reward claimed')`);
	return t.waitFor(`!vis('#claim-panel')`);
});

t.step('on a phone the reward comes right after the card, before the purchase', async () => {
	await t.viewport(390, 900);
	const ys = await t.ev(`['#card-panel', '#purchase-panel', '#history-panel'].map((s) => $(s).getBoundingClientRect().top + scrollY)`);
	await t.viewport(1280, 900);
	return ys[0] < ys[1] && ys[1] < ys[2];
});
