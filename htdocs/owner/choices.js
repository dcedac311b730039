/* The shop's currency, time zone and language as choices: the setup
 * form's and the settings'. The lists are the browser's own (Intl), so
 * no table of ours goes stale; the server checks what it is sent (an
 * active ISO 4217 code, an IANA zone it knows, one of our languages). */
import { LANGS, LANG_NAMES, lang, locale, t } from '../js/i18n.js';
import { $, h, setKids } from './dom.js';
import { FormError } from './net.js';

/* Every value Intl knows of a kind (currency, timeZone), or the few
 * given when the browser has no supportedValuesOf. */
function supported(kind, fallback) {
	try {
		if (typeof Intl.supportedValuesOf === 'function') {
			const list = Intl.supportedValuesOf(kind);
			if (Array.isArray(list) && list.length) return list;
		}
	} catch (e) { /* an older browser */ }
	return fallback;
}

/* A currency's name in the page's language: "EUR · Euro". */
export function currencyLabel(code) {
	try {
		const n = new Intl.DisplayNames([locale()], { type: 'currency' }).of(code);
		if (n && n !== code) return code + ' · ' + n;
	} catch (e) { /* the code alone */ }
	return code;
}

/* The options of a currency select: "" (no currency named: amounts with
 * 2 decimals and the symbol only, as before shops named theirs) and every
 * ISO code; current is kept even when the browser does not list it.
 * prompt (the setup form): a first option "Choose your currency" of no
 * value, shown first, and "none" as the value of no currency named: the
 * currency cannot change once money has moved, so the owner chooses it
 * rather than keeps a default. */
export const NO_CURRENCY = 'none';
export function currencyOptions(sel, current, prompt) {
	const codes = supported('currency', ['EUR', 'USD', 'GBP', 'CHF', 'JPY', 'KWD']).slice();
	if (current && current !== NO_CURRENCY && !codes.includes(current)) codes.push(current);
	codes.sort();
	setKids(sel, prompt ? h('option', { value: '' }, t('setup.currency_choose')) : null,
		h('option', { value: prompt ? NO_CURRENCY : '' }, t('owner.choice.currency_none')),
		...codes.map((c) => h('option', { value: c, selected: c === current, translate: false }, currencyLabel(c))));
	sel.value = current || '';
}

/* Chromium's list (ICU's canonical ids) still has the zones' old names;
 * the current ones are what the tz database and the server use now, and
 * what a shopkeeper looks for. */
const ZONE_RENAMED = {
	'Europe/Kiev': 'Europe/Kyiv', 'Asia/Calcutta': 'Asia/Kolkata', 'Asia/Saigon': 'Asia/Ho_Chi_Minh',
	'Asia/Katmandu': 'Asia/Kathmandu', 'Asia/Rangoon': 'Asia/Yangon', 'America/Godthab': 'America/Nuuk'
};
export const currentZone = (z) => ZONE_RENAMED[z] || z;

/* The time zones offered: the browser's, old names as the current ones,
 * and current (the stored value) even when the list lacks it. */
export function zoneList(current) {
	const zones = new Set(supported('timeZone', ['UTC', 'Europe/Berlin', 'Europe/London', 'America/New_York', 'Asia/Tokyo']).map(currentZone));
	if (current) zones.add(current);
	return [...zones].sort();
}

/* The options of a time zone select: "" (the installation's fixed offset
 * from UTC) and the IANA zones, "America/New_York" shown as
 * "America/New York". */
export function zoneOptions(sel, current, noneKey) {
	const zones = zoneList(current);
	setKids(sel, h('option', { value: '' }, t(noneKey || 'owner.choice.zone_none')),
		...zones.map((z) => h('option', { value: z, selected: z === current, translate: false }, z.replace(/_/g, ' '))));
	sel.value = current || '';
}

/* The options of a language select: each language in its own name. */
export function languageOptions(sel, current) {
	setKids(sel, ...LANGS.map((l) => h('option', { value: l, lang: l, selected: l === current, translate: false }, LANG_NAMES[l])));
	sel.value = LANGS.includes(current) ? current : 'en';
}

/* The browser's time zone: the first guess for a new shop. */
export function browserZone() {
	try {
		return currentZone(Intl.DateTimeFormat().resolvedOptions().timeZone || '');
	} catch (e) {
		return '';
	}
}

/* The setup form's choices, filled once (a second showing keeps what the
 * owner chose). */
export function fillSetupChoices() {
	const cur = $('setup-currency'), zone = $('setup-time-zone'), lg = $('setup-language');
	if (cur.options.length) return;
	currencyOptions(cur, '', true);
	zoneOptions(zone, browserZone(), 'setup.zone_none');
	languageOptions(lg, lang() === 'qps' ? 'en' : lang());
}

/* What the setup request carries of them: only what is chosen (an
 * unnamed currency or the fixed offset is the server's default). The
 * currency must be chosen, "none" included. */
export function setupChoices() {
	const out = {};
	const cur = $('setup-currency').value, zone = $('setup-time-zone').value, lg = $('setup-language').value;
	if (!cur) throw new FormError(t('setup.need.currency'), $('setup-currency'));
	if (cur !== NO_CURRENCY) out.currency = cur;
	if (zone) out.time_zone = zone;
	if (lg) out.language = lg;
	return out;
}
