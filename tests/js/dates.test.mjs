import test from 'node:test';
import assert from 'node:assert/strict';
import { formatDate, formatDateTime, formatTime, shopDay, shopToday, addDays, zoneDiffers, TIME_ZONED, DATE_TIME_ZONED } from '../../htdocs/js/dates.js';
import { setShopFormat } from '../../htdocs/js/money.js';
import { initI18n, useCatalog, LANGS } from '../../htdocs/js/i18n.js';
import { memStore } from './helpers.mjs';

for (const l of LANGS) useCatalog(l, {});
const store = memStore();
globalThis.localStorage = store;
async function inLang(l) {
	store.setItem('loyalty.lang', l);
	assert.equal(await initI18n(null), l);
}
const at = (iso) => Date.parse(iso);
const zone = (time_zone, utc_offset_minutes = 0) => setShopFormat({ time_zone, utc_offset_minutes });
/* 24-hour clock time, whatever the language's own style */
const hm = (iso) => formatTime(at(iso), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/* The length of the shop's day d ("YYYY-MM-DD"), in hours, found from
 * shopDay alone: the first instant (a minute's step) of d and of the day
 * after, searched around UTC midnight. */
function dayHours(d) {
	const first = (ymd) => {
		const mid = at(ymd + 'T00:00:00Z');
		for (let m = mid - 15 * 3600000; m < mid + 15 * 3600000; m += 60000)
			if (shopDay(m) === ymd) return m;
		throw new Error('no instant of ' + ymd);
	};
	return (first(addDays(d, 1)) - first(d)) / 3600000;
}

test('Europe/Berlin, spring 2026-03-29: 01:59 is followed by 03:00, a 23-hour day', async () => {
	await inLang('en');
	zone('Europe/Berlin');
	assert.equal(hm('2026-03-29T00:59:59Z'), '01:59');
	assert.equal(hm('2026-03-29T01:00:00Z'), '03:00');
	assert.equal(shopDay(at('2026-03-28T22:59:59Z')), '2026-03-28');
	assert.equal(shopDay(at('2026-03-28T23:00:00Z')), '2026-03-29');
	assert.equal(shopDay(at('2026-03-29T21:59:59Z')), '2026-03-29');
	assert.equal(shopDay(at('2026-03-29T22:00:00Z')), '2026-03-30');
	assert.equal(dayHours('2026-03-29'), 23);
	assert.equal(dayHours('2026-03-28'), 24);
});

test('Europe/Berlin, autumn 2026-10-25: 02:30 comes twice, a 25-hour day', () => {
	zone('Europe/Berlin');
	assert.equal(hm('2026-10-25T00:30:00Z'), '02:30');
	assert.equal(hm('2026-10-25T01:30:00Z'), '02:30');
	assert.equal(shopDay(at('2026-10-24T21:59:59Z')), '2026-10-24');
	assert.equal(shopDay(at('2026-10-24T22:00:00Z')), '2026-10-25');
	assert.equal(shopDay(at('2026-10-25T22:59:59Z')), '2026-10-25');
	assert.equal(shopDay(at('2026-10-25T23:00:00Z')), '2026-10-26');
	assert.equal(dayHours('2026-10-25'), 25);
	assert.equal(dayHours('2026-10-26'), 24);
});

test('America/New_York, 2026-03-08 (23 hours) and 2026-11-01 (25 hours)', () => {
	zone('America/New_York');
	assert.equal(hm('2026-03-08T06:59:00Z'), '01:59');
	assert.equal(hm('2026-03-08T07:00:00Z'), '03:00');
	assert.equal(shopDay(at('2026-03-08T04:59:59Z')), '2026-03-07');
	assert.equal(shopDay(at('2026-03-08T05:00:00Z')), '2026-03-08');
	assert.equal(shopDay(at('2026-03-09T03:59:59Z')), '2026-03-08');
	assert.equal(shopDay(at('2026-03-09T04:00:00Z')), '2026-03-09');
	assert.equal(dayHours('2026-03-08'), 23);
	assert.equal(hm('2026-11-01T05:30:00Z'), '01:30');
	assert.equal(hm('2026-11-01T06:30:00Z'), '01:30');
	assert.equal(shopDay(at('2026-11-01T03:59:59Z')), '2026-10-31');
	assert.equal(shopDay(at('2026-11-01T04:00:00Z')), '2026-11-01');
	assert.equal(shopDay(at('2026-11-02T04:59:59Z')), '2026-11-01');
	assert.equal(shopDay(at('2026-11-02T05:00:00Z')), '2026-11-02');
	assert.equal(dayHours('2026-11-01'), 25);
});

test('without a zone the fixed offset holds all year: no daylight saving', () => {
	zone(null, 60);
	assert.equal(hm('2026-03-29T01:00:00Z'), '02:00');
	assert.equal(hm('2026-10-25T01:30:00Z'), '02:30');
	assert.equal(shopDay(at('2026-03-29T22:59:59Z')), '2026-03-29');
	assert.equal(shopDay(at('2026-03-29T23:00:00Z')), '2026-03-30');
	assert.equal(dayHours('2026-03-29'), 24);
	assert.equal(dayHours('2026-10-25'), 24);
	zone(null, -300);
	assert.equal(shopDay(at('2026-11-01T04:59:59Z')), '2026-10-31');
	assert.equal(shopDay(at('2026-11-01T05:00:00Z')), '2026-11-01');
	zone(null, 345);	/* Nepal: +05:45 */
	assert.equal(hm('2026-01-01T18:15:00Z'), '00:00');
	assert.equal(shopDay(at('2026-01-01T18:14:59Z')), '2026-01-01');
	assert.equal(shopDay(at('2026-01-01T18:15:00Z')), '2026-01-02');
	zone(null, 0);
	assert.equal(shopDay(at('2026-01-01T23:59:59Z')), '2026-01-01');
});

test('a zone the browser does not know falls back to the fixed offset', () => {
	zone('Mars/Olympus_Mons', 120);
	assert.equal(hm('2026-06-01T10:00:00Z'), '12:00');
	assert.equal(shopDay(at('2026-06-01T22:00:00Z')), '2026-06-02');
});

test('shopToday is the shop\'s date, not the device\'s', () => {
	/* 23:30 UTC on 31 December: already 1 January in Tokyo, still
	 * 31 December in New York, whatever zone this machine is in */
	const now = at('2026-12-31T23:30:00Z');
	zone('Asia/Tokyo');
	assert.equal(shopToday(now), '2027-01-01');
	zone('America/New_York');
	assert.equal(shopToday(now), '2026-12-31');
	zone(null, 0);
	assert.match(shopToday(), /^\d{4}-\d\d-\d\d$/);
	assert.equal(shopToday(), new Date().toISOString().slice(0, 10));
	assert.equal(shopDay(NaN), null);
});

test('dates are written in the page\'s language, Arabic with Latin digits', async () => {
	zone('Europe/Berlin');
	const t = at('2026-10-25T01:30:00Z');
	await inLang('de');
	assert.equal(formatDate(t), '25.10.2026');
	assert.equal(formatTime(t), '02:30');
	assert.equal(formatDateTime(t), '25.10.26, 02:30');
	await inLang('ja');
	assert.equal(formatDate(t), '2026/10/25');
	assert.equal(formatTime(t), '2:30');
	await inLang('fr');
	assert.equal(formatDate(t), '25 oct. 2026');
	await inLang('ar');
	const s = formatDateTime(t);
	assert.match(s, /2026|26/);
	assert.doesNotMatch(s, /[\u0660-\u0669]/, s);
	assert.equal(shopDay(t), '2026-10-25', 'the API\'s day, Latin whatever the language');
	await inLang('en');
	assert.equal(formatDate(t), 'Oct 25, 2026');
	assert.equal(formatDate(NaN), '—');
	assert.equal(formatDateTime(undefined), '—');
});

test('addDays counts calendar days, across a change of clocks too', () => {
	assert.equal(addDays('2026-03-28', 1), '2026-03-29');
	assert.equal(addDays('2026-03-29', 1), '2026-03-30');
	assert.equal(addDays('2026-10-25', -1), '2026-10-24');
	assert.equal(addDays('2026-12-31', 1), '2027-01-01');
	assert.equal(addDays('2028-03-01', -1), '2028-02-29');
});

test('a time names the shop\'s zone only when the browser is in another', async () => {
	await inLang('en');
	zone('Asia/Tokyo');
	assert.equal(zoneDiffers('Asia/Tokyo'), false);
	assert.equal(zoneDiffers('Europe/Berlin'), true);
	/* 17:39 UTC is 2:39 AM the next day in Tokyo, named */
	assert.equal(formatTime(at('2026-11-27T17:39:00Z'), TIME_ZONED).replace(/\s/g, ' '), '2:39 AM GMT+9');
	assert.match(formatDateTime(at('2026-11-27T17:39:00Z'), DATE_TIME_ZONED), /Nov 28, 2026.*2:39.*GMT\+9/);
	zone(null, 540);
	assert.equal(zoneDiffers('Europe/Berlin'), false, 'an offset only is formatted as UTC: not named');
	zone('Not/AZone', 60);
	assert.equal(zoneDiffers('Europe/Berlin'), false);
	zone('Asia/Kuwait');
	await inLang('ar');
	assert.match(formatTime(at('2026-11-27T17:39:00Z'), TIME_ZONED), /8:39/);
	await inLang('en');
	zone(null);
});
