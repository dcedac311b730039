/* The card's two codes say which is which (both for the till; the
 * customer's page is a link, not a code), and each downloads as a file. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { freshShop, addProgram, issueCards, PROGRAMS, ownerBrowser, ownerLogin, openCard, download, have, zbar } from '../lib/owner-helpers.mjs';

/* The downloaded file read by third-party tools: rsvg-convert renders it,
 * zbarimg decodes what a scanner would read. */
const tools = have('zbarimg') && have('rsvg-convert');
function decoded(svg, typed) {
	if (!tools) return null;
	const png = svg.replace(/\.svg$/, '.png');
	execFileSync('rsvg-convert', ['-w', '600', '-b', 'white', '-o', png, svg], { stdio: 'ignore' });
	return zbar(png, typed);
}

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

t.step('"Download the QR code" saves the card\'s QR code as an SVG file named by its barcode, which zbarimg reads as the card\'s QR data', async () => {
	const f = await download(t, `click('#detail-qr-dl')`);
	if (!f.endsWith('card-' + card.barcode_value + '-qr-code.svg')) throw new Error(f);
	const s = fs.readFileSync(f, 'utf8');
	if (!/<svg/.test(s)) throw new Error(s.slice(0, 200));
	const got = decoded(f, false);
	if (got !== null && got !== card.qr_code_data) throw new Error('zbarimg: ' + got + ', want ' + card.qr_code_data);
});

t.step('"Download the barcode" saves its barcode as an SVG file, which zbarimg reads as its EAN-13', async () => {
	const f = await download(t, `click('#detail-barcode-dl')`);
	if (!f.endsWith('card-' + card.barcode_value + '-barcode.svg')) throw new Error(f);
	if (!/<svg/.test(fs.readFileSync(f, 'utf8'))) throw new Error('not an SVG: ' + f);
	const got = decoded(f, true);
	if (got !== null && got !== 'EAN-13:' + card.barcode_value) throw new Error('zbarimg: ' + got + ', want EAN-13:' + card.barcode_value);
});
