import { $, h, plural, setKids, show } from './dom.js';
import { SessionEnded, apiBlob } from './net.js';
import { SHEET_MAX, progOf } from './state.js';
import { busy, errorNode, toast } from './ui.js';

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

