/* The shop's time zone in Settings: the zones by their current names
 * (Chromium lists Europe/Kiev, Asia/Calcutta…), a stored zone shown even
 * when the list lacks it, and the installation's fixed offset beside a
 * shop with a zone said to be only the fallback of shops without one
 * (never "change it when the clocks change" to a shop whose zone does). */
import { freshShop, ownerBrowser, ownerLogin, nav, patch } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
await patch('admin/settings', { time_zone: 'Asia/Kolkata' }, shop.token);
const t = await ownerBrowser();
await ownerLogin(t);

const OLD = ['Europe/Kiev', 'Asia/Calcutta', 'Asia/Saigon', 'Asia/Katmandu', 'Asia/Rangoon', 'America/Godthab'];
const NOW = ['Europe/Kyiv', 'Asia/Kolkata', 'Asia/Ho_Chi_Minh', 'Asia/Kathmandu', 'Asia/Yangon', 'America/Nuuk'];
const opts = `$$('[data-key=time_zone] option').map((o) => [o.value, o.textContent])`;

t.step('the zones go by their current names, the stored one selected', async () => {
	await nav(t, 'settings');
	await t.waitFor(`$('[data-key=time_zone]') && $('[data-key=time_zone]').options.length > 10`);
	const o = await t.ev(opts);
	const values = o.map((x) => x[0]), labels = o.map((x) => x[1]);
	const old = OLD.filter((z) => values.includes(z) || labels.includes(z.replace(/_/g, ' ')));
	const lack = NOW.filter((z) => !values.includes(z) || !labels.includes(z.replace(/_/g, ' ')));
	if (old.length || lack.length) throw new Error('old names: ' + old.join(' ') + '; lacking: ' + lack.join(' '));
	if (new Set(values).size !== values.length) throw new Error('a zone twice');
	return t.ev(`$('[data-key=time_zone]').value === 'Asia/Kolkata'`);
});

t.step('with a zone, the fixed offset is said to be the fallback of shops without one', async () => {
	const hint = await t.ev(`$('[data-key=utc_offset_minutes]').closest('.field').querySelector('.hint').textContent`);
	if (/change it when the clocks change/.test(hint) || !hint.includes('Not used by your shop') || !hint.includes('Asia/Kolkata'))
		throw new Error(hint);
	await t.shot('offset-with-zone');
	/* no zone chosen: the offset's own hint again */
	await t.ev(`pick('[data-key=time_zone]', '')`);
	const h2 = await t.ev(`$('[data-key=utc_offset_minutes]').closest('.field').querySelector('.hint').textContent`);
	return /change it when the clocks change/.test(h2) || Promise.reject(new Error(h2));
});
