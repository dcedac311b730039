/* What the cards, card, reports, audit, integrations and print modules
 * say in several places: a card named in a sentence, a moment and a day
 * in the page's language and the shop's zone (js/dates.js), and a
 * catalog text with elements in it. Every text from the catalog
 * (js/i18n.js); nothing here is English. */
import { formatDate, formatDateTime } from '../js/dates.js';
import { PSEUDO, lang, locale, t } from '../js/i18n.js';

/* A card's customer as the page names them: cards made without a name
 * (a box of cards to hand out) are "No name". */
export const cardName = (c) => (c && typeof c.customer_name === 'string' && c.customer_name ? c.customer_name : t('owner.card.js.noName'));
/* The card in a sentence: "the card of Ann", or "the card without a
 * name (barcode …)". */
export const theCard = (c) => (c && c.customer_name ? t('owner.card.js.theCardOf', { name: c.customer_name }) :
    c && c.barcode_value ? t('owner.card.js.theCardNoName', { barcode: c.barcode_value }) : t('owner.card.js.theCardNoNameNoBarcode'));
/* Its first letter up, for a sentence that starts with it. */
export const up = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/* An ISO time as the pages write it (short date and time, the shop's
 * zone); what is no time, as it came. */
export function when(iso) {
	const ms = iso ? Date.parse(iso) : NaN;
	if (isNaN(ms)) return iso ? String(iso) : '—';
	return formatDateTime(ms);
}
/* The date of an ISO time in the shop's zone. */
export function day(iso) {
	const ms = iso ? Date.parse(iso) : NaN;
	if (isNaN(ms)) return iso ? String(iso) : '—';
	return formatDate(ms);
}
/* A day of the shop's calendar ("YYYY-MM-DD", as the reports name
 * them), in the page's language: no zone, it is already the shop's. */
export function calDay(ymd, opts) {
	const d = Date.parse(ymd + 'T00:00:00Z');
	if (isNaN(d)) return String(ymd || '—');
	try {
		return new Intl.DateTimeFormat(locale(), Object.assign({ timeZone: 'UTC' }, opts || { dateStyle: 'medium' })).format(new Date(d));
	} catch (e) {
		return ymd;
	}
}

/* A catalog text with elements in it: each {name} of nodes becomes that
 * element, the rest stays text (a catalog never holds markup). */
export function tNodes(key, nodes, params) {
	let text = t(key, params);
	/* The pseudo-locale marks the whole text ⟦…⟧: each piece between the
	 * elements is marked as its own, so the piece after one still reads
	 * as the catalog's (tests/browser/i18n/pseudo.mjs). */
	const pseudo = lang() === PSEUDO && /^⟦[^]*⟧$/.test(text);
	if (pseudo) text = text.slice(1, -1);
	return text.split(/(\{[A-Za-z0-9_]+\})/).filter((p) => p !== '').map((p) => {
		const m = /^\{([A-Za-z0-9_]+)\}$/.exec(p);
		return m && nodes[m[1]] !== undefined ? nodes[m[1]] : pseudo ? '⟦' + p + '⟧' : p;
	});
}
