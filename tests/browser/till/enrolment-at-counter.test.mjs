/* tests/browser/till/enrolment-at-counter.test.mjs:
 * A new card issued at the counter: its QR code, link, print, use. */
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, newProgram, admin, call } from '../lib/browser.mjs';
import { tillReady } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const quick = newProgram({ type: 'punch', title: 'Enrol Stamp', punches: 10, reward: 'Free muffin', cooldown: 10 });
after(() => { admin('setting', 'set', 'public_url', ''); admin('setting', 'set', 'staff_enrolment', '1'); });
before(async () => {
	await tillReady(tab);
});

let enrolled = null;
tab.step('a cashier issues a new card at the counter and sees its QR code and link', async () => {
	await tab.viewport(390, 844);
	await tab.ev(`click('#enrol-button')`);
	await tab.waitFor(`vis('#enrol-panel') && $('#enrol-program').options.length > 1`);
	const opts = await tab.ev(`Array.from($('#enrol-program').options).map((o) => o.textContent)`);
	if (!opts.some((o) => o.includes('Enrol Stamp'))) throw new Error(opts.join(' | '));
	await tab.ev(`click('#enrol-submit')`);
	await tab.waitFor(`vis('#enrol-name-error')`);
	await tab.ev(`pickText('#enrol-program', 'Enrol Stamp') && fill('#enrol-name', 'Nora Neukundin') && click('#enrol-submit')`);
	await tab.waitFor(`vis('#enrol-done') && $('#enrol-qr').complete && $('#enrol-qr').naturalWidth > 0 && $('#enrol-link-qr').complete`);
	const d = await tab.ev(`({ title: text('#enrol-done-title'), barcode: text('#enrol-barcode'), link: $('#enrol-link').href,
		linkQr: $('#enrol-link-qr').complete && $('#enrol-link-qr').naturalWidth > 0, focus: document.activeElement.id })`);
	if (!d.title.includes('Nora Neukundin') || !/^\d{13}$/.test(d.barcode) || !/card\.html#[0-9a-f]{32}$/.test(d.link) || !d.linkQr)
		throw new Error(JSON.stringify(d));
	if (d.focus !== 'enrol-done') throw new Error('focus on ' + d.focus);
	if (!await tab.ev(`vis('#enrol-link-warn')`)) throw new Error('no word that a link to 127.0.0.1 opens on no phone');
	enrolled = d;
	await tab.shotOf('#enrol-panel', 'till-390-enrolled');

	return true;
});

tab.step('Print at enrolment prints the new card alone', async () => {
	await tab.S('Emulation.setEmulatedMedia', { media: 'print' });
	const v = await tab.ev(`[getComputedStyle($('#enrol-qr')).visibility, getComputedStyle($('#enrol-barcode')).visibility,
		getComputedStyle($('#lookup-title')).visibility, $('#enrol-print').getClientRects().length, getComputedStyle($('.topbar')).visibility]`);
	await tab.shot('till-enrol-print');
	await tab.S('Emulation.setEmulatedMedia', { media: '' });
	if (v.join() !== 'visible,visible,hidden,0,hidden') throw new Error(v.join());
	return true;
});

tab.step('the customer page link of the new card shows that card', async () => {
	const tok = enrolled.link.split('#')[1];
	const r = await call('GET', 'mycard/' + tok);
	if (r.status !== 200 || r.body.data.customer_name !== 'Nora Neukundin' || r.body.data.barcode_value !== enrolled.barcode) throw new Error(JSON.stringify(r.body));
	return true;
});

tab.step('"Use this card now" looks the new card up, ready for a purchase', async () => {
	await tab.ev(`click('#enrol-use')`);
	await tab.waitFor(`text('#card-customer') === 'Nora Neukundin' && document.activeElement === $('#purchase-amount')`);
	/* on a phone the sale comes right after the card, the history last */
	const order = await tab.ev(`['#lookup-title', '#card-panel', '#purchase-panel', '#history-panel', '#queue-panel'].map((s) => $(s).getBoundingClientRect().top + scrollY)`);
	if (order.some((y, i) => i && y <= order[i - 1])) throw new Error('order on a phone: ' + order);
	await tab.viewport(1280, 800);
	return tab.ev(`!vis('#enrol-panel') && $('#lookup-code').value === ${JSON.stringify('')} + text('#enrol-barcode')`);
});

tab.step('with the site\'s public address set, the link shown is that address, as the QR code and the printed card', async () => {
	admin('setting', 'set', 'public_url', 'https://loyal.example/shop/');
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.public_url === 'https://loyal.example/shop/'`);
	await tab.ev(`click('#enrol-button')`);
	await tab.waitFor(`$('#enrol-program').options.length > 1`);
	await tab.ev(`pickText('#enrol-program', 'Enrol Stamp') && fill('#enrol-name', 'Paula Public') && click('#enrol-submit')`);
	await tab.waitFor(`vis('#enrol-done')`);
	const link = await tab.ev(`$('#enrol-link').href`);
	if (!/^https:\/\/loyal\.example\/shop\/card\.html#[0-9a-f]{32}$/.test(link)) throw new Error(link);
	if (await tab.ev(`vis('#enrol-link-warn')`)) throw new Error('warned about a public address');
	admin('setting', 'set', 'public_url', '');
	await tab.ev(`click('#enrol-close')`);
	return true;
});

tab.step('with staff enrolment turned off, the cashier has no "New card"', async () => {
	admin('setting', 'set', 'staff_enrolment', '0');
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.can_enrol === false`);
	await tab.waitFor(`!vis('#enrol-button')`);
	admin('setting', 'set', 'staff_enrolment', '1');
	return true;
});
