import { isRTL, locale, t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { $, h, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiBlob, apiPatch } from './net.js';
import { SHEET_MAX, progOf, setSettings, st } from './state.js';
import { busy, errorNode, field, openDialog, toast } from './ui.js';
import { tNodes } from './words.js';

/* ---- printing --------------------------------------------------------- */

export let sheetUrls = [];

/* The sheet is opened from a blob: URL, and such a document runs under
 * this page's Content-Security-Policy, which refuses inline styles: the
 * sheet's <style> elements become blob: style sheets (style-src allows
 * blob:). Done on the text (a <style> element ends at the first
 * "</style"), not through DOMParser, whose document would report the
 * inline style as a violation. */
export function sheetBlobUrl(html) {
	const urls = [];
	const out = html.replace(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi, (m, css) => {
		const u = URL.createObjectURL(new Blob([css], { type: 'text/css' }));
		urls.push(u);
		return '<link rel="stylesheet" href="' + u + '">';
	});
	const count = (out.match(/<svg\b[^>]*\bclass="card"/g) || []).length;
	const page = URL.createObjectURL(new Blob([out], { type: 'text/html' }));
	urls.push(page);
	return { url: page, urls, count };
}

/* The five characters that mean markup, as the server writes them. */
const esc = (x) => String(x).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\'': '&#39;' })[c]);
const unesc = (x) => x.replace(/&(amp|lt|gt|quot|#39);/g, (m, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': '\'' })[e]);
/* A catalog text with {name} filled by markup already escaped. */
function tHtml(key, raw) {
	const mark = {};
	for (const k of Object.keys(raw)) mark[k] = '\u0000' + k + '\u0000';
	return esc(t(key, mark)).replace(/\u0000(\w+)\u0000/g, (m, k) => raw[k]);
}

/* A line's width in hundredths of its font size, in a monospace font: a
 * wide (CJK) character takes about a full em, the others 62 (as
 * lib/card_image.c counts them). */
function monoWidth(text) {
	let w = 0;
	for (const ch of text) w += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u.test(ch) ? 100 : 62;
	return w;
}
const LINK_W = 790;	/* the width of the link's band (lib/card_image.c) */

/* The server writes the sheet in English (lib/card_image.c): its
 * language and direction, its title and each card's "Your card online:"
 * become the page's. A longer sentence than the English one takes a
 * smaller font so that its line stays on the card. The cards' faces keep
 * their left-to-right layout (a printed card is the physical world), the
 * names in them read in their own direction all the same. */
export function localizeSheet(html) {
	let out = html.replace(/<html lang="en">/, '<html lang="' + esc(locale()) + '" dir="' + (isRTL() ? 'rtl' : 'ltr') + '">');
	out = out.replace(/<title>Loyalty cards: ([\s\S]*?)<\/title>/, (m, shop) => '<title>' + tHtml('print.sheetTitle', { shop }) + '</title>');
	out = out.replace(/<\/head>/, '<style>.card{direction:ltr}</style></head>');
	if (isRTL()) out = mirrorCards(out);
	const prefix = esc(t('print.cardLink') + ' ');
	if (prefix === 'Your card online: ') return out;
	return out.replace(/<title>Your card online: ([^<]*)<\/title><text x="(\d+)" y="(\d+)" font-size="(\d+)">Your card online: ([^<]*)<\/text>(?:<text x="(\d+)" y="(\d+)" font-size="(\d+)">([^<]*)<\/text>)?/g,
		(m, all, x1, y1, fs, first, x2, y2, fs2, second) => {
			const line = unesc(prefix + first);
			const size = Math.max(6, Math.min(+fs, Math.floor(LINK_W * 100 / monoWidth(line))));
			return '<title>' + prefix + all + '</title><text x="' + x1 + '" y="' + y1 + '" font-size="' + size + '">' + prefix + first + '</text>' +
			    (second === undefined ? '' : '<text x="' + x2 + '" y="' + y2 + '" font-size="' + Math.min(+fs2, size) + '">' + second + '</text>');
		});
}

/* A right-to-left language's cards: the names' box on the right, its
 * lines starting there, the QR code on the left and the barcode on the
 * right (the faces' geometry of lib/card_image.c, 850 units wide: the
 * names' box 520 at 0, the QR code 290 at 540, the barcode 420 at 30).
 * The codes' images themselves are unchanged (a scanner reads them so),
 * and so is the link's line, an address. */
function mirrorCards(html) {
	return html
		.replace(/<svg width="520" height="(\d+)" overflow="hidden"><g font-family="sans-serif" fill="#111">([\s\S]*?)<\/g><\/svg>/g,
			(m, hgt, texts) => '<svg x="330" width="520" height="' + hgt + '" overflow="hidden"><g font-family="sans-serif" fill="#111" direction="rtl" text-anchor="start">' +
			    texts.replace(/<text x="40" /g, '<text x="480" ') + '</g></svg>')
		.replace(/<svg x="540" y="30" width="290" height="290" /g, '<svg x="20" y="30" width="290" height="290" ')
		.replace(/<svg x="30" y="(\d+)" width="420" /g, '<svg x="400" y="$1" width="420" ');
}

/* Opens a sheet of cards in a new tab. The tab is opened at once (while
 * the click still allows a new window), then given the sheet. */
export async function openSheet(query, btn) {
	let w = null;
	try { w = window.open('', '_blank'); } catch (e) { w = null; }
	if (w) {
		try {
			w.document.documentElement.lang = locale();
			w.document.documentElement.dir = isRTL() ? 'rtl' : 'ltr';
			w.document.title = t('print.preparing');
			w.document.body.textContent = t('print.preparing');
		} catch (e) { /* not ours */ }
	}
	const note = $('sheet-note');
	busy(btn, true);
	try {
		const r = await apiBlob('admin/cards/sheet?' + query);
		const sh = sheetBlobUrl(localizeSheet(await r.blob.text()));
		if (!sh.count) {
			for (const u of sh.urls) URL.revokeObjectURL(u);
			if (w) w.close();
			setKids(note, t('print.noCards'));
			show(note, true);
			return;
		}
		for (const u of sheetUrls) URL.revokeObjectURL(u);
		sheetUrls = sh.urls;
		const link = h('a', { href: sh.url, target: '_blank', rel: 'noopener' }, t('print.openAgain'));
		show(note, true);
		if (w && !w.closed) {
			w.opener = null;
			w.location.replace(sh.url);
			setKids(note, ...tNodes('print.opened', { link }, { n: sh.count }));
			toast(t('print.openedToast', { n: sh.count }));
		} else {
			link.textContent = t('print.openSheet', { n: sh.count });
			setKids(note, ...tNodes('print.blocked', { link }));
			note.scrollIntoView({ block: 'nearest' });
		}
	} catch (e) {
		if (w) w.close();
		if (e instanceof SessionEnded) return;
		setKids(note);
		note.append(h('span', { className: 'msg msg-error' }, errorNode(e)));
		show(note, true);
		note.scrollIntoView({ block: 'nearest' });
	} finally {
		busy(btn, false);
	}
}

export function sheetPages() {
	const p = progOf($('sheet-program').value);
	const n = p && Number.isInteger(p.card_count) ? p.card_count : 0;
	const pages = Math.ceil(n / SHEET_MAX);
	const sel = $('sheet-page');
	const keep = sel.value;
	setKids(sel);
	for (let i = 1; i <= pages; i++)
		sel.append(h('option', { value: String(i), selected: String(i) === keep },
			t(i === 1 ? 'print.pageNewest' : 'print.page', { from: (i - 1) * SHEET_MAX + 1, to: Math.min(n, i * SHEET_MAX) })));
	show('sheet-page-field', pages > 1);
}


/* The public_url setting: the address printed on each card before its
 * own link. Empty, the sheet prints no link at all (as loyalty-admin's
 * printer warns), so the page says so where cards are printed, with a
 * way to set it there. */
export const publicUrl = () => {
	const x = st.settings.find((v) => v.key === 'public_url');
	return x && typeof x.value === 'string' ? x.value : '';
};

/* This page's folder: where the card page (card.html) lives beside it. */
const hereFolder = () => new URL('.', location.href).href;

/* An address only this computer reaches: a customer's phone cannot open
 * a link printed with it. */
const loopback = (u) => {
	try {
		const host = new URL(u).hostname;
		return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
	} catch (e) {
		return false;
	}
};

export function renderPrintLinkWarning() {
	const box = $('print-link-warn');
	const missing = st.settings.length > 0 && !publicUrl();
	show(box, missing);
	if (!missing) { setKids(box); show('detail-no-link', false); return; }
	setKids(box,
		h('p', null, h('strong', null, t('print.noLinkHead') + ' '), t('print.noLinkText')),
		h('p', { className: 'btn-row' },
			h('button', { type: 'button', className: 'btn btn-small btn-primary', id: 'print-link-set', onclick: setPublicUrl }, t('print.setAddress')),
			h('a', { href: '#settings', className: 'btn btn-small' }, t('print.openSettings'))));
}

/* A dialog to set public_url, offering this page's folder. */
function setPublicUrl() {
	const f = field({
		label: t('print.addressLabel'), value: hereFolder(), field: 'public_url', inputMode: 'url', spellcheck: false, limit: 'URL_MAX',
		hint: t('print.addressHint') + (loopback(hereFolder()) ? ' ' + t('print.addressLoopback') : '')
	});
	f.input.dir = 'ltr';
	return openDialog({
		title: t('print.addressTitle'), body: f, submitLabel: t('print.save'),
		onSubmit: async () => {
			let v = f.input.value.trim();
			if (!v) throw new FormError(t('print.addressMissing'), f.input);
			if (v.length > limit('URL_MAX')) throw new FormError(t('print.addressTooLong', { max: limit('URL_MAX') }), f.input);
			if (!/^https?:\/\/\S+$/i.test(v)) throw new FormError(t('print.addressBad'), f.input);
			if (!v.endsWith('/')) v += '/';
			const d = await apiPatch('admin/settings', { public_url: v });
			/* the shop's format too, as the settings section saves */
			setSettings(d.settings || st.settings);
			renderPrintLinkWarning();
			toast(t('print.addressSaved', { url: v }));
		}
	});
}
