/* tests/browser/till/sync-split-for-host-limit.test.mjs:
 * A host that refuses bodies above its limit with its own 500: 128 KiB
 * (mod_fcgid's default), and a stricter one that refuses even the till's
 * batches, which must then be split. */
import { randomUUID, createHash } from 'node:crypto';
import { before, after } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, call, demo, note } from '../lib/browser.mjs';
import { tillReady, historyTotalOf, otherTill } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 800 });
tab.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED|status of [45]\d\d/);
const E = { CASH_BARCODE: (await demoCard('cashback')).barcode, LOCATION: demo.location };
before(async () => {
	await tillReady(tab);
});

/* 13. A host that refuses bodies above its limit with its own 500:
 * 128 KiB (mod_fcgid's default), and a stricter one that refuses
 * even the till's batches, which must then be split. */
tab.step('100 queued purchases with notes (over 128 KiB) reach a host with a 128 KiB limit, each once', () => bigSync(100, 128 * 1024));
tab.step('a host with a 40 KiB limit: refused batches are split, none sent twice, all recorded once', () => bigSync(60, 40 * 1024));

/* n purchases with long notes queued as an offline till has them, sent
 * with Sync now to a host that answers a body above limit with a 500 of
 * its own (HTML, as mod_fcgid does). */
async function bigSync(count, limit) {
	const tok = (await otherTill()).token;
	const lk = await call('POST', 'cards/lookup', { barcode_value: E.CASH_BARCODE }, tok);
	const card = lk.body.data.card_instance_id;
	const me = await tab.ev(`JSON.parse(sessionStorage.getItem('pos.user'))`);
	const t0 = Date.now() - 3600000;
	const items = [];
	for (let i = 0; i < count; i++)
		items.push({ item: { card_instance_id: card, location_id: E.LOCATION, staff_user_id: me.id, purchase_amount: 1,
			transaction_notes: 'Bestellung ' + i + ': ' + 'コーヒーとケーキ、'.repeat(60).slice(0, 480),
			idempotency_key: randomUUID(), client_timestamp: new Date(t0 + i * 1000).toISOString() },
			label: 'Cashback Club', card_type: 'cashback', merchant_id: me.merchant_id, queued_at: new Date().toISOString() });
	const whole = Buffer.byteLength(JSON.stringify({ transactions: items.map((x) => x.item) }));
	if (whole <= limit) throw new Error('only ' + whole + ' bytes');
	note(count + ' purchases with notes: ' + whole + ' bytes in one body');
	const sizes = [], refused = [];
	await tab.fulfil('transactions/sync', (p) => {
		const body = p.request.postData !== undefined ? Buffer.from(p.request.postData) :
		    p.request.postDataEntries ? Buffer.concat(p.request.postDataEntries.map((e) => Buffer.from(e.bytes || '', 'base64'))) : null;
		if (!body) throw new Error('no body seen');
		sizes.push(body.length);
		if (body.length > limit) refused.push(createHash('sha1').update(body).digest('hex'));
		return body.length > limit ? { status: 500, headers: { 'Content-Type': 'text/html' }, body: '<h1>Internal Server Error</h1>' } : null;
	});
	const before = await historyTotalOf(card, tok);
	await tab.ev(`(localStorage.setItem('pos.queue.v1', JSON.stringify(${JSON.stringify(items)})), true)`);
	await tab.S('Page.reload');
	await tab.waitFor(`vis('#pos-view') && text('#queue-count') === '${count}'`);
	await tab.ev(`click('#sync-button')`);
	await tab.waitFor(`queue().length === 0 && !$('#sync-button').getAttribute('aria-busy').includes('true')`, 30000);
	await tab.clearIntercepts();
	const after = await historyTotalOf(card, tok);
	note('sync bodies: ' + sizes.join(', '));
	if (after - before !== count) throw new Error('recorded ' + (after - before));
	if (refused.length !== new Set(refused).size) throw new Error('a refused body was sent again: ' + sizes);
	return tab.ev(`review().length === 0 && text('#queue-summary').includes('${count} purchases sent')`);
}

