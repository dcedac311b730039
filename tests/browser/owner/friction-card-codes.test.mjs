/* The card's two codes say which is which (both for the till; the
 * customer's page is a link, not a code), and each downloads as a file. */
import fs from 'node:fs';
import { freshShop, addProgram, issueCards, PROGRAMS, ownerBrowser, ownerLogin, openCard, download } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
const program = await addProgram(shop, PROGRAMS.cashback);
const [card] = await issueCards(shop, program, ['Robert Brown']);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('the QR code and the barcode are labelled as the till\'s, the customer\'s page as a link', async () => {
	await openCard(t, 'Robert', 'Robert Brown');
	await t.waitFor(`$('#detail-qr').complete && $('#detail-qr').naturalWidth > 0 && !$('#detail-qr-dl').disabled && !$('#detail-barcode-dl').disabled`);
	const caps = await t.ev(`$$('#card-detail figcaption').map((f) => f.textContent)`);
	if (!caps[0].includes('QR code for the till') || !caps[1].includes('Barcode for the till')) throw new Error(JSON.stringify(caps));
	await t.shot('codes');
	return t.ev(`text('#card-detail').includes('a link and not a code for the till')`);
});

t.step('"Download the QR code" saves the card\'s QR code as an SVG file named by its barcode', async () => {
	const f = await download(t, `click('#detail-qr-dl')`);
	if (!f.endsWith('card-' + card.barcode_value + '-qr-code.svg')) throw new Error(f);
	const s = fs.readFileSync(f, 'utf8');
	return /<svg/.test(s) || Promise.reject(new Error(s.slice(0, 200)));
});

t.step('"Download the barcode" saves its barcode as an SVG file', async () => {
	const f = await download(t, `click('#detail-barcode-dl')`);
	if (!f.endsWith('card-' + card.barcode_value + '-barcode.svg')) throw new Error(f);
	return /<svg/.test(fs.readFileSync(f, 'utf8'));
});
