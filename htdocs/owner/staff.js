import { t } from '../js/i18n.js';
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
	setKids(sel, ...st.locations.map((l) => h('option', { value: l.id, selected: l.id === current, translate: false }, l.name)));
}

export function renderStaff() {
	const keep = $('staff-location').value;
	locationOptions($('staff-location'), keep);
	show('staff-location-field', $('staff-type').value === 'system_user');
	const rows = st.users.map((u) => {
		const who = u.name || u.email;
		const self = user && u.id === user.id;
		const actions = [
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.edit_x', { name: who }), onclick: () => editUser(u) }, t('owner.w.edit')),
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.staff.new_password_for_label', { name: who }), onclick: () => passwordUser(u) }, t('owner.staff.new_password_button'))
		];
		if (!self)
			actions.push(h('button', { type: 'button', className: 'btn btn-small' + (u.disabled ? '' : ' btn-warn'), 'aria-label': t(u.disabled ? 'owner.staff.enable_x' : 'owner.staff.disable_x', { name: who }), onclick: () => toggleUser(u) }, u.disabled ? t('owner.staff.enable') : t('owner.staff.disable')));
		return h('tr', { className: u.disabled ? 'is-off' : '' },
			h('td', { dataset: { label: t('owner.w.name') } }, h('span', null, u.name ? h('span', { translate: false }, u.name) : h('span', { className: 'muted' }, '—'), self ? h('span', { className: 'muted' }, ' ' + t('owner.staff.you')) : null)),
			h('td', { dataset: { label: t('owner.w.email') } }, h('span', { className: 'break', translate: false }, u.email)),
			h('td', { dataset: { label: t('owner.w.role') } }, u.user_type === 'owner' ? t('owner.staff.role_owner') : t('owner.staff.role_staff')),
			h('td', { dataset: { label: t('owner.w.location') } }, u.user_type === 'owner' ? t('owner.staff.all_locations') : h('span', { translate: false }, locName(u.location_id))),
			h('td', { dataset: { label: t('owner.w.status') } }, h('span', { className: 'tag ' + (u.disabled ? 'tag-bad' : 'tag-ok') }, u.disabled ? t('owner.staff.disabled') : t('owner.staff.active'))),
			h('td', { className: 'actions' }, h('span', { className: 'btn-row' }, actions)));
	});
	setKids($('staff-body'), ...rows);
}

export async function onAddStaff(form) {
	const name = need($('staff-name'), 'owner.need.name', limit('NAME_MAX'));
	const email = need($('staff-email-new'), 'owner.need.email', limit('EMAIL_MAX'));
	if (!looksLikeEmail(email)) throw new FormError(t('owner.staff.email_example'), $('staff-email-new'));
	const type = $('staff-type').value;
	const loc = $('staff-location').value;
	if (type === 'system_user' && !loc) throw new FormError(t('owner.staff.add_location_first'), $('staff-location'));
	const password = needPassword($('staff-password'), $('staff-password2'));
	const body = { email, password, user_type: type, name };
	if (type === 'system_user') body.location_id = loc;
	const d = payload(await apiCreate('user', 'admin/users', body));
	for (const id of ['staff-name', 'staff-email-new', 'staff-password', 'staff-password2']) $(id).value = '';
	toast(d.user.user_type === 'owner' ? t('owner.staff.owner_added', { email: d.user.email }) : t('owner.staff.login_added', { email: d.user.email }));
	await showStaff();
	$('staff-name').focus();
}

export function editUser(u) {
	const who = u.name || u.email;
	const fName = field({ label: t('owner.w.name'), value: u.name || '', field: 'name', limit: 'NAME_MAX' });
	const kids = [h('p', { className: 'hint' }, t('owner.staff.email_is', { email: u.email })), fName];
	let sel = null;
	if (u.user_type === 'system_user') {
		sel = h('select');
		locationOptions(sel, u.location_id);
		kids.push(field({ label: t('owner.w.location'), control: sel, field: 'location_id', hint: t('owner.staff.move_hint') }));
	}
	openDialog({
		title: t('owner.edit_x', { name: who }), body: h('div', null, kids),
		onSubmit: async () => {
			const name = fName.input.value.trim();
			if (name.length > limit('NAME_MAX')) throw new FormError(t('owner.staff.name_too_long', { max: limit('NAME_MAX') }), fName.input);
			const body = { name };
			if (sel) body.location_id = sel.value;
			await apiPatch('admin/users/' + encodeURIComponent(u.id), body);
			toast(t('owner.staff.saved', { name: name || u.email }));
			showStaff();
		}
	});
}

export function passwordUser(u) {
	const who = u.name || u.email;
	const p1 = field({ label: t('owner.staff.new_password'), type: 'password', field: 'password', autocomplete: 'new-password', hint: t('owner.staff.at_least', { n: PASSWORD_MIN }) });
	const p2 = field({ label: t('owner.staff.new_password_again'), type: 'password', field: 'password2', autocomplete: 'new-password' });
	openDialog({
		title: t('owner.staff.new_password_for', { name: who }),
		intro: user && u.id === user.id ? t('owner.staff.own_sessions_out') : t('owner.staff.tills_out', { name: who }),
		body: h('div', null, p1, p2), submitLabel: t('owner.staff.set_password'),
		onSubmit: async () => {
			const password = needPassword(p1.input, p2.input);
			await apiPatch('admin/users/' + encodeURIComponent(u.id), { password });
			if (user && u.id === user.id) {
				/* That ended this session too. */
				setTimeout(() => endSession(t('owner.staff.password_changed')), 0);
				return;
			}
			toast(t('owner.staff.password_set', { name: who }));
			showStaff();
		}
	});
}

export async function toggleUser(u) {
	const who = u.name || u.email;
	const off = !u.disabled;
	if (off && !await confirmDialog(t('owner.staff.disable_q', { name: who }),
	    t('owner.staff.disable_text', { name: who }), t('owner.staff.disable'), true))
		return;
	try {
		await apiPatch('admin/users/' + encodeURIComponent(u.id), { disabled: off });
		toast(t(off ? 'owner.staff.is_disabled' : 'owner.staff.is_enabled', { name: who }));
		setMsg('staff-error', null);
		await showStaff();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('staff-error', e);
	}
}

