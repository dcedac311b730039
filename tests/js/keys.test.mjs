import test from 'node:test';
import assert from 'node:assert/strict';
import { KeyBursts, SCAN_GAP_MS, SCAN_MIN_LEN, ScanFrame, frameSetting, FRAME_PAUSE_MS, looksLikeCode, readsKey } from '../../htdocs/js/keys.js';

function feed(kb, text, start, gap) {
	let t = start;
	const fresh = [];
	for (const ch of text) { fresh.push(kb.key(ch, t)); t += gap; }
	return { t: t - gap, fresh };
}

test('a scanner burst ending in Enter is a code', () => {
	const kb = new KeyBursts();
	const { t, fresh } = feed(kb, '4006381333931', 1000, 4);
	assert.equal(fresh[0], true);
	assert.ok(fresh.slice(1).every((f) => f === false));
	assert.equal(kb.enter(t + 5), '4006381333931');
	/* the burst is over */
	assert.equal(kb.enter(t + 10), null);
});

test('a person typing an amount is not a scan, even a fast one', () => {
	const kb = new KeyBursts();
	const { t } = feed(kb, '4.50', 0, 110);
	assert.equal(kb.enter(t + 110), null);
	const b = feed(kb, '123456', 5000, 70);
	assert.equal(kb.enter(b.t + 60), null);
});

test('a burst too short, or an Enter long after it, is not a scan', () => {
	const kb = new KeyBursts();
	const a = feed(kb, '12345'.slice(0, SCAN_MIN_LEN - 1), 0, 3);
	assert.equal(kb.enter(a.t + 3), null);
	const b = feed(kb, '4006381333931', 1000, 3);
	assert.equal(kb.enter(b.t + SCAN_GAP_MS * 3), null);
});

test('a scan right after slow typing counts only the burst', () => {
	const kb = new KeyBursts();
	feed(kb, '3.20', 0, 150);
	const { t, fresh } = feed(kb, 'LC-QR-abcdef', 700, 5);
	assert.equal(fresh[0], true, 'the scan starts a new burst after a pause');
	assert.equal(kb.enter(t + 5), 'LC-QR-abcdef');
});

/* ---- framed scans (ScanFrame) ---- */

const frameFeed = (f, s) => [...s].map((ch) => (ch === '\n' ? f.enter() : f.key(ch)));

test('a prefix frames a scan whatever its timing; Enter ends it; the frame never passes', () => {
	const f = new ScanFrame({ prefix: '~' });
	assert.ok(f.active);
	const r = frameFeed(f, '~12345678\n');
	assert.ok(r.every((x) => x.hold && !x.pass));
	assert.equal(r[0].begun, true);
	assert.equal(r.at(-1).code, '12345678');
	/* typing passes */
	assert.ok(frameFeed(f, '12.50\n').every((x) => x.pass));
});

test('prefix and suffix: the suffix ends the scan, the scanner\'s Enter after it is swallowed', () => {
	const f = new ScanFrame({ prefix: '[[', suffix: ']]' });
	const r = frameFeed(f, '[[QR+/=abc]]\n');
	assert.ok(r.every((x) => x.hold));
	assert.equal(r[11].code, 'QR+/=abc');
	assert.equal(r[12].code, undefined);
	assert.ok(f.enter().pass, 'a second Enter is the cashier\'s');
});

test('the start of a prefix that turns into typing is given back', () => {
	const f = new ScanFrame({ prefix: '[[' });
	assert.ok(f.key('[').hold);
	const r = f.key('a');
	assert.equal(r.replay, '[');
	assert.ok(r.pass);
	assert.ok(f.key('[').hold);
	assert.deepEqual(f.enter(), { replay: '[', pass: true });
	assert.ok(f.key('[').hold);
	assert.deepEqual(f.other('click'), { replay: '[', pass: true });
});

test('Tab ends a framed code as Enter does; Escape gives a frame begun by mistake back as typing', () => {
	const f = new ScanFrame({ prefix: '~' });
	frameFeed(f, '~123456');
	assert.deepEqual(f.other('Tab'), { hold: true, code: '123456' });
	frameFeed(f, '~note');
	assert.deepEqual(f.other('Escape'), { replay: '~note', pass: true });
	assert.ok(f.key('x').pass);
});

test('a suffix alone frames what was typed since the last pause', () => {
	const f = new ScanFrame({ suffix: '#' });
	const r = frameFeed(f, '4006381#\n');
	assert.equal(r[0].begun, true);
	assert.ok(r.slice(0, 7).every((x) => x.pass));
	assert.deepEqual(r[7], { hold: true, code: '4006381', begun: false });
	assert.deepEqual(r[8], { hold: true });
	f.other();
	assert.equal(f.key('1').begun, true);
	/* the suffix typed alone is typing */
	f.enter();
	assert.ok(f.key('#').pass);
});

test('a suffix alone: a pause starts a new run, so an amount typed before is not part of the code', () => {
	const f = new ScanFrame({ suffix: '#' });
	assert.equal(f.key('1', 1000).begun, true);
	assert.equal(f.key('2', 1150).begun, false);
	/* the scanner, 2 s later, at 120 ms a key */
	let r, t = 3150;
	assert.equal(f.key('4', t).begun, true, 'the scan begins a run of its own');
	for (const ch of '006381#') r = f.key(ch, (t += 120));
	assert.deepEqual(r, { hold: true, code: '4006381', begun: false });
	const g = new ScanFrame({ suffix: '#' });
	g.key('1', 0);
	assert.equal(g.key('2', 100 + FRAME_PAUSE_MS + 1).begun, true);
});

/* Keys at a given pace from time t; each answer kept. */
function timed(f, text, t, gap) {
	const r = [];
	for (const ch of text) { r.push(ch === '\n' ? f.enter(t) : f.key(ch, t)); t += gap; }
	return { r, t: t - gap };
}

test('a prefix typed by mistake gives the held keys back after a pause; a later scan is the code alone', () => {
	const f = new ScanFrame({ prefix: '~' });
	/* "~hello" typed into a note at 150 ms a key: held for now */
	let { r, t } = timed(f, '~hello', 1000, 150);
	assert.ok(r.every((x) => x.hold));
	/* the keys stop: the page's timer gives them back as typing */
	assert.equal(f.idle(t + FRAME_PAUSE_MS - 10), null, 'not before the pause');
	assert.deepEqual(f.idle(t + FRAME_PAUSE_MS + 1), { replay: '~hello' });
	assert.equal(f.idle(t + 5000), null, 'given back once');
	/* Enter is the cashier's now, not a lookup of "hello" */
	assert.deepEqual(f.enter(t + 2000), { pass: true });
	/* a real scan later is the code, not "hello~2685869688521" */
	({ r } = timed(f, '~2685869688521\n', t + 10000, 30));
	assert.equal(r.at(-1).code, '2685869688521');
});

test('without the timer, the key after a pause gives the held keys back first, and is read afresh', () => {
	const f = new ScanFrame({ prefix: '~' });
	timed(f, '~hello', 0, 150);
	/* a space after a pause: "~hello" back, then the space passes */
	assert.deepEqual(f.key(' ', 750 + FRAME_PAUSE_MS + 1), { replay: '~hello', pass: true });
	timed(f, '~note', 5000, 150);
	/* Enter after a pause: given back, and Enter goes on */
	assert.deepEqual(f.enter(5600 + FRAME_PAUSE_MS + 1), { replay: '~note', pass: true });
	timed(f, '~abc', 9000, 150);
	/* the prefix after a pause: given back, and a new frame begins */
	const r = f.key('~', 9300 + FRAME_PAUSE_MS + 1);
	assert.equal(r.replay, '~abc');
	assert.ok(r.hold && r.begun);
	const { r: rest } = timed(f, '12345678\n', 9900, 20);
	assert.equal(rest.at(-1).code, '12345678');
	/* a multi-character prefix half typed, then a pause */
	const g = new ScanFrame({ prefix: '[[' });
	assert.ok(g.key('[', 0).hold);
	assert.deepEqual(g.key('x', 1 + FRAME_PAUSE_MS), { replay: '[', pass: true });
	/* Escape after a pause gives back too */
	timed(g, '[[ab', 5000, 100);
	assert.deepEqual(g.other('Escape', 6000), { replay: '[[ab', pass: true });
});

test('the prefix again inside a frame gives back what came before and begins a new frame', () => {
	const f = new ScanFrame({ prefix: '~' });
	/* "~hello" typed fast, then a scan right after */
	const { r, t } = timed(f, '~hello~2685869688521', 0, 40);
	const again = r[6];
	assert.deepEqual(again, { hold: true, replay: '~hello', begun: true });
	assert.equal(f.enter(t + 10).code, '2685869688521');
	const g = new ScanFrame({ prefix: '[[' });
	const a = frameFeed(g, '[[ab[[1234567\n');
	assert.equal(a[5].replay, '[[ab');
	assert.equal(a.at(-1).code, '1234567');
});

test('a suffix alone: "Table #4" typed into a note is typing, the suffix goes through', () => {
	const f = new ScanFrame({ suffix: '#' });
	const { r } = timed(f, 'Table #4', 1000, 150);
	assert.ok(r.every((x) => x.pass && !x.hold && x.code === undefined), JSON.stringify(r));
	/* so are runs too short or with characters no code has */
	for (const s of ['12#', 'ab cdefgh#', 'hello!!!#']) {
		const g = new ScanFrame({ suffix: '#' });
		assert.ok(timed(g, s, 0, 100).r.every((x) => x.pass), s);
	}
	/* a code still is one, typed at a slow scanner's pace */
	const g = new ScanFrame({ suffix: '#' });
	const { r: s } = timed(g, 'LC-QR+/=ab.c#', 0, 100);
	assert.equal(s.at(-1).code, 'LC-QR+/=ab.c');
	assert.ok(looksLikeCode('4006381'));
	assert.ok(!looksLikeCode('Table '));
	assert.ok(!looksLikeCode('12345'.slice(0, SCAN_MIN_LEN - 1)));
});

test('readsKey: AltGr (Ctrl+Alt on Windows) types a prefix; Ctrl, Alt or Meta shortcuts do not', () => {
	const ev = (o, altGr) => Object.assign({ getModifierState: (m) => m === 'AltGraph' && !!altGr }, o);
	assert.ok(readsKey(ev({ key: '5' })));
	assert.ok(readsKey(ev({ key: 'Enter' })));
	/* Chrome on Windows: AltGr+~ on a German layout */
	assert.ok(readsKey(ev({ key: '~', ctrlKey: true, altKey: true }, true)));
	assert.ok(readsKey(ev({ key: '~', ctrlKey: true, altKey: true })));
	assert.ok(readsKey(ev({ key: '§', altKey: true }, true)));
	assert.ok(!readsKey(ev({ key: 'c', ctrlKey: true })));
	assert.ok(!readsKey(ev({ key: 'Tab', altKey: true })));
	assert.ok(!readsKey(ev({ key: 'ArrowLeft', ctrlKey: true, altKey: true })));
	assert.ok(!readsKey(ev({ key: 'v', metaKey: true })));
	assert.ok(!readsKey(ev({ key: 'a', isComposing: true })));
});

test('without a frame every key passes', () => {
	const f = new ScanFrame({});
	assert.ok(!f.active);
	assert.ok(frameFeed(f, '~12\n').every((x) => x.pass));
});

test('frameSetting keeps frames that typing cannot match', () => {
	assert.deepEqual(frameSetting('~', ''), { prefix: '~', suffix: '' });
	assert.deepEqual(frameSetting('', ''), { prefix: '', suffix: '' });
	assert.equal(typeof frameSetting('a', ''), 'string');
	assert.equal(typeof frameSetting('', '5'), 'string');
	assert.equal(typeof frameSetting(' ', ''), 'string');
	assert.equal(typeof frameSetting('\u0002', ''), 'string');
	assert.equal(typeof frameSetting('123456789', ''), 'string');
});
