import { limit } from '../js/limits.js';
import { $, h, plural, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiBlob, apiPatch } from './net.js';
import { SETTING_INFO, SHEET_MAX, progOf, st } from './state.js';
import { busy, errorNode, field, need, openDialog, toast } from './ui.js';

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

/* Opens a sheet of cards in a new tab. The tab is opened at once (while
 * the click still allows a new window), then given the sheet. */
export async function openSheet(query, btn) {
	let w = null;
	try { w = window.open('', '_blank'); } catch (e) { w = null; }
	if (w) {
		try { w.document.title = 'Preparing the cards…'; w.document.body.textContent = 'Preparing the cards…'; } catch (e) { /* not ours */ }
	}
	const note = $('sheet-note');
	busy(btn, true);
	try {
		const r = await apiBlob('admin/cards/sheet?' + query);
		const sh = sheetBlobUrl(await r.blob.text());
		if (!sh.count) {
			for (const u of sh.urls) URL.revokeObjectURL(u);
			if (w) w.close();
			setKids(note, 'There are no cards to print.');
			show(note, true);
			return;
		}
		for (const u of sheetUrls) URL.revokeObjectURL(u);
		sheetUrls = sh.urls;
		const link = h('a', { href: sh.url, target: '_blank', rel: 'noopener' }, 'Open the sheet again');
		show(note, true);
		if (w && !w.closed) {
			w.opener = null;
			w.location.replace(sh.url);
			setKids(note, 'The sheet of ' + plural(sh.count, 'card', 'cards') + ' opened in a new tab: print it from there (Ctrl+P), on A4, at 100 %. ', link);
			toast('The sheet of ' + plural(sh.count, 'card', 'cards') + ' opened in a new tab.');
		} else {
			link.textContent = 'Open the sheet of ' + plural(sh.count, 'card', 'cards');
			setKids(note, 'Your browser blocked the new tab. ', link, ', then print it (Ctrl+P), on A4, at 100 %.');
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
			'Cards ' + ((i - 1) * SHEET_MAX + 1) + ' to ' + Math.min(n, i * SHEET_MAX) + (i === 1 ? ' (newest)' : '')));
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
		h('p', null, h('strong', null, 'Printed cards carry no link for your customers yet. '),
			'The address of this site for customers is not set, so each printed card has only its QR code and barcode for the till, ' +
			'not the link to the customer\'s own card page.'),
		h('p', { className: 'btn-row' },
			h('button', { type: 'button', className: 'btn btn-small btn-primary', id: 'print-link-set', onclick: setPublicUrl }, 'Set the address…'),
			h('a', { href: '#settings', className: 'btn btn-small' }, 'Open Settings')));
}

/* A dialog to set public_url, offering this page's folder. */
function setPublicUrl() {
	const f = field({
		label: SETTING_INFO.public_url[0], value: hereFolder(), field: 'public_url', inputMode: 'url', spellcheck: false, limit: 'URL_MAX',
		hint: 'The address customers open, such as https://shop.example/loyalty/: this page\'s folder if customers reach this site as you do. Printed on each card before the card\'s own link.' +
			(loopback(hereFolder()) ? ' This page is open at this computer\'s own address, which customers\' phones cannot open: type the address they reach this site at.' : '')
	});
	return openDialog({
		title: 'Address of this site for customers', body: f, submitLabel: 'Save',
		onSubmit: async () => {
			let v = need(f.input, 'the address', limit('URL_MAX'));
			if (!/^https?:\/\/\S+$/i.test(v)) throw new FormError('An address such as https://shop.example/loyalty/ (beginning with https:// or http://).', f.input);
			if (!v.endsWith('/')) v += '/';
			const d = await apiPatch('admin/settings', { public_url: v });
			st.settings = d.settings || st.settings;
			renderPrintLinkWarning();
			toast('Cards printed from now on carry their link at ' + v + '.');
		}
	});
}
