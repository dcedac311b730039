/* The report of a day with a cashier's purchase: figures, table, chart,
 * the transactions; grouped by location and by staff; period presets;
 * both CSV downloads. */
import fs from 'node:fs';
import path from 'node:path';
import { cashbackShop, ownerBrowser, ownerLogin, nav, shots3, a11y, download } from '../lib/owner-helpers.mjs';

await cashbackShop(20);
const t = await ownerBrowser();
/* The CSVs' requests: the page asks for the friendly header itself
 * (header=names); the server's default is the v1 columns. */
const csvAsked = [];
t.page.on('request', (r) => { if (r.url().includes('format=csv')) csvAsked.push(r.url()); });
/* The last CSV request was for kind and asked for header=names. */
function askedNames(kind) {
	const u = csvAsked[csvAsked.length - 1] || '';
	if (!u.includes('/api/v1/admin/reports/' + kind + '?') || new URL(u).searchParams.get('header') !== 'names')
		throw new Error('the ' + kind + ' CSV was asked as ' + csvAsked.join(', '));
}
await ownerLogin(t);

t.step('the report shows the purchase: figures, table, chart, outstanding cashback', async () => {
	await nav(t, 'reports');
	await t.waitFor(`vis('#report-out') && text('#report-body').includes('20.00')`);
	const f = await t.ev(`text('#report-figures')`);
	for (const w of ['Sales20.00', 'Purchases1', 'Cashback earned0.40', 'Cashback owed to customers at the end0.40']) if (!f.includes(w)) throw new Error(f);
	const foot = await t.ev(`text('#report-foot')`);
	if (!foot.includes('20.00') || !foot.includes('0.40')) throw new Error(foot);
	const bars = await t.ev(`$$('#chart rect.ch-sales').filter((r) => +r.getAttribute('height') > 0).length`);
	if (bars !== 1) throw new Error(bars + ' sales bars');
	if (!(await t.ev(`$$('#chart rect.ch-earned').some((r) => +r.getAttribute('height') > 0) && !!$('#chart svg[role=img]').getAttribute('aria-labelledby')`))) throw new Error('chart');
	await t.waitFor(`text('#rtx-body').includes('Robert Brown') && text('#rtx-body').includes('Sam Till')`);
});
t.step('the report fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'reports'));
t.step('the report passes the accessibility pass', () => a11y(t, 'reports'));

t.step('the report grouped by location and by staff has a row of each', async () => {
	await t.ev(`pick('#report-group', 'location') && click('#report-form button[type=submit]')`);
	await t.waitFor(`text('#rtable-title') === 'By location' && text('#report-body').includes('Harbour Kiosk East') && $$('#chart rect.ch-sales').length > 0`);
	await t.ev(`pick('#report-group', 'staff') && click('#report-form button[type=submit]')`);
	await t.waitFor(`text('#rtable-title') === 'By staff' && text('#report-body').includes('Sam Till')`);
});

t.step('period presets fill the dates; a period ending before it starts is refused', async () => {
	await t.ev(`pick('#report-preset', 'today')`);
	const [a, b] = await t.ev(`[$('#report-from').value, $('#report-to').value]`);
	if (a !== b || !/^\d{4}-\d\d-\d\d$/.test(a)) throw new Error(a + ' ' + b);
	await t.ev(`pick('#report-preset', 'lastmonth')`);
	const [c, d] = await t.ev(`[$('#report-from').value, $('#report-to').value]`);
	if (!c.endsWith('-01') || c >= a || d >= a) throw new Error(c + ' ' + d);
	await t.ev(`fill('#report-from', '2026-02-10') && fill('#report-to', '2026-02-01') && click('#report-form button[type=submit]')`);
	await t.waitFor(`text('#report-form .form-msg').includes('ends before it starts') && $('#report-preset').value === 'custom'`);
	await t.ev(`pick('#report-preset', 'today') && pick('#report-group', 'day') && click('#report-form button[type=submit]')`);
	await t.waitFor(`text('#report-body').includes('20.00') && !vis('#report-form .form-msg')`);
});

t.step('the summary CSV downloads with the purchase', async () => {
	const f = await download(t, `click('#csv-summary')`);
	const csv = fs.readFileSync(f, 'utf8');
	if (!/^\uFEFFDate,Purchases,Sales,/.test(csv) || !/,1,20\.00,/.test(csv) || !csv.includes('0.40')) throw new Error(path.basename(f) + ': ' + csv);
	askedNames('summary');
	await t.waitFor(`text('#report-dl-msg').includes('Downloaded summary-by-day-')`);
	return /^summary-by-day-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/.test(path.basename(f));
});

t.step('the transactions CSV downloads with the purchase', async () => {
	const f = await download(t, `click('#csv-transactions')`);
	const csv = fs.readFileSync(f, 'utf8');
	if (!/^\uFEFFDate,Time \(UTC[+-]\d\d:\d\d\),Type,Customer,Card,/.test(csv) || !csv.includes('Robert Brown') || !csv.includes('20.00') || !csv.includes('Sam Till')) throw new Error(csv);
	askedNames('transactions');
	return t.waitFor(`text('#report-dl-msg').includes('Downloaded transactions-')`);
});
