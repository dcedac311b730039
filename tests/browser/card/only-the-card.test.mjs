/* The page is the customer's card and nothing else: no way to the till
 * or the back office, no staff names, not indexed, no referrer, a strict
 * CSP; its manifest starts at card.html with icons that load. */
import { URL0 } from '../lib/browser.mjs';
import { freshDemo, cardBrowser, open, cardShown, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const t = await cardBrowser();

t.step('the page is only the card: no link to the till or the back office, noindex, no referrer', async () => {
	await open(t, d.punch.token);
	await t.waitFor(cardShown('Coffee Card'));
	const r = await t.ev(`({ links: $$('a[href]').map((a) => a.getAttribute('href')),
		robots: $('meta[name=robots]').content, referrer: $('meta[name=referrer]').content,
		csp: $('meta[http-equiv=Content-Security-Policy]').content, manifest: $('link[rel=manifest]').href })`);
	if (r.links.join() !== '#main') throw new Error('links: ' + r.links);
	if (!/noindex/.test(r.robots) || r.referrer !== 'no-referrer') throw new Error(JSON.stringify(r));
	if (!/img-src 'self'/.test(r.csp) || !/script-src 'self';/.test(r.csp) || /unsafe/.test(r.csp)) throw new Error(r.csp);
	const body = await t.ev(`text('body')`);
	for (const w of ['Main Street', 'Harbour Kiosk', 'Sam Staff', 'Olivia Owner', 'staff@', 'owner@', 'Log in', 'Back office'])
		if (body.includes(w)) throw new Error('shows ' + w);
	return r.manifest === URL0 + 'card.webmanifest';
});

t.step('the manifest: start_url card.html, icons that load, no errors', async () => {
	const m = await t.S('Page.getAppManifest');
	if (m.errors && m.errors.length) throw new Error(JSON.stringify(m.errors));
	const j = JSON.parse(m.data);
	if (j.start_url !== 'card.html' || !j.name || !j.theme_color || !j.icons.length) throw new Error(m.data);
	for (const i of j.icons) {
		const r = await fetch(URL0 + i.src);
		const type = r.headers.get('content-type') || '';
		if (r.status !== 200 || !type.startsWith(i.type)) throw new Error(i.src + ': ' + r.status + ' ' + type);
	}
});

tokenStep(t);
