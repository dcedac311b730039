/* The backup: a download of the whole shop that SQLite finds sound. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { cashbackShop, ownerBrowser, ownerLogin, nav, shots3, a11y, download } from '../lib/owner-helpers.mjs';

await cashbackShop(20);
const t = await ownerBrowser();
await ownerLogin(t);

t.step('the backup downloads and passes PRAGMA integrity_check', async () => {
	await nav(t, 'backup');
	await t.waitFor(`vis('#sec-backup')`);
	const f = await download(t, `click('#backup-button')`, 20000);
	if (!/^loyalty-backup-\d{4}-\d\d-\d\d\.db$/.test(path.basename(f))) throw new Error(f);
	const check = execFileSync('sqlite3', [f, 'PRAGMA integrity_check'], { encoding: 'utf8' }).trim();
	if (check !== 'ok') throw new Error('integrity_check: ' + check);
	const dump = execFileSync('sqlite3', [f, '.dump'], { encoding: 'utf8', maxBuffer: 64 << 20 });
	if (!dump.includes('Robert Brown') || !dump.includes('Harbour Kiosk East')) throw new Error('the backup lacks the shop');
	await t.waitFor(`/^Downloaded loyalty-backup-[-0-9]+\\.db \\([0-9.]+ (bytes|KB|MB)\\)\\. Keep it somewhere safe\\.$/.test(text('#backup-msg'))`);
});
t.step('the backup screen fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'backup'));
t.step('the backup screen passes the accessibility pass', () => a11y(t, 'backup'));
