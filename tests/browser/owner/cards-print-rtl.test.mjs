/* The printed card sheet in Arabic: each card's names start at its
 * right edge and the QR code stands on the left, the codes' images
 * themselves unchanged; in English the layout stays as the server drew
 * it. localizeSheet (owner/print.js) run in the page on the server's
 * sheet. */
import { freshShop, addProgram, issueCards, api, PROGRAMS, ownerBrowser, OWNER } from '../lib/owner-helpers.mjs';
import { URL0 } from '../lib/browser.mjs';

const shop = await freshShop();
const program = await addProgram(shop, PROGRAMS.cashback);
const [card] = await issueCards(shop, program, ['ليلى أحمد']);
const sheet = await api('GET', 'admin/cards/sheet?ids=' + card.card_instance_id, undefined, shop.token);
if (sheet.status !== 200 || !sheet.text.includes('class="card"')) throw new Error('sheet: ' + sheet.status + ' ' + sheet.text.slice(0, 200));
const t = await ownerBrowser({ width: 1280, height: 900 });

/* The first card of the localized sheet drawn in the page: where its
 * names, its QR code and its barcode are, in the card's units. */
const layout = (html) => `(async () => {
	const m = await import('./owner/print.js');
	const doc = new DOMParser().parseFromString(m.localizeSheet(${JSON.stringify(html)}).replace(/<style>[\\s\\S]*?<\\/style>/g, ''), 'text/html');
	/* the page's policy refuses inline styles: the card's geometry is in attributes */
	for (const e of doc.querySelectorAll('[style]')) e.removeAttribute('style');
	const card = document.importNode(doc.querySelector('svg.card'), true);
	card.setAttribute('width', '850'); card.setAttribute('height', '550');
	document.body.append(card);
	const kids = Array.from(card.children).filter((x) => x.tagName === 'svg');
	const names = Array.from(kids[0].querySelectorAll('text')).map((x) => { const b = x.getBBox(); return [b.x + (+kids[0].getAttribute('x') || 0), b.width]; });
	const out = { names, qr: +kids[1].getAttribute('x'), qrPaths: kids[1].innerHTML, bar: +kids[2].getAttribute('x'), dir: doc.documentElement.dir };
	card.remove();
	return out;
})()`;

let en = null;
t.step('in English the names are on the left, the QR code on the right', async () => {
	await t.goto(URL0 + 'owner.html?lang=en');
	await t.waitFor(`vis('#login-form')`);
	en = await t.ev(layout(sheet.text));
	if (!(en.qr > 500 && en.names.every(([x]) => x < 60))) throw new Error(JSON.stringify(en));
	return true;
});

t.step('in Arabic the card mirrors: names end at the right edge, the QR code on the left, its image unchanged', async () => {
	await t.goto(URL0 + 'owner.html?lang=ar');
	await t.waitFor(`vis('#login-form') && document.documentElement.dir === 'rtl'`);
	const ar = await t.ev(layout(sheet.text));
	if (ar.dir !== 'rtl' || ar.qr > 60 || ar.bar + 420 > 850 - 20) throw new Error(JSON.stringify(ar));
	/* each name line starts (ends on the right) at the box's start, 40 units in */
	const bad = ar.names.filter(([x, w]) => Math.abs(x + w - 810) > 2);
	if (bad.length || ar.names.length < 3) throw new Error('names: ' + JSON.stringify(ar.names));
	if (ar.qrPaths !== en.qrPaths) throw new Error('the QR code itself changed');
	return true;
});
void OWNER;
