/* tests/browser/card/shop-money.mjs: the card page of a shop with a currency of other decimals than two and
 * a time zone far from UTC, at a phone's 390 px: a yen shop in Tokyo read
 * in Japanese (no decimals), a dinar shop in Kuwait read in Arabic (three
 * decimals, right to left); the day cashback expires is the shop's day,
 * not UTC's. One shop a file (shop-yen, shop-dinar): each file's demo
 * shop is the server's database while it runs. */
import { readFileSync } from 'node:fs';
import { freshDemo, cardBrowser, record, admin, sql, shotStep, tokenStep, PAGE } from '../lib/card-helpers.mjs';

const catalog = (l) => JSON.parse(readFileSync(new URL('../../../htdocs/i18n/' + l + '.json', import.meta.url), 'utf8'));
const fill = (s, p) => s.replace(/\{(\w+)\}/g, (m, k) => p[k]);
/* A date as the page writes it (js/progress.js expiryLine, for a day of
 * another year): the catalog's order of Intl's parts in the zone. */
function day(lang, zone, ms) {
	const loc = lang === 'ar' ? 'ar-u-nu-latn' : lang;
	const part = (o) => new Intl.DateTimeFormat(loc, Object.assign({ timeZone: zone }, o)).format(ms);
	return fill(catalog(lang)['progress.day_month_year'], { day: part({ day: 'numeric' }), month: part({ month: 'short' }), year: part({ year: 'numeric' }) });
}

/* The steps of one shop: s = { name (the screenshot's), currency, zone,
 * lang, paid (a purchase on the cashback card), money (the balance as
 * the page writes it), hour (UTC, on 3 December: the 4th in the zone) }. */
export async function shopSteps(s) {
	const d = await freshDemo();
	admin('setting', 'set', 'currency', s.currency);
	admin('setting', 'set', 'time_zone', s.zone);
	const t = await cardBrowser();
	/* Late on 3 December UTC: already the 4th in Tokyo and in Kuwait. */
	const at = Date.UTC(new Date().getUTCFullYear() + 1, 11, 3, s.hour);

	t.step(`${s.currency} in ${s.zone}, ${s.lang}: the balance in the currency's decimals, the expiry on the shop's day`, async () => {
		const r = await record(d.cash.card, s.paid);
		sql('UPDATE cashback_earnings SET expires_at = ' + at + " WHERE card_id = '" + d.cash.card + "'");
		await t.goto(PAGE + '?lang=' + s.lang + '#' + d.cash.token);
		await t.waitFor(`document.readyState === 'complete' && $('main').getAttribute('aria-busy') === 'false' && vis('#card-view') && document.documentElement.lang === ${JSON.stringify(s.lang)}`, 15000);
		const p = await t.ev(`({ rows: [...document.querySelectorAll('#balance dd, #balance .value, #balance > * > *:last-child')].map((e) => e.textContent.trim()),
			bal: text('#balance'), line: text('#progress-line'), wide: document.documentElement.scrollWidth <= innerWidth, dir: document.documentElement.dir })`);
		const shopDay = day(s.lang, s.zone, at), utcDay = day(s.lang, 'UTC', at);
		const why = JSON.stringify({ answer: r.new_balance, shopDay, utcDay, page: p });
		if (!p.rows.some((x) => s.money.test(x))) throw new Error('balance not in the currency\'s decimals: ' + why);
		if (!p.bal.includes(shopDay) || p.bal.includes(utcDay)) throw new Error('expiry not on the shop\'s day: ' + why);
		if (!p.wide || p.dir !== (s.lang === 'ar' ? 'rtl' : 'ltr')) throw new Error(why);
		/* each amount on one line (not "0.050 د." over "ك."), in a tile it
		 * does not overflow: the lines of each amount's text, by a range
		 * over the tile's text nodes */
		const re = new RegExp(s.money.source.replace(/^\^|\$$/g, ''), 'g');
		const tiles = await t.ev(`[...document.querySelectorAll('#balance .bal')].map((b) => {
			const dd = b.querySelector('dd'), nodes = [], w = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
			while (w.nextNode()) nodes.push(w.currentNode);
			const at = (k) => { for (const n of nodes) { if (k <= n.length) return [n, k]; k -= n.length; } };
			const amounts = [...dd.textContent.matchAll(new RegExp(${JSON.stringify(re.source)}, 'g'))].map((m) => {
				const r = document.createRange();
				r.setStart(...at(m.index));
				r.setEnd(...at(m.index + m[0].length));
				return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
			});
			return { text: dd.textContent, amounts, over: b.scrollWidth > b.clientWidth || dd.scrollWidth > dd.clientWidth };
		})`);
		if (tiles.filter((x) => x.amounts.length).length < 3 || tiles.some((x) => x.over || x.amounts.some((n) => n !== 1)))
			throw new Error('an amount broken or overflowing: ' + JSON.stringify(tiles));
		/* nothing of English left in the card's rows */
		if (/[A-Za-z]{3,}/.test(p.bal.replace(/Cashback Club|Bronze|Silver|Gold/g, ''))) throw new Error('English left: ' + why);
	}, { timeout: 60000 });
	shotStep(t, s.name);
	tokenStep(t, [d.punch.token, d.cash.token, d.disc.token]);
}
