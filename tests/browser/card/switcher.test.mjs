/* The cards kept on the phone: a switcher between them; another card's
 * link in the same tab; a kept card the server no longer knows, and
 * Forget. */
import { freshDemo, cardBrowser, open, cardShown, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('the switcher lists the three cards kept; switching shows another', async () => {
	for (const [k, title] of [['punch', 'Coffee Card'], ['cash', 'Cashback Club'], ['disc', 'Member Discount']]) {
		await open(t, d[k].token);
		await t.waitFor(cardShown(title));
	}
	await t.waitFor(`vis('#switcher') && $$('#card-select option').length === 3`);
	const opts = await t.ev(`$$('#card-select option').map((o) => o.textContent)`);
	if (opts.join(' | ') !== 'Cashback Club · Demo Coffee | Coffee Card · Demo Coffee | Member Discount · Demo Coffee')
		throw new Error(opts.join(' | '));
	await t.ev(`pick('#card-select', ${JSON.stringify(d.punch.token)})`);
	await t.waitFor(cardShown('Coffee Card'));
	return t.ev(`location.hash === '#' + ${JSON.stringify(d.punch.token)} && kept().current === ${JSON.stringify(d.punch.token)}`);
});

t.step('another card\u2019s link opened in the same tab (a new fragment) shows that card', async () => {
	await t.ev(`(location.hash = ${JSON.stringify('#' + d.cash.token)}, true)`);
	await t.waitFor(cardShown('Cashback Club'));
	await t.ev(`pick('#card-select', ${JSON.stringify(d.punch.token)})`);
	await t.waitFor(cardShown('Coffee Card'));
});

t.step('a kept card the server no longer knows: the message, and Forget removes it', async () => {
	await t.fulfil('api/v1/mycard/' + d.disc.token, () => ({ status: 404,
		body: { success: false, error: { code: 'NOT_FOUND', message: 'No such card.' }, meta: { request_id: 'x', timestamp: 'x' } } }));
	await open(t, d.disc.token);
	await t.waitFor(`text('h1') === 'Card not found' && vis('#forget-button')`);
	if (await t.ev(`vis('#card-view') || $('main').innerText.includes('Member Discount')`)) throw new Error('the card is still shown');
	await t.clearIntercepts();
	await t.ev(`click('#forget-button')`);
	await t.waitFor(cardShown('Coffee Card'));
	return t.ev(`kept().cards.length === 2 && !kept().cards.some((c) => c.token === ${JSON.stringify(d.disc.token)}) &&
	    kept().current === ${JSON.stringify(d.punch.token)} && location.hash === '#' + ${JSON.stringify(d.punch.token)}`);
});

tokenStep(t);
