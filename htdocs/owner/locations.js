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
		h('td', { dataset: { label: 'Name' } }, l.name),
		h('td', { dataset: { label: 'Added' } }, day(l.created_at)),
		h('td', { className: 'actions' }, h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Rename ' + l.name, onclick: () => renameLocation(l) }, 'Rename'))));
	setKids($('locations-body'), ...rows);
	if (!rows.length) $('locations-body').append(h('tr', null, h('td', { colSpan: 3, className: 'empty' }, 'No locations yet.')));
}

export async function onAddLocation(form) {
	const name = need($('location-name'), 'a name', limit('NAME_MAX'));
	const d = payload(await apiCreate('location', 'admin/locations', { name }));
	$('location-name').value = '';
	toast('Location "' + d.location.name + '" added.');
	await showLocations();
	$('location-name').focus();
}

export function renameLocation(l) {
	const f = field({ label: 'Name', value: l.name, field: 'name', limit: 'NAME_MAX' });
	openDialog({
		title: 'Rename ' + l.name, body: f, submitLabel: 'Rename',
		onSubmit: async () => {
			const name = need(f.input, 'a name', limit('NAME_MAX'));
			await apiPatch('admin/locations/' + encodeURIComponent(l.id), { name });
			toast('Location renamed to "' + name + '".');
			showLocations();
		}
	});
}

