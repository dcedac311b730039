/* A scanner's prefix and suffix (a setting of the till): a code between
 * them is a scan however slowly its keys come, and neither the frame nor
 * the code reaches the field that had the focus. */
import { openBrowser, TILL_HELPERS, demoCard, WIDTHS } from '../lib/browser.mjs';
import { tillReady, lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS });
const ann = await demoCard('discount', 'Ann Amount');
const bob = await demoCard('discount', 'Bob Bluetooth');
const cid = await demoCard('discount', 'Cid Suffix');
/* A slow Bluetooth scanner: 80 ms a key, slower than the 45 ms of a burst. */
const SLOW = 80;

async function annWithAmount() {
	await lookupCard(t, ann.barcode);
	await t.waitFor(`text('#card-customer') === 'Ann Amount' && document.activeElement === $('#purchase-amount')`);
	await t.typeKeys('12');
	await t.ev(`(window.__typed = [], $('#purchase-amount').addEventListener('input', (e) => __typed.push(e.target.value)), true)`);
}

t.step('without a frame, a slow scanner\'s code is taken for typing (the timing alone)', async () => {
	await tillReady(t);
	await annWithAmount();
	await t.typeKeysTimed(bob.barcode, SLOW);
	const v = await t.ev(`$('#purchase-amount').value`);
	await t.ev(`fill('#purchase-amount', '')`);
	return v === '12' + bob.barcode && (await t.ev(`text('#card-customer')`)) === 'Ann Amount';
});

t.step('the setting: prefix ~ saved on this till, said in plain words', async () => {
	await t.ev(`($('#scanner-settings').open = true, true)`);
	await t.ev(`fill('#scanner-prefix', '~') && fill('#scanner-suffix', '') && click('#scanner-save')`);
	await t.waitFor(`text('#scanner-state').includes('prefix ~')`);
	for (const w of WIDTHS) {
		await t.viewport(w, 900);
		await t.ev(`($('#scanner-settings').scrollIntoView(), true)`);
		await t.shot('scanner-setting-' + w);
	}
	await t.viewport(1280, 900);
	return t.ev(`JSON.parse(localStorage.getItem('pos.scanner.v1')).prefix === '~'`);
});

t.step('with the prefix, the same slow scan looks Bob up and leaves Ann\'s amount field as it was', async () => {
	await annWithAmount();
	await t.typeKeysTimed('~' + bob.barcode, SLOW);
	await t.pressEnter();
	await t.waitFor(`text('#card-customer') === 'Bob Bluetooth'`);
	/* Nothing of the scan reached the amount field while Ann was on screen. */
	const typed = await t.ev(`__typed`);
	if (typed.length) throw new Error('the amount field saw ' + JSON.stringify(typed));
	return t.ev(`$('#lookup-code').value === ${JSON.stringify(bob.barcode)}`);
});

/* What the notes field held at each input event: held keys come back
 * at once, never one by one. */
const notesSeen = `(window.__notes || $('#purchase-notes').addEventListener('input', (e) => __notes.push(e.target.value)), window.__notes = [], true)`;

t.step('a ~ typed by mistake in the notes, then Escape: the notes get it back with what followed', async () => {
	await t.ev(`($('#purchase-notes').focus(), fill('#purchase-notes', ''), true)`);
	await t.ev(notesSeen);
	await t.typeKeysTimed('~ok', SLOW);
	await t.key('Escape', 'Escape', 27);
	await t.waitFor(`$('#purchase-notes').value === '~ok'`);
	const seen = await t.ev(`__notes`);
	if (seen.length !== 1) throw new Error('the notes went through ' + JSON.stringify(seen));
	return true;
});

t.step('a ~ typed by mistake, then nothing: half a second on the notes get it back; a scan after it is the code alone', async () => {
	await t.ev(`($('#purchase-notes').focus(), fill('#purchase-notes', ''), true)`);
	await t.ev(notesSeen);
	await t.typeKeysTimed('~hello', SLOW);
	await t.waitFor(`$('#purchase-notes').value === '~hello'`);
	const seen = await t.ev(`__notes`);
	if (seen.length !== 1) throw new Error('the notes went through ' + JSON.stringify(seen));
	await t.typeKeysTimed('~' + ann.barcode, SLOW);
	await t.pressEnter();
	await t.waitFor(`text('#card-customer') === 'Ann Amount'`);
	return t.ev(`$('#lookup-code').value === ${JSON.stringify(ann.barcode)}`);
});

t.step('the prefix by AltGr (Ctrl+Alt, as Chrome on Windows reports it) still frames a scan', async () => {
	await t.ev(`($('#purchase-notes').focus(), fill('#purchase-notes', ''), true)`);
	/* AltGr+~ on a German layout: the key with Ctrl and Alt held (modifiers 1 | 2). */
	await t.S('Input.dispatchKeyEvent', { type: 'keyDown', key: '~', code: 'BracketRight', modifiers: 3 });
	await t.S('Input.dispatchKeyEvent', { type: 'keyUp', key: '~', code: 'BracketRight', modifiers: 3 });
	await t.typeKeysTimed(bob.barcode, SLOW);
	await t.pressEnter();
	await t.waitFor(`text('#card-customer') === 'Bob Bluetooth'`);
	return t.ev(`$('#purchase-notes').value === ''`);
});

t.step('the setting is kept over a reload; with a suffix too, the suffix ends the scan without Enter', async () => {
	await t.page.reload();
	await t.waitFor(`vis('#pos-view') && $('#scanner-prefix').value === '~'`);
	await t.ev(`($('#scanner-settings').open = true, true)`);
	await t.ev(`fill('#scanner-suffix', '#') && click('#scanner-save')`);
	await t.waitFor(`text('#scanner-state').includes('suffix #')`);
	await t.ev(`($('#lookup-code').focus(), true)`);
	await t.typeKeysTimed('~' + cid.barcode + '#', SLOW);
	await t.waitFor(`text('#card-customer') === 'Cid Suffix'`);
	return t.ev(`!$('#lookup-code').value.includes('~') && !$('#lookup-code').value.includes('#')`);
});

t.step('a suffix alone: an amount typed, a pause, then a slow scan ended by the suffix looks the card up', async () => {
	await t.ev(`($('#scanner-settings').open = true, true)`);
	await t.ev(`fill('#scanner-prefix', '') && fill('#scanner-suffix', '#') && click('#scanner-save')`);
	await t.waitFor(`text('#scanner-state').includes('no prefix and the suffix #')`);
	await annWithAmount();
	await t.page.waitForTimeout(800);
	await t.typeKeysTimed(bob.barcode + '#', SLOW);
	await t.waitFor(`text('#card-customer') === 'Bob Bluetooth'`);
	return t.ev(`$('#lookup-code').value === ${JSON.stringify(bob.barcode)}`);
});

t.step('the setting emptied: no frame kept, the timing alone again', async () => {
	await t.ev(`($('#scanner-settings').open = true, true)`);
	await t.ev(`fill('#scanner-prefix', '') && fill('#scanner-suffix', '') && click('#scanner-save')`);
	await t.waitFor(`text('#scanner-state').includes('speed alone')`);
	return t.ev(`localStorage.getItem('pos.scanner.v1') === null`);
});
