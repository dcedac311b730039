/* After a purchase at the till, Refresh shows the new count and the
 * reward; the card in dark mode (codes dark on white, contrast), at
 * 320 px (nothing scrolls sideways), on a tablet and a laptop. */
import { freshDemo, cardBrowser, open, cardShown, record, device, colourScheme, shotStep, a11y, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('after a purchase recorded at the till, Refresh shows the new count and the reward', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card'));
	const r = await record(d.punch.card, 4.5, 12);
	if (r.new_punch_count !== 2 || r.rewards_earned !== 1) throw new Error(JSON.stringify(r));
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`text('#balance').includes('2 of 10') && $$('#punch-dots .pdot.on').length === 2`);
	const s = await t.ev(`({ line: text('#progress-line'), box: vis('#rewards-box') && text('#rewards-box') })`);
	if (s.line !== 'Your reward is waiting: Free coffee.' || !s.box || !s.box.includes('Free coffee: Any hot drink')) throw new Error(JSON.stringify(s));
	await t.waitFor(`imgOk('#qr-image') && imgOk('#barcode-image')`);
});
shotStep(t, 'phone');

t.step('dark mode: the codes stay dark on white; contrast holds', async () => {
	await colourScheme(t, 'dark');
	const c = await t.ev(`({ body: getComputedStyle(document.body).backgroundColor, qr: getComputedStyle($('.qr-box')).backgroundColor })`);
	if (c.body === 'rgb(238, 241, 245)' || c.qr !== 'rgb(255, 255, 255)') throw new Error(JSON.stringify(c));
	await a11y(t);
});
shotStep(t, 'phone-dark');

t.step('320 px wide: nothing scrolls sideways', async () => {
	await colourScheme(t, 'light');
	await device(t, 320, 640);
	const w = await t.ev(`document.documentElement.scrollWidth`);
	await t.shot('320');
	if (w > 320) throw new Error('the page is ' + w + ' px wide');
});

t.step('on a tablet (768 px) the card shows', async () => {
	await device(t, 768, 1024);
	await t.waitFor(cardShown('Coffee Card'));
});
shotStep(t, 'tablet');
t.step('on a laptop (1280 px) the card shows', async () => {
	await device(t, 1280, 800);
	await t.waitFor(cardShown('Coffee Card'));
});
shotStep(t, 'laptop');

tokenStep(t);
