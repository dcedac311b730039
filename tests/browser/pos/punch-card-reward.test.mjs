/* tests/browser/pos/punch-card-reward.test.mjs:
 * A punch card at the till: the card shown, ten punches earn the reward,
 * the history lists it, the claim, the cooldown, the filter. */
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard } from '../lib/browser.mjs';
import { tillReady, lookupCard, historyTotal } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const card = await demoCard('punch', 'Demo Customer');
const E = { PUNCH_BARCODE: card.barcode };
before(async () => {
	await tillReady(tab);
});

tab.step('scanning the punch card barcode shows the card', async () => {
	await lookupCard(tab, E.PUNCH_BARCODE);
	await tab.waitFor(`vis('#card-panel') && text('#card-title') === 'Coffee Card'`);
	const t = await tab.ev(`text('#card-panel')`);
	for (const w of ['Demo Customer', 'Demo Coffee', 'Punch card', 'Active', '0 / 10', 'Rewards waiting'])
		if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
	return tab.ev(`$$('#punch-dots .pdot').length === 10 && vis('#punch-field') && !vis('#redeem-panel') && !vis('#claim-panel') && document.activeElement === $('#purchase-amount')`);
});

tab.step('an amount with 3 decimals is refused in the page', async () => {
	await tab.ev(`fill('#purchase-amount', '4.505') && submit('#purchase-submit')`);
	await tab.waitFor(`vis('#purchase-amount-error')`);
	return tab.ev(`$('#purchase-amount').getAttribute('aria-invalid') === 'true' && !vis('#result-panel')`);
});

tab.step('recording a purchase with 10 punches earns the reward', async () => {
	await tab.ev(`fill('#purchase-amount', '4.50') && fill('#punch-count', '10') && fill('#purchase-notes', 'page test') && submit('#purchase-submit')`);
	/* more than 5 punches at once: a second press */
	await tab.waitFor(`vis('#purchase-confirm') && text('#purchase-confirm-text').includes('10 punches')`);
	await tab.ev(`click('#purchase-yes')`);
	await tab.waitFor(`vis('#result-panel') && text('#result').length > 0`);
	const t = await resultText();
	for (const w of ['Reward earned!', 'Free coffee', 'Any hot drink', '+10 punches', 'card now at 0'])
		if (!t.includes(w)) throw new Error('missing ' + w + ' in: ' + t);
	await tab.waitFor(`vis('#claim-panel') && text('#card-balance').includes('Rewards waiting1')`);
	return tab.ev(`$('#purchase-amount').value === '' && $('#punch-count').value === '1'`);
});
tab.step('screenshot of the reward is written', () => tab.shot('pos-reward'));

tab.step('the history lists the purchase', async () => {
	if (await historyTotal(tab) !== 1) throw new Error('history: ' + await tab.ev(`text('#history-panel')`));
	const row = await tab.ev(`text('#history-body tr')`);
	if (!['Punch', '4.50', '+10 punches', 'page test', 'Main Street', 'Sam Staff'].every((w) => row.includes(w))) throw new Error(row);
});

tab.step('claiming the reward', async () => {
	await tab.ev(`submit('#claim-button')`);
	await tab.waitFor(`vis('#claim-confirm') && text('#claim-confirm-text').includes('Free coffee') && text('#claim-confirm-text').includes('Demo Customer')`);
	await tab.ev(`click('#claim-yes')`);
	await tab.waitFor(`text('#result').includes('Reward claimed')`);
	const t = await resultText();
	if (!t.includes('Free coffee') || !t.includes('3.50') || !t.includes('0 rewards still waiting')) throw new Error(t);
	await tab.waitFor(`!vis('#claim-panel')`);
	return (await historyTotal(tab)) === 2;
});

tab.step('a second punch within the cooldown shows COOLDOWN_ACTIVE and the wait', async () => {
	await tab.ev(`fill('#purchase-amount', '2') && submit('#purchase-submit')`);
	await tab.waitFor(`$('#result [data-code]') && $('#result [data-code]').dataset.code === 'COOLDOWN_ACTIVE'`);
	const t = await resultText() + ' ' + await tab.ev(`text('#countdown')`);
	if (!/Next punch possible in [1-6]?\d seconds/.test(t)) throw new Error(t);
	await tab.shot('pos-cooldown');
	return tab.ev(`queue().length === 0`);
});

tab.step('the history type filter', async () => {
	await tab.ev(`($('#history-type').value = 'reward_claim', $('#history-type').dispatchEvent(new Event('change')), true)`);
	await tab.waitFor(`text('#history-body').includes('Reward claim') && !text('#history-body').includes('4.50')`);
	if (await historyTotal(tab) !== 1) throw new Error(await tab.ev(`text('#history-panel')`));
	await tab.ev(`($('#history-type').value = '', $('#history-type').dispatchEvent(new Event('change')), true)`);
	return (await historyTotal(tab)) === 2;
});
