/* redeem_needs_card_code on: the QR code holds the card's payload and
 * its current time-based code (the same as Python's scrypt makes), which
 * the till takes once for a claim and refuses again. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { URL0 } from '../lib/browser.mjs';
import { freshDemo, cardBrowser, open, cardShown, record, staffLogin, api, admin, sql, tokenStep } from '../lib/card-helpers.mjs';
import { zbar, have, elementPng, shotsDir } from '../lib/owner-helpers.mjs';

const note = (s) => console.log(s);	/* a TAP comment: the runner adds the # */
const d = await freshDemo();
const t = await cardBrowser();
const noZbar = !have('zbarimg') && 'zbarimg is not installed (apt-get install zbar-tools)';

t.step('redeem_needs_card_code on: the QR code holds the card\u2019s payload and its current time-based code (checked with Python\u2019s scrypt)', async () => {
	admin('setting', 'set', 'redeem_needs_card_code', '1');
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card') + ` && vis('#code-hint') && imgOk('#qr-image')`, 15000);
	const src = await t.ev(`$('#qr-image').src`);
	if (!src.startsWith(URL0 + 'api/v1/mycard/' + d.punch.token + '/qr.svg?at=')) throw new Error('src ' + src);
	const f = await elementPng(t, '.qr-box', path.join(shotsDir(), 'card-code-qr.png'), 2);
	const got = zbar(f);
	const m = /^(.*)\.(\d{6})$/.exec(got);
	if (!m || m[1] !== d.punch.qr) throw new Error('decoded ' + JSON.stringify(got));
	const secret = sql("SELECT code_secret FROM cards WHERE id = '" + d.punch.card + "'");
	/* The code by Python's scrypt (hashlib), not ours: the step of now
	 * and the one before (the minute may have turned since). */
	const py = 'import hashlib,struct,sys,time\n' +
	    'k=bytes.fromhex(sys.argv[1]); s=int(time.time())//60\n' +
	    'for c in (s, s-1):\n' +
	    ' d=hashlib.scrypt(k,salt=b"loyalty-pos card code v1"+struct.pack(">Q",c),n=2,r=1,p=1,dklen=4)\n' +
	    ' print("%06d" % ((int.from_bytes(d,"big")&0x7fffffff)%1000000))\n';
	const want = execFileSync('python3', ['-c', py, secret], { encoding: 'utf8' }).trim().split('\n');
	if (!want.includes(m[2])) throw new Error('code ' + m[2] + ', Python says ' + want.join(' or '));
	note('code ' + m[2] + ' matches Python\u2019s scrypt');
}, { skip: noZbar });

t.step('the till takes the code once (a claim needs it), and refuses the same code again', async () => {
	/* A reward to claim: 10 punches, as an offline till's sale of ten
	 * minutes ago (clear of the cooldown of the sale before). */
	await record(d.punch.card, 1, 1);
	const staff = await staffLogin();
	const s = await api('POST', 'transactions/sync', { transactions: [{ card_instance_id: d.punch.card,
		location_id: staff.location, staff_user_id: staff.id, purchase_amount: 5, punch_count: 10,
		client_timestamp: new Date(Date.now() - 600000).toISOString(), idempotency_key: 'card-page-code-' + Date.now() }] }, staff.token);
	if (s.status !== 200) throw new Error('sync: ' + s.text);
	const f = await elementPng(t, '.qr-box', path.join(shotsDir(), 'card-code-qr2.png'), 2);
	const m = /\.(\d{6})$/.exec(zbar(f));
	if (!m) throw new Error('no code in the QR');
	const claim = (code) => api('POST', 'rewards/claim', Object.assign({ card_instance_id: d.punch.card,
		location_id: staff.location, staff_user_id: staff.id }, code ? { card_code: code } : {}), staff.token);
	const none = await claim(null);
	if (none.status !== 422 || none.json.error.code !== 'CARD_CODE_REQUIRED') throw new Error(none.text);
	const first = await claim(m[1]);
	if (first.status !== 200) throw new Error(first.text);
	const again = await claim(m[1]);
	if (again.status !== 422 || again.json.error.code !== 'CARD_CODE_INVALID') throw new Error(again.text);
}, { skip: noZbar });

tokenStep(t);
