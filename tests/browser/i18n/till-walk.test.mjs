/* The till walked through in Japanese in a yen shop (no decimals) and in
 * Arabic in a dinar shop (three decimals), at a phone's and a desk's
 * width: login, a lookup of each card type, a purchase, a redemption,
 * a reward claimed, a sale voided, the history, the offline queue and an
 * enrolment. Screenshots of each (i18n-page-shots/till-walk-<lang>-
 * <width>-<step>.png) to look at, and the checks a look would make:
 * amounts with exactly the currency's decimals, the details in the
 * language's list (no Latin ", "), the page's script and direction, no
 * part wider than the screen. Each walk has a shop of its own: a
 * currency cannot change once money has moved. */
import { openBrowser, TILL_HELPERS, URL0 } from '../lib/browser.mjs';
import { freshDemo, admin } from '../lib/card-helpers.mjs';
import { lookupCard } from '../lib/till.mjs';

const t = await openBrowser({ helpers: TILL_HELPERS, width: 1280, height: 900 });
t.allow(/Failed to load resource|ERR_INTERNET_DISCONNECTED/);

const WALKS = [
	/* lang, width, currency, a purchase typed, how it is shown, what a
	 * field takes not, the list's separator */
	{ lang: 'ja', w: 390, cur: 'JPY', buy: '1500', shown: /￥1,500(?![.\d])/, bad: '12.5', sep: '、' },
	{ lang: 'ar', w: 1280, cur: 'KWD', buy: '1.250', shown: /1\.250(?!\d)/, bad: '1.2505', sep: ' و' },
	{ lang: 'ja', w: 1280, cur: 'KWD', buy: '2.5', shown: /KWD\s2\.500(?!\d)/, bad: '0.0001', sep: '、' },
	{ lang: 'ar', w: 390, cur: 'JPY', buy: '1500', shown: /1,500(?![.\d])/, bad: '1.5', sep: ' و' }
];
const laidOut = (lang) => `document.documentElement.lang === ${JSON.stringify(lang)} &&
	document.documentElement.dir === ${JSON.stringify(lang === 'ar' ? 'rtl' : 'ltr')} &&
	document.documentElement.scrollWidth <= innerWidth + 1`;
const script = (lang) => (lang === 'ar' ? '/[\\u0600-\\u06ff]/' : '/[\\u3040-\\u30ff\\u4e00-\\u9fff]/');
/* An amount of 2 decimals where the currency has 0 or 3: "/ 100" or a
 * fixed "0.00" somewhere. */
const wrongDecimals = (cur) => (cur === 'JPY' ? /\d[.,]\d\d(?!\d)/ : /\d\.\d\d(?!\d)/);
const online = (on) => t.S('Network.emulateNetworkConditions', { offline: !on, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

for (const W of WALKS) {
	const name = `${W.lang}-${W.w}`;
	let d;
	const shot = async (step) => {
		await t.settle();
		await t.shot(`${name}-${step}`);
		const ok = await t.ev(laidOut(W.lang) + ` && ${script(W.lang)}.test(document.body.innerText)`);
		if (!ok) throw new Error(step + ': not laid out in ' + W.lang);
	};
	const noWrongMoney = async (sel) => {
		const s = await t.ev(`text(${JSON.stringify(sel)})`);
		if (wrongDecimals(W.cur).test(s)) throw new Error(W.cur + ' with two decimals in ' + sel + ': ' + s);
		return s;
	};

	t.step(`${name} ${W.cur}: login, a cashback card, a purchase and a redemption`, async () => {
		d = await freshDemo();
		admin('setting', 'set', 'currency', W.cur);
		await online(true);
		await t.viewport(W.w, 900);
		await t.goto(URL0 + '?lang=' + W.lang);
		/* another page's login is shared: logged out first */
		await t.waitFor(`document.readyState === 'complete' && (vis('#login-form') || vis('#pos-view'))`);
		if (await t.ev(`vis('#pos-view')`)) await t.ev(`(click('#logout-button'), true)`);
		await t.waitFor(`vis('#login-form')`);
		await shot('login');
		await t.ev(`fill('#login-email', ${JSON.stringify(d.staffLogin.email)}) && fill('#login-password', ${JSON.stringify(d.staffLogin.password)}) && click('#login-submit')`);
		await t.waitFor(`vis('#pos-view')`);
		await lookupCard(t, d.cash.barcode);
		await t.waitFor(`vis('#card-panel') && vis('#purchase-form')`);
		const zero = W.cur === 'JPY' ? '0' : '0.000';
		if (await t.ev(`$('#purchase-amount').placeholder`) !== zero) throw new Error('placeholder ' + await t.ev(`$('#purchase-amount').placeholder`));
		await noWrongMoney('#card-panel');
		await shot('cashback');
		/* more decimals than the currency has: refused at the till */
		await t.ev(`fill('#purchase-amount', ${JSON.stringify(W.bad)}) && submit('#purchase-submit')`);
		await t.waitFor(`text('#purchase-amount-error') !== ''`);
		await t.ev(`fill('#purchase-amount', ${JSON.stringify(W.buy)}) && submit('#purchase-submit')`);
		await t.waitFor(`text('#result') !== '' && !$('#result').querySelector('.error')`);
		await t.idle();
		const r = await noWrongMoney('#result');
		if (!W.shown.test(r)) throw new Error('the purchase is not ' + W.shown + ': ' + r);
		await shot('purchase');
		await t.waitFor(`vis('#redeem-panel')`);
		await t.ev(`fill('#redeem-purchase', ${JSON.stringify(W.buy)})`);
		await t.ev(`click('#redeem-max')`);
		await t.ev(`submit('#redeem-submit')`);
		await t.waitFor(`text('#result') !== ''`);
		await t.idle();
		await noWrongMoney('#result');
		await noWrongMoney('#card-panel');
		await shot('redeem');
		return true;
	}, { timeout: 90000 });

	t.step(`${name}: a sale voided, its details in the history in the language's list`, async () => {
		await t.ev(`(click('#void-open'), true)`);
		await t.waitFor(`vis('#void-form')`);
		await t.ev(`(click('#void-sale'), fill('#void-reason', 'test'), true)`);
		await shot('void-form');
		await t.ev(`click('#void-submit')`);
		await t.waitFor(`vis('#void-confirm')`);
		await t.ev(`click('#void-yes')`);
		await t.waitFor(`!vis('#void-confirm') && text('#result') !== ''`);
		await lookupCard(t, d.cash.barcode);
		await t.waitFor(`!$('#history-panel').getAttribute('aria-busy') && $$('#history-body tr').length >= 3`);
		const h = await noWrongMoney('#history-body');
		const row = await t.ev(`$$('#history-body tr')[0].textContent`);
		if (row.includes(', ') || !row.includes(W.sep)) throw new Error('the void\'s details: ' + row);
		await shot('history');
		return !!h;
	}, { timeout: 60000 });

	t.step(`${name}: the punch card, a reward claimed; the discount card`, async () => {
		await lookupCard(t, d.punch.barcode);
		await t.waitFor(`vis('#card-panel') && vis('#punch-field')`);
		await shot('punch');
		await t.ev(`fill('#purchase-amount', ${JSON.stringify(W.buy)}) && fill('#punch-count', '10') && submit('#purchase-submit')`);
		await t.waitFor(`text('#result') !== '' || vis('#purchase-confirm')`);
		if (await t.ev(`vis('#purchase-confirm')`)) await t.ev(`click('#purchase-yes')`);
		await t.waitFor(`vis('#claim-panel')`);
		await t.ev(`click('#claim-button')`);
		await t.waitFor(`vis('#claim-confirm')`);
		await t.ev(`click('#claim-yes')`);
		await t.waitFor(`!vis('#claim-confirm') && text('#result') !== ''`);
		await t.idle();
		await shot('claim');
		await lookupCard(t, d.disc.barcode);
		await t.waitFor(`vis('#card-panel') && vis('#purchase-form') && !vis('#punch-field')`);
		await noWrongMoney('#card-panel');
		await t.ev(`fill('#purchase-amount', ${JSON.stringify(W.buy)}) && submit('#purchase-submit')`);
		await t.waitFor(`text('#result') !== ''`);
		await t.idle();
		await noWrongMoney('#result');
		await shot('discount');
		return true;
	}, { timeout: 60000 });

	t.step(`${name}: offline, a sale queued; the queue`, async () => {
		await lookupCard(t, d.cash.barcode);
		await t.waitFor(`vis('#card-panel') && vis('#purchase-form')`);
		await online(false);
		await t.ev(`fill('#purchase-amount', ${JSON.stringify(W.buy)}) && submit('#purchase-submit')`);
		await t.waitFor(`queue().length === 1 && text('#result') !== ''`);
		await noWrongMoney('#result');
		await shot('offline');
		await t.ev(`click('#queue-button')`);
		await t.waitFor(`vis('#queue-panel')`);
		await noWrongMoney('#queue-panel');
		await shot('queue');
		await online(true);
		await t.ev(`click('#sync-button')`);
		await t.waitFor(`queue().length === 0`, 20000);
		return true;
	}, { timeout: 60000 });

	t.step(`${name}: enrolment at the counter`, async () => {
		await t.ev(`(click('#enrol-button'), true)`);
		await t.waitFor(`vis('#enrol-form')`);
		await shot('enrol');
		await t.ev(`(($('#enrol-program').selectedIndex = 1), fill('#enrol-name', 'Test'), click('#enrol-submit'))`);
		await t.waitFor(`vis('#enrol-done')`);
		await shot('enrolled');
		await t.ev(`(click('#logout-button'), true)`);
		return true;
	}, { timeout: 60000 });
}
