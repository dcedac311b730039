/* Reports on a phone (390 px): the date fields show the whole date, and
 * the table scrolls sideways in its own box (its first column kept),
 * never the page. */
import { cashbackShop, ownerBrowser, ownerLogin, nav } from '../lib/owner-helpers.mjs';

await cashbackShop(20);
const t = await ownerBrowser({ width: 390, height: 900 });
await ownerLogin(t);

t.step('at 390 px the date fields show the whole date, year included', async () => {
	await nav(t, 'reports');
	await t.waitFor(`vis('#report-out') && $$('#report-body tr').length > 0`);
	/* The field is as wide as the text of its date plus its picker. */
	const r = await t.ev(`(() => { const i = $('#report-from'); const c = document.createElement('canvas').getContext('2d');
	    const cs = getComputedStyle(i); c.font = cs.fontSize + ' ' + cs.fontFamily;
	    return { w: i.clientWidth, need: c.measureText('11/28/2026').width + 40 }; })()`);
	if (r.w < r.need) throw new Error('the date field is ' + r.w + ' px, its date needs ' + Math.ceil(r.need));
	await t.shot('dates');
	return true;
});

t.step('the table scrolls in its own box, the page does not', async () => {
	const r = await t.ev(`(() => { const w = $('#report-table').closest('.table-wrap');
	    return { box: w.scrollWidth > w.clientWidth, page: document.documentElement.scrollWidth, hint: vis('#report-scroll-hint') }; })()`);
	if (!r.box || r.page > 390 || !r.hint) throw new Error(JSON.stringify(r));
	await t.ev(`($('#report-table').closest('.table-wrap').scrollLeft = 400, true)`);
	const first = await t.ev(`(() => { const th = $('#report-body th'); const w = $('#report-table').closest('.table-wrap');
	    return th.getBoundingClientRect().left - w.getBoundingClientRect().left; })()`);
	await t.shot('table-scrolled');
	return Math.abs(first) < 2 || Promise.reject(new Error('the first column moved by ' + first + ' px'));
});

t.step('at 1280 px, where the table fits, no hint to scroll', async () => {
	await t.viewport(1280, 900);
	await t.waitFor(`!vis('#report-scroll-hint')`);
	return t.ev(`(() => { const w = $('#report-table').closest('.table-wrap'); return w.scrollWidth <= w.clientWidth + 1; })()`);
});
