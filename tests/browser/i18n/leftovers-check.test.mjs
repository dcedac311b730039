/* The pseudo-locale's check itself, on two tiny pages of its own: it
 * passes a page whose every text is wrapped, data and formatting aside,
 * and it names each kind of leftover in a page that has them. So a clean
 * page in the other files means clean, not "checked nothing". */
import { openBrowser } from '../lib/browser.mjs';
import { leftovers } from './pseudo.mjs';

const t = await openBrowser({ width: 1280, height: 800 });

const CLEAN = `<!doctype html><html lang="en"><head><title>⟦Tíll⟧</title></head><body>
<header><h1>⟦Lóyálty tíll⟧</h1><select aria-label="⟦Lánguágé⟧"><option translate="no">Deutsch</option><option translate="no">日本語</option></select></header>
<p>⟦Hélló ⟦Ánn Smíth⟧ – 3 çárds⟧</p>
<p>⟦Bálánçé⟧: €12.50 · KWD 1.250 · Oct 25, 2026, 2:30 PM · 12/03</p>
<p>⟦Cústómér⟧: <b>Rush Hour</b> &lt;rush@hour.example&gt;</p>
<p translate="no">Corner Cafe, High Street</p>
<input placeholder="⟦Cárd númbér⟧" title="⟦Scán ór typé⟧"><img alt="⟦QR çódé⟧" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p hidden>Hidden English</p><div style="display:none">Not shown</div>
<script>/* not text */</script>
</body></html>`;

const DIRTY = `<!doctype html><html lang="en"><head><title>Till</title></head><body>
<h1>⟦Lóyálty tíll⟧</h1>
<p id="a">Scan a card</p>
<p id="b">⟦Bálánçé⟧: 12.50 left</p>
<p id="c"><span>⟦Sávé⟧</span> <span>Cancel</span></p>
<input id="d" placeholder="Card number"><button id="e" aria-label="Close">×</button>
<span id="f" title="More">⟦í⟧</span><img id="g" alt="QR code" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<p id="h">⟦Hélló⟧ till.unknown_key</p>
</body></html>`;

t.step('a page whose every text is from the catalog has no leftovers', async () => {
	await t.page.setContent(CLEAN);
	const l = await leftovers(t, ['Rush Hour', 'rush@hour.example']);
	if (l.length) throw new Error(l.join('\n'));
	return true;
});

t.step('without the test\'s own data, that data is a leftover', async () => {
	const l = await leftovers(t, []);
	return l.length === 2 && l.some((x) => x.includes('Rush Hour')) && l.some((x) => x.includes('rush@hour.example'));
});

t.step('each kind of leftover is found: text, a part of a text, attributes, the title, a key shown as itself', async () => {
	await t.page.setContent(DIRTY);
	const l = await leftovers(t, []);
	const want = ['p#a:', 'p#b:', 'span: "Cancel"', 'input#d [placeholder]', 'button#e [aria-label]', 'span#f [title]', 'img#g [alt]', 'title:', 'p#h:'];
	const missed = want.filter((w) => !l.some((x) => x.startsWith(w)));
	if (missed.length || l.length !== want.length) throw new Error('missed ' + missed.join(', ') + '; found:\n' + l.join('\n'));
	return true;
});
