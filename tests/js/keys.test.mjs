import test from 'node:test';
import assert from 'node:assert/strict';
import { KeyBursts, SCAN_GAP_MS, SCAN_MIN_LEN } from '../../htdocs/js/keys.js';

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
