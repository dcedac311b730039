/* Dates and times on the pages: in the page's language (js/i18n.js) and
 * the shop's time zone (its IANA zone; else the installation's fixed
 * offset from UTC), never the device's, so a till whose clock is set to
 * another zone still shows the shop's day. setShopFormat (js/money.js)
 * sets the zone with the shop's currency. */

import { locale } from './i18n.js';
import { shopFormat } from './money.js';

const DAY_MS = 86400000;

/* Whether this browser's Intl knows the zone (an old one may lack a
 * newer name): asked once a name. */
const known = new Map();
function zoneKnown(tz) {
	if (!known.has(tz)) {
		let ok = true;
		try {
			new Intl.DateTimeFormat('en', { timeZone: tz });
		} catch (e) {
			ok = false;
		}
		known.set(tz, ok);
	}
	return known.get(tz);
}

/* Intl's options for the shop's zone, and the shift of the instant when
 * the shop has only a fixed offset (formatted as UTC then): a shop with
 * no zone, or one this browser does not know (the installation's offset
 * is then the nearest truth, as the server's own fallback is). */
function zone(ms) {
	const f = shopFormat();
	if (f.time_zone && zoneKnown(f.time_zone)) return { ms, tz: f.time_zone };
	return { ms: ms + (f.utc_offset_minutes || 0) * 60000, tz: 'UTC' };
}

function fmt(ms, opts) {
	if (typeof ms !== 'number' || !isFinite(ms)) return '—';
	const z = zone(ms);
	try {
		return new Intl.DateTimeFormat(locale(), Object.assign({ timeZone: z.tz }, opts)).format(new Date(z.ms));
	} catch (e) {
		return new Date(z.ms).toISOString().slice(0, 16).replace('T', ' ');
	}
}

/* Whether a time shown should name its zone: the shop's zone is not the
 * browser's (a customer away from the shop reads the shop's times).
 * browserTz: the browser's, by default Intl's. A shop with only an offset
 * is not named (it is formatted as UTC, which would be wrong to say). */
export function zoneDiffers(browserTz) {
	const f = shopFormat();
	if (!f.time_zone || !zoneKnown(f.time_zone)) return false;
	let b = browserTz;
	try {
		if (!b) b = new Intl.DateTimeFormat().resolvedOptions().timeZone;
	} catch (e) { /* unknown: name it */ }
	return b !== f.time_zone;
}

/* Intl's options of a time with the zone's short name ("2:39 AM GMT+9"):
 * timeStyle and timeZoneName do not go together. */
export const TIME_ZONED = Object.freeze({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
export const DATE_TIME_ZONED = Object.freeze({ year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

export const formatDate = (ms, opts) => fmt(ms, opts || { dateStyle: 'medium' });
export const formatDateTime = (ms, opts) => fmt(ms, opts || { dateStyle: 'short', timeStyle: 'short' });
export const formatTime = (ms, opts) => fmt(ms, opts || { timeStyle: 'short' });

/* "YYYY-MM-DD" of an instant in the shop's calendar (Latin digits
 * whatever the page's language: it is what the API's from and to take). */
export function shopDay(ms) {
	if (typeof ms !== 'number' || !isFinite(ms)) return null;
	const z = zone(ms);
	const p = {};
	for (const x of new Intl.DateTimeFormat('en-US-u-nu-latn', { timeZone: z.tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(z.ms)))
		p[x.type] = x.value;
	return p.year.padStart(4, '0') + '-' + p.month + '-' + p.day;
}

/* The shop's today, as the reports' from and to take it. */
export const shopToday = (now) => shopDay(typeof now === 'number' ? now : Date.now());

/* "YYYY-MM-DD" n days after (before, n < 0) a "YYYY-MM-DD": calendar
 * arithmetic, no zone involved. */
export function addDays(ymd, n) {
	const d = new Date(ymd + 'T00:00:00Z');
	return new Date(d.getTime() + n * DAY_MS).toISOString().slice(0, 10);
}
