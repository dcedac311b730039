/* Make a new link: the page moves to the new link (the kept copy too),
 * the old link is 404 at once; the old link opened on the phone that
 * re-drew it moves on to the new one and says so. */
import { freshDemo, cardBrowser, open, cardShown, api, a11y, shotStep, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();
let newToken = null;

t.step('Make a new link: the page moves to the new link (kept copy too), the old link is 404 at once', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card'));
	await t.ev(`click('#redraw-button')`);
	await t.waitFor(`vis('#redraw-confirm') && !vis('#redraw-button')`);
	await t.ev(`click('#redraw-yes')`);
	await t.waitFor(`/^#[0-9a-f]{32}$/.test(location.hash) && location.hash !== '#' + ${JSON.stringify(d.punch.token)} && vis('#relink-done')`, 15000);
	await t.waitFor(cardShown('Coffee Card') + ` && imgOk('#qr-image')`, 15000);
	newToken = await t.ev(`location.hash.slice(1)`);
	const k = await t.ev(`kept()`);
	if (k.current !== newToken || k.cards.some((c) => c.token === d.punch.token) || !k.cards.some((c) => c.token === newToken))
		throw new Error(JSON.stringify(k.cards.map((c) => c.token)) + ' current ' + k.current);
	const old = await api('GET', 'mycard/' + d.punch.token), now = await api('GET', 'mycard/' + newToken);
	if (old.status !== 404 || now.status !== 200 || now.json.data.customer_name !== 'Ann Smith')
		throw new Error(old.status + ' ' + now.status);
	await a11y(t);
});
shotStep(t, 'new-link');

t.step('the old link on the phone that re-drew it: the page moves on to the new link and says so', async () => {
	await open(t, d.punch.token);
	await t.waitFor(`location.hash === '#' + ${JSON.stringify(newToken)} && vis('#relink-done') && text('#relink-done').includes('made on this phone')`, 15000);
	return t.ev(cardShown('Coffee Card'));
});

/* The new link too is a card's token. */
t.step('no request carried a Referer, nor the new token outside the API\u2019s path', async () => {
	const leaks = t.sent.filter((r) => newToken && r.url.includes(newToken) && !r.url.startsWith(t.page.url().split('card.html')[0] + 'api/v1/mycard/'));
	if (leaks.length) throw new Error(leaks.map((r) => r.url).join('\n'));
});
tokenStep(t);
