/* The audit trail: the changes newest first, in words (a rename with
 * the name before and after); filtered by who and what; its CSV; an
 * object id without its type refused; on a phone each change under its
 * label. */
import fs from 'node:fs';
import path from 'node:path';
import { cashbackShop, addLocation, ownerBrowser, ownerLogin, nav, shots3, a11y, download, api, patch } from '../lib/owner-helpers.mjs';

const s = await cashbackShop(20);
const kiosk = await addLocation(s.shop, 'Harbour Kiosk');
await patch('admin/locations/' + kiosk, { name: 'Harbour Kiosk West' }, s.shop.token);
const b = await api('GET', 'admin/backup', undefined, s.shop.token);
if (b.status !== 200) throw new Error('backup: ' + b.status);
const t = await ownerBrowser();
/* The CSV's requests: the page asks for the friendly header itself
 * (header=names); the server's default is the v1 columns. */
const csvAsked = [];
t.page.on('request', (r) => { if (r.url().includes('format=csv')) csvAsked.push(r.url()); });
await ownerLogin(t);
/* After the page's login, so the newest change. */
await patch('admin/settings', { login_max_failures: 9 }, s.shop.token);

t.step('the audit lists the changes newest first: settings, backup, a rename with its name before and after, the cashier\'s purchase', async () => {
	await nav(t, 'audit');
	await t.waitFor(`vis('#sec-audit') && text('#audit-body').includes('Settings changed')`);
	const body = await t.ev(`text('#audit-body')`);
	for (const want of ['Backup downloaded', 'Purchase', 'Sam Till', 'Location renamed', 'name: Harbour Kiosk → Harbour Kiosk West', 'login_max_failures: 5 → 9', 'Shop set up'])
		if (!body.includes(want)) throw new Error('no ' + want + ' in ' + body);
	const first = await t.ev(`$$('#audit-body tr')[0].textContent`);
	if (!first.includes('Settings changed')) throw new Error('newest first: ' + first);
	return t.ev(`text('#audit-page').includes('changes')`);
});
t.step('the audit fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'audit'));
t.step('the audit passes the accessibility pass', () => a11y(t, 'audit'));

t.step('the audit filtered by who and what lists only the cashier\'s purchase', async () => {
	await t.ev(`(() => { const s = $('#audit-user'); s.value = Array.from(s.options).find((o) => o.textContent === 'Sam Till').value; $('#audit-action').value = 'transaction.record'; return click('#audit-form button[type=submit]'); })()`);
	await t.waitFor(`$$('#audit-body tr').length === 1 && text('#audit-page').includes('1 change')`);
	const row = await t.ev(`$$('#audit-body tr')[0].textContent`);
	if (!row.includes('Purchase') || !row.includes('Sam Till')) throw new Error(row);
});

t.step('the audit CSV downloads what the filters select', async () => {
	const f = await download(t, `click('#audit-csv')`);
	const csv = fs.readFileSync(f, 'utf8');
	const lines = csv.trim().split('\r\n');
	if (!/^\uFEFFDate,Time \(UTC[+-]\d\d:\d\d\),Who,Where,Terminal,What,/.test(csv) || lines.length !== 2 || !lines[1].includes(',Purchase,') || !lines[1].includes('Sam Till')) throw new Error(csv);
	await t.waitFor(`text('#audit-msg').includes('Downloaded audit-')`);
	const q = new URL(csvAsked[csvAsked.length - 1] || 'http://x/').searchParams;
	if (!/\/api\/v1\/admin\/audit\?/.test(csvAsked[csvAsked.length - 1]) || q.get('header') !== 'names') throw new Error('the CSV was asked as ' + csvAsked.join(', '));
	return /^audit-\d{4}-\d\d-\d\d\.csv$/.test(path.basename(f));
});

t.step('an object id without its type is refused with the API\'s message on the type', async () => {
	await t.ev(`($('#audit-user').value = '', $('#audit-action').value = '', fill('#audit-oid', '00000000-0000-0000-0000-000000000000') && click('#audit-form button[type=submit]'))`);
	await t.waitFor(`text('#audit-form .form-msg').includes('object_type')`);
	const bad = await t.ev(`$('#audit-otype').getAttribute('aria-invalid')`);
	await t.ev(`(fill('#audit-oid', ''), true)`);
	return bad === 'true';
});

t.step('on a phone the audit\'s "Change" label stays a word; the change wraps below it', async () => {
	await t.ev(`click('#audit-form button[type=submit]')`);
	await t.waitFor(`$('#audit-body td.audit-change')`);
	await t.viewport(390, 844);
	const r = await t.ev(`(() => { const c = $('#audit-body td.audit-change'); const b = getComputedStyle(c, '::before');
		return { display: getComputedStyle(c).display, before: b.display, h: parseFloat(b.height), lh: parseFloat(b.lineHeight) || 24 }; })()`);
	await t.shot('change-390');
	await t.viewport(1280, 900);
	if (r.display !== 'block' || r.before !== 'block' || !(r.h < 2 * r.lh)) throw new Error(JSON.stringify(r));
});
