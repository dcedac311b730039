/* A new installation opens the setup form, which names the code file;
 * the form's failures: a wrong code, two passwords that differ, a busy
 * database. */
import fs from 'node:fs';
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, shots3, a11y, postsStep, OWNER, DB, CODE_FILE } from '../lib/owner-helpers.mjs';

await emptyInstall();
const t = await ownerBrowser();

const fillSetup = (code, p2) => t.ev(`fill('#setup-code', ${JSON.stringify(code)}) && fill('#setup-shop', 'Corner Cafe') &&
    fill('#setup-location', 'High Street') && pick('#setup-currency', 'EUR') && fill('#setup-name', ${JSON.stringify(OWNER.name)}) &&
    fill('#setup-email', ${JSON.stringify(OWNER.email)}) && fill('#setup-password', ${JSON.stringify(OWNER.password)}) &&
    fill('#setup-password2', ${JSON.stringify(p2 || OWNER.password)}) && click('#setup-submit')`);
const dbError = (p) => t.S('Fetch.fulfillRequest', {
	requestId: p.requestId, responseCode: 503,
	responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }, { name: 'Retry-After', value: '1' }],
	body: Buffer.from(JSON.stringify({ success: false, error: { code: 'DATABASE_ERROR', message: 'The database is busy or failed; retry.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
});

t.step('a new installation opens the setup form, which names the code file', async () => {
	if (fs.existsSync(DB)) throw new Error('the database exists before the first request');
	await t.goto(URL0 + 'owner.html');
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form') && !vis('#login-form') && !vis('#app-view')`);
	const s = await t.ev(`text('#setup-view')`);
	for (const w of ['loyalty.db.setup-code', 'beside', 'file manager', 'Setup code', 'Shop name', 'First location', 'Password again'])
		if (!s.includes(w)) throw new Error('missing ' + w + ' in: ' + s);
	if (!fs.existsSync(DB)) throw new Error('the first request did not create the database');
	/* Readable by the web server's user alone (0600). */
	const mode = fs.statSync(CODE_FILE).mode & 0o777;
	if (mode & 0o077) throw new Error('code file mode ' + mode.toString(8));
	return t.ev(`document.title.startsWith('Set up') && document.activeElement === $('#setup-code')`);
});

t.step('the setup form fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'setup'));
t.step('the setup form passes the accessibility pass', () => a11y(t, 'setup'));

t.step('the currency is the owner\'s choice: a prompt of no value first, "none" an option of its own, no request without a choice', async () => {
	const o = await t.ev(`({ value: $('#setup-currency').value, first: $('#setup-currency').options[0].textContent,
	    none: Array.from($('#setup-currency').options).some((x) => x.value === 'none' && x.textContent.startsWith('None named')) })`);
	if (o.value !== '' || o.first !== 'Choose your currency' || !o.none) throw new Error(JSON.stringify(o));
	await fillSetup('WRONGCODE0000');
	await t.waitFor(`text('#setup-error').includes('setup code is wrong')`);
	const posts = t.posts.length;
	await t.ev(`pick('#setup-currency', '') && click('#setup-submit')`);
	await t.waitFor(`text('#setup-error').includes("Choose the shop's currency")`);
	if (t.posts.length !== posts) throw new Error('a request without a currency');
	return t.ev(`$('#setup-currency').getAttribute('aria-invalid') === 'true' && document.activeElement === $('#setup-currency')`);
});

t.step('a wrong setup code shows the API\'s message on the code field', async () => {
	await fillSetup('WRONGCODE0000');
	await t.waitFor(`vis('#setup-error') && text('#setup-error').includes('setup code is wrong')`);
	await t.shot('wrong-code');
	return t.ev(`$('#setup-code').getAttribute('aria-invalid') === 'true' && document.activeElement === $('#setup-code') && vis('#setup-form')`);
});

t.step('two different passwords are refused in the page', async () => {
	await fillSetup('WRONGCODE0000', 'something-else');
	await t.waitFor(`text('#setup-error').includes('passwords differ')`);
	return t.ev(`document.activeElement === $('#setup-password2')`);
});

t.step('a 503 DATABASE_ERROR on setup says busy, try again, with no talk of permissions', async () => {
	await t.once('api/v1/setup', 'Request', dbError);
	await fillSetup('WRONGCODE0000');
	await t.waitFor(`$('#setup-error [data-code=DATABASE_ERROR]')`);
	const s = await t.ev(`text('#setup-error')`);
	if (!s.includes('The database is busy or failed') || s.includes('loyalty.conf')) throw new Error(s);
	await t.shot('db-error');
});

postsStep(t);
