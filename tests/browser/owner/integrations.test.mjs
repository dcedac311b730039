/* The back office's Integrations: an API token created (shown once,
 * with Copy, then listed without it) and revoked; a webhook added (its
 * signing secret shown once), listed as working, sent a test event, given
 * a new secret, turned off and on, read as gone or failing, its delivery
 * log paged with a re-send, deleted; the deliverer's note with the cron
 * line to add; the audit's words for these changes.
 *
 * Against the real API. Where an endpoint is not in this build yet (the
 * API answers 404 to the owner), the page's requests to it are answered
 * by a stateful fake of the design's shapes below, and the file says so
 * in a comment line: the page is then tested, the server is not. */
import { execFile } from 'node:child_process';
import http from 'node:http';
import { freshShop, ownerBrowser, ownerLogin, openOwner, nav, shots3, a11y, postsStep, api, patch, sql, addProgram, issueCards, record, login, PROGRAMS, OWNER } from '../lib/owner-helpers.mjs';
import { ORIGIN, admin, env, note } from '../lib/browser.mjs';

const shop = await freshShop();
const program = await addProgram(shop, PROGRAMS.cashback);
const [card] = await issueCards(shop, program, ['Robert Brown']);
const buy = async (amount) => record(await login(OWNER), shop.location, card.card_instance_id, amount);
const t = await ownerBrowser();
await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ORIGIN });
const clip = () => t.ev(`navigator.clipboard.readText()`);

/* ---- the real API, or the fake where it is missing ---- */
const real = {
	tokens: (await api('GET', 'admin/tokens', undefined, shop.token)).status !== 404,
	hooks: (await api('GET', 'admin/webhooks', undefined, shop.token)).status !== 404
};
if (!real.tokens) note('admin/tokens is not in this build: the page\'s token requests are answered by the fake of the design');
if (!real.hooks) note('admin/webhooks is not in this build: the page\'s webhook requests are answered by the fake of the design');

const fake = { tokens: [], hooks: [], log: {}, seq: 0, deliverer: { last_run_at: null, command: '/home/corner/public_html/loyalty/api-bin/loyalty-admin --conf /home/corner/public_html/loyalty/api-bin/loyalty.conf events deliver' } };
const now = () => new Date().toISOString();
const fid = (p) => p + '-0000-4000-8000-' + String(++fake.seq).padStart(12, '0');
const b64 = (n) => Buffer.from(Array.from({ length: n }, () => Math.floor(Math.random() * 256))).toString('base64');
const bad = (status, code, message, field) => ({ status, body: { success: false, error: { code, message, details: field ? { field } : undefined } } });
const ok = (status, data) => ({ status, body: { success: true, data } });
function fakeTokens(p) {
	const u = new URL(p.request.url), m = p.request.method, id = decodeURIComponent(u.pathname.split('/admin/tokens')[1].replace(/^\//, ''));
	const body = p.request.postData ? JSON.parse(p.request.postData) : {};
	if (m === 'GET' && !id) return ok(200, { tokens: fake.tokens.slice().reverse().map((k) => Object.assign({}, k, { secret: undefined })) });
	if (m === 'POST' && !id) {
		if (!body.name) return bad(400, 'VALIDATION_ERROR', 'name is required.', 'name');
		if (!Array.isArray(body.scopes) || !body.scopes.length) return bad(400, 'VALIDATION_ERROR', 'scopes needs at least one scope.', 'scopes');
		const secret = 'lci_' + b64(24).replace(/\+/g, '-').replace(/\//g, '_');
		const k = { id: fid('7a000000'), name: body.name, scopes: body.scopes, prefix: secret.slice(0, 8), created_at: now(), last_used_at: null, revoked_at: null };
		fake.tokens.push(k);
		return ok(201, { token: Object.assign({ secret }, k) });
	}
	const k = fake.tokens.find((x) => x.id === id);
	if (!k) return bad(404, 'NOT_FOUND', 'No such token.');
	if (m === 'DELETE') { k.revoked_at = k.revoked_at || now(); return ok(200, { token: k }); }
	return ok(200, { token: k });
}
const hookOut = (w) => Object.assign({}, w, { secret: undefined });
function fakeHooks(p) {
	const u = new URL(p.request.url), m = p.request.method;
	const [id, sub] = u.pathname.split('/admin/webhooks')[1].replace(/^\//, '').split('/').map(decodeURIComponent);
	const body = p.request.postData ? JSON.parse(p.request.postData) : {};
	if (m === 'GET' && !id) return ok(200, { webhooks: fake.hooks.map(hookOut), deliverer: fake.deliverer });
	if (m === 'POST' && !id) {
		if (!/^https:\/\/[^/]+/.test(body.url || '')) return bad(400, 'VALIDATION_ERROR', 'url must be an https:// address.', 'url');
		const w = { id: fid('3b000000'), url: body.url, description: body.description || '', event_types: body.event_types || null, enabled: true,
			disabled_reason: null, created_at: now(), updated_at: now(), secret_rotated_until: null,
			status: { last_success_at: null, failing_since: null, attempts: 0, next_attempt_at: null, pending: 0 }, secret: 'whsec_' + b64(24) };
		fake.hooks.push(w);
		fake.log[w.id] = [];
		return ok(201, { webhook: w });
	}
	const w = fake.hooks.find((x) => x.id === id);
	if (!w) return bad(404, 'NOT_FOUND', 'No such webhook.');
	if (m === 'GET' && sub === 'deliveries') {
		const lim = Number(u.searchParams.get('limit') || 20), off = Number(u.searchParams.get('offset') || 0);
		return ok(200, { deliveries: fake.log[id].slice(off, off + lim), total: fake.log[id].length });
	}
	if (m === 'POST' && (sub === 'test' || sub === 'resend')) {
		const job = { id: fid('9c000000'), kind: sub, created_at: now() };
		fake.log[id].unshift({ id: fid('d0000000'), event_id: sub === 'test' ? 'msg_test_' + job.id : body.event_id, event_type: sub === 'test' ? 'webhook.test' : 'transaction.recorded',
			attempt: 1, at: now(), status: 200, duration_ms: 42, outcome: 'delivered', error: null, response: 'ok' });
		return ok(202, { delivery_job: job });
	}
	if (m === 'POST' && sub === 'rotate') {
		w.secret = 'whsec_' + b64(24);
		w.secret_rotated_until = new Date(Date.now() + 86400000).toISOString();
		return ok(200, { webhook: w });
	}
	if (m === 'PATCH') {
		for (const k of ['url', 'description', 'event_types']) if (k in body) w[k] = body[k];
		if ('enabled' in body) {
			w.enabled = body.enabled;
			w.disabled_reason = body.enabled ? null : 'owner';
			if (body.enabled) Object.assign(w.status, { failing_since: null, attempts: 0, next_attempt_at: null });
		}
		w.updated_at = now();
		return ok(200, { webhook: hookOut(w) });
	}
	if (m === 'DELETE') { fake.hooks = fake.hooks.filter((x) => x !== w); return ok(200, { webhook: hookOut(w) }); }
	return bad(405, 'METHOD_NOT_ALLOWED', 'No.');
}
if (!real.tokens) await t.fulfil('api/v1/admin/tokens', fakeTokens);
if (!real.hooks) await t.fulfil('api/v1/admin/webhooks', fakeHooks);
/* The state of a webhook as the server keeps it (the real one: its row). */
function setHook(id, o) {
	if (!real.hooks) {
		const w = fake.hooks.find((x) => x.id === id);
		Object.assign(w, o.enabled === undefined ? {} : { enabled: o.enabled, disabled_reason: o.reason || null });
		if (o.failingSince !== undefined) Object.assign(w.status, { failing_since: o.failingSince ? new Date(o.failingSince).toISOString() : null, attempts: o.attempts || 0 });
		return;
	}
	const sets = [];
	if (o.enabled !== undefined) sets.push('enabled = ' + (o.enabled ? 1 : 0), 'disabled_reason = ' + (o.reason ? `'${o.reason}'` : 'NULL'));
	if (o.failingSince !== undefined) sets.push('failing_since = ' + (o.failingSince || 'NULL'), 'attempts = ' + (o.attempts || 0), 'next_attempt_at = ' + (o.failingSince ? Date.now() + 600000 : 'NULL'));
	sql(`UPDATE webhooks SET ${sets.join(', ')} WHERE id = '${id}'`);
}

await ownerLogin(t);
const hookRow = (u) => `rowOf('#hooks-body', ${JSON.stringify(u)})`;
const HOOK_URL = 'https://example.com/loyalty-events';
let tokenSecret = null, hookId = null, hookSecret = null;

t.step('before any webhook, the deliverer that has never run is noted with its cron line, and Copy copies the command', async () => {
	await nav(t, 'integrations');
	await t.waitFor(`vis('#sec-integrations') && vis('#deliverer-note') && text('#hooks-body').includes('No webhooks yet')`);
	const words = await t.ev(`text('#deliverer-note')`);
	for (const w of ['never run', 'Cron Jobs', 'Once Per Minute', '* * * * *', 'Raspberry Pi', 'Debian package', 'events deliver'])
		if (!words.includes(w)) throw new Error('the note lacks "' + w + '": ' + words);
	const want = real.hooks ? (await api('GET', 'admin/webhooks', undefined, shop.token)).json.data.deliverer.command : fake.deliverer.command;
	const cmd = want.replace(/^\s*(\S+\s+){5}(?=\S)/, (m) => (/^[\d*\/,\- \t]+$/.test(m) ? '' : m)).trim();
	const shown = await t.ev(`text('#deliverer-note .copy-text')`);
	if (shown !== cmd) throw new Error('the command shown is "' + shown + '", the server\'s "' + want + '"');
	await shots3(t, 'integrations-new');
	await t.ev(`click(btnIn($('#deliverer-note'), 'Copy'))`);
	await t.waitFor(`text('#deliverer-note .copy-said') === 'Copied.'`);
	const c = await clip();
	return c === cmd || Promise.reject(new Error('clipboard: ' + c));
});

t.step('a token without a ticked scope is refused by the page, naming what to tick', async () => {
	await t.ev(`fill('#token-name', 'Website') && click('#token-form button[type=submit]')`);
	await t.waitFor(`text('#token-form .form-msg').includes('Tick what the token may do')`);
	return !(await t.ev(`!!dlg()`));
});

t.step('a token created is shown once with Copy and "you will not see it again", then listed without it', async () => {
	await t.ev(`(click('#scope-events-read'), click('#token-form button[type=submit]'), true)`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('you will not see it again') && $('dialog[open] .copy-text')`);
	tokenSecret = await t.ev(`text('dialog[open] .copy-text')`);
	if (!/^lci_[A-Za-z0-9_-]{32}$/.test(tokenSecret)) throw new Error('the token shown: ' + tokenSecret);
	await t.shotOf('dialog[open]', 'token-once');
	await a11y(t, 'the token shown once');
	await t.ev(`click(btnIn(dlg(), 'Copy'))`);
	await t.waitFor(`text('dialog[open] .copy-said') === 'Copied.'`);
	if (await clip() !== tokenSecret) throw new Error('the clipboard holds another text');
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && ${`rowOf('#tokens-body', 'Website')`} && toast().includes('created')`);
	const row = await t.ev(`rowOf('#tokens-body', 'Website').textContent`);
	for (const w of ['Read events', 'Never', tokenSecret.slice(0, 8)]) if (!row.includes(w)) throw new Error('the row lacks ' + w + ': ' + row);
	if (row.includes('Manage webhooks')) throw new Error('a scope not asked for: ' + row);
	/* Shown once: not in the page any more, nor after a reload. */
	if ((await t.ev(`document.body.innerHTML`)).includes(tokenSecret)) throw new Error('the secret is still in the page');
	await openOwner(t, 'integrations');
	await t.waitFor(`vis('#sec-integrations') && rowOf('#tokens-body', 'Website')`);
	if ((await t.ev(`document.body.innerHTML`)).includes(tokenSecret)) throw new Error('the secret came back after a reload');
	if (real.tokens) {
		const g = await api('GET', 'admin/tokens', undefined, shop.token);
		if (g.text.includes(tokenSecret.slice(8))) throw new Error('GET admin/tokens gives the secret');
		const e = await api('GET', 'admin/events', undefined, tokenSecret);
		if (e.status !== 200) throw new Error('the new token does not read the feed: ' + e.status + ' ' + e.text);
	}
	return true;
});

t.step('a token revoked after a confirmation reads Revoked and no longer reads the feed', async () => {
	await t.ev(`click(btnIn(rowOf('#tokens-body', 'Website'), 'Revoke'))`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('refused from now on')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && rowOf('#tokens-body', 'Website').textContent.includes('Revoked') && !rowOf('#tokens-body', 'Website').querySelector('button')`);
	if (real.tokens) {
		const e = await api('GET', 'admin/events', undefined, tokenSecret);
		if (e.status !== 401) throw new Error('a revoked token: ' + e.status + ' ' + e.text);
	}
	return true;
});

t.step('an http:// webhook address is refused with the server\'s message on the address field', async () => {
	await t.ev(`fill('#hook-url', 'http://example.com/x') && click('#hook-form button[type=submit]')`);
	await t.waitFor(`vis('#hook-form .form-msg') && $('#hook-url').getAttribute('aria-invalid') === 'true'`);
	const m = await t.ev(`text('#hook-form .form-msg')`);
	return /https/.test(m) || Promise.reject(new Error(m));
});

t.step('a webhook added for two kinds of event shows its signing secret once and is listed as Working', async () => {
	await t.ev(`fill('#hook-url', ${JSON.stringify(HOOK_URL)}) && fill('#hook-desc', 'Website orders')`);
	await t.ev(`(click($$('#hook-events input[type=radio]')[1]), true)`);
	await t.waitFor(`vis('#hook-events .ev-list')`);
	await t.ev(`($$('#hook-events .ev-list input').filter((b) => ['transaction.recorded', 'reward.earned'].includes(b.value)).forEach((b) => b.click()), click('#hook-form button[type=submit]'), true)`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('you will not see it again')`);
	hookSecret = await t.ev(`text('dialog[open] .copy-text')`);
	if (!/^whsec_[A-Za-z0-9+/]{32}$/.test(hookSecret)) throw new Error('the secret shown: ' + hookSecret);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && ${hookRow(HOOK_URL)} && vis('#hook-detail')`);
	const row = await t.ev(`${hookRow(HOOK_URL)}.textContent`);
	for (const w of ['Website orders', '2 kinds', 'Working']) if (!row.includes(w)) throw new Error('the row lacks ' + w + ': ' + row);
	const d = await t.ev(`text('#hook-detail')`);
	for (const w of ['Purchase recorded, Reward earned', 'Nothing has been delivered yet', 'Waiting to be sent']) if (!d.includes(w)) throw new Error('the detail lacks ' + w + ': ' + d);
	hookId = await t.ev(`${hookRow(HOOK_URL)}.dataset.id`);
	if ((await t.ev(`document.body.innerHTML`)).includes(hookSecret)) throw new Error('the secret is still in the page');
	if (real.hooks) {
		const g = await api('GET', 'admin/webhooks/' + hookId, undefined, shop.token);
		if (g.status !== 200 || g.text.includes(hookSecret)) throw new Error('GET the webhook: ' + g.status + ' ' + g.text.slice(0, 300));
		const types = g.json.data.webhook.event_types;
		if (JSON.stringify(types.slice().sort()) !== JSON.stringify(['reward.earned', 'transaction.recorded'])) throw new Error('its types: ' + JSON.stringify(types));
	}
	return true;
});

t.step('a test event sent is queued, and the note says the deliverer has not run', async () => {
	await t.ev(`click('#hook-test')`);
	await t.waitFor(`toast().includes('Test event on its way')`);
	const w = await t.ev(`text('#deliverer-note')`);
	if (!w.includes('Webhooks are not being sent')) throw new Error('with a webhook, the note says: ' + w);
	if (real.hooks) {
		const n = sql(`SELECT count(*) FROM webhook_jobs WHERE webhook_id = '${hookId}' AND kind = 'test'`);
		if (n !== '1') throw new Error(n + ' test jobs');
	}
	return true;
});

t.step('a new signing secret: the 24 hours explained, shown once, and the detail says both sign meanwhile', async () => {
	await t.ev(`click('#hook-rotate')`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('24 hours')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('New signing secret') && $('dialog[open] .copy-text')`);
	const s2 = await t.ev(`text('dialog[open] .copy-text')`);
	if (!/^whsec_/.test(s2) || s2 === hookSecret) throw new Error('the new secret: ' + s2);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && vis('#hook-rotation') && text('#hook-rotation').includes('two signatures')`);
	return !(await t.ev(`document.body.innerHTML`)).includes(s2);
});

t.step('edited to all events, the webhook reads All', async () => {
	await t.ev(`click('#hook-edit')`);
	await t.waitFor(`dlg() && dlg().querySelector('input[type=url]')`);
	await t.ev(`(click(dlg().querySelector('input[type=radio][value=all]')), click(dlg().querySelector('button[type=submit]')), true)`);
	await t.waitFor(`!dlg() && ${hookRow(HOOK_URL)}.textContent.includes('All') && text('#hook-facts').includes('All events')`);
	return true;
});

t.step('turned off after a confirmation it reads Off (turned off here); Turn on in its row brings it back', async () => {
	await t.ev(`click('#hook-toggle')`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('Nothing is sent to it while it is off')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && ${hookRow(HOOK_URL)}.textContent.includes('Off') && text('#hook-state').includes('turned off here')`);
	if (!await t.ev(`$('#hook-test').disabled`)) throw new Error('a test can be sent to a webhook that is off');
	await t.ev(`click(btnIn(${hookRow(HOOK_URL)}, 'Turn on'))`);
	await t.waitFor(`${hookRow(HOOK_URL)}.textContent.includes('Working') && text('#hook-toggle') === 'Turn off'`);
	return true;
});

t.step('a webhook the receiver said is gone, or that failed for 5 days, reads so; one failing reads "Failing since"', async () => {
	setHook(hookId, { enabled: false, reason: 'gone' });
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hook-state').includes('gone (410)') && ${hookRow(HOOK_URL)}.textContent.includes('Off')`);
	setHook(hookId, { enabled: false, reason: 'failing' });
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hook-state').includes('failed for 5 days')`);
	setHook(hookId, { enabled: true, failingSince: Date.now() - 3600000, attempts: 4 });
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hook-tag') === 'Failing' && text('#hook-state').startsWith('Failing since') && text('#hook-state').includes('4 tries') && ${hookRow(HOOK_URL)}.textContent.includes('Failing')`);
	setHook(hookId, { failingSince: null });
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hook-tag') === 'Working' && text('#hook-state').startsWith('Nothing has been delivered')`);
	return true;
});

/* A receiver on this machine, on a port of LC_TEST_PORTS: what it got,
 * and the status it answers. */
const recv = { got: [], status: 200, server: null, url: null };
async function receiver() {
	const m = /^(\d+)-(\d+)$/.exec(env.LC_TEST_PORTS || '');
	const [lo, hi] = m ? [Number(m[1]), Number(m[2])] : [20000, 59999];
	for (let i = 0; i < 30 && !recv.server; i++) {
		const port = lo + Math.floor(Math.random() * (hi - lo + 1));
		const srv = http.createServer((req, res) => {
			let b = '';
			req.on('data', (c) => { b += c; });
			req.on('end', () => {
				recv.got.push({ headers: req.headers, body: b });
				res.writeHead(recv.status, { 'Content-Type': 'text/plain' });
				res.end(recv.status === 410 ? 'gone for good' : 'received ' + recv.got.length);
			});
		});
		const up = await new Promise((r) => { srv.once('error', () => r(false)); srv.listen(port, '127.0.0.1', () => r(true)); });
		if (up) { recv.server = srv; recv.url = 'http://127.0.0.1:' + port + '/hook'; }
	}
	if (!recv.server) throw new Error('no free port in ' + env.LC_TEST_PORTS);
}
let canDeliver = false;
if (real.hooks) {
	/* Asked without running it: a run would be the deliverer's last. */
	let usage = '';
	try { usage = admin('--help'); } catch (e) { usage = String(e.stdout || '') + String(e.stderr || ''); }
	canDeliver = /events deliver/.test(usage);
	if (!canDeliver) note('no deliverer in this build: the real delivery is not tried');
}
/* One run of the deliverer, without blocking this process: the
 * receiver above answers from it. */
const deliver = () => new Promise((resolve, reject) => execFile(env.LT_ADMIN, ['--db', env.LT_DB, 'events', 'deliver', '--max-seconds', '20'],
	(e, out, err) => (e ? reject(new Error('events deliver: ' + e.message + ' ' + err)) : resolve(out))));
const openRow = (u) => t.ev(`click(btnIn(rowOf('#hooks-body', ${JSON.stringify(u)}), 'Open'))`);

t.step('a webhook to a receiver on this machine: its test event and a purchase delivered and logged, the purchase sent again, a 410 turns it off as gone', async () => {
	if (!canDeliver) { note('skipped: no deliverer'); return true; }
	await receiver();
	/* The server's own setting (never the owner API's) lets it send to
	 * this machine; the first webhook, to the internet, is off meanwhile. */
	admin('setting', 'set', 'webhook_allow_private', '1');
	await patch('admin/webhooks/' + hookId, { enabled: false }, shop.token);
	await t.ev(`fill('#hook-url', ${JSON.stringify(recv.url)}) && fill('#hook-desc', 'Till printer') && (click($$('#hook-events input[type=radio]')[0]), true) && click('#hook-form button[type=submit]')`);
	await t.waitFor(`dlg() && $('dialog[open] .copy-text')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && text('#hook-title') === ${JSON.stringify(recv.url)}`);
	await t.ev(`click('#hook-test')`);
	await t.waitFor(`toast().includes('Test event on its way')`);
	await buy(7.25);
	await deliver();
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hlog-body').includes('Test event') && text('#hlog-body').includes('Purchase recorded') && vis('#deliverer-ran') && !vis('#deliverer-note')`)
		.catch(async (e) => { throw new Error(e.message + '\nthe log: ' + await t.ev(`text('#hlog-body')`) + '\nthe deliverer: ' + await t.ev(`text('#deliverer-ran') + ' / ' + text('#deliverer-note')`) + '\nsql: ' + sql(`SELECT event_type, outcome, status, error FROM webhook_deliveries`) + ' jobs ' + sql(`SELECT kind, attempts, done_at FROM webhook_jobs`)); });
	const log = await t.ev(`text('#hlog-body')`);
	for (const w of ['Delivered', 'HTTP 200', 'received 1', 'received 2']) if (!log.includes(w)) throw new Error('the log lacks ' + w + ': ' + log.slice(0, 600));
	if (recv.got.length !== 2 || !recv.got.every((g) => /^v1,/.test(g.headers['webhook-signature'] || ''))) throw new Error('the receiver got ' + JSON.stringify(recv.got.map((g) => g.headers)));
	const purchaseId = JSON.parse(recv.got.find((g) => /transaction\.recorded/.test(g.body)).body).id;
	await t.ev(`click(btnIn($$('#hlog-body tr').find((r) => r.textContent.includes('Purchase recorded')), 'Send again'))`);
	await t.waitFor(`toast().includes('sent again')`);
	await deliver();
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`$$('#hlog-body tr').filter((r) => r.textContent.includes(${JSON.stringify(purchaseId)})).length === 2`);
	if (recv.got.length !== 3 || JSON.parse(recv.got[2].body).id !== purchaseId) throw new Error('the re-send: ' + recv.got.map((g) => g.body.slice(0, 60)).join(' | '));
	await shots3(t, 'integrations-delivered');
	recv.status = 410;
	await t.ev(`click('#hook-test')`);
	await t.waitFor(`toast().includes('Test event on its way')`);
	await deliver();
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hook-state').includes('gone (410)') && rowOf('#hooks-body', ${JSON.stringify(recv.url)}).textContent.includes('Off') && text('#hlog-body').includes('gone for good')`)
		.catch(async (e) => { throw new Error(e.message + '\nthe state: ' + await t.ev(`text('#hook-state')`) + '\nthe log: ' + await t.ev(`text('#hlog-body')`).then((x) => x.slice(0, 400)) + '\nsql: ' + sql(`SELECT event_type, outcome, status, error, response FROM webhook_deliveries ORDER BY at DESC LIMIT 3`) + ' jobs ' + sql(`SELECT kind, attempts, done_at FROM webhook_jobs`) + ' got ' + recv.got.length); });
	/* Back as it was for the next steps: the first webhook open and on. */
	await t.ev(`click('#hook-delete')`);
	await t.waitFor(`dlg()`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && !rowOf('#hooks-body', ${JSON.stringify(recv.url)})`);
	admin('setting', 'set', 'webhook_allow_private', '0');
	await patch('admin/webhooks/' + hookId, { enabled: true }, shop.token);
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`rowOf('#hooks-body', ${JSON.stringify(HOOK_URL)}).textContent.includes('Working')`);
	await openRow(HOOK_URL);
	await t.waitFor(`text('#hook-title') === ${JSON.stringify(HOOK_URL)}`);
	return true;
});

t.step('the delivery log pages, shows the answer\'s first bytes or the error, and re-sends an event', async () => {
	let eventId = 'evt_0000000000000001', resendable = true;
	if (real.hooks) {
		/* A purchase after the webhook was added: a real event to re-send
		 * (when this build writes events). */
		await buy(12.5);
		resendable = sql(`SELECT count(*) FROM events`) !== '0';
		if (resendable) eventId = sql(`SELECT printf('evt_%016d', max(seq)) FROM events`);
		else note('this build writes no events yet: the re-send of an unknown event is refused, and the page says so');
		const rows = [];
		for (let i = 0; i < 24; i++)
			rows.push(`('d${String(i).padStart(35, '0')}', '${hookId}', '${eventId}', 'transaction.recorded', ${i + 1}, NULL, ${Date.now() - (30 - i) * 60000}, ${i === 23 ? 200 : 503}, ${100 + i}, '${i === 23 ? 'delivered' : 'failed'}', ${i === 22 ? `'connection refused'` : 'NULL'}, '${i === 23 ? 'thanks' : 'busy'}')`);
		sql(`INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, attempt, job_id, at, status, duration_ms, outcome, error, response) VALUES ${rows.join(', ')}`);
	} else {
		for (let i = 0; i < 24; i++)
			fake.log[hookId].push({ id: 'd' + i, event_id: eventId, event_type: 'transaction.recorded', attempt: 24 - i, at: new Date(Date.now() - (i + 5) * 60000).toISOString(),
				status: i ? 503 : 200, duration_ms: 100 + i, outcome: i ? 'failed' : 'delivered', error: i === 1 ? 'connection refused' : null, response: i ? 'busy' : 'thanks' });
	}
	await t.ev(`click('#hlog-refresh')`);
	await t.waitFor(`text('#hlog-page').includes('Page 1 of 2') && text('#hlog-page').includes('deliveries')`);
	const first = await t.ev(`text('#hlog-body')`);
	for (const w of ['Purchase recorded', eventId, 'Delivered', 'HTTP 200', 'thanks', 'Failed', 'HTTP 503', 'connection refused'])
		if (!first.includes(w)) throw new Error('the log lacks ' + w + ': ' + first.slice(0, 600));
	await t.ev(`click('#hlog-next')`);
	await t.waitFor(`text('#hlog-page').includes('Page 2 of 2') && $$('#hlog-body tr').length >= 4`);
	await t.ev(`click('#hlog-prev')`);
	await t.waitFor(`text('#hlog-page').includes('Page 1 of 2')`);
	await t.ev(`click(btnIn($$('#hlog-body tr').find((r) => r.textContent.includes('thanks')), 'Send again'))`);
	await t.waitFor(resendable ? `toast().includes('sent again')` : `vis('#hlog-error') && text('#hlog-error').length > 5`);
	if (real.hooks && resendable) {
		const n = sql(`SELECT count(*) FROM webhook_jobs WHERE webhook_id = '${hookId}' AND kind = 'resend'`);
		if (n !== '1') throw new Error(n + ' re-send jobs');
	}
	return true;
}, { allow: [/404/] });

t.step('the section fits 390, 768 and 1280 px, the webhook and its log open, and passes the accessibility pass', async () => {
	await t.ev(`($('#toast').hidden = true, true)`);
	await shots3(t, 'integrations');
	await a11y(t, 'integrations');
	await t.viewport(390, 900);
	await t.ev(`(scrollTo(0, 0), true)`);
	await t.settle();
	await t.shot('integrations-top-390');
	await t.viewport(1280, 900);
	return true;
});

t.step('a webhook deleted after a confirmation is gone from the list, and the detail closes', async () => {
	await t.ev(`click('#hook-delete')`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('cannot be undone')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && !vis('#hook-detail') && text('#hooks-body').includes('No webhooks yet') && toast().includes('deleted')`);
	if (real.hooks) {
		const g = await api('GET', 'admin/webhooks/' + hookId, undefined, shop.token);
		if (g.status !== 404) throw new Error('GET the deleted webhook: ' + g.status);
	}
	return true;
});

t.step('a deliverer that ran a minute ago is named with its time, and no note shows', async () => {
	if (real.hooks) sql(`INSERT OR REPLACE INTO deliverer (id, started_at, ended_at) VALUES (1, ${Date.now() - 60000}, ${Date.now() - 55000})`);
	else fake.deliverer.last_run_at = new Date(Date.now() - 60000).toISOString();
	await nav(t, 'overview');
	await nav(t, 'integrations');
	await t.waitFor(`vis('#deliverer-ran') && !vis('#deliverer-note')`);
	return (await t.ev(`text('#deliverer-ran')`)).includes('last ran');
});

t.step('the audit names these changes in words', async () => {
	const want = (real.tokens ? ['API token created', 'API token revoked'] : [])
		.concat(real.hooks ? ['Webhook added', 'Webhook changed', 'Webhook secret replaced', 'Webhook test sent', 'Webhook event sent again', 'Webhook deleted'] : [])
		.concat(canDeliver ? ['Webhook turned off (gone', 'Automatic (deliverer)'] : []);
	if (!real.tokens || !real.hooks) note('the audit\'s words of ' + (real.tokens ? 'webhooks' : 'tokens') + ' not checked: that API is the fake\'s');
	if (!want.length) return true;
	await nav(t, 'audit');
	await t.waitFor(`vis('#sec-audit') && $$('#audit-body tr').length > 3`);
	const a = await t.ev(`text('#audit-body')`);
	await t.shot('integrations-audit');
	const missing = want.filter((w) => !a.includes(w));
	if (missing.length) throw new Error('the audit lacks ' + missing.join(', ') + ': ' + a.slice(0, 800));
	return true;
});

postsStep(t);
t.step('the receiver closed', async () => { if (recv.server) await new Promise((r) => recv.server.close(r)); return true; });
