/* The back office's setup, login and sections overview, locations,
 * staff, programs, backup and settings in the pseudo-locale (?lang=qps):
 * every text of ours comes from the catalog (wrapped in ⟦ ⟧), so a text
 * left in the code shows; the setup sends the shop's currency, time
 * zone and language; the pages in Japanese and Arabic (right to left)
 * at 390 and 1280 px, for a person to look at. */
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, nav, OWNER, CODE_FILE, api, ownerToken } from '../lib/owner-helpers.mjs';
import fs from 'node:fs';

await emptyInstall();
const t = await ownerBrowser();

/* The texts of root that are ours and not from the catalog: text nodes
 * with letters outside ⟦ ⟧, and the same in aria-label, title and
 * placeholder; data (translate="no") and hidden parts are not looked
 * at, nor an offset such as UTC+01:00. */
const LEFTOVERS = `((root) => {
	const bad = [];
	const ours = (s) => /\\p{L}/u.test(s) && !/^UTC[+−-]\\d\\d:\\d\\d$/.test(s);
	const walk = (n) => {
		if (n.nodeType === 1) {
			if (n.getAttribute('translate') === 'no' || n.hidden || ['SCRIPT', 'STYLE'].includes(n.tagName)) return;
			if (n.tagName !== 'OPTION' && getComputedStyle(n).display === 'none') return;
			for (const a of ['aria-label', 'title', 'placeholder']) {
				const v = n.getAttribute(a);
				if (v && ours(v) && !v.includes('⟦') && !/^https?:/.test(v)) bad.push(a + ': ' + v);
			}
			for (const c of n.childNodes) walk(c);
		} else if (n.nodeType === 3) {
			const s = n.textContent.trim();
			if (ours(s.replace(/⟦[^⟧]*⟧/g, ''))) bad.push(s);
		}
	};
	walk(root);
	return bad;
})`;
const leftovers = (sel) => t.ev(`${LEFTOVERS}(document.querySelector(${JSON.stringify(sel)}))`);
const none = async (sel) => {
	const bad = await leftovers(sel);
	if (bad.length) throw new Error('not from the catalog in ' + sel + ': ' + JSON.stringify(bad));
	return true;
};

t.step('the setup form in the pseudo-locale has no text left in the code', async () => {
	await t.goto(URL0 + 'owner.html?lang=qps');
	await t.waitFor(`vis('#setup-form') && $('#setup-currency').options.length > 1`);
	await none('header.topbar');
	return none('#setup-view');
});

for (const lang of ['ja', 'ar']) {
	t.step(`the setup form in ${lang} at 390 and 1280 px`, async () => {
		await t.goto(URL0 + 'owner.html?lang=' + lang);
		await t.waitFor(`document.documentElement.lang === '${lang}' && vis('#setup-form') && $('#setup-currency').options.length > 1`);
		for (const [w, h] of [[390, 844], [1280, 900]]) {
			await t.page.setViewportSize({ width: w, height: h });
			await t.shot(`${lang}-setup-${w}`);
		}
		return t.ev(`text('#setup-title') !== 'Set up your shop' && $('#setup-language').value === '${lang}'`);
	});
}

t.step('the setup sends the currency, time zone and language chosen; the zone starts as the browser\'s', async () => {
	await t.goto(URL0 + 'owner.html?lang=qps');
	await t.waitFor(`vis('#setup-form') && $('#setup-currency').options.length > 1`);
	const zone = await t.ev(`Intl.DateTimeFormat().resolvedOptions().timeZone`);
	if (await t.ev(`$('#setup-time-zone').value`) !== zone) throw new Error('the zone is not the browser\'s ' + zone);
	const req = t.page.waitForRequest((r) => r.method() === 'POST' && /api\/v1\/setup$/.test(r.url()));
	const code = fs.readFileSync(CODE_FILE, 'utf8').trim();
	await t.ev(`pick('#setup-currency', 'EUR') && pick('#setup-time-zone', 'Europe/Berlin') && pick('#setup-language', 'de') &&
	    fill('#setup-code', ${JSON.stringify(code)}) && fill('#setup-shop', 'Corner Cafe') && fill('#setup-location', 'High Street') &&
	    fill('#setup-name', ${JSON.stringify(OWNER.name)}) && fill('#setup-email', ${JSON.stringify(OWNER.email)}) &&
	    fill('#setup-password', ${JSON.stringify(OWNER.password)}) && fill('#setup-password2', ${JSON.stringify(OWNER.password)}) &&
	    click('#setup-submit')`);
	const setupBody = (await req).postDataJSON();
	if (setupBody.currency !== 'EUR' || setupBody.time_zone !== 'Europe/Berlin' || setupBody.language !== 'de')
		throw new Error(JSON.stringify(setupBody));
	await t.waitFor(`vis('#app-view') || vis('#setup-error')`);
	if (await t.ev(`vis('#setup-error')`)) throw new Error(await t.ev(`text('#setup-error')`));
	/* and the new shop has them, as the server keeps them */
	const r = await api('GET', 'admin/settings', undefined, await ownerToken(t));
	const v = Object.fromEntries(r.json.data.settings.map((x) => [x.key, x.value]));
	if (v.currency !== 'EUR' || v.time_zone !== 'Europe/Berlin' || v.language !== 'de') throw new Error(JSON.stringify(v));
	return true;
});

for (const sec of ['overview', 'locations', 'staff', 'programs', 'backup', 'settings']) {
	t.step(`the ${sec} section in the pseudo-locale has no text left in the code`, async () => {
		await nav(t, sec);
		await t.waitFor(`vis('#sec-${sec}') && !$('#sec-${sec}').querySelector('[aria-busy="true"]')`);
		/* The section's lists and fields loaded. */
		await t.waitFor({
			overview: `$$('#steps li').length === 6 && $$('#today-figures dt').length === 4`,
			locations: `$$('#locations-body tr').length > 0`,
			staff: `$$('#staff-body tr').length > 0`,
			programs: `$('#program-punch-fields input') !== null`,
			backup: `true`,
			settings: `$$('#settings-fields .field').length > 5`
		}[sec]);
		await none('#side-nav');
		await none('header.topbar');
		return none('#sec-' + sec);
	});
}

t.step('the static text of cards, reports, integrations and audit is from the catalog', async () => {
	/* Their built parts are another module's: only the markup here. */
	const bad = await t.ev(`['cards', 'reports', 'integrations', 'audit'].flatMap((s) =>
	    $$('#sec-' + s + ' [data-i18n]').filter((e) => !e.textContent.includes('⟦')).map((e) => e.getAttribute('data-i18n')))`);
	if (bad.length) throw new Error(bad.join(', '));
	return true;
});

/* Japanese and Arabic, phone and desktop: screenshots to look at. */
for (const lang of ['ja', 'ar']) {
	t.step(`the back office in ${lang} at 390 and 1280 px`, async () => {
		await t.goto(URL0 + 'owner.html?lang=' + lang + '#settings');
		await t.waitFor(`document.documentElement.lang === '${lang}' && vis('#sec-settings') && $$('#settings-fields .field').length > 5`);
		if (await t.ev(`document.documentElement.dir`) !== (lang === 'ar' ? 'rtl' : 'ltr')) throw new Error('dir');
		for (const [w, h] of [[390, 844], [1280, 900]]) {
			await t.page.setViewportSize({ width: w, height: h });
			for (const sec of ['overview', 'staff', 'programs', 'settings']) {
				await nav(t, sec);
				await t.waitFor(`vis('#sec-${sec}')`);
				await t.shot(`${lang}-${sec}-${w}`);
			}
		}
		return t.ev(`text('#h-settings') !== 'Settings'`);
	});
}
