import { t } from '../js/i18n.js';
import { currencyLabel, currencyOptions, languageOptions, zoneOptions } from './choices.js';
import { $, count, h, parseIntIn, setKids, uid } from './dom.js';
import { ApiError, FormError, SessionEnded, apiPatch } from './net.js';
import { renderPrintLinkWarning } from './print.js';
import { rep } from './reports.js';
import { SETTING_INFO, loadSettings, setSettings, st } from './state.js';
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
	if (/_days$/.test(key)) return count('owner.n.days', v);
	if (!/_ttl$|_seconds$/.test(key)) return '';
	const units = [[86400, 'owner.n.days'], [3600, 'owner.n.hours'], [60, 'owner.n.minutes']];
	for (const [u, k] of units)
		if (v >= u && v % u === 0) return count(k, v / u);
	return count('owner.n.seconds', v);
}

/* Whole numbers as number fields, 0-or-1 settings as a checkbox, text
 * settings as text fields. */
export const isSwitch = (x) => x.min === 0 && x.max === 1;
export const isText = (x) => typeof x.default === 'string';
/* The shop's currency, time zone and language: chosen from a list. */
const CHOICES = { currency: currencyOptions, time_zone: zoneOptions, language: languageOptions };

export function settingField(x) {
	const info = SETTING_INFO[x.key] || [x.key, ''];
	if (isText(x) && CHOICES[x.key]) {
		const sel = h('select', { dataset: { key: x.key } });
		CHOICES[x.key](sel, x.value);
		const f = field({ label: info[0], control: sel, field: x.key, hint: info[1] || undefined });
		f.setting = x;
		return f;
	}
	if (isText(x)) {
		const f = field({
			label: info[0], value: x.value, field: x.key, maxLength: x.max_length * (x.key === 'public_url' ? 1 : 4),
			spellcheck: false, inputMode: x.key === 'public_url' ? 'url' : undefined,
			hint: (info[1] ? info[1] + ' ' : '') + t('owner.settings.up_to', { max: x.max_length })
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
			h('p', { className: 'hint', id: id + '-hint' }, info[1] + ' ' + t(x.default === 1 ? 'owner.settings.on_default' : 'owner.settings.off_default') +
			    (info[2] ? ' ' + t('owner.settings.server_only') : '')));
		f.input = input;
		f.setting = x;
		return f;
	}
	const f = field({
		label: info[0], value: x.value, field: x.key, type: 'number',
		min: x.min, max: x.max, step: x.key === 'utc_offset_minutes' ? 15 : 1,
		hint: (info[1] ? info[1] + ' ' : '') + t('owner.settings.range', { def: x.default, min: x.min, max: x.max })
	});
	/* The fixed offset beside a shop that follows a named zone: only the
	 * fallback of a shop without one (its hint's "change it when the
	 * clocks change" is not for this shop). */
	if (x.key === 'utc_offset_minutes') f.zoneHint = f.querySelector('.hint').textContent;
	f.input.dataset.key = x.key;
	f.input.dir = 'ltr';
	f.setting = x;
	const words = h('span', { className: 'setting-value', 'aria-live': 'polite' });
	const say = () => { words.textContent = settingWords(x.key, parseIntIn(f.input.value, x.min, x.max)); };
	f.input.addEventListener('input', say);
	f.input.after(words);
	say();
	return f;
}

/* What a shopkeeper sets first, before the technical ones. */
export const SHOP_FIRST = ['currency', 'currency_symbol', 'time_zone', 'language', 'public_url', 'staff_enrolment', 'redeem_needs_card_code'];

/* On an installation serving several shops, the installation's settings
 * are its operator's (a PATCH of one is 403): once the server said so,
 * they show unchangeable, and the shop's own stay editable. */
export let installationLocked = false;

export function renderSettings() {
	const rank = (x) => { const i = SHOP_FIRST.indexOf(x.key); return i < 0 ? SHOP_FIRST.length : i; };
	const scoped = st.settings.some((x) => x.scope === 'shop' || x.scope === 'installation');
	const group = (x) => (x.scope === 'installation' ? 1 : 0);
	settingInputs = st.settings.slice().sort((a, b) => (scoped ? group(a) - group(b) : 0) || rank(a) - rank(b)).map(settingField);
	const kids = [];
	let last = null;
	for (const f of settingInputs) {
		const s = f.setting.scope;
		if (scoped && s !== last) {
			kids.push(h('h2', { className: 'h3 settings-group' }, t(s === 'installation' ? 'owner.settings.group_installation' : 'owner.settings.group_shop')));
			if (s === 'installation') kids.push(h('p', { className: 'hint settings-installation-note' }, t(installationLocked ? 'owner.settings.installation_locked' : 'owner.settings.installation_hint')));
			last = s;
		}
		if (installationLocked && s === 'installation') f.input.disabled = true;
		kids.push(f);
	}
	setKids($('settings-fields'), ...kids);
	const zone = settingInputs.find((f) => f.setting.key === 'time_zone');
	if (zone) {
		zone.input.addEventListener('change', offsetHint);
		offsetHint();
	}
}

/* The fixed offset's hint for the zone chosen now: with a zone, what the
 * offset is still for; without, how to set it. */
function offsetHint() {
	const zone = settingInputs.find((f) => f.setting.key === 'time_zone');
	const off = settingInputs.find((f) => f.setting.key === 'utc_offset_minutes');
	if (!zone || !off) return;
	const z = zone.input.value;
	off.querySelector('.hint').textContent = z ? t('owner.settings.offset_unused', { zone: z.replace(/_/g, ' ') }) : off.zoneHint;
	off.classList.toggle('setting-unused', !!z);
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
			if (!CHOICES[x.key] && [...v].length > x.max_length) throw new FormError(t('owner.settings.too_long', { name: f.querySelector('label').textContent, max: x.max_length }), f.input);
		} else if (isSwitch(x)) {
			v = f.input.checked ? 1 : 0;
		} else {
			v = parseIntIn(f.input.value, x.min, x.max);
			if (v === null) throw new FormError(t('owner.settings.whole_number', { name: f.querySelector('label').textContent, min: x.min, max: x.max }), f.input);
		}
		if (v !== x.value) body[x.key] = v;
	}
	if (!Object.keys(body).length) { toast(t('owner.settings.nothing')); return; }
	let d;
	try {
		d = await apiPatch('admin/settings', body);
	} catch (e) {
		throw settingError(e, body);
	}
	setSettings(d.settings || st.settings);
	renderSettings();
	renderPrintLinkWarning();
	toast(count('owner.settings.saved', Object.keys(body).length));
	rep.shown = false;
}

/* The server's refusals the page says in its own words: a currency that
 * cannot change once money has moved (409, with the server's message,
 * which names both currencies), and installation settings on an
 * installation serving several shops (403: they are locked, shown so). */
function settingError(e, body) {
	if (!(e instanceof ApiError)) return e;
	const input = (k) => { const f = settingInputs.find((x) => x.setting.key === k); return f ? f.input : null; };
	if (e.status === 409 && 'currency' in body) {
		/* Said in the page's language, naming the currency it keeps (the
		 * stored one, which the select goes back to). */
		const sel = input('currency');
		const was = (st.settings.find((s) => s.key === 'currency') || {}).value || '';
		if (sel) sel.value = was;
		const err = new FormError(t('owner.settings.currency_stays', { currency: was ? currencyLabel(was) : t('owner.choice.currency_none') }) + ' ' + t('owner.settings.currency_locked'), sel);
		err.near = true;
		return err;
	}
	const inst = Object.keys(body).filter((k) => { const x = st.settings.find((s) => s.key === k); return x && x.scope === 'installation'; });
	if (e.status === 403 && inst.length && !installationLocked) {
		installationLocked = true;
		/* In place, so the shop's settings changed stay to be saved. */
		for (const f of settingInputs)
			if (f.setting.scope === 'installation') {
				if (isSwitch(f.setting)) f.input.checked = f.setting.value === 1; else f.input.value = String(f.setting.value);
				f.input.disabled = true;
			}
		const note = $('settings-fields').querySelector('.settings-installation-note');
		if (note) note.textContent = t('owner.settings.installation_locked');
		return new FormError(t('owner.settings.installation_refused'), input(inst[0]));
	}
	return e;
}

