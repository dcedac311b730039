/* A punch card opened by its link: the shop, title, customer and
 * progress; its QR code and barcode loaded and decoded; the card and its
 * codes kept in localStorage, and the kept QR code shown when the
 * server fails to send the picture. */
import path from 'node:path';
import { URL0 } from '../lib/browser.mjs';
import { freshDemo, cardBrowser, open, cardShown, tokenStep } from '../lib/card-helpers.mjs';
import { zbar, have, elementPng, shotsDir } from '../lib/owner-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();
const noZbar = !have('zbarimg') && 'zbarimg is not installed (apt-get install zbar-tools)';

t.step('the punch card opens by its link: shop, title, customer, progress', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card'));
	const s = await t.ev(`({ shop: text('#shop-name'), cust: text('#customer-name'), line: text('#progress-line'),
		dots: $$('#punch-dots .pdot').length, on: $$('#punch-dots .pdot.on').length, bal: text('#balance'),
		title: document.title, upd: text('#updated-text'), stale: vis('#stale-note'), rewards: vis('#rewards-box') })`);
	if (s.shop !== 'Demo Coffee' || s.cust !== 'Ann Smith' || s.line !== '10 more punches for a free coffee.' ||
	    s.dots !== 10 || s.on !== 0 || !s.bal.includes('0 of 10') || s.title !== 'Coffee Card · Demo Coffee' ||
	    !/^Updated today at /.test(s.upd) || s.stale || s.rewards)
		throw new Error(JSON.stringify(s));
});

t.step('the QR image (qr.svg) is loaded and decodes to the card\u2019s QR data', async () => {
	await t.waitFor(`imgOk('#qr-image') && imgOk('#barcode-image')`);
	const src = await t.ev(`$('#qr-image').src`);
	if (src !== URL0 + 'api/v1/mycard/' + d.punch.token + '/qr.svg') throw new Error('src ' + src);
	const f = await elementPng(t, '.qr-box', path.join(shotsDir(), 'punch-card-qr.png'), 2);
	const got = zbar(f);
	if (got !== d.punch.qr) throw new Error('decoded ' + JSON.stringify(got) + ', want ' + d.punch.qr);
}, { skip: noZbar });

t.step('the barcode (barcode.svg) decodes to the digits shown as text', async () => {
	await t.waitFor(`imgOk('#barcode-image')`);
	const digits = await t.ev(`text('#barcode-digits')`);
	if (digits !== d.punch.barcode) throw new Error('digits ' + digits);
	const f = await elementPng(t, '.bar-box', path.join(shotsDir(), 'punch-card-barcode.png'), 3);
	const got = zbar(f, true);
	if (got !== 'EAN-13:' + d.punch.barcode) throw new Error('decoded ' + JSON.stringify(got));
}, { skip: noZbar });

t.step('the card and its codes are kept in localStorage', async () => {
	await t.waitFor(`kept() && kept().cards.length === 1 && !!kept().cards[0].qr && !!kept().cards[0].bar`);
	const k = await t.ev(`kept()`);
	return k.current === d.punch.token && k.cards[0].token === d.punch.token && k.cards[0].data.customer_name === 'Ann Smith' &&
	    /<svg/.test(k.cards[0].qr) && /<svg/.test(k.cards[0].bar);
});

t.step('a QR picture the server fails to send: the kept copy is shown instead', async () => {
	await t.fulfil('/qr.svg', () => ({ status: 503, headers: { 'Retry-After': '1' },
		body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'x' } } }));
	/* The picture is cached by the browser for a day: a new page load
	 * with the cache off asks for it again. */
	await t.S('Network.setCacheDisabled', { cacheDisabled: true });
	await open(t, d.punch.token);
	await t.waitFor(`$('#qr-image').src.startsWith('data:image/svg+xml') && imgOk('#qr-image') && !vis('#code-missing')`);
	await t.clearIntercepts();
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`$('#qr-image').src.endsWith('/qr.svg') && imgOk('#qr-image')`);
	await t.S('Network.setCacheDisabled', { cacheDisabled: false });
});

tokenStep(t);
