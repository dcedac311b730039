import { t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { $, day, h, setKids } from './dom.js';
import { SessionEnded, apiCreate, apiPatch, payload } from './net.js';
import { loadLocations, st } from './state.js';
import { field, need, openDialog, setMsg, toast } from './ui.js';

/* ---- locations -------------------------------------------------------- */

export async function showLocations() {
	renderLocations();
	try {
		await loadLocations();
		setMsg('locations-error', null);
		renderLocations();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('locations-error', e);
	}
}

export function renderLocations() {
	const rows = st.locations.map((l) => h('tr', null,
		h('td', { dataset: { label: t('owner.w.name') }, translate: false }, l.name),
		h('td', { dataset: { label: t('owner.locations.added') }, translate: false }, day(l.created_at)),
		h('td', { className: 'actions' }, h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.rename_x', { name: l.name }), onclick: () => renameLocation(l) }, t('owner.w.rename')))));
	setKids($('locations-body'), ...rows);
	if (!rows.length) $('locations-body').append(h('tr', null, h('td', { colSpan: 3, className: 'empty' }, t('owner.locations.none'))));
}

export async function onAddLocation(form) {
	const name = need($('location-name'), 'owner.need.name', limit('NAME_MAX'));
	const d = payload(await apiCreate('location', 'admin/locations', { name }));
	$('location-name').value = '';
	toast(t('owner.locations.added_toast', { name: d.location.name }));
	await showLocations();
	$('location-name').focus();
}

export function renameLocation(l) {
	const f = field({ label: t('owner.w.name'), value: l.name, field: 'name', limit: 'NAME_MAX' });
	openDialog({
		title: t('owner.rename_x', { name: l.name }), body: f, submitLabel: t('owner.w.rename'),
		onSubmit: async () => {
			const name = need(f.input, 'owner.need.name', limit('NAME_MAX'));
			await apiPatch('admin/locations/' + encodeURIComponent(l.id), { name });
			toast(t('owner.locations.renamed_toast', { name }));
			showLocations();
		}
	});
}

