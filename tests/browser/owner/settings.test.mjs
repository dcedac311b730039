/* The shop's settings: each with its range; a value the API refuses
 * shows its message; numbers, a text and a checkbox saved. */
import { freshShop, ownerBrowser, ownerLogin, nav, ownerToken, shots3, a11y, api } from '../lib/owner-helpers.mjs';

await freshShop();
const t = await ownerBrowser();
await ownerLogin(t);

t.step('settings show their range; a value the API refuses shows its message', async () => {
	await nav(t, 'settings');
	const list = (await api('GET', 'admin/settings', undefined, await ownerToken(t))).json.data.settings;
	await t.waitFor(`$$('#settings-fields input, #settings-fields select').length === ${list.length}`);
	const s = await t.ev(`text('#settings-fields')`);
	/* The shop's currency, time zone and language are lists to choose from. */
	const CHOSEN = ['currency', 'time_zone', 'language'];
	for (const x of list)
		if (!CHOSEN.includes(x.key) && !s.includes(typeof x.max_length === 'number' ? 'Up to ' + x.max_length + ' characters' :
		    x.min === 0 && x.max === 1 ? (x.default === 1 ? 'On' : 'Off') + ' by default.' :
		    'Default ' + x.default + '; from ' + x.min + ' to ' + x.max + '.')) throw new Error('no range of ' + x.key + ' in ' + s);
	if (!s.includes('Shop time zone') || !s.includes('UTC+00:00') || !s.includes('1 hour') || !s.includes('30 days')) throw new Error(s);
	if (await t.ev(`$$('#settings-fields input').some((i) => !/^[A-Z]/.test(i.labels[0].textContent))`)) throw new Error('a setting without its own label');
	await t.ev(`fill('[data-key=utc_offset_minutes]', '7') && click('#settings-form button[type=submit]')`);
	await t.waitFor(`text('#settings-form .form-msg').includes('a multiple of 15')`);
	return t.ev(`$('[data-key=utc_offset_minutes]').getAttribute('aria-invalid') === 'true'`);
});
t.step('the settings fit 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'settings'));
t.step('the settings pass the accessibility pass', () => a11y(t, 'settings'));

t.step('two settings saved are the API\'s new values', async () => {
	await t.ev(`fill('[data-key=utc_offset_minutes]', '60') && fill('[data-key=login_max_failures]', '9') && click('#settings-form button[type=submit]')`);
	await t.waitFor(`toast().includes('2 settings saved')`);
	const r = await api('GET', 'admin/settings', undefined, await ownerToken(t));
	const v = Object.fromEntries(r.json.data.settings.map((x) => [x.key, x.value]));
	if (v.utc_offset_minutes !== 60 || v.login_max_failures !== 9) throw new Error(JSON.stringify(v));
});

t.step('a text (the currency symbol) and a checkbox (staff enrolment) are saved; an address that is not http(s) is refused', async () => {
	/* The step before left a toast of the same words: it is cleared
	 * first, so the one seen is this save's. It shows for 7 s: it is
	 * waited for first, then the server asked (a loaded machine once
	 * answered the polls for longer than the toast showed). */
	await t.ev(`($('#toast').textContent = '', fill('[data-key=currency_symbol]', '€') && click('[data-key=staff_enrolment]') && click('#settings-form button[type=submit]'))`);
	await t.waitFor(`toast().includes('2 settings saved')`);
	const r = await api('GET', 'admin/settings', undefined, await ownerToken(t));
	const v = Object.fromEntries(r.json.data.settings.map((x) => [x.key, x.value]));
	if (v.currency_symbol !== '€' || v.staff_enrolment !== 0) throw new Error(JSON.stringify(v));
	await t.ev(`fill('[data-key=public_url]', 'ftp://shop.example/') && click('#settings-form button[type=submit]')`);
	await t.waitFor(`$('[data-key=public_url]').getAttribute('aria-invalid') === 'true'`);
	await t.ev(`fill('[data-key=public_url]', '') && click('[data-key=staff_enrolment]') && click('#settings-form button[type=submit]')`);
	await t.waitFor(`toast().includes('1 setting saved')`);
});
