import test from 'node:test';
import assert from 'node:assert/strict';
import { storage, memStorage, readJSON, writeJSON, uuid } from '../../htdocs/js/store.js';

test('storage gives the browser\'s storage when it can be written, else one in memory', () => {
	const real = memStorage();
	assert.equal(storage('localStorage', { localStorage: real }), real);
	const refusing = { setItem() { throw new Error('SecurityError'); }, getItem: () => null, removeItem() {} };
	const s = storage('sessionStorage', { sessionStorage: refusing });
	assert.notEqual(s, refusing);
	s.setItem('a', 1);
	assert.equal(s.getItem('a'), '1');
	s.removeItem('a');
	assert.equal(s.getItem('a'), null);
	assert.equal(storage('localStorage', {}).getItem('x'), null);
});

test('readJSON and writeJSON never throw', () => {
	const s = memStorage();
	assert.equal(readJSON(s, 'k', 'def'), 'def');
	assert.ok(writeJSON(s, 'k', { a: [1] }));
	assert.deepEqual(readJSON(s, 'k', null), { a: [1] });
	s.setItem('bad', '{no');
	assert.equal(readJSON(s, 'bad', 7), 7);
	const full = { setItem() { throw new Error('QuotaExceededError'); } };
	assert.equal(writeJSON(full, 'k', 1), false);
});

test('uuid is a v4 UUID, with or without randomUUID', () => {
	const re = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
	assert.match(uuid(), re);
	const noRandomUUID = { getRandomValues: (b) => { for (let i = 0; i < b.length; i++) b[i] = 255; return b; } };
	assert.equal(uuid(noRandomUUID), 'ffffffff-ffff-4fff-bfff-ffffffffffff');
	assert.match(uuid({ randomUUID() { throw new Error('insecure'); }, getRandomValues: noRandomUUID.getRandomValues }), re);
	assert.match(uuid(null), re);
});
