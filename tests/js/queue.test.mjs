import test from 'node:test';
import assert from 'node:assert/strict';
import './en-catalog.mjs';
import { createQueue, planBatches, sameCard, SYNC_MAX_BYTES, SYNC_MAX_ITEMS } from '../../htdocs/js/queue.js';
import { createApi, ApiError, NetError } from '../../htdocs/js/api.js';
import { memStore, fakeFetch } from './helpers.mjs';

const staff = { id: 'staff-1', user_type: 'system_user', merchant_id: 'm1' };
const owner = { id: 'owner-1', user_type: 'owner', merchant_id: 'm1' };
let n = 0;
function item(extra) {
	n++;
	return Object.assign({
		card_instance_id: 'card-' + (n % 7), location_id: 'loc', staff_user_id: 'staff-1', purchase_amount: 5,
		idempotency_key: 'key-' + String(n).padStart(6, '0'), client_timestamp: new Date(1700000000000 + n * 1000).toISOString()
	}, extra);
}
function fill(q, count, extra) {
	const items = [];
	for (let i = 0; i < count; i++) { const it = item(extra); items.push(it); assert.ok(q.add(it, { label: 'x', card_type: 'cashback', merchant_id: 'm1' })); }
	return items;
}
/* A server recording every item once, with a body limit like a shared
 * host's mod_fcgid (its own 500, not JSON) and a request counter. */
function server(limit) {
	const seen = new Map();
	const f = fakeFetch((req) => {
		if (limit && Buffer.byteLength(req.body) > limit) return { status: 500, body: '<h1>Internal Server Error</h1>' };
		const results = req.json.transactions.map((t) => {
			const again = seen.has(t.idempotency_key);
			seen.set(t.idempotency_key, (seen.get(t.idempotency_key) || 0) + 1);
			return { idempotency_key: t.idempotency_key, result: { success: true, data: { idempotent: again } } };
		});
		return { status: 200, body: { success: true, data: { results } } };
	});
	const api = createApi({ base: 'api/v1/', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
	return { api, f, seen };
}

test('batches stay within the byte budget and 100 items', () => {
	const notes = 'n'.repeat(1500);
	const entries = Array.from({ length: 250 }, () => ({ item: item({ transaction_notes: notes }) }));
	const b = planBatches(entries);
	assert.equal(b.flat().length, 250);
	for (const x of b) {
		assert.ok(x.length <= SYNC_MAX_ITEMS);
		assert.ok(Buffer.byteLength(JSON.stringify({ transactions: x.map((e) => e.item) })) <= SYNC_MAX_BYTES, 'batch within bytes');
	}
	const small = planBatches(Array.from({ length: 250 }, () => ({ item: item() })));
	assert.deepEqual(small.map((x) => x.length), [100, 100, 50]);
	assert.deepEqual(planBatches([]), []);
});

test('the queue sends 100 purchases with notes (179 KiB) under a 128 KiB limit, each once', async () => {
	const q = createQueue({ store: memStore() });
	const items = fill(q, 100, { transaction_notes: 'Sonderwunsch: ' + 'ä'.repeat(900) });
	assert.ok(Buffer.byteLength(JSON.stringify({ transactions: items })) > 128 * 1024);
	const s = server(128 * 1024);
	const st = await q.sync(s.api, staff);
	assert.equal(st.sent, 100);
	assert.equal(st.kept, 0);
	assert.equal(st.failure, null);
	assert.equal(q.load().length, 0);
	assert.equal(s.seen.size, 100);
	assert.ok([...s.seen.values()].every((c) => c === 1), 'no purchase sent twice');
	for (const c of s.f.calls) assert.ok(Buffer.byteLength(c.body) <= 128 * 1024);
});

test('a host limit below the budget: a refused batch is split, never resent whole', async () => {
	const q = createQueue({ store: memStore() });
	fill(q, 40, { transaction_notes: 'x'.repeat(1000) });
	const s = server(8 * 1024);
	const st = await q.sync(s.api, staff);
	assert.equal(st.sent, 40);
	assert.equal(q.load().length, 0);
	assert.ok([...s.seen.values()].every((c) => c === 1));
	const refused = s.f.calls.filter((c) => Buffer.byteLength(c.body) > 8 * 1024);
	const bodies = new Set(refused.map((c) => c.body));
	assert.equal(bodies.size, refused.length, 'no refused body sent twice');
	assert.ok(st.requests < 40 * 2);
});

test('one purchase the host refuses as too large goes to review; the rest go through', async () => {
	const q = createQueue({ store: memStore() });
	fill(q, 3);
	const huge = item({ transaction_notes: 'x'.repeat(3000) });
	q.add(huge, { label: 'big', card_type: 'cashback', merchant_id: 'm1' });
	fill(q, 3);
	const f = fakeFetch((req) => {
		if (Buffer.byteLength(req.body) > 2500) return { status: 413, body: '' };
		return { status: 200, body: { success: true, data: { results: req.json.transactions.map((t) => ({ idempotency_key: t.idempotency_key, result: { success: true, data: {} } })) } } };
	});
	const api = createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
	const st = await q.sync(api, staff);
	assert.equal(st.sent, 6);
	assert.equal(st.flagged, 1);
	assert.deepEqual(q.loadReview().map((x) => [x.item.idempotency_key, x.error]), [[huge.idempotency_key, 'PAYLOAD_TOO_LARGE']]);
	assert.equal(q.load().length, 0);
});

test('per-item answers: success leaves, transient stays marked, refusals go to review', async () => {
	const q = createQueue({ store: memStore() });
	const [a, b, c] = fill(q, 3);
	const f = fakeFetch(() => ({ status: 200, body: { success: true, data: { results: [
		{ idempotency_key: c.idempotency_key, result: { success: false, error: 'CARD_NOT_FOUND', message: 'no card' } },
		{ idempotency_key: a.idempotency_key, result: { success: true, data: {} } },
		{ idempotency_key: b.idempotency_key, result: { success: false, error: 'DATABASE_ERROR', message: 'busy' } }
	] } } }));
	const api = createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
	const st = await q.sync(api, staff);
	assert.deepEqual([st.sent, st.flagged, st.kept], [1, 1, 1]);
	assert.deepEqual(q.load().map((x) => [x.item.idempotency_key, x.last_error]), [[b.idempotency_key, 'DATABASE_ERROR']]);
	assert.deepEqual(q.loadReview().map((x) => [x.item.idempotency_key, x.error, x.message]), [[c.idempotency_key, 'CARD_NOT_FOUND', 'no card']]);
});

test('no connection or a busy server stops the run; the queue is kept whole', async () => {
	for (const answer of [() => { throw new Error('down'); }, () => ({ status: 503, headers: { 'Retry-After': '5' }, body: { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } } })]) {
		const q = createQueue({ store: memStore() });
		fill(q, 150);
		const f = fakeFetch(answer);
		const api = createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
		const st = await q.sync(api, staff);
		assert.equal(f.calls.length, 1, 'one request, not one per batch or half');
		assert.equal(st.kept, 150);
		assert.ok(st.failure instanceof NetError || (st.failure instanceof ApiError && st.failure.status === 503));
		assert.equal(q.load().length, 150);
	}
});

test('who may send what: staff their own, the owner the merchant\'s', () => {
	const q = createQueue({ store: memStore() });
	q.add(item({ staff_user_id: 'staff-1' }), { merchant_id: 'm1' });
	q.add(item({ staff_user_id: 'staff-2' }), { merchant_id: 'm1' });
	q.add(item({ staff_user_id: 'staff-9' }), { merchant_id: 'm2' });
	assert.equal(q.forUser(staff).length, 1);
	assert.equal(q.forUser(owner).length, 2);
	assert.equal(q.forUser(null).length, 0);
	const again = q.load()[0].item;
	assert.ok(q.add(again, {}));
	assert.equal(q.load().length, 3, 'a key is queued once');
});

test('a second offline punch within the cooldown is found; Record now gives a fresh time and key', () => {
	let now = 1700000000000;
	const q = createQueue({ store: memStore(), now: () => now });
	const first = item({ card_instance_id: 'P', punch_count: 1, client_timestamp: new Date(now).toISOString() });
	q.add(first, { card_type: 'punch', merchant_id: 'm1' });
	const second = item({ card_instance_id: 'P', punch_count: 1, client_timestamp: new Date(now + 30000).toISOString() });
	assert.equal(q.punchWithin(second, 60, now + 30000).item.idempotency_key, first.idempotency_key);
	assert.equal(q.punchWithin(second, 60, now + 61000), null, 'after the cooldown');
	assert.equal(q.punchWithin(Object.assign({}, second, { card_instance_id: 'Q' }), 60, now + 30000), null, 'another card');
	assert.ok(sameCard({ barcode_value: '123' }, { barcode_value: '123', card_instance_id: 'x' }));
	assert.ok(!sameCard({ barcode_value: '' }, { barcode_value: '' }));

	/* refused by the server as COOLDOWN_ACTIVE: it sits in review */
	q.settle(q.load(), [{ idempotency_key: first.idempotency_key, result: { success: false, error: 'COOLDOWN_ACTIVE', message: 'wait' } }]);
	assert.equal(q.loadReview().length, 1);
	now += 3600000;
	assert.ok(q.requeue(first.idempotency_key, true, 'fresh-key'));
	const back = q.load();
	assert.equal(back.length, 1);
	assert.equal(back[0].item.idempotency_key, 'fresh-key');
	assert.equal(back[0].item.client_timestamp, new Date(now).toISOString());
	assert.equal(back[0].item.purchase_amount, first.purchase_amount);
	assert.equal(back[0].error, undefined);
	assert.equal(q.loadReview().length, 0);
	/* plain Retry keeps key and time */
	q.settle(q.load(), [{ idempotency_key: 'fresh-key', result: { success: false, error: 'CARD_INACTIVE' } }]);
	assert.ok(q.requeue('fresh-key', false));
	assert.equal(q.load()[0].item.idempotency_key, 'fresh-key');
	assert.equal(q.requeue('nope', false), false);
	assert.ok(q.dismiss('fresh-key'));
});

test('a broken or foreign queue in storage is read as empty, not as a crash', () => {
	const store = memStore({ 'pos.queue.v1': '{not json', 'pos.review.v1': JSON.stringify([null, { item: {} }, 3]) });
	const q = createQueue({ store });
	assert.deepEqual(q.load(), []);
	assert.deepEqual(q.loadReview(), []);
});

/* A server that fails (500) on any request holding one poisoned purchase,
 * and records the rest. */
function poisoned(badKey, status) {
	const seen = new Map();
	const f = fakeFetch((req) => {
		if (req.json.transactions.some((t) => t.idempotency_key === badKey)) return { status: status || 500, body: '<h1>error</h1>' };
		return { status: 200, body: { success: true, data: { results: req.json.transactions.map((t) => {
			seen.set(t.idempotency_key, (seen.get(t.idempotency_key) || 0) + 1);
			return { idempotency_key: t.idempotency_key, result: { success: true, data: {} } };
		}) } } };
	});
	return { f, seen, api: createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f }) };
}

test('one purchase the server always fails on does not hold back the others; its third run sends it to review', async () => {
	const q = createQueue({ store: memStore() });
	const items = fill(q, 12);
	const bad = items[0].idempotency_key;
	const s = poisoned(bad);
	let st = await q.sync(s.api, staff);
	assert.equal(st.sent, 11, 'the eleven after it went through');
	assert.deepEqual(q.load().map((x) => [x.item.idempotency_key, x.tries]), [[bad, 1]]);
	/* alone in the queue, its failure proves nothing of it: no try */
	st = await q.sync(s.api, staff);
	assert.equal(q.load()[0].tries, 1);
	fill(q, 1);
	st = await q.sync(s.api, staff);
	assert.equal(st.sent, 1);
	assert.equal(q.load()[0].tries, 2);
	fill(q, 1);
	st = await q.sync(s.api, staff);
	assert.equal(st.sent, 1);
	assert.equal(st.flagged, 1);
	assert.deepEqual(q.loadReview().map((x) => [x.item.idempotency_key, x.error]), [[bad, 'INTERNAL_ERROR']]);
	assert.equal(q.load().length, 0);
	assert.ok([...s.seen.values()].every((c) => c === 1));
});

test('a server failing on everything: few requests, no try counted, nothing set aside', async () => {
	const q = createQueue({ store: memStore() });
	fill(q, 100);
	const f = fakeFetch(() => ({ status: 500, body: 'down' }));
	const api = createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
	for (let run = 0; run < 4; run++) {
		const st = await q.sync(api, staff);
		assert.equal(st.kept, 100);
		assert.ok(st.failure);
	}
	assert.ok(f.calls.length <= 4 * 10, f.calls.length + ' requests');
	assert.equal(q.loadReview().length, 0);
	assert.ok(q.load().every((x) => !x.tries));
});

test('a filter in front of the service refusing one purchase (403): that one to review, the rest sent', async () => {
	const q = createQueue({ store: memStore() });
	const items = fill(q, 9);
	const bad = items[4].idempotency_key;
	const s = poisoned(bad, 403);
	const st = await q.sync(s.api, staff);
	assert.equal(st.sent, 8);
	assert.equal(st.flagged, 1);
	assert.deepEqual(q.loadReview().map((x) => [x.item.idempotency_key, x.error]), [[bad, 'HTTP_403']]);
});

/* A storage whose writes of one key fail (full). */
function fullFor(key) {
	const m = memStore();
	const set = m.setItem;
	m.broken = true;
	m.setItem = (k, v) => { if (k === key && m.broken) throw new Error('QuotaExceededError'); set(k, v); };
	return m;
}

test('storage full: a refusal that cannot be filed for review stays queued, never vanishes', () => {
	const store = fullFor('pos.review.v1');
	const q = createQueue({ store });
	const [a] = fill(q, 1);
	const s = q.settle(q.load(), [{ idempotency_key: a.idempotency_key, result: { success: false, error: 'CARD_NOT_FOUND' } }]);
	assert.equal(s.flagged, 0);
	assert.equal(q.load().length, 1);
	assert.equal(q.loadReview().length, 0);
});

test('storage full: "Record now" that cannot be queued stays in review, so a second press makes no second copy', () => {
	const store = memStore();
	const q = createQueue({ store });
	const [a] = fill(q, 1, { punch_count: 1 });
	q.settle(q.load(), [{ idempotency_key: a.idempotency_key, result: { success: false, error: 'COOLDOWN_ACTIVE' } }]);
	const set = store.setItem;
	store.setItem = (k, v) => { if (k === 'pos.queue.v1') throw new Error('full'); set(k, v); };
	assert.equal(q.requeue(a.idempotency_key, true, 'new1'), false);
	assert.equal(q.loadReview().length, 1, 'still in review');
	store.setItem = set;
	assert.ok(q.requeue(a.idempotency_key, true, 'new2'));
	assert.deepEqual(q.load().map((x) => x.item.idempotency_key), ['new2']);
	assert.equal(q.loadReview().length, 0);
});

test('a card the till could not look up may be a cashback card: no cooldown is assumed for it', () => {
	const now = 1700000000000;
	const q = createQueue({ store: memStore(), now: () => now });
	q.add(item({ barcode_value: '123', punch_count: 1, client_timestamp: new Date(now).toISOString() }), { card_type: null, merchant_id: 'm1' });
	assert.equal(q.punchWithin({ barcode_value: '123' }, 60, now + 1000), null);
});

/* ---- the durable copy (createQueue's durable, IndexedDB in the page) ---- */

/* A durable store as IndexedDB is: async, one record, never overwritten
 * by an older one; delay ms per call. */
function durableStore(delay) {
	const d = { rec: null, saves: 0, loads: 0 };
	const wait = () => new Promise((r) => setTimeout(r, delay || 0));
	d.load = async () => { d.loads++; await wait(); return d.rec && Object.assign({}, d.rec); };
	d.save = async (snap) => { d.saves++; await wait(); if (!d.rec || !(d.rec.seq > snap.seq)) d.rec = Object.assign({}, snap); };
	return d;
}
/* What localStorage had written to disk: a copy of its keys now. */
const onDisk = (store) => memStore(Object.fromEntries(store.map));

test('a browser killed before localStorage kept the last changes: restore brings the queue back as the till had it', async () => {
	const d = durableStore();
	const store = memStore();
	const q = createQueue({ store, durable: d });
	const [old, bad] = fill(q, 2);
	await q.flush();
	/* What localStorage had put on disk when the browser was killed:
	 * two purchases queued, nothing after. */
	const disk = onDisk(store);
	q.settle(q.load(), [{ idempotency_key: old.idempotency_key, result: { success: true, data: {} } },
		{ idempotency_key: bad.idempotency_key, result: { success: false, error: 'CARD_NOT_FOUND', message: 'no card' } }]);
	q.dismiss(bad.idempotency_key);
	const [sale] = fill(q, 1, { purchase_amount: 8 });
	assert.equal(await q.flush(), true);

	const back = createQueue({ store: disk, durable: d });
	assert.deepEqual(back.load().map((x) => x.item.idempotency_key), [old.idempotency_key, bad.idempotency_key], 'localStorage alone: the old queue');
	assert.equal(await back.restore(), true);
	assert.deepEqual(back.load().map((x) => x.item.idempotency_key), [sale.idempotency_key], 'the sale queued last is back, the sent one is not');
	assert.deepEqual(back.loadReview(), [], 'the dismissed refusal does not come back');
	/* Sent now, nothing is refused again: no "1 need review". */
	const s = server();
	const st = await back.sync(s.api, staff);
	assert.deepEqual([st.sent, st.flagged, st.kept], [1, 0, 0]);
	assert.deepEqual([...s.seen.keys()], [sale.idempotency_key]);
});

test('restore keeps localStorage when it is as new as the durable copy or newer, and brings the copy up to date', async () => {
	const d = durableStore();
	const store = memStore();
	const q = createQueue({ store, durable: d });
	fill(q, 2);
	await q.flush();
	assert.equal(await createQueue({ store, durable: d }).restore(), false, 'the same: nothing to do');
	/* The copy lags (its save failed): localStorage wins, and is saved. */
	d.rec = Object.assign({}, d.rec, { seq: d.rec.seq - 1, queue: '[]' });
	const q2 = createQueue({ store, durable: d });
	assert.equal(await q2.restore(), false);
	assert.equal(q2.load().length, 2);
	await q2.flush();
	assert.equal(d.rec.queue, store.getItem('pos.queue.v1'));
	/* A queue written straight into localStorage (a test does, an older
	 * page did) with the same number: localStorage's stands. */
	store.setItem('pos.queue.v1', '[]');
	const q3 = createQueue({ store, durable: d });
	assert.equal(await q3.restore(), false);
	assert.equal(q3.load().length, 0);
	await q3.flush();
	assert.equal(d.rec.queue, '[]');
	/* No copy yet (the first start of this page): one is made. */
	const d2 = durableStore();
	const q4 = createQueue({ store, durable: d2 });
	assert.equal(await q4.restore(), false);
	await q4.flush();
	assert.equal(d2.rec.seq, Number(store.getItem('pos.queue.seq.v1')));
});

test('restore takes no copy that answers after its wait, or after the page changed the queue meanwhile', async () => {
	const d = durableStore(50);
	const store = memStore();
	const q = createQueue({ store, durable: d });
	fill(q, 1);
	await q.flush();
	const disk = onDisk(store);
	fill(q, 1);
	await q.flush();
	const late = createQueue({ store: onDisk(disk), durable: d });
	assert.equal(await late.restore(10), false, 'too late');
	assert.equal(late.load().length, 1);
	const busy = createQueue({ store: onDisk(disk), durable: d });
	const p = busy.restore();
	fill(busy, 1);
	assert.equal(await p, false, 'the page queued a sale meanwhile: what it did stands');
	assert.equal(busy.load().length, 2);
	const calm = createQueue({ store: onDisk(disk), durable: d });
	assert.equal(await calm.restore(), true);
});

test('flush resolves once every change so far is in the durable copy; a burst costs few saves', async () => {
	const d = durableStore(5);
	const q = createQueue({ store: memStore(), durable: d });
	fill(q, 20);
	assert.equal(await q.flush(), true);
	assert.equal(JSON.parse(d.rec.queue).length, 20);
	assert.ok(d.saves <= 3, d.saves + ' saves');
	const failing = { load: async () => null, save: async () => { throw new Error('QuotaExceededError'); } };
	const q2 = createQueue({ store: memStore(), durable: failing });
	fill(q2, 1);
	assert.equal(await q2.flush(), false, 'a failed save says so');
	assert.equal(q2.load().length, 1, 'and the queue is still there');
	assert.equal(await createQueue({ store: memStore() }).flush(), true, 'no durable copy: nothing to wait for');
});

test('a sync request the server or a proxy gave up waiting for (408) stops the run: the purchase stays queued, not in review', async () => {
	const q = createQueue({ store: memStore() });
	fill(q, 3);
	const f = fakeFetch(() => ({ status: 408, body: '<h1>Request Timeout</h1>' }));
	const api = createApi({ base: '', store: memStore({ 'pos.access_token': 'A' }), fetch: f });
	const st = await q.sync(api, staff);
	assert.equal(f.calls.length, 1);
	assert.deepEqual([st.sent, st.flagged, st.kept], [0, 0, 3]);
	assert.ok(st.failure instanceof ApiError && st.failure.status === 408);
	assert.equal(q.loadReview().length, 0);
});

test('a durable copy that cannot be read at first (its files still held after a crash) is asked again, and taken', async () => {
	const d = durableStore();
	const store = memStore();
	const q = createQueue({ store, durable: d });
	fill(q, 1);
	await q.flush();
	const disk = onDisk(store);
	const [sale] = fill(q, 1);
	await q.flush();
	const load = d.load;
	let fails = 3;
	d.load = async () => { if (fails-- > 0) throw new Error('UnknownError: Internal error opening backing store'); return load(); };
	const back = createQueue({ store: onDisk(disk), durable: d });
	assert.equal(await back.restore(), true);
	assert.equal(back.load().at(-1).item.idempotency_key, sale.idempotency_key);
	/* A copy that never answers: the page goes on with what it has. */
	const never = createQueue({ store: onDisk(disk), durable: { load: () => new Promise(() => {}), save: async () => {} } });
	assert.equal(await never.restore(50), false);
	assert.equal(never.load().length, 1);
});
