/* Links that name no card: an unknown one shows a message and nothing of
 * any card kept; a malformed one is refused without asking the server;
 * card.html without a fragment (a home-screen start) shows the card
 * remembered. */
import { freshDemo, cardBrowser, open, cardShown, a11y, shotStep, tokenStep, UNKNOWN } from '../lib/card-helpers.mjs';
import { sleep } from '../lib/browser.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('an unknown link shows the message and nothing of any card', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card'));
	await open(t, UNKNOWN);
	await t.waitFor(`vis('#message-view') && text('h1') === 'Card not found'`);
	const s = await t.ev(`({ body: $('main').innerText, imgs: $$('img').filter((i) => i.getAttribute('src')).length, card: vis('#card-view'),
		shop: text('#shop-name'), forget: vis('#forget-button'), title: document.title })`);
	for (const w of ['Demo Coffee', 'Ann Smith', 'Demo Customer', 'Coffee Card', 'Cashback', d.punch.barcode])
		if (s.body.includes(w)) throw new Error('shows ' + w + ': ' + s.body);
	if (s.imgs || s.card || s.forget || s.shop !== 'Loyalty card' || s.title !== 'Your loyalty card' ||
	    !s.body.includes('This card link is not known to the shop') || !s.body.includes('new link')) throw new Error(JSON.stringify(s));
	if ((await t.ev(`kept().cards.map((c) => c.token)`)).includes(UNKNOWN)) throw new Error('the unknown token was kept');
	await a11y(t);
});
shotStep(t, 'unknown');

t.step('a malformed link is refused without asking the server', async () => {
	const before = t.sent.length;
	await open(t, 'abc123');
	await t.waitFor(`text('h1') === 'Card link not complete'`);
	await sleep(300);
	const asked = t.sent.slice(before).filter((r) => r.url.includes('/api/'));
	if (asked.length) throw new Error('asked ' + asked.map((r) => r.url).join(', '));
	return t.ev(`!vis('#card-view') && !$('main').innerText.includes('Demo Coffee') && text('#shop-name') === 'Loyalty card'`);
});

t.step('card.html without a fragment (a home-screen start) shows the remembered card', async () => {
	await open(t);
	await t.waitFor(cardShown('Coffee Card'));
	return t.ev(`location.hash === '#' + ${JSON.stringify(d.punch.token)} && text('#customer-name') === 'Ann Smith'`);
});

tokenStep(t);
