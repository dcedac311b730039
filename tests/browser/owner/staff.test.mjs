/* The owner's staff: a cashier added with a location and an initial
 * password, a taken e-mail refused, the cashier edited, disabled and
 * enabled, and given a new password. */
import { freshShop, addLocation, ownerBrowser, ownerLogin, nav, shots3, a11y, postsStep, api, OWNER, CASHIER } from '../lib/owner-helpers.mjs';

const shop = await freshShop();
await addLocation(shop, 'Harbour Kiosk East');
const t = await ownerBrowser();
await ownerLogin(t);

t.step('adding a cashier with a location and an initial password', async () => {
	await nav(t, 'staff');
	await t.waitFor(`vis('#sec-staff') && text('#staff-body').includes(${JSON.stringify(OWNER.email)}) && $$('#staff-location option').length === 2`);
	await t.ev(`fill('#staff-name', 'Sam Staff') && fill('#staff-email-new', ${JSON.stringify(CASHIER.email)}) && pick('#staff-type', 'system_user') &&
	    pickText('#staff-location', 'High Street') && fill('#staff-password', ${JSON.stringify(CASHIER.password)}) &&
	    fill('#staff-password2', ${JSON.stringify(CASHIER.password)}) && click('#staff-form button[type=submit]')`);
	await t.waitFor(`rowOf('#staff-body', 'Sam Staff') && toast().includes('added')`);
	const row = await t.ev(`rowOf('#staff-body', 'Sam Staff').textContent`);
	if (!['Staff', 'High Street', 'Active', CASHIER.email].every((w) => row.includes(w))) throw new Error(row);
	const r = await api('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
	if (r.status !== 200) throw new Error('cashier login: ' + r.text);
});

t.step('a taken e-mail shows the API\'s CONFLICT message on the e-mail field', async () => {
	await t.ev(`fill('#staff-name', 'Sam Again') && fill('#staff-email-new', ${JSON.stringify(CASHIER.email)}) &&
	    fill('#staff-password', 'whatever-123') && fill('#staff-password2', 'whatever-123') && click('#staff-form button[type=submit]')`);
	await t.waitFor(`text('#staff-form .form-msg').includes('exists already')`);
	return t.ev(`$('#staff-email-new').getAttribute('aria-invalid') === 'true' && document.activeElement === $('#staff-email-new')`);
});

t.step('editing a cashier: renamed and moved to another location', async () => {
	await t.ev(`fill('#staff-name', '') && fill('#staff-email-new', '') && fill('#staff-password', '') && fill('#staff-password2', '')`);
	await t.ev(`click(btnIn(rowOf('#staff-body', 'Sam Staff'), 'Edit'))`);
	await t.waitFor(`dlg() && dlg().querySelector('select')`);
	await t.ev(`(dlg().querySelector('input').value = 'Sam Till', (() => { const s = dlg().querySelector('select'); s.value = Array.from(s.options).find((o) => o.textContent === 'Harbour Kiosk East').value; })(), click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && rowOf('#staff-body', 'Sam Till') && rowOf('#staff-body', 'Sam Till').textContent.includes('Harbour Kiosk East')`);
});

t.step('disabling a cashier (after a confirmation) refuses their login; enabling gives it back', async () => {
	await t.ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'Disable'))`);
	await t.waitFor(`dlg() && text('dialog[open]').includes('logged out')`);
	await t.ev(`click(dlg().querySelector('button[type=submit]'))`);
	await t.waitFor(`!dlg() && rowOf('#staff-body', 'Sam Till').textContent.includes('Disabled')`);
	await shots3(t, 'staff');
	await a11y(t, 'staff');
	const r = await api('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
	if (r.status === 200) throw new Error('a disabled cashier logged in');
	await t.ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'Enable'))`);
	await t.waitFor(`rowOf('#staff-body', 'Sam Till').textContent.includes('Active')`);
	const r2 = await api('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
	if (r2.status !== 200) throw new Error('enabled cashier: ' + r2.text);
});

t.step('setting a new password for the cashier', async () => {
	await t.ev(`click(btnIn(rowOf('#staff-body', 'Sam Till'), 'New password'))`);
	await t.waitFor(`dlg() && dlg().querySelectorAll('input[type=password]').length === 2`);
	await t.ev(`(dlg().querySelectorAll('input')[0].value = 'short', dlg().querySelectorAll('input')[1].value = 'short', click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`dlg() && text('dialog[open] .form-msg').includes('at least 8')`);
	await t.ev(`(dlg().querySelectorAll('input')[0].value = ${JSON.stringify(CASHIER.password2)}, dlg().querySelectorAll('input')[1].value = ${JSON.stringify(CASHIER.password2)}, click(dlg().querySelector('button[type=submit]')))`);
	await t.waitFor(`!dlg() && toast().includes('New password set')`);
	const old = await api('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password });
	const neu = await api('POST', 'auth/login', { email: CASHIER.email, password: CASHIER.password2 });
	if (old.status === 200 || neu.status !== 200) throw new Error('old ' + old.status + ', new ' + neu.status);
});

postsStep(t);
