/* The Japanese back office's header at 390 px: the role label on one
 * line (it wrapped a character a line) and the e-mail given the rest of
 * the row, whole (it was cut to "h…"). */
import { freshShop, ownerBrowser, OWNER } from '../lib/owner-helpers.mjs';
import { URL0 } from '../lib/browser.mjs';

await freshShop();
const t = await ownerBrowser({ width: 390, height: 800 });

t.step('at 390 px in Japanese the role label is one line and the e-mail shows whole', async () => {
	await t.goto(URL0 + 'owner.html?lang=ja');
	await t.waitFor(`vis('#login-form')`);
	await t.ev(`fill('#login-email', ${JSON.stringify(OWNER.email)}) && fill('#login-password', ${JSON.stringify(OWNER.password)}) && click('#login-submit')`);
	await t.waitFor(`vis('#app-view') && document.documentElement.lang === 'ja'`);
	const r = await t.ev(`(() => { const role = $('#who-role'), mail = $('#who-email');
	    const lh = parseFloat(getComputedStyle(role).fontSize) * 1.8;
	    return { roleH: role.getBoundingClientRect().height, lh, role: role.textContent,
	      mail: mail.textContent, cut: mail.scrollWidth > mail.clientWidth + 1, page: document.documentElement.scrollWidth }; })()`);
	await t.shot('header-ja-390');
	if (r.roleH > r.lh || r.cut || r.page > 390 || r.mail !== OWNER.email) throw new Error(JSON.stringify(r));
	return true;
});
