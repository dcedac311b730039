import { t } from '../js/i18n.js';
import { $, count, h, int, money, setKids, ymd } from './dom.js';
import { SessionEnded, apiGet } from './net.js';
import { loadLocations, loadPrograms, loadSettings, loadUsers, shopToday, st } from './state.js';
import { setMsg } from './ui.js';

/* ---- overview --------------------------------------------------------- */

export async function showOverview() {
	if (st.locations.length) renderSteps();
	try {
		await Promise.all([loadLocations(), loadUsers(), loadPrograms(), st.settings.length ? null : loadSettings()]);
		renderSteps();
		const today = ymd(shopToday());
		const d = await apiGet('admin/reports/summary?' + new URLSearchParams({ from: today, to: today, group: 'day' }));
		setMsg('today-error', null);
		const tt = d.totals || {};
		setKids($('today-figures'), figure(t('owner.overview.sales'), money(tt.sales_amount), 'big'), figure(t('owner.overview.purchases'), int(tt.purchases)),
			figure(t('owner.overview.cashback_earned'), money(tt.cashback_earned)), figure(t('owner.overview.cashback_owed'), money(d.outstanding_cashback)));
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('today-error', e);
	}
}

export function renderSteps() {
	const staff = st.users.filter((u) => u.user_type === 'system_user' && !u.disabled).length;
	const cards = st.programs.reduce((n, p) => n + (Number.isInteger(p.card_count) ? p.card_count : 0), 0);
	const steps = [
		[true, t('owner.overview.step_set_up'), null, null],
		[st.locations.length > 0, count('owner.overview.step_locations', st.locations.length), '#locations', t('owner.nav.locations')],
		[staff > 0, staff ? count('owner.overview.step_logins', staff) : t('owner.overview.step_add_login'), '#staff', t('owner.nav.staff')],
		[st.programs.length > 0, st.programs.length ? count('owner.overview.step_programs', st.programs.length) : t('owner.overview.step_add_program'), '#programs', t('owner.nav.programs')],
		[cards > 0, cards ? count('owner.overview.step_cards', cards) : t('owner.overview.step_issue_cards'), '#cards', t('owner.nav.cards')],
		[null, t('owner.overview.step_till'), 'index.html', t('owner.w.open_the_till')]
	];
	setKids($('steps'), ...steps.map(([done, text, href, label]) => h('li', { className: done ? 'done' : done === false ? 'todo' : '' },
		h('span', { className: 'step-mark', 'aria-hidden': 'true' }, done ? '✓' : ''),
		h('span', { className: 'visually-hidden' }, done ? t('owner.overview.done') + ' ' : done === false ? t('owner.overview.to_do') + ' ' : ''),
		h('span', { className: 'step-text' }, text),
		href ? h('a', { href, className: 'btn btn-small' }, label) : null)));
}

export function figure(label, value, cls) {
	return h('div', { className: 'bal ' + (cls || '') }, h('dt', null, label), h('dd', null, value));
}

