/* The proof way, for an owner who cannot open the code file: "I cannot
 * open that file" switches to it; the proof file, downloaded from the
 * page and put into the responders' folder, sets the shop up and the
 * service deletes it; a reload keeps the proof for the tab. */
import fs from 'node:fs';
import path from 'node:path';
import { URL0 } from '../lib/browser.mjs';
import { emptyInstall, ownerBrowser, shots3, a11y, postsStep, download, api, OWNER, RESP, CODE_FILE } from '../lib/owner-helpers.mjs';

await emptyInstall();
const t = await ownerBrowser();
const setupPosts = [];
t.on('Network.requestWillBeSent', (p) => {
	if (p.request.method === 'POST' && p.request.url === URL0 + 'api/v1/setup') setupPosts.push(p.request.postData || '');
});

/* WCAG's contrast of an element's text with what is behind it. */
const contrast = (sel) => t.ev(`(() => {
	const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
	let bg = 'rgb(255, 255, 255)';
	for (let e = $(${JSON.stringify(sel)}); e; e = e.parentElement) {
		const c = getComputedStyle(e).backgroundColor, m = c.match(/[\\d.]+/g);
		if (m && (m.length < 4 || Number(m[3]) > 0)) { bg = c; break; }
	}
	const a = lum(getComputedStyle($(${JSON.stringify(sel)})).color), b = lum(bg);
	return Math.round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 100) / 100;
})()`);
const fillProof = () => t.ev(`fill('#setup-shop', 'Proof Cafe') && fill('#setup-location', 'Proof Street') && pick('#setup-currency', 'EUR') && fill('#setup-name', ${JSON.stringify(OWNER.name)}) &&
    fill('#setup-email', ${JSON.stringify(OWNER.email)}) && fill('#setup-password', ${JSON.stringify(OWNER.password)}) &&
    fill('#setup-password2', ${JSON.stringify(OWNER.password)}) && click('#setup-submit')`);
let proof = null;

t.step('the code way is the default, with a button "I cannot open that file" for the other way', async () => {
	await t.goto(URL0 + 'owner.html');
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form')`);
	const st = await t.ev(`({ sw: vis('#setup-switch-button') && text('#setup-switch-button'), code: vis('#setup-code-field') && vis('#setup-code-in-file'), proof: vis('#setup-proof') })`);
	if (st.sw !== 'I cannot open that file' || !st.code || st.proof) throw new Error(JSON.stringify(st));
});

t.step('the button "I cannot open that file" can be read: contrast at least 4.5:1', async () => {
	const c = await contrast('#setup-switch-button');
	if (c < 4.5) throw new Error('contrast ' + c + ':1, ' + await t.ev(`getComputedStyle($('#setup-switch-button')).color`) + ' on the notice\'s background');
});

t.step('"I cannot open that file" switches to the proof way: the file to download by its name, the folder named, no setup code field', async () => {
	await t.ev(`click('#setup-switch-button')`);
	await t.waitFor(`vis('#setup-proof') && !vis('#setup-code-field')`);
	proof = await t.ev(`({ name: text('#setup-proof-name'), folder: text('#setup-proof-folder'), dl: $('#setup-proof-download').download,
	    href: $('#setup-proof-download').href, sw: text('#setup-switch-button'), codeHelp: vis('#setup-code-in-file') || vis('#setup-code-by-command'),
	    why: vis('#setup-proof-why'), focus: document.activeElement === $('#setup-proof-download'), steps: text('#setup-proof') })`);
	if (!/^loyalty-setup-[a-z2-7]{24}\.txt$/.test(proof.name)) throw new Error('file name ' + proof.name);
	if (proof.folder !== path.basename(RESP)) throw new Error('folder ' + proof.folder + ', not ' + path.basename(RESP));
	if (proof.dl !== proof.name || !proof.href.startsWith('blob:')) throw new Error('download link ' + proof.dl + ' ' + proof.href);
	if (proof.sw !== 'Use the setup code instead' || proof.codeHelp || !proof.focus) throw new Error(JSON.stringify(proof));
	/* Said only where the host runs the programs as another user. */
	if (proof.why) throw new Error('"the web server\'s user" said on a host that runs the programs as their owner');
	for (const w of [proof.name, proof.folder + '/', 'Download the proof file', 'Create my shop'])
		if (!proof.steps.includes(w)) throw new Error('missing ' + w + ' in: ' + proof.steps);
	if (fs.existsSync(path.join(RESP, proof.name))) throw new Error('the service made the proof file itself');
});

t.step('the proof way fits 390, 768 and 1280 px without sideways scrolling', () => shots3(t, 'proof'));
t.step('the proof way passes the accessibility pass', () => a11y(t, 'setup, the proof way'));

t.step('the proof way before the file is there: the API\'s message names the file and the folder', async () => {
	await fillProof();
	await t.waitFor(`vis('#setup-error') && text('#setup-error').includes(${JSON.stringify(proof.name)})`);
	const s = await t.ev(`text('#setup-error')`);
	if (!s.includes('(' + proof.folder + '/)')) throw new Error(s);
	const sent = JSON.parse(setupPosts[setupPosts.length - 1] || '{}');
	if (typeof sent.setup_proof !== 'string' || !/^[a-z2-7]{26}$/.test(sent.setup_proof) || 'setup_code' in sent) throw new Error('sent ' + JSON.stringify(Object.keys(sent)));
	await t.ev(`(scrollTo(0, 0), true)`);
	await t.settle();
	await t.shot('missing');
	return t.ev(`vis('#setup-form') && vis('#setup-proof')`);
});

t.step('a reload keeps the proof for the tab: the same file name, so a file uploaded meanwhile still counts', async () => {
	await t.page.reload({ waitUntil: 'commit' });
	await t.waitFor(`document.readyState === 'complete' && vis('#setup-form') && vis('#setup-switch-button')`);
	await t.ev(`vis('#setup-proof') || click('#setup-switch-button')`);
	await t.waitFor(`vis('#setup-proof')`);
	const now = await t.ev(`({ name: text('#setup-proof-name'), dl: $('#setup-proof-download').download })`);
	if (now.name !== proof.name || now.dl !== proof.name) throw new Error(JSON.stringify(now) + ' after a reload, not ' + proof.name);
});

t.step('the proof file downloaded from the page and put into the responders\' folder sets the shop up; the service deletes it', async () => {
	const f = await download(t, `click('#setup-proof-download')`);
	if (path.basename(f) !== proof.name) throw new Error('downloaded ' + f);
	if (!fs.readFileSync(f, 'utf8').includes(proof.folder + '/')) throw new Error('the file says: ' + fs.readFileSync(f, 'utf8'));
	const put = path.join(RESP, proof.name);
	fs.copyFileSync(f, put);
	await fillProof();
	await t.waitFor(`vis('#app-view') && vis('#sec-overview') && !vis('#setup-view')`);
	const notice = await t.ev(`text('#app-notice')`);
	/* The service deleted the file itself here: nothing to ask. */
	if (!notice.includes('Proof Cafe') || notice.includes(proof.name)) throw new Error(notice);
	if (fs.existsSync(put)) throw new Error('the proof file is still there');
	if (fs.existsSync(CODE_FILE)) throw new Error('the code file is still there');
	const st = (await api('GET', 'setup')).status;
	if (st !== 404) throw new Error('GET setup answers ' + st);
	await t.shot('done');
	return t.ev(`JSON.parse(sessionStorage.getItem('pos.user')).user_type === 'owner' && text('#who-email') === ${JSON.stringify(OWNER.email)}`);
});

postsStep(t);
