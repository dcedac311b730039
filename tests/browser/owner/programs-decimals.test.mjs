/* The program form follows the shop's currency's decimals: a yen shop's
 * tier spend and reward value are whole yen ("0", not "0.00"), and a
 * spend it refuses is explained with a yen example, not "499.99". */
import { freshShop, patch, ownerBrowser, ownerLogin, nav } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
await patch('admin/settings', { currency: 'JPY' }, shop.token);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('a yen shop\'s tier spend starts at 0 and the reward value\'s example is 0', async () => {
	await nav(t, 'programs');
	await t.waitFor(`vis('#sec-programs')`);
	await t.ev(`click('input[name=ptype][value=punch]')`);
	const reward = await t.ev(`$('#program-form input[data-field=reward_amount]').placeholder`);
	await t.ev(`click('input[name=ptype][value=cashback]') && fill('#program-title', 'Yen Club')`);
	await t.waitFor(`vis('#program-tier-fields') && $$('#program-tier-fields .tier-row').length === 1`);
	const spend = await t.ev(`(() => { const i = $$('#program-tier-fields .tier-row')[0].querySelector('[data-field=tier_spend]'); return [i.value, i.placeholder]; })()`);
	if (reward !== '0' || spend[0] !== '0' || spend[1] !== '0') throw new Error(JSON.stringify({ reward, spend }));
	return true;
});

t.step('a spend with decimals is refused with a whole-yen example', async () => {
	await t.ev(`click(Array.from($$('#program-tier-fields button')).find((b) => b.textContent === 'Add a tier'))`);
	await t.ev(`(() => { const r = $$('#program-tier-fields .tier-row'); r[0].querySelectorAll('input')[0].value = 'Bronze'; r[0].querySelector('[data-field=tier_rate]').value = '2';
	    r[1].querySelectorAll('input')[0].value = 'Gold'; r[1].querySelector('[data-field=tier_spend]').value = '500.50'; r[1].querySelector('[data-field=tier_rate]').value = '5';
	    return click('#program-form button[type=submit]'); })()`);
	await t.waitFor(`text('#program-form .form-msg').includes('Tier 2')`);
	const m = await t.ev(`text('#program-form .form-msg')`);
	return (m.includes('such as 500 or 4999') && !m.includes('499.99')) || Promise.reject(new Error(m));
});
