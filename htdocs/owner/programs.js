import { cardType } from '../js/cardtypes.js';
import { limit } from '../js/limits.js';
import { isNum, parseMoney } from '../js/money.js';
import { issueFor } from './cards.js';
import { $, h, int, money, moneyText, parseIntIn, parsePercent, pct, percentText, plural, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiPatch, payload } from './net.js';
import { TIERS_MAX, loadPrograms, st } from './state.js';
import { field, need, openDialog, setMsg, toast } from './ui.js';

/* ---- programs --------------------------------------------------------- */

export async function showPrograms() {
	renderPrograms();
	try {
		await loadPrograms();
		setMsg('programs-error', null);
		renderPrograms();
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('programs-error', e);
	}
}

export function programFacts(p) {
	if (p.type === 'punch') {
		const rw = p.reward_title || 'a reward';
		return h('div', null,
			h('p', null, h('strong', null, int(p.punch_requirement) + ' punches'), ' earn ', h('strong', null, rw),
				isNum(p.reward_amount) && p.reward_amount > 0 ? ' (value ' + money(p.reward_amount) + ')' : '', '.'),
			p.reward_description ? h('p', { className: 'hint' }, p.reward_description) : null,
			h('p', { className: 'hint' }, 'At most one purchase a card every ' + plural(p.cooldown_seconds, 'second', 'seconds') + '.'));
	}
	const tiers = Array.isArray(p.tiers) ? p.tiers : [];
	const table = h('table', { className: 'mini tiers-table' },
		h('caption', { className: 'visually-hidden' }, 'Tiers of ' + p.title),
		h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Tier'), h('th', { scope: 'col', className: 'num' }, 'From lifetime spend'),
			h('th', { scope: 'col', className: 'num' }, p.type === 'cashback' ? 'Cashback' : 'Discount'))),
		h('tbody', null, tiers.map((t) => h('tr', null, h('td', null, t.name), h('td', { className: 'num' }, money(t.min_spend)), h('td', { className: 'num' }, pct(t.rate))))));
	if (p.type !== 'cashback') return table;
	return h('div', null, table, h('p', { className: 'hint' }, Number.isInteger(p.expiry_days) ?
	    'Cashback expires ' + plural(p.expiry_days, 'day', 'days') + ' after it is earned.' : 'Cashback never expires.'));
}

/* A cashback program's term: days after which each earning expires,
 * empty for never. read(): the number, or null for never. */
export function expiryField(p) {
	const f = {};
	f.el = field({ label: 'Cashback expires after (days)', optional: true, value: p && Number.isInteger(p.expiry_days) ? String(p.expiry_days) : '',
	    field: 'expiry_days', inputMode: 'numeric', placeholder: 'never',
	    hint: p ? 'From 1 to 3650, empty for never. A change applies to cashback earned from now on; what customers already earned keeps its date.' :
	        'From 1 to 3650, empty for never. Each purchase\'s cashback expires that many days after it is earned.' });
	f.read = () => {
		if (f.el.input.value.trim() === '') return null;
		const n = parseIntIn(f.el.input.value, 1, 3650);
		if (n === null) throw new FormError('Cashback expires after: a whole number of days from 1 to 3650, or empty for never.', f.el.input);
		return n;
	};
	return f;
}

export function renderPrograms() {
	const list = $('programs-list');
	if (!st.programs.length) {
		setKids(list, h('p', { className: 'panel empty-note' }, 'No programs yet. Add your first one below: customers get cards of a program.'));
		return;
	}
	setKids(list, ...st.programs.map((p) => h('article', { className: 'panel program', 'aria-label': p.title },
		h('div', { className: 'card-head' },
			h('div', null, h('h2', null, p.title), h('p', { className: 'card-sub' }, plural(int(p.card_count) === '—' ? 0 : p.card_count, 'card', 'cards'))),
			h('span', { className: 'tag tag-type' }, cardType(p.type).name)),
		programFacts(p),
		h('p', { className: 'btn-row' },
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': 'Edit ' + p.title, onclick: () => editProgram(p) }, 'Edit'),
			h('a', { className: 'btn btn-small', href: '#cards', 'aria-label': 'Issue cards of ' + p.title, onclick: () => { issueFor(p.id); } }, 'Issue cards')))));
}

/* The punch fields: for a new program (with the punch requirement) or
 * for an edit (without: it cannot change). */
export function punchFields(p) {
	const f = {};
	const kids = [];
	if (!p) {
		f.req = field({ label: 'Punches for a reward', value: '10', field: 'punch_requirement', inputMode: 'numeric', hint: 'From 1 to ' + limit('PUNCHES_MAX') + '. Cannot be changed later.' });
		kids.push(f.req);
	}
	f.title = field({ label: 'Reward', value: p ? p.reward_title : '', field: 'reward_title', limit: 'NAME_MAX', hint: 'For example "Free coffee".' });
	f.desc = field({ label: 'Reward description', optional: true, value: p ? p.reward_description : '', field: 'reward_description', limit: 'DESC_MAX' });
	f.amount = field({ label: 'Reward value', optional: true, value: p ? moneyText(p.reward_amount) : '', field: 'reward_amount', inputMode: 'decimal', placeholder: '0.00', className: 'money-input', hint: 'What the reward is worth, for the records.' });
	f.cooldown = field({ label: 'Seconds between purchases on a card', value: p ? p.cooldown_seconds : 60, field: 'cooldown_seconds', inputMode: 'numeric', hint: '0 to 86400. Stops one purchase from being punched twice; 60 is a good start.' });
	kids.push(h('div', { className: 'form-grid' }, f.title, f.amount), f.desc, f.cooldown);
	f.el = h('div', null, kids);
	f.read = () => {
		const out = {};
		if (f.req) {
			const n = parseIntIn(f.req.input.value, 1, limit('PUNCHES_MAX'));
			if (n === null) throw new FormError('Punches for a reward: a whole number from 1 to ' + limit('PUNCHES_MAX') + '.', f.req.input);
			out.punch_requirement = n;
		}
		out.reward_title = need(f.title.input, 'the reward', limit('NAME_MAX'));
		out.reward_description = f.desc.input.value.trim();
		const a = f.amount.input.value.trim() === '' ? { value: 0 } : parseMoney(f.amount.input.value);
		if (!a) throw new FormError('Reward value: an amount such as 3.50 (at most 2 decimals).', f.amount.input);
		out.reward_amount = a.value;
		const c = parseIntIn(f.cooldown.input.value, 0, 86400);
		if (c === null) throw new FormError('Seconds between purchases: a whole number from 0 to 86400.', f.cooldown.input);
		out.cooldown_seconds = c;
		return out;
	};
	return f;
}

/* The tiers editor: rows of name, lifetime spend from which the tier
 * applies (the first at 0) and rate in percent. */
export function tierEditor(type, tiers) {
	const rows = h('div', { className: 'tier-rows' });
	const addBtn = h('button', { type: 'button', className: 'btn btn-small' }, 'Add a tier');
	const rateWord = type === 'discount' ? 'Discount' : 'Cashback';
	const ed = { el: null, rows };
	function renumber() {
		const list = Array.from(rows.children);
		list.forEach((r, i) => {
			r.querySelector('.tier-no').textContent = 'Tier ' + (i + 1);
			const rm = r.querySelector('.tier-remove');
			if (rm) rm.setAttribute('aria-label', 'Remove tier ' + (i + 1));
			const sp = r.spend;
			sp.readOnly = i === 0;
			if (i === 0) sp.value = '0.00';
			r.classList.toggle('first', i === 0);
		});
		addBtn.disabled = list.length >= TIERS_MAX;
	}
	function addRow(t) {
		const name = field({ label: 'Name', value: t ? t.name : '', field: 'tier_name', limit: 'TIER_NAME_MAX' });
		const spend = field({ label: 'From lifetime spend', value: t ? moneyText(t.min_spend) : '', field: 'tier_spend', inputMode: 'decimal', placeholder: '0.00', className: 'money-input' });
		const rate = field({ label: rateWord + ' (%)', value: t ? percentText(t.rate) : '', field: 'tier_rate', inputMode: 'decimal', placeholder: '5' });
		const rm = h('button', { type: 'button', className: 'btn btn-small tier-remove' }, 'Remove');
		const row = h('fieldset', { className: 'tier-row' }, h('legend', { className: 'tier-no' }, 'Tier'), name, spend, rate, h('div', { className: 'field tier-rm' }, rm));
		row.nameIn = name.input;
		row.spend = spend.input;
		row.rate = rate.input;
		rm.addEventListener('click', () => {
			const next = row.nextElementSibling || row.previousElementSibling;
			row.remove();
			renumber();
			if (next) next.nameIn.focus();
		});
		rows.append(row);
		renumber();
		return row;
	}
	addBtn.addEventListener('click', () => { addRow(null).nameIn.focus(); });
	const list = Array.isArray(tiers) && tiers.length ? tiers : [{ name: type === 'discount' ? 'Member' : 'Standard', min_spend: 0, rate: type === 'discount' ? 0.05 : 0.02 }];
	for (const t of list) addRow(t);
	ed.el = h('div', { className: 'tier-editor' },
		h('p', { className: 'hint' }, 'A customer\'s tier follows their lifetime spend. The first tier starts at 0; each next one at a higher spend. Up to ' + TIERS_MAX + ' tiers.'),
		rows, addBtn);
	ed.read = () => {
		const out = [];
		let prev = -1;
		Array.from(rows.children).forEach((r, i) => {
			const n = r.nameIn.value.trim();
			if (!n) throw new FormError('Tier ' + (i + 1) + ': enter a name.', r.nameIn);
			if (n.length > limit('TIER_NAME_MAX')) throw new FormError('Tier ' + (i + 1) + ': the name is too long (at most ' + limit('TIER_NAME_MAX') + ' characters).', r.nameIn);
			const m = i === 0 ? { value: 0, cents: 0 } : parseMoney(r.spend.value);
			if (!m) throw new FormError('Tier ' + (i + 1) + ': the lifetime spend is an amount such as 500 or 499.99.', r.spend);
			if (m.cents <= prev) throw new FormError('Tier ' + (i + 1) + ': the lifetime spend must be higher than the tier before.', r.spend);
			prev = m.cents;
			const rt = parsePercent(r.rate.value);
			if (rt === null) throw new FormError('Tier ' + (i + 1) + ': the rate is a percentage from 0 to 100 with at most 2 decimals, such as 5 or 2.5.', r.rate);
			out.push({ name: n, min_spend: m.value, rate: rt });
		});
		if (!out.length) throw new FormError('Add at least one tier.', addBtn);
		return out;
	};
	return ed;
}

export let newPunch = null, newTiers = null, newTiersType = null, newExpiry = null;
export function programTypeChanged() {
	const type = document.querySelector('input[name="ptype"]:checked').value;
	show('program-punch-fields', type === 'punch');
	show('program-tier-fields', type !== 'punch');
	if (type !== 'punch' && newTiersType !== type) {
		/* A fresh editor for the type, unless the owner typed tiers. */
		const touched = newTiers && Array.from(newTiers.rows.children).some((r) => r.dataset.touched);
		if (!touched) {
			newTiers = tierEditor(type, null);
			setKids($('program-tier-fields'), newTiers.el);
			newTiers.rows.addEventListener('input', (e) => { const r = e.target.closest('.tier-row'); if (r) r.dataset.touched = '1'; });
		}
		newTiersType = type;
	}
	if (newExpiry) {
		newExpiry.el.remove();
		if (type === 'cashback') $('program-tier-fields').append(newExpiry.el);
	}
}
export function resetProgramForm() {
	$('program-form').reset();
	newPunch = punchFields(null);
	setKids($('program-punch-fields'), newPunch.el);
	newExpiry = expiryField(null);
	newTiers = null;
	newTiersType = null;
	setKids($('program-tier-fields'));
	programTypeChanged();
}

export async function onAddProgram(form) {
	const type = document.querySelector('input[name="ptype"]:checked').value;
	const title = need($('program-title'), 'a title', limit('NAME_MAX'));
	const body = { type, title };
	if (type === 'punch') Object.assign(body, newPunch.read());
	else body.tiers = newTiers.read();
	if (type === 'cashback' && newExpiry.read() !== null) body.expiry_days = newExpiry.read();
	const d = payload(await apiCreate('program', 'admin/programs', body));
	toast('Program "' + d.program.title + '" added. Issue its cards in Cards.');
	resetProgramForm();
	await showPrograms();
	$('program-title').focus();
}

export function editProgram(p) {
	const fTitle = field({ label: 'Title', value: p.title, field: 'title', limit: 'NAME_MAX' });
	let part;
	const kids = [h('p', { className: 'hint' }, cardType(p.type).name + (p.type === 'punch' ? ', ' + p.punch_requirement + ' punches for a reward' : '') +
	    '. The type' + (p.type === 'punch' ? ' and the number of punches' : '') + ' cannot change.'), fTitle];
	if (p.type === 'punch') {
		part = punchFields(p);
		kids.push(part.el);
	} else {
		part = tierEditor(p.type, p.tiers);
		kids.push(h('p', { className: 'hint' }, 'New tiers apply to purchases from now on; what customers earned stays.'), part.el);
	}
	const expiry = p.type === 'cashback' ? expiryField(p) : null;
	if (expiry) kids.push(expiry.el);
	openDialog({
		title: 'Edit ' + p.title, body: h('div', null, kids),
		onSubmit: async () => {
			const body = { title: need(fTitle.input, 'a title', limit('NAME_MAX')) };
			if (p.type === 'punch') Object.assign(body, part.read());
			else body.tiers = part.read();
			if (expiry) body.expiry_days = expiry.read();
			await apiPatch('admin/programs/' + encodeURIComponent(p.id), body);
			toast('Program "' + body.title + '" saved.');
			showPrograms();
		}
	});
}

