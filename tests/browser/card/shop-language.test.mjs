/* A phone whose languages are none of ours shows the card page in the
 * shop's language (the card answer's language), and its times in the
 * shop's zone. The answer's language is set here on the answer itself. */
import { freshDemo, cardBrowser, open, api, tokenStep } from '../lib/card-helpers.mjs';

const d = await freshDemo();
const sw = await cardBrowser({ context: { locale: 'sw-KE' } });

sw.step('a browser preferring none of our languages follows the shop\'s language', async () => {
	const real = await api('GET', 'mycard/' + d.punch.token);
	const body = Object.assign({}, real.json, { data: Object.assign({}, real.json.data, { language: 'de', time_zone: 'Europe/Berlin' }) });
	await sw.fulfil('api/v1/mycard/' + d.punch.token, (p) => (/\/(qr|barcode)\.svg/.test(p.request.url) ? null : { status: 200, body }));
	await open(sw, d.punch.token);
	await sw.waitFor(`document.documentElement.lang === 'de' && text('#scan-title') === 'An der Kasse vorzeigen'`, 15000);
	const s = await sw.ev(`({ line: text('#progress-line'), upd: text('#updated-text'), sel: $('#lang-select').value })`);
	await sw.clearIntercepts();
	if (!/Stempel/.test(s.line) || !/^Aktualisiert: heute um /.test(s.upd) || s.sel !== 'de') throw new Error(JSON.stringify(s));
});
tokenStep(sw, [d.punch.token]);
