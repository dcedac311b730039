/* Dates and times on the pages: in the page's language (js/i18n.js) and
 * the shop's time zone (its IANA zone; else the installation's fixed
 * offset from UTC), never the device's, so a till whose clock is set to
 * another zone still shows the shop's day. setShopFormat (js/money.js)
 * sets the zone with the shop's currency. */

import { locale } from './i18n.js';
import { shopFormat } from './money.js';

const DAY_MS = 86400000;

/* Intl's options for the shop's zone, and the shift of the instant when
 * the shop has only a fixed offset (formatted as UTC then). */
function zone(ms) {
	const f = shopFormat();
	if (f.time_zone) return { ms, tz: f.time_zone };
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

export const formatDate = (ms, opts) => fmt(ms, opts || { dateStyle: 'medium' });
export const formatDateTime = (ms, opts) => fmt(ms, opts || { dateStyle: 'short', timeStyle: 'short' });
export const formatTime = (ms, opts) => fmt(ms, opts || { timeStyle: 'short' });

/* "YYYY-MM-DD" of an instant in the shop's calendar. */
export function shopDay(ms) {
	const z = zone(ms);
	try {
		const p = {};
		for (const x of new Intl.DateTimeFormat('en-CA', { timeZone: z.tz, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(z.ms)))
			p[x.type] = x.value;
		return p.year + '-' + p.month + '-' + p.day;
	} catch (e) {
		return new Date(z.ms).toISOString().slice(0, 10);
	}
}

/* The shop's today, as the reports' from and to take it. */
export const shopToday = (now) => shopDay(typeof now === 'number' ? now : Date.now());

/* "YYYY-MM-DD" n days after (before, n < 0) a "YYYY-MM-DD": calendar
 * arithmetic, no zone involved. */
export function addDays(ymd, n) {
	const d = new Date(ymd + 'T00:00:00Z');
	return new Date(d.getTime() + n * DAY_MS).toISOString().slice(0, 10);
}
