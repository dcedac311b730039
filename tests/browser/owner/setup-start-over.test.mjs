/* Starting over: the database's files deleted while the server runs and
 * the owner is logged in; a reload ends the session and offers the setup
 * again with a new code (and a new proof), which sets the shop up again
 * and logs the owner in. */
import fs from 'node:fs';
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, postsStep, api, OWNER, DB, CODE_FILE } from '../lib/owner-helpers.mjs';

await emptyInstall();
const t = await ownerBrowser();
let oldProof = null;

const fillCode = (code) => t.ev(`fill('#setup-code', ${JSON.stringify(code)}) && fill('#setup-shop', 'Corner Cafe') &&
    fill('#setup-location', 'High Street') && pick('#setup-currency', 'EUR') && fill('#setup-name', ${JSON.stringify(OWNER.name)}) &&
    fill('#setup-email', ${JSON.stringify(OWNER.email)}) && fill('#setup-password', ${JSON.stringify(OWNER.password)}) &&
    fill('#setup-password2', ${JSON.stringify(OWNER.password)}) && click('#setup-submit')`);

t.step('a first setup in the page (the proof it offered noted) logs the owner in', async () => {
	await t.goto(URL0 + 'owner.html');
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form') && vis('#setup-switch-button')`);
	await t.ev(`click('#setup-switch-button')`);
	await t.waitFor(`vis('#setup-proof')`);
	oldProof = await t.ev(`text('#setup-proof-name')`);
	if (!/^loyalty-setup-/.test(oldProof)) throw new Error(oldProof);
	await t.ev(`click('#setup-switch-button')`);
	await t.waitFor(`vis('#setup-code-field') && !vis('#setup-proof')`);
	await fillCode(fs.readFileSync(CODE_FILE, 'utf8').trim());
	await t.waitFor(`vis('#app-view') && vis('#sec-overview') && !vis('#setup-view')`);
});

t.step('a reload after the database\'s files were deleted (the server running, the owner logged in) ends the session and offers the setup again with a new code', async () => {
	for (const x of ['', '-wal', '-shm', '-queue']) fs.rmSync(DB + x, { force: true });
	await t.page.reload({ waitUntil: 'commit' });
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form') && vis('#setup-code-field') && !vis('#setup-proof')`);
	if (!fs.existsSync(DB)) throw new Error('no new database');
	if ((fs.statSync(CODE_FILE).mode & 0o777) !== 0o600) throw new Error('code file mode ' + (fs.statSync(CODE_FILE).mode & 0o777).toString(8));
	const name = await t.ev(`text('#setup-proof-name')`);
	if (name === oldProof) throw new Error('the same proof file name after a reload');
	return t.ev(`text('#setup-switch-button') === 'I cannot open that file' && document.activeElement === $('#setup-code')`);
});

t.step('the code from the file creates the shop and logs the owner in', async () => {
	const code = fs.readFileSync(CODE_FILE, 'utf8').trim();
	if (!/^[A-Z0-9]{8,64}$/.test(code)) throw new Error('code file: ' + code);
	await fillCode(code);
	await t.waitFor(`vis('#app-view') && vis('#sec-overview') && !vis('#setup-view')`);
	if (fs.existsSync(CODE_FILE)) throw new Error('the code file is still there');
	const notice = await t.ev(`text('#app-notice')`);
	if (!notice.includes('Corner Cafe')) throw new Error(notice);
	const st = (await api('GET', 'setup')).status;
	if (st !== 404) throw new Error('GET setup answers ' + st);
	return t.ev(`!!sessionStorage.getItem('pos.access_token') && !!sessionStorage.getItem('pos.refresh_token') &&
	    JSON.parse(sessionStorage.getItem('pos.user')).user_type === 'owner' && text('#who-email') === ${JSON.stringify(OWNER.email)}`);
});

postsStep(t);
