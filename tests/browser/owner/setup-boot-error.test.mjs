/* A database folder the service may not write (500
 * CONFIGURATION_ERROR when the page asks for the setup): the page says
 * what to fix on the server, and offers no wait that would not help. */
import fs from 'node:fs';
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, a11y, DB } from '../lib/owner-helpers.mjs';

await emptyInstall();
const t = await ownerBrowser();

/* The service's answer to a database folder it may not write. */
const configError = (p) => t.S('Fetch.fulfillRequest', {
	requestId: p.requestId, responseCode: 500,
	responseHeaders: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }],
	body: Buffer.from(JSON.stringify({ success: false, error: { code: 'CONFIGURATION_ERROR', message: 'The database cannot be used: the file does not exist, and its folder is not writable by this user, who would create it. Fix its permissions or the path set for the service; the server\'s error log names the file.' }, meta: { request_id: 'x', timestamp: 'x' } })).toString('base64')
});

t.step('500 CONFIGURATION_ERROR when the page asks for the setup: what to fix on the server', async () => {
	if (fs.existsSync(DB)) throw new Error('the database exists before the first request');
	await t.once('api/v1/setup', 'Request', configError);
	await t.goto(URL0 + 'owner.html');
	await t.waitFor(`document.readyState === 'complete' && vis('#boot-error') && text('#boot-error').includes('write in that folder')`);
	const s = await t.ev(`text('#boot-error')`);
	if (!await t.ev(`!!$('#boot-error [data-code=CONFIGURATION_ERROR]')`)) throw new Error('no data-code');
	if (/\(CONFIGURATION_ERROR\)/.test(s)) throw new Error('the code is shown');
	for (const w of ['its folder is not writable', 'loyalty.conf', 'SetEnv LOYALTY_DB', '755', '777', 'error log'])
		if (!s.includes(w)) throw new Error('missing ' + w + ' in: ' + s);
	if (s.includes('Try again in')) throw new Error('a wait for an error retrying does not fix: ' + s);
	await t.shot('boot-db-error');
	return t.ev(`vis('#boot-retry') && document.activeElement === $('#boot-retry') && !vis('#setup-form')`);
});

t.step('the boot error passes the accessibility pass', () => a11y(t, 'boot error'));

t.step('"Try again" once the folder is fixed opens the setup form', async () => {
	await t.ev(`click('#boot-retry')`);
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form') && !vis('#boot-error')`);
});
