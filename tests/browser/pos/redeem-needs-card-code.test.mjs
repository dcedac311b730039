/* tests/browser/pos/redeem-needs-card-code.test.mjs:
 * redeem_needs_card_code: the code of the card page’s QR goes with the
 * redemption; a printed QR is refused. */
import { execFileSync } from 'node:child_process';
import { before } from 'node:test';
import { openBrowser, TILL_HELPERS, demoCard, note, env } from '../lib/browser.mjs';
import { tillReady, lookupCard, recordSale } from '../lib/till.mjs';

const tab = await openBrowser({ helpers: TILL_HELPERS });
const resultText = () => tab.ev(`text('#result')`);
const cash = await demoCard('cashback');
const E = { CASH_QR: cash.qr, CASH_ID: cash.id, POS_ADMIN: env.LT_ADMIN, POS_DB: env.LT_DB };
/* 0.40 of cashback to redeem */
await recordSale(cash.barcode, 20.00);
/* The bodies the page posted to cashback/redeem. */
const redeemBodies = [];
tab.on('Network.requestWillBeSent', (p) => {
	if (/\/api\/v1\/cashback\/redeem$/.test(p.request.url)) redeemBodies.push(p.request.postData || '');
});
await tab.S('Network.enable');
before(async () => {
	await tillReady(tab);
});

const reloadShop = async (on) => {
	await tab.S('Page.reload');
	await tab.waitFor(`document.readyState === 'complete' && vis('#pos-view') && JSON.parse(sessionStorage.getItem('pos.user')).shop.card_code_required === ${on}`, 15000);
};
tab.step('redeem_needs_card_code on: the till says so at a printed card\u2019s lookup; the code of a card page\u2019s QR goes with the redemption as card_code; the printed QR is refused, saying to scan the phone', async () => {
	execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'setting', 'set', 'redeem_needs_card_code', '1'], { stdio: 'ignore' });
	try {
		await reloadShop(true);
		const secret = execFileSync('sqlite3', ['-cmd', '.timeout 5000', E.POS_DB,
		    "SELECT code_secret FROM cards WHERE id = '" + E.CASH_ID + "'"], { encoding: 'utf8' }).trim();
		/* The card page's code of this minute, by Python's scrypt
		 * (hashlib), not ours (lib/card_code.c says the recipe). */
		const code = execFileSync('python3', ['-c', 'import hashlib,struct,sys,time\n' +
		    'd=hashlib.scrypt(bytes.fromhex(sys.argv[1]),salt=b"loyalty-pos card code v1"+struct.pack(">Q",int(time.time())//60),n=2,r=1,p=1,dklen=4)\n' +
		    'print("%06d" % ((int.from_bytes(d,"big")&0x7fffffff)%1000000))', secret], { encoding: 'utf8' }).trim();
		await lookupCard(tab, E.CASH_QR);
		await tab.waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel')`);
		if (!await tab.ev(`vis('#redeem-code-note') && text('#redeem-code-note').includes('scan the QR code on their card page')`))
			throw new Error('no word of the phone\'s code before the amounts');
		await tab.shot('till-card-code-needed');
		await tab.ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '0.05') && submit('#redeem-submit')`);
		await tab.waitFor(`text('#result').includes('Cashback not redeemed')`);
		const t = await resultText();
		if (!t.includes('scan the QR code on their phone') ||
		    await tab.ev(`$('#result [data-code]').dataset.code`) !== 'CARD_CODE_REQUIRED') throw new Error(t);
		const n = redeemBodies.length;
		await lookupCard(tab, E.CASH_QR + '.' + code);
		await tab.waitFor(`text('#card-title') === 'Cashback Club' && vis('#redeem-panel') && !vis('#redeem-code-note')`);
		await tab.ev(`fill('#redeem-purchase', '10') && fill('#redeem-amount', '0.05') && submit('#redeem-submit')`);
		await tab.waitFor(`text('#result').includes('Cashback used') || text('#result').includes('not redeemed')`);
		const sentBody = JSON.parse(redeemBodies[redeemBodies.length - 1] || '{}');
		if (redeemBodies.length <= n || sentBody.card_code !== code) throw new Error('sent ' + JSON.stringify(sentBody) + ', code ' + code);
		const r = await resultText();
		if (!r.includes('Cashback used 0.05')) throw new Error(r);
	} finally {
		execFileSync(E.POS_ADMIN, ['--db', E.POS_DB, 'setting', 'set', 'redeem_needs_card_code', '0'], { stdio: 'ignore' });
		await reloadShop(false);
	}
});
