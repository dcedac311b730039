/* An inactive card says so and shows no progress line. */
import { freshDemo, cardBrowser, open, cardShown, admin, a11y, shotStep, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('an inactive card says so and shows no progress line', async () => {
	admin('card', 'deactivate', d.disc.card);
	await open(t, d.disc.token);
	await t.waitFor(cardShown('Member Discount'));
	const s = await t.ev(`({ banner: vis('#status-banner') && text('#status-banner'), line: vis('#progress-line'), bal: text('#balance') })`);
	if (s.banner !== 'This card is not active. Ask at the shop.' || s.line || !s.bal.includes('5%')) throw new Error(JSON.stringify(s));
	await a11y(t);
});
shotStep(t, 'inactive');

tokenStep(t);
