/* The settings section as the server scopes them: the shop's own first,
 * under "Your shop", the installation's under "This installation"; and
 * the shop's currency, which cannot change once money has moved: the
 * page says so in its own sentence and nothing changes. */
import { cashbackShop, ownerBrowser, ownerLogin, nav, ownerToken, api } from '../lib/owner-helpers.mjs';

/* a purchase recorded: money has moved */
await cashbackShop(12.5);
const t = await ownerBrowser();
await ownerLogin(t);

const settings = async () => Object.fromEntries((await api('GET', 'admin/settings', undefined, await ownerToken(t))).json.data.settings.map((x) => [x.key, x]));

t.step('the settings show the shop\'s and the installation\'s in their own groups, each setting under its scope', async () => {
	await nav(t, 'settings');
	const list = await settings();
	await t.waitFor(`$$('#settings-fields .settings-group').length === 2`);
	const groups = await t.ev(`$$('#settings-fields .settings-group').map((g) => g.textContent)`);
	if (groups[0] !== 'Your shop' || groups[1] !== 'This installation') throw new Error(JSON.stringify(groups));
	/* each field after the heading of its own scope */
	const seen = await t.ev(`(() => {
		const out = {}; let g = null;
		for (const el of $('#settings-fields').children) {
			if (el.classList.contains('settings-group')) g = el.textContent;
			const i = el.querySelector && el.querySelector('[data-key]');
			if (i) out[i.dataset.key] = g;
		}
		return out;
	})()`);
	for (const [k, x] of Object.entries(list)) {
		const want = x.scope === 'shop' ? 'Your shop' : 'This installation';
		if (seen[k] !== want) throw new Error(k + ' (' + x.scope + ') under ' + seen[k]);
	}
	return list.currency.scope === 'shop' && list.access_token_ttl.scope === 'installation';
});

t.step('a currency change after money moved shows the page\'s sentence and changes nothing', async () => {
	const before = (await settings()).currency.value;
	const other = before === 'JPY' ? 'EUR' : 'JPY';
	await t.ev(`pick('[data-key=currency]', '${other}') && click('#settings-form button[type=submit]')`);
	await t.waitFor(`text('#settings-form .form-msg').includes("The shop's currency cannot change once money has moved")`);
	if (await t.ev(`$('[data-key=currency]').getAttribute('aria-invalid')`) !== 'true') throw new Error('the currency field is not marked');
	/* said beside the field, naming the currency kept, in the page's own
	 * words (not the server's message in brackets); the select back on it */
	const r = await t.ev(`(() => { const sel = $('[data-key=currency]'), f = sel.closest('.field'), m = f.querySelector('.field-msg');
	    const b = f.getBoundingClientRect();
	    return { near: !!m && !m.hidden && m.offsetParent !== null, msg: m ? m.textContent : '', value: sel.value, bottom: vis('#settings-form > .form-msg'),
	      seen: b.top >= 0 && b.bottom <= innerHeight, described: (sel.getAttribute('aria-describedby') || '').includes(m ? m.id : '-') }; })()`);
	if (!r.near || r.bottom) throw new Error('the message is not beside the field: ' + JSON.stringify(r));
	const server = await api('PATCH', 'admin/settings', { currency: other }, await ownerToken(t));
	const said = server.json && server.json.error && server.json.error.message;
	if (server.status !== 409 || !said) throw new Error('the server: ' + server.status + ' ' + server.text);
	if (!r.msg.includes('Your shop keeps its currency: ' + (before || 'None named')) || r.msg.includes(said)) throw new Error(r.msg);
	if (r.value !== before) throw new Error('the select shows ' + r.value + ', the shop has ' + before);
	if (!r.seen || !r.described) throw new Error(JSON.stringify(r));
	await t.shot('currency-refused');
	return (await settings()).currency.value === before;
});
