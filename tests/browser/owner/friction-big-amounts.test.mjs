/* Large amounts shown whole: a Tokyo café's ¥2,001,734 day in the
 * overview's and the reports' tiles at 1280 and 390 px, the chart's
 * scale labels inside the chart and its ticks round; a Kuwait shop's
 * dinars in Arabic, the axis names and "د.ك." inside the chart. */
import { freshShop, addLocation, addCashier, addProgram, issueCards, login, record, patch, PROGRAMS, CASHIER,
	ownerBrowser, ownerLogin, nav } from '../lib/owner-helpers.mjs';
import { URL0, sleep } from '../lib/browser.mjs';

async function shopWith(currency, amount) {
	const shop = await freshShop();
	await patch('admin/settings', { currency }, shop.token);
	await addCashier(shop, shop.location, 'Sam Till', CASHIER);
	const program = await addProgram(shop, PROGRAMS.cashback);
	const [card] = await issueCards(shop, program, ['Robert Brown']);
	await record(await login(CASHIER), shop.location, card.card_instance_id, amount);
	return shop;
}

/* Every tile's amount whole in its tile; every text of the chart inside it. */
const fits = `(() => {
	const bad = [];
	for (const dd of $$('.figures dd')) {
		const tile = dd.closest('.bal').getBoundingClientRect(), r = document.createRange(); r.selectNodeContents(dd);
		const tx = r.getBoundingClientRect();
		if (dd.scrollWidth > dd.clientWidth + 1 || tx.left < tile.left - 0.5 || tx.right > tile.right + 0.5) bad.push(dd.textContent);
	}
	const svg = $('#chart svg');
	if (svg) {
		const W = svg.viewBox.baseVal.width;
		for (const el of svg.querySelectorAll('text')) { const b = el.getBBox(); if (b.x < -0.5 || b.x + b.width > W + 0.5) bad.push('chart: ' + el.textContent); }
	}
	return bad;
})()`;
const ticks = `$$('#chart .ch-scale').map((x) => x.textContent)`;

await shopWith('JPY', 2001734);
const t = await ownerBrowser({ width: 1280, height: 900 });
await ownerLogin(t);

for (const w of [1280, 390]) {
	t.step(`¥2,001,734 shows whole in the overview and the reports at ${w} px, the chart's scale inside it`, async () => {
		await t.viewport(w, 900);
		await nav(t, 'overview');
		await t.waitFor(`text('#today-figures').includes('2,001,734')`);
		let bad = await t.ev(fits);
		if (bad.length) throw new Error('overview cut: ' + bad.join(' | '));
		await nav(t, 'reports');
		await t.waitFor(`vis('#report-out') && text('#report-figures').includes('2,001,734') && $$('#chart .ch-scale').length === 6`);
		await sleep(400);
		bad = await t.ev(fits);
		await t.shot('big-yen-' + w);
		if (bad.length) throw new Error('reports cut: ' + bad.join(' | '));
		return true;
	});
}

t.step('the sales scale goes in round yen (0, 1,200,000, 2,400,000), not ¥1,000,867', async () => {
	const s = (await t.ev(ticks)).slice(0, 3).map((x) => x.replace(/[^\d]/g, ''));
	return (s[0] === '0' && s[1] === '1200000' && s[2] === '2400000') || Promise.reject(new Error(JSON.stringify(s)));
});

t.step('a Kuwait shop in Arabic: 1,000.500 dinars whole, "د.ك." and the axes\' names inside the chart', async () => {
	await shopWith('KWD', 1000.5);
	await t.viewport(390, 900);
	await t.goto(URL0 + 'owner.html?lang=ar');
	await t.waitFor(`vis('#login-form')`);
	await t.ev(`fill('#login-email', 'olive@corner.example') && fill('#login-password', 'owner-pass-123') && click('#login-submit')`);
	await t.waitFor(`vis('#app-view') && document.documentElement.dir === 'rtl'`);
	await nav(t, 'reports');
	await t.waitFor(`vis('#report-out') && $$('#chart .ch-scale').length === 6`);
	await sleep(400);
	const bad = await t.ev(fits);
	await t.shot('kwd-ar-390');
	if (bad.length) throw new Error('cut: ' + bad.join(' | '));
	const s = (await t.ev(ticks)).slice(0, 3);
	/* 1,000.500 dinars: steps of 600.000 (whole fils, round) */
	if (!s[2].includes('د.ك') || s[1].replace(/[^\d]/g, '') !== '600000') throw new Error(JSON.stringify(s));
	return true;
});
