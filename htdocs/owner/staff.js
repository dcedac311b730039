import { limit } from '../js/limits.js';
import { $, h, looksLikeEmail, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiPatch, payload } from './net.js';
import { endSession } from './session.js';
import { PASSWORD_MIN, loadLocations, loadUsers, locName, st, user } from './state.js';
import { confirmDialog, field, need, needPassword, openDialog, setMsg, toast } from './ui.js';

/* ---- staff ------------------------------------------------------------ */

export async function showStaff() {
	renderStaff();
	try {
		await Promise.all([loadUsers(), loadLocations()]);
		setMsg('staff-error', null);
		renderStaff();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('staff-error', e);
	}
}

export function locationOptions(sel, current) {
	setKids(sel, ...st.locations.map((l) => h('option', { value: l.id, selected: l.id === current }, l.name)));
}

export function renderStaff() {
	const keep = $('staff-location').value;
	locationOptions($('staff-location'), keep);
	show('staff-location-field', $('staff-type').value === 'system_user');
	const rows = st.users.map((u) => {
		const who = u.name || u.email;
		const self = user && u.id === user.id;
		const actions = [
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Edit ' + who, onclick: () => editUser(u) }, 'Edit'),
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Set a new password for ' + who, onclick: () => passwordUser(u) }, 'New password')
		];
		if (!self)
			actions.push(h('button', { type: 'button', className: 'btn btn-small' + (u.disabled ? '' : ' btn-warn'), 'aria-label': (u.disabled ? 'Enable ' : 'Disable ') + who, onclick: () => toggleUser(u) }, u.disabled ? 'Enable' : 'Disable'));
		return h('tr', { className: u.disabled ? 'is-off' : '' },
			h('td', { dataset: { label: 'Name' } }, h('span', null, u.name || h('span', { className: 'muted' }, '—'), self ? h('span', { className: 'muted' }, ' (you)') : null)),
			h('td', { dataset: { label: 'E-mail' } }, h('span', { className: 'break' }, u.email)),
			h('td', { dataset: { label: 'Role' } }, u.user_type === 'owner' ? 'Owner' : 'Staff'),
			h('td', { dataset: { label: 'Location' } }, u.user_type === 'owner' ? 'All locations' : locName(u.location_id)),
			h('td', { dataset: { label: 'Status' } }, h('span', { className: 'tag ' + (u.disabled ? 'tag-bad' : 'tag-ok') }, u.disabled ? 'Disabled' : 'Active')),
			h('td', { className: 'actions' }, h('span', { className: 'btn-row' }, actions)));
	});
	setKids($('staff-body'), ...rows);
}

export async function onAddStaff(form) {
	const name = need($('staff-name'), 'a name', limit('NAME_MAX'));
	const email = need($('staff-email-new'), 'an e-mail address', limit('EMAIL_MAX'));
	if (!looksLikeEmail(email)) throw new FormError('Enter an e-mail address such as sam@example.com.', $('staff-email-new'));
	const type = $('staff-type').value;
	const loc = $('staff-location').value;
	if (type === 'system_user' && !loc) throw new FormError('Add a location first.', $('staff-location'));
	const password = needPassword($('staff-password'), $('staff-password2'));
	const body = { email, password, user_type: type, name };
	if (type === 'system_user') body.location_id = loc;
	const d = payload(await apiCreate('user', 'admin/users', body));
	for (const id of ['staff-name', 'staff-email-new', 'staff-password', 'staff-password2']) $(id).value = '';
	toast((d.user.user_type === 'owner' ? 'Owner ' : 'Staff login ') + d.user.email + ' added.' +
	    (d.user.user_type === 'system_user' ? ' They log in on the till.' : ''));
	await showStaff();
	$('staff-name').focus();
}

export function editUser(u) {
	const who = u.name || u.email;
	const fName = field({ label: 'Name', value: u.name || '', field: 'name', limit: 'NAME_MAX' });
	const kids = [h('p', { className: 'hint' }, 'E-mail: ' + u.email), fName];
	let sel = null;
	if (u.user_type === 'system_user') {
		sel = h('select');
		locationOptions(sel, u.location_id);
		kids.push(field({ label: 'Location', control: sel, field: 'location_id', hint: 'Moving a login changes where its purchases are recorded from now on.' }));
	}
	openDialog({
		title: 'Edit ' + who, body: h('div', null, kids),
		onSubmit: async () => {
			const name = fName.input.value.trim();
			if (name.length > limit('NAME_MAX')) throw new FormError('The name is too long (at most ' + limit('NAME_MAX') + ' characters).', fName.input);
			const body = { name };
			if (sel) body.location_id = sel.value;
			await apiPatch('admin/users/' + encodeURIComponent(u.id), body);
			toast('Saved ' + (name || u.email) + '.');
			showStaff();
		}
	});
}

export function passwordUser(u) {
	const who = u.name || u.email;
	const p1 = field({ label: 'New password', type: 'password', field: 'password', autocomplete: 'new-password', hint: 'At least ' + PASSWORD_MIN + ' characters.' });
	const p2 = field({ label: 'New password again', type: 'password', field: 'password2', autocomplete: 'new-password' });
	openDialog({
		title: 'New password for ' + who,
		intro: user && u.id === user.id ? 'Your other sessions are logged out; this page asks you to log in again.' :
		    'Every till logged in as ' + who + ' is logged out at once.',
		body: h('div', null, p1, p2), submitLabel: 'Set password',
		onSubmit: async () => {
			const password = needPassword(p1.input, p2.input);
			await apiPatch('admin/users/' + encodeURIComponent(u.id), { password });
			if (user && u.id === user.id) {
				/* That ended this session too. */
				setTimeout(() => endSession('Your password is changed. Log in with the new one.'), 0);
				return;
			}
			toast('New password set for ' + who + '.');
			showStaff();
		}
	});
}

export async function toggleUser(u) {
	const who = u.name || u.email;
	const off = !u.disabled;
	if (off && !await confirmDialog('Disable ' + who + '?',
	    who + ' can no longer log in, and every till logged in as them is logged out at once. You can enable the login again later.', 'Disable', true))
		return;
	try {
		await apiPatch('admin/users/' + encodeURIComponent(u.id), { disabled: off });
		toast(who + (off ? ' is disabled.' : ' can log in again.'));
		setMsg('staff-error', null);
		await showStaff();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('staff-error', e);
	}
}

