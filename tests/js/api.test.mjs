import test from 'node:test';
import assert from 'node:assert/strict';
import './en-catalog.mjs';
import { createApi, ApiError, NetError, SessionEnded, retryAfterSecs, byteLength, payload } from '../../htdocs/js/api.js';
import { memStore, fakeFetch } from './helpers.mjs';

const ok = (data) => ({ status: 200, body: { success: true, data } });
const fail = (status, code, extra) => Object.assign({ status, body: { success: false, error: { code, message: code.toLowerCase() } } }, extra);

function client(answer, tokens) {
	const store = memStore(tokens === undefined ? { 'pos.access_token': 'A1', 'pos.refresh_token': 'R1' } : tokens);
	const f = fakeFetch(answer);
	const ended = [], net = [];
	const api = createApi({ base: 'api/v1/', store, fetch: f, onNet: (on) => net.push(on), onSessionEnd: (n) => ended.push(n) });
	return { api, store, f, ended, net };
}

test('a call carries the token and returns the answer', async () => {
	const c = client(() => ok({ x: 1 }));
	const r = await c.api.call('POST', 'cards/lookup', { barcode_value: '1' });
	assert.deepEqual(r.data.data, { x: 1 });
	assert.equal(c.f.calls[0].url, 'api/v1/cards/lookup');
	assert.equal(c.f.calls[0].headers.Authorization, 'Bearer A1');
	assert.deepEqual(c.f.calls[0].json, { barcode_value: '1' });
	assert.deepEqual(c.net, [true]);
});

test('a string body is sent as it is', async () => {
	const c = client(() => ok({}));
	await c.api.call('POST', 'transactions/sync', '{"transactions":[]}');
	assert.equal(c.f.calls[0].body, '{"transactions":[]}');
});

test('a 401 refreshes once, then retries with the new token', async () => {
	const c = client((req) => {
		if (req.url.endsWith('auth/refresh')) return ok({}) && { status: 200, body: { access_token: 'A2', refresh_token: 'R2' } };
		return req.headers.Authorization === 'Bearer A2' ? ok({ y: 2 }) : fail(401, 'UNAUTHORIZED');
	});
	const [a, b] = await Promise.all([c.api.call('GET', 'auth/me'), c.api.call('GET', 'auth/me')]);
	assert.deepEqual(a.data.data, { y: 2 });
	assert.deepEqual(b.data.data, { y: 2 });
	assert.equal(c.f.calls.filter((x) => x.url.endsWith('auth/refresh')).length, 1, 'one refresh for two calls');
	assert.equal(c.store.getItem('pos.refresh_token'), 'R2');
});

test('a refused refresh ends the session', async () => {
	const c = client((req) => (req.url.endsWith('auth/refresh') ? fail(401, 'INVALID_TOKEN') : fail(401, 'UNAUTHORIZED')));
	await assert.rejects(c.api.call('POST', 'transactions/record', {}), SessionEnded);
	assert.equal(c.ended.length, 1);
	assert.equal(c.store.getItem('pos.access_token'), null);
});

test('a refresh that meets no server keeps the session', async () => {
	const c = client((req) => { if (req.url.endsWith('auth/refresh')) throw new Error('down'); return fail(401, 'UNAUTHORIZED'); });
	await assert.rejects(c.api.call('GET', 'auth/me'), NetError);
	assert.equal(c.ended.length, 0);
	assert.equal(c.store.getItem('pos.refresh_token'), 'R1');
});

test('no token: the session is over at once, nothing sent', async () => {
	const c = client(() => ok({}), {});
	await assert.rejects(c.api.call('GET', 'auth/me'), SessionEnded);
	assert.equal(c.f.calls.length, 0);
	assert.equal(c.ended.length, 1);
});

test('errors: the server\'s code, Retry-After, and answers that are not ours', async () => {
	let c = client(() => fail(429, 'COOLDOWN_ACTIVE', { headers: { 'Retry-After': '42' } }));
	await assert.rejects(c.api.call('POST', 'transactions/record', {}), (e) => e instanceof ApiError && e.code === 'COOLDOWN_ACTIVE' && e.retryAfter === 42 && e.status === 429);
	c = client(() => ({ status: 500, body: '<html>mod_fcgid: error</html>' }));
	await assert.rejects(c.api.call('POST', 'transactions/sync', '{}'), (e) => e instanceof ApiError && e.code === 'INTERNAL_ERROR' && e.status === 500);
	c = client(() => ({ status: 413, body: '' }));
	await assert.rejects(c.api.call('POST', 'transactions/sync', '{}'), (e) => e.code === 'PAYLOAD_TOO_LARGE');
	c = client(() => ({ status: 200, body: 'not json' }));
	await assert.rejects(c.api.call('GET', 'auth/me'), (e) => e instanceof ApiError && e.code === 'INTERNAL_ERROR');
	c = client(() => { throw new TypeError('Failed to fetch'); });
	await assert.rejects(c.api.call('GET', 'auth/me'), NetError);
	assert.deepEqual(c.net, [false]);
});

test('login keeps the tokens and returns the user', async () => {
	const c = client(() => ({ status: 200, body: { access_token: 'A9', refresh_token: 'R9', user: { id: 'u' } } }), {});
	const u = await c.api.login('a@b.c', 'pw');
	assert.deepEqual(u, { id: 'u' });
	assert.equal(c.store.getItem('pos.access_token'), 'A9');
	const d = client(() => ({ status: 200, body: { user: {} } }), {});
	await assert.rejects(d.api.login('a@b.c', 'pw'), ApiError);
});

test('logout forgets the tokens and sends both to the server', async () => {
	const c = client(() => ok({ logged_out: true }));
	assert.equal(await c.api.logout(), 'ended');
	assert.equal(c.f.calls.length, 1);
	assert.equal(c.f.calls[0].url, 'api/v1/auth/logout');
	assert.equal(c.f.calls[0].method, 'POST');
	assert.equal(c.f.calls[0].headers.Authorization, 'Bearer A1');
	assert.deepEqual(c.f.calls[0].json, { refresh_token: 'R1' });
	assert.equal(c.store.getItem('pos.access_token'), null);
	assert.equal(c.store.getItem('pos.refresh_token'), null);
	assert.equal(c.api.hasSession(), false);
});

test('logout without a server, or of an ended login, still forgets the tokens', async () => {
	const down = client(() => { throw new Error('down'); });
	assert.equal(await down.api.logout(), 'unreachable');
	assert.equal(down.store.getItem('pos.refresh_token'), null);
	const ended = client(() => fail(401, 'UNAUTHORIZED'), { 'pos.refresh_token': 'R1' });
	assert.equal(await ended.api.logout(), 'none');
	assert.equal(ended.f.calls[0].headers.Authorization, undefined, 'no access token: none sent');
	assert.deepEqual(ended.f.calls[0].json, { refresh_token: 'R1' });
	assert.equal(ended.ended.length, 0, 'a refused logout does not end the page\'s session twice');
	const none = client(() => ok({}), {});
	assert.equal(await none.api.logout(), 'none');
	assert.equal(none.f.calls.length, 0, 'no tokens: nothing sent');
});

test('a refresh that answers after the logout puts no tokens back, and its call ends', async () => {
	let release;
	const held = new Promise((r) => { release = r; });
	const c = client(async (req) => {
		if (req.url.endsWith('auth/refresh')) { await held; return { status: 200, body: { access_token: 'A2', refresh_token: 'R2' } }; }
		if (req.url.endsWith('auth/logout')) return ok({ logged_out: true });
		return fail(401, 'UNAUTHORIZED');
	});
	const pending = c.api.call('GET', 'auth/me');
	await new Promise((r) => setTimeout(r, 0));
	assert.equal(await c.api.logout(), 'ended');
	release();
	await assert.rejects(pending, SessionEnded);
	assert.equal(c.store.getItem('pos.access_token'), null, 'the late refresh stored nothing');
	assert.equal(c.store.getItem('pos.refresh_token'), null);
	assert.equal(c.ended.length, 0, 'no "session has ended" over the logout\'s notice');
	assert.equal(c.f.calls.filter((x) => x.url.endsWith('auth/me')).length, 1, 'the call was not sent again');
});

test('a call under one cashier never goes on under the next one\'s login', async () => {
	let release;
	const held = new Promise((r) => { release = r; });
	const c = client(async (req) => {
		if (req.url.endsWith('auth/me')) { await held; return fail(401, 'UNAUTHORIZED'); }
		if (req.url.endsWith('auth/login')) return { status: 200, body: { access_token: 'B1', refresh_token: 'RB', user: { id: 'b' } } };
		return ok({});
	});
	const pending = c.api.call('GET', 'auth/me');
	await new Promise((r) => setTimeout(r, 0));
	await c.api.logout();
	await c.api.login('b@shop.example', 'pw');
	release();
	await assert.rejects(pending, SessionEnded);
	assert.equal(c.f.calls.filter((x) => x.headers.Authorization === 'Bearer B1').length, 0, 'nothing sent with the next cashier\'s token');
	assert.equal(c.store.getItem('pos.access_token'), 'B1');
});

test('Retry-After as seconds or a date; UTF-8 length', () => {
	assert.equal(retryAfterSecs('5'), 5);
	assert.equal(retryAfterSecs(null), null);
	assert.equal(retryAfterSecs(new Date(10000).toUTCString(), 0), 10);
	assert.equal(retryAfterSecs('soon'), null);
	assert.equal(byteLength('abc'), 3);
	assert.equal(byteLength('é'), 2);
	assert.equal(byteLength('€'), 3);
	assert.equal(byteLength('😀'), 4);
	assert.equal(byteLength('😀é€a'), Buffer.byteLength('😀é€a'));
});

/* ---- what the back office needs of the one client ---- */

test('served: an error answer of the service (X-Request-Id) or of the web server in its place', async () => {
	const c = client((req) => (req.url.endsWith('a') ?
		{ status: 500, body: { success: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }, headers: { 'X-Request-Id': 'r1' } } :
		{ status: 500, body: '<html>Internal Server Error</html>' }));
	await assert.rejects(c.api.call('GET', 'a'), (e) => e instanceof ApiError && e.served === true);
	await assert.rejects(c.api.call('GET', 'b'), (e) => e instanceof ApiError && e.served === false && e.code === 'INTERNAL_ERROR');
	assert.equal(new ApiError(400, 'X', 'm').served, true);
});

test('a bare 413 of a host\'s limit is PAYLOAD_TOO_LARGE', async () => {
	const c = client(() => ({ status: 413, body: '<html>Request Entity Too Large</html>' }));
	await assert.rejects(c.api.call('POST', 'x', {}), (e) => e.code === 'PAYLOAD_TOO_LARGE' && e.served === false);
});

test('opts.blob reads a successful answer as a Blob, with its headers', async () => {
	const store = memStore({ 'pos.access_token': 'A1', 'pos.refresh_token': 'R1' });
	const f = async () => ({ ok: true, status: 200, headers: { get: (k) => (k === 'Content-Type' ? 'text/csv' : null) },
		blob: async () => 'BLOB', text: async () => { throw new Error('not read as text'); } });
	const api = createApi({ base: 'api/v1/', store, fetch: f });
	const r = await api.call('GET', 'admin/export.csv', undefined, { blob: true });
	assert.equal(r.blob, 'BLOB');
	assert.equal(r.headers.get('Content-Type'), 'text/csv');
});

test('get and send return the payload; an answer without one is an ApiError', async () => {
	const c = client((req) => (req.url.endsWith('bad') ? { status: 200, body: { success: true } } : ok({ n: 1 })));
	assert.deepEqual(await c.api.get('x'), { n: 1 });
	assert.deepEqual(await c.api.send('PATCH', 'x', { a: 1 }), { n: 1 });
	assert.equal(c.f.calls[1].method, 'PATCH');
	await assert.rejects(c.api.get('bad'), (e) => e instanceof ApiError && e.code === 'INTERNAL_ERROR');
	assert.deepEqual(payload({ status: 200, data: { data: { z: 2 } } }), { z: 2 });
});

test('create keeps the idempotency key of the same attempt after a lost answer, not after a refusal', async () => {
	let n = 0, answer = 'net';
	const c = client(() => {
		if (answer === 'net') throw new Error('offline');
		return answer === 'bad' ? fail(400, 'VALIDATION_ERROR') : ok({ id: 1 });
	});
	const api = createApi({ base: 'api/v1/', store: c.store, fetch: c.f, uuid: () => 'k' + (++n) });
	await assert.rejects(api.create('loc', 'admin/locations', { name: 'A' }), NetError);
	answer = 'ok';
	await api.create('loc', 'admin/locations', { name: 'A' });
	assert.deepEqual(c.f.calls.map((r) => r.json.idempotency_key), ['k1', 'k1']);
	await api.create('loc', 'admin/locations', { name: 'A' });
	answer = 'bad';
	await assert.rejects(api.create('loc', 'admin/locations', { name: 'B' }), ApiError);
	answer = 'ok';
	await api.create('loc', 'admin/locations', { name: 'B' });
	assert.deepEqual(c.f.calls.map((r) => r.json.idempotency_key), ['k1', 'k1', 'k2', 'k3', 'k4']);
	await api.create('setup', 'setup', { x: 1 }, { raw: true });
	assert.equal(c.f.calls[5].headers.Authorization, undefined);
});

test('setTokens, forget and endSession: the session through the store and the page\'s callback only', async () => {
	const c = client(() => ok({}), {});
	c.api.setTokens('A9', 'R9');
	assert.ok(c.api.hasSession());
	await c.api.call('GET', 'auth/me');
	assert.equal(c.f.calls[0].headers.Authorization, 'Bearer A9');
	c.api.forget();
	assert.ok(!c.api.hasSession() && c.store.getItem('pos.refresh_token') === null);
	assert.deepEqual(c.ended, []);
	c.api.setTokens('A10', 'R10');
	c.api.endSession('Bye.');
	assert.deepEqual(c.ended, ['Bye.']);
	assert.ok(!c.api.hasSession());
});
