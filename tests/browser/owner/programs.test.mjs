/* The loyalty programs: one of each type added (the cashback one with
 * the tiers editor and an expiry), then edited. */
import { freshShop, ownerBrowser, ownerLogin, nav, ownerToken, shots3, a11y, postsStep, api } from '../lib/owner-helpers.mjs';

await freshShop();
const t = await ownerBrowser();
await ownerLogin(t);

t.step('adding a punch program', async () => {
	await nav(t, 'programs');
	await t.waitFor(`vis('#sec-programs') && text('#programs-list').includes('No programs yet')`);
	await t.ev(`click('input[name=ptype][value=punch]') && fill('#program-title', 'Coffee Card')`);
	await t.ev(`(() => { const f = (l) => Array.from($$('#program-punch-fields label')).find((x) => x.textContent.startsWith(l)).control;
	    f('Punches for a reward').value = '10'; f('Reward').value = 'Free coffee'; f('Reward description').value = 'Any hot drink';
	    f('Reward value').value = '3.50'; f('Seconds between').value = '60'; return click('#program-form button[type=submit]'); })()`);
	await t.waitFor(`text('#programs-list').includes('Coffee Card') && toast().includes('added')`);
	const s = await t.ev(`text('#programs-list')`);
	if (!['10 punches', 'Free coffee', '3.50', 'Any hot drink', '60 seconds'].every((w) => s.includes(w))) throw new Error(s);
});

t.step('adding a cashback program with 2 tiers (tiers editor)', async () => {
	await t.ev(`click('input[name=ptype][value=cashback]') && fill('#program-title', 'Cashback Club')`);
	await t.waitFor(`vis('#program-tier-fields') && !vis('#program-punch-fields') && $$('#program-tier-fields .tier-row').length === 1`);
	await t.ev(`click(Array.from($$('#program-tier-fields button')).find((b) => b.textContent === 'Add a tier'))`);
	await t.ev(`(() => { const rows = $$('#program-tier-fields .tier-row'); const set = (r, i, v) => { r.querySelectorAll('input')[i].value = v; };
	    set(rows[0], 0, 'Bronze'); set(rows[0], 2, '2'); set(rows[1], 0, 'Gold'); set(rows[1], 1, '0'); set(rows[1], 2, '5'); return true; })()`);
	await t.ev(`($('#program-tier-fields input[data-field=expiry_days]').value = '365', true)`);
	await t.ev(`click('#program-form button[type=submit]')`);
	await t.waitFor(`text('#program-form .form-msg').includes('must be higher')`);
	await t.shot('tier-error');
	await t.ev(`($$('#program-tier-fields .tier-row')[1].querySelectorAll('input')[1].value = '500', click('#program-form button[type=submit]'))`);
	await t.waitFor(`text('#programs-list').includes('Cashback Club')`);
	const r = await api('GET', 'admin/programs', undefined, await ownerToken(t));
	const p = r.json.data.programs.find((x) => x.title === 'Cashback Club');
	if (JSON.stringify(p.tiers) !== JSON.stringify([{ name: 'Bronze', min_spend: 0, rate: 0.02 }, { name: 'Gold', min_spend: 500, rate: 0.05 }])) throw new Error(JSON.stringify(p));
	if (p.expiry_days !== 365) throw new Error('expiry_days: ' + JSON.stringify(p));
	const s = await t.ev(`text('#programs-list')`);
	if (!s.includes('Cashback expires 365 days after it is earned.')) throw new Error(s);
});

t.step('adding a discount program', async () => {
	await t.ev(`click('input[name=ptype][value=discount]') && fill('#program-title', 'Member Discount')`);
	await t.waitFor(`$$('#program-tier-fields .tier-row').length === 1`);
	await t.ev(`(() => { const r = $$('#program-tier-fields .tier-row')[0].querySelectorAll('input'); r[0].value = 'Member'; r[2].value = '5'; return click('#program-form button[type=submit]'); })()`);
	await t.waitFor(`text('#programs-list').includes('Member Discount') && $$('#programs-list article').length === 3`);
});

t.step('editing a program: title and tiers', async () => {
	await t.ev(`click(btnIn($$('#programs-list article').find((a) => a.textContent.includes('Cashback Club')), 'Edit'))`);
	await t.waitFor(`dlg() && dlg().querySelectorAll('.tier-row').length === 2`);
	await a11y(t, 'program dialog');
	await t.shot('edit');
	await t.ev(`(() => { const d = dlg(); d.querySelector('input').value = 'Cashback Club Plus';
	    d.querySelectorAll('.tier-row')[1].querySelectorAll('input')[2].value = '6';
	    d.querySelector('input[data-field=expiry_days]').value = '0'; return click(d.querySelector('button[type=submit]')); })()`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('from 1 to 3650')`);
	await t.ev(`(() => { const d = dlg(); d.querySelector('input[data-field=expiry_days]').value = ''; return click(d.querySelector('button[type=submit]')); })()`);
	await t.waitFor(`!dlg() && text('#programs-list').includes('Cashback Club Plus') && text('#programs-list').includes('6%') &&
	    text('#programs-list').includes('Cashback never expires.')`);
});
t.step('the programs fit 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'programs'));
t.step('the programs pass the accessibility pass', () => a11y(t, 'programs'));

postsStep(t);
