import { $, h, parseIntIn, plural, setKids, uid } from './dom.js';
import { FormError, SessionEnded, apiPatch } from './net.js';
import { renderPrintLinkWarning } from './print.js';
import { rep } from './reports.js';
import { SETTING_INFO, loadSettings, st } from './state.js';
import { clearFormError, field, showFormError, toast } from './ui.js';

/* ---- settings --------------------------------------------------------- */

export let settingInputs = [];

export async function showSettings() {
	const form = $('settings-form');
	try {
		await loadSettings();
		clearFormError(form);
		renderSettings();
	} catch (e) {
		if (!(e instanceof SessionEnded)) showFormError(form, e);
	}
}

/* A setting's value in words: "30 days", "UTC+01:00". */
export function settingWords(key, v) {
	if (!Number.isInteger(v)) return '';
	if (key === 'utc_offset_minutes')
		return 'UTC' + (v < 0 ? '−' : '+') + String(Math.floor(Math.abs(v) / 60)).padStart(2, '0') + ':' + String(Math.abs(v) % 60).padStart(2, '0');
	if (/_days$/.test(key)) return plural(v, 'day', 'days');
	if (!/_ttl$|_seconds$/.test(key)) return '';
	const units = [[86400, 'day', 'days'], [3600, 'hour', 'hours'], [60, 'minute', 'minutes']];
	for (const [u, one, many] of units)
		if (v >= u && v % u === 0) return plural(v / u, one, many);
	return plural(v, 'second', 'seconds');
}

/* Whole numbers as number fields, 0-or-1 settings as a checkbox, text
 * settings as text fields. */
export const isSwitch = (x) => x.min === 0 && x.max === 1;
export const isText = (x) => typeof x.default === 'string';

export function settingField(x) {
	const info = SETTING_INFO[x.key] || [x.key, ''];
	if (isText(x)) {
		const f = field({
			label: info[0], value: x.value, field: x.key, maxLength: x.max_length * (x.key === 'public_url' ? 1 : 4),
			spellcheck: false, inputMode: x.key === 'public_url' ? 'url' : undefined,
			hint: (info[1] ? info[1] + ' ' : '') + 'Up to ' + x.max_length + ' characters; empty for none.'
		});
		f.input.dataset.key = x.key;
		f.setting = x;
		return f;
	}
	if (isSwitch(x)) {
		const id = uid('f');
		const input = h('input', { type: 'checkbox', id, checked: x.value === 1, disabled: !!info[2], dataset: { field: x.key, key: x.key }, 'aria-describedby': id + '-hint' });
		const f = h('div', { className: 'field' },
			h('label', { className: 'check-inline', htmlFor: id }, input, info[0]),
			h('p', { className: 'hint', id: id + '-hint' }, info[1] + ' ' + (x.default === 1 ? 'On' : 'Off') + ' by default.' +
			    (info[2] ? ' Set on the server, not here.' : '')));
		f.input = input;
		f.setting = x;
		return f;
	}
	const f = field({
		label: info[0], value: x.value, field: x.key, type: 'number',
		min: x.min, max: x.max, step: x.key === 'utc_offset_minutes' ? 15 : 1,
		hint: (info[1] ? info[1] + ' ' : '') + 'Default ' + x.default + '; from ' + x.min + ' to ' + x.max + '.'
	});
	f.input.dataset.key = x.key;
	f.setting = x;
	const words = h('span', { className: 'setting-value', 'aria-live': 'polite' });
	const say = () => { words.textContent = settingWords(x.key, parseIntIn(f.input.value, x.min, x.max)); };
	f.input.addEventListener('input', say);
	f.input.after(words);
	say();
	return f;
}

/* What a shopkeeper sets first, before the technical ones. */
export const SHOP_FIRST = ['currency_symbol', 'public_url', 'staff_enrolment', 'redeem_needs_card_code'];

export function renderSettings() {
	const rank = (x) => { const i = SHOP_FIRST.indexOf(x.key); return i < 0 ? SHOP_FIRST.length : i; };
	settingInputs = st.settings.slice().sort((a, b) => rank(a) - rank(b)).map(settingField);
	setKids($('settings-fields'), ...settingInputs);
}

export async function onSaveSettings(form) {
	const body = {};
	for (const f of settingInputs) {
		const x = f.setting;
		let v;
		if (isText(x)) {
			v = f.input.value.trim();
			/* An address is a folder: the slash most people leave off. */
			if (x.key === 'public_url' && v && !v.endsWith('/')) v += '/';
			if ([...v].length > x.max_length) throw new FormError(f.querySelector('label').textContent + ': at most ' + x.max_length + ' characters.', f.input);
		} else if (isSwitch(x)) {
			v = f.input.checked ? 1 : 0;
		} else {
			v = parseIntIn(f.input.value, x.min, x.max);
			if (v === null) throw new FormError(f.querySelector('label').textContent + ': a whole number from ' + x.min + ' to ' + x.max + '.', f.input);
		}
		if (v !== x.value) body[x.key] = v;
	}
	if (!Object.keys(body).length) { toast('Nothing to save: no setting changed.'); return; }
	const d = await apiPatch('admin/settings', body);
	st.settings = d.settings || st.settings;
	renderSettings();
	renderPrintLinkWarning();
	toast(plural(Object.keys(body).length, 'setting', 'settings') + ' saved.');
	rep.shown = false;
}

