import { cardType } from '../js/cardtypes.js';
import { t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { decimals, isNum, minorStr, parseMoney } from '../js/money.js';
import { issueFor } from './cards.js';
import { $, count, h, int, money, moneyText, parseIntIn, parsePercent, pct, percentText, setKids, show } from './dom.js';
import { FormError, SessionEnded, apiCreate, apiPatch, payload } from './net.js';
import { TIERS_MAX, TYPE_NAMES, loadPrograms, st } from './state.js';
import { field, need, openDialog, setMsg, toast } from './ui.js';

/* ---- programs --------------------------------------------------------- */

export async function showPrograms() {
	/* The new program's form may have been made before the login told the
	 * shop's currency: its amounts' examples in its decimals. */
	for (const i of $('program-form').querySelectorAll('input.money-input')) i.placeholder = minorStr(0);
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
		const rw = p.reward_title || t('owner.programs.a_reward');
		const value = isNum(p.reward_amount) && p.reward_amount > 0 ? ' ' + t('owner.programs.value', { amount: money(p.reward_amount) }) : '';
		return h('div', null,
			h('p', null, h('strong', null, count('owner.programs.n_punches', p.punch_requirement)), ' ' + t('owner.programs.earn') + ' ',
				h('strong', { translate: false }, rw), value + t('owner.programs.earn_end')),
			p.reward_description ? h('p', { className: 'hint', translate: false }, p.reward_description) : null,
			h('p', { className: 'hint' }, t('owner.programs.cooldown_fact', { time: count('owner.n.seconds', p.cooldown_seconds) })));
	}
	const tiers = Array.isArray(p.tiers) ? p.tiers : [];
	const table = h('table', { className: 'mini tiers-table' },
		h('caption', { className: 'visually-hidden' }, t('owner.programs.tiers_of', { title: p.title })),
		h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('owner.programs.tier')), h('th', { scope: 'col', className: 'num' }, t('owner.programs.from_lifetime_spend')),
			h('th', { scope: 'col', className: 'num' }, p.type === 'cashback' ? TYPE_NAMES.cashback : TYPE_NAMES.discount))),
		h('tbody', null, tiers.map((x) => h('tr', null, h('td', { translate: false }, x.name), h('td', { className: 'num' }, money(x.min_spend)), h('td', { className: 'num' }, pct(x.rate))))));
	if (p.type !== 'cashback') return table;
	return h('div', null, table, h('p', { className: 'hint' }, Number.isInteger(p.expiry_days) ?
	    t('owner.programs.expires_after', { time: count('owner.n.days', p.expiry_days) }) : t('owner.programs.never_expires')));
}

/* A cashback program's term: days after which each earning expires,
 * empty for never. read(): the number, or null for never. */
export function expiryField(p) {
	const f = {};
	f.el = field({ label: t('owner.programs.expiry_label'), optional: true, value: p && Number.isInteger(p.expiry_days) ? String(p.expiry_days) : '',
	    field: 'expiry_days', inputMode: 'numeric', placeholder: t('owner.programs.never'),
	    hint: p ? t('owner.programs.expiry_hint_edit') : t('owner.programs.expiry_hint_new') });
	f.read = () => {
		if (f.el.input.value.trim() === '') return null;
		const n = parseIntIn(f.el.input.value, 1, 3650);
		if (n === null) throw new FormError(t('owner.programs.expiry_bad'), f.el.input);
		return n;
	};
	return f;
}

export function renderPrograms() {
	const list = $('programs-list');
	if (!st.programs.length) {
		setKids(list, h('p', { className: 'panel empty-note' }, t('owner.programs.none')));
		return;
	}
	setKids(list, ...st.programs.map((p) => h('article', { className: 'panel program', 'aria-label': p.title },
		h('div', { className: 'card-head' },
			h('div', null, h('h2', { translate: false }, p.title), h('p', { className: 'card-sub' }, count('owner.n.cards', int(p.card_count) === '—' ? 0 : p.card_count))),
			h('span', { className: 'tag tag-type' }, cardType(p.type).name)),
		programFacts(p),
		h('p', { className: 'btn-row' },
			h('button', { type: 'button', className: 'btn btn-small', 'aria-label': t('owner.edit_x', { name: p.title }), onclick: () => editProgram(p) }, t('owner.w.edit')),
			h('a', { className: 'btn btn-small', href: '#cards', 'aria-label': t('owner.programs.issue_cards_of', { title: p.title }), onclick: () => { issueFor(p.id); } }, t('owner.programs.issue_cards'))))));
}

/* The punch fields: for a new program (with the punch requirement) or
 * for an edit (without: it cannot change). */
export function punchFields(p) {
	const f = {};
	const kids = [];
	if (!p) {
		f.req = field({ label: t('owner.programs.punches_for_reward'), value: '10', field: 'punch_requirement', inputMode: 'numeric', hint: t('owner.programs.punches_hint', { max: limit('PUNCHES_MAX') }) });
		kids.push(f.req);
	}
	f.title = field({ label: t('owner.programs.reward'), value: p ? p.reward_title : '', field: 'reward_title', limit: 'NAME_MAX', hint: t('owner.programs.reward_hint') });
	f.desc = field({ label: t('owner.programs.reward_description'), optional: true, value: p ? p.reward_description : '', field: 'reward_description', limit: 'DESC_MAX' });
	f.amount = field({ label: t('owner.programs.reward_value'), optional: true, value: p ? moneyText(p.reward_amount) : '', field: 'reward_amount', inputMode: 'decimal', placeholder: minorStr(0), className: 'money-input', hint: t('owner.programs.reward_value_hint') });
	f.cooldown = field({ label: t('owner.programs.cooldown_label'), value: p ? p.cooldown_seconds : 60, field: 'cooldown_seconds', inputMode: 'numeric', hint: t('owner.programs.cooldown_hint') });
	f.amount.input.dir = 'ltr';
	kids.push(h('div', { className: 'form-grid' }, f.title, f.amount), f.desc, f.cooldown);
	f.el = h('div', null, kids);
	f.read = () => {
		const out = {};
		if (f.req) {
			const n = parseIntIn(f.req.input.value, 1, limit('PUNCHES_MAX'));
			if (n === null) throw new FormError(t('owner.programs.punches_bad', { max: limit('PUNCHES_MAX') }), f.req.input);
			out.punch_requirement = n;
		}
		out.reward_title = need(f.title.input, 'owner.need.reward', limit('NAME_MAX'));
		out.reward_description = f.desc.input.value.trim();
		const a = f.amount.input.value.trim() === '' ? { value: 0 } : parseMoney(f.amount.input.value);
		if (!a) throw new FormError(t('owner.programs.reward_value_bad'), f.amount.input);
		out.reward_amount = a.value;
		const c = parseIntIn(f.cooldown.input.value, 0, 86400);
		if (c === null) throw new FormError(t('owner.programs.cooldown_bad'), f.cooldown.input);
		out.cooldown_seconds = c;
		return out;
	};
	return f;
}

/* The tiers editor: rows of name, lifetime spend from which the tier
 * applies (the first at 0) and rate in percent. */
export function tierEditor(type, tiers) {
	const rows = h('div', { className: 'tier-rows' });
	const addBtn = h('button', { type: 'button', className: 'btn btn-small' }, t('owner.programs.add_tier'));
	const ed = { el: null, rows };
	function renumber() {
		const list = Array.from(rows.children);
		list.forEach((r, i) => {
			r.querySelector('.tier-no').textContent = t('owner.programs.tier_n', { n: i + 1 });
			const rm = r.querySelector('.tier-remove');
			if (rm) rm.setAttribute('aria-label', t('owner.programs.remove_tier_n', { n: i + 1 }));
			const sp = r.spend;
			sp.readOnly = i === 0;
			if (i === 0) sp.value = minorStr(0);
			r.classList.toggle('first', i === 0);
		});
		addBtn.disabled = list.length >= TIERS_MAX;
	}
	function addRow(tier) {
		const name = field({ label: t('owner.w.name'), value: tier ? tier.name : '', field: 'tier_name', limit: 'TIER_NAME_MAX' });
		const spend = field({ label: t('owner.programs.from_lifetime_spend'), value: tier ? moneyText(tier.min_spend) : '', field: 'tier_spend', inputMode: 'decimal', placeholder: minorStr(0), className: 'money-input' });
		const rate = field({ label: t(type === 'discount' ? 'owner.programs.discount_pct' : 'owner.programs.cashback_pct'), value: tier ? percentText(tier.rate) : '', field: 'tier_rate', inputMode: 'decimal', placeholder: '5' });
		spend.input.dir = 'ltr';
		rate.input.dir = 'ltr';
		const rm = h('button', { type: 'button', className: 'btn btn-small tier-remove' }, t('owner.programs.remove'));
		const row = h('fieldset', { className: 'tier-row' }, h('legend', { className: 'tier-no' }, t('owner.programs.tier')), name, spend, rate, h('div', { className: 'field tier-rm' }, rm));
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
	const list = Array.isArray(tiers) && tiers.length ? tiers : [{ name: t(type === 'discount' ? 'owner.programs.tier_member' : 'owner.programs.tier_standard'), min_spend: 0, rate: type === 'discount' ? 0.05 : 0.02 }];
	for (const x of list) addRow(x);
	ed.el = h('div', { className: 'tier-editor' },
		h('p', { className: 'hint' }, t('owner.programs.tiers_hint', { max: TIERS_MAX })),
		rows, addBtn);
	ed.read = () => {
		const out = [];
		let prev = -1;
		Array.from(rows.children).forEach((r, i) => {
			const n = r.nameIn.value.trim();
			const no = i + 1;
			if (!n) throw new FormError(t('owner.programs.tier_no_name', { n: no }), r.nameIn);
			if (n.length > limit('TIER_NAME_MAX')) throw new FormError(t('owner.programs.tier_name_long', { n: no, max: limit('TIER_NAME_MAX') }), r.nameIn);
			const m = i === 0 ? { value: 0, cents: 0 } : parseMoney(r.spend.value);
			if (!m) throw new FormError(t('owner.programs.tier_spend_bad', { n: no, example: spendExample() }), r.spend);
			if (m.cents <= prev) throw new FormError(t('owner.programs.tier_spend_higher', { n: no }), r.spend);
			prev = m.cents;
			const rt = parsePercent(r.rate.value);
			if (rt === null) throw new FormError(t('owner.programs.tier_rate_bad', { n: no }), r.rate);
			out.push({ name: n, min_spend: m.value, rate: rt });
		});
		if (!out.length) throw new FormError(t('owner.programs.add_one_tier'), addBtn);
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
	const title = need($('program-title'), 'owner.need.title', limit('NAME_MAX'));
	const body = { type, title };
	if (type === 'punch') Object.assign(body, newPunch.read());
	else body.tiers = newTiers.read();
	if (type === 'cashback' && newExpiry.read() !== null) body.expiry_days = newExpiry.read();
	const d = payload(await apiCreate('program', 'admin/programs', body));
	toast(t('owner.programs.added', { title: d.program.title }));
	resetProgramForm();
	await showPrograms();
	$('program-title').focus();
}

export function editProgram(p) {
	const fTitle = field({ label: t('owner.programs.title'), value: p.title, field: 'title', limit: 'NAME_MAX' });
	let part;
	const kids = [h('p', { className: 'hint' }, p.type === 'punch' ? t('owner.programs.fixed_punch', { type: cardType(p.type).name, n: p.punch_requirement }) :
	    t('owner.programs.fixed_type', { type: cardType(p.type).name })), fTitle];
	if (p.type === 'punch') {
		part = punchFields(p);
		kids.push(part.el);
	} else {
		part = tierEditor(p.type, p.tiers);
		kids.push(h('p', { className: 'hint' }, t('owner.programs.new_tiers_apply')), part.el);
	}
	const expiry = p.type === 'cashback' ? expiryField(p) : null;
	if (expiry) kids.push(expiry.el);
	openDialog({
		title: t('owner.edit_x', { name: p.title }), body: h('div', null, kids),
		onSubmit: async () => {
			const body = { title: need(fTitle.input, 'owner.need.title', limit('NAME_MAX')) };
			if (p.type === 'punch') Object.assign(body, part.read());
			else body.tiers = part.read();
			if (expiry) body.expiry_days = expiry.read();
			await apiPatch('admin/programs/' + encodeURIComponent(p.id), body);
			toast(t('owner.programs.saved', { title: body.title }));
			showPrograms();
		}
	});
}

/* The example of an amount in the shop's currency: "499.99", "4999" of
 * yen, "499.999" of dinars. */
export const spendExample = () => (decimals() ? '499.' + '9'.repeat(decimals()) : '4999');
