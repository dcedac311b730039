/* A cashback card: its balance without a currency symbol while none is
 * set, with the shop's symbol once set; cashback that expires shows how
 * much and on which day. */
import { freshDemo, cardBrowser, open, cardShown, record, admin, sql, shotStep, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('a cashback card shows its balance, without a symbol while none is set', async () => {
	await open(t, d.cash.token);
	await t.waitFor(cardShown('Cashback Club'));
	const s = await t.ev(`({ line: text('#progress-line'), bal: text('#balance'), dots: vis('#punch-dots') })`);
	if (s.line !== 'Cashback balance 0.00.' || !s.bal.includes('2% (Bronze)') || s.dots) throw new Error(JSON.stringify(s));
});

t.step('with currency_symbol set to € and a purchase, Refresh shows €0.60', async () => {
	admin('setting', 'set', 'currency_symbol', '€');
	const r = await record(d.cash.card, 30);
	if (r.new_balance !== 0.6) throw new Error(JSON.stringify(r));
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`text('#progress-line') === 'Cashback balance €0.60.'`);
	const bal = await t.ev(`text('#balance')`);
	if (!bal.includes('Cashback balance€0.60') || !bal.includes('Cashback earned so far€0.60')) throw new Error(bal);
	if (bal.includes('expires')) throw new Error('an expiry shown where none is: ' + bal);
});

t.step('cashback that expires shows how much and on which day', async () => {
	/* Noon UTC on 3 December of next year: that day in any time zone. */
	const year = new Date().getUTCFullYear() + 1;
	sql('UPDATE cashback_earnings SET expires_at = ' + Date.UTC(year, 11, 3, 12) + " WHERE card_id = '" + d.cash.card + "'");
	await t.ev(`click('#refresh-button')`);
	await t.waitFor(`text('#balance').includes('expires on')`);
	const bal = await t.ev(`text('#balance')`);
	if (!bal.includes('Next expiry€0.60 expires on 3 Dec ' + year)) throw new Error(bal);
});
shotStep(t, 'cashback');

tokenStep(t);
