import { $, h, int, money, plural, setKids, ymd } from './dom.js';
import { SessionEnded, apiGet } from './net.js';
import { loadLocations, loadPrograms, loadSettings, loadUsers, shopToday, st } from './state.js';
import { setMsg } from './ui.js';

/* ---- overview --------------------------------------------------------- */

export async function showOverview() {
	if (st.locations.length) renderSteps();
	try {
		await Promise.all([loadLocations(), loadUsers(), loadPrograms(), st.settings.length ? null : loadSettings()]);
		renderSteps();
		const t = ymd(shopToday());
		const d = await apiGet('admin/reports/summary?' + new URLSearchParams({ from: t, to: t, group: 'day' }));
		setMsg('today-error', null);
		const tt = d.totals || {};
		setKids($('today-figures'), figure('Sales', money(tt.sales_amount), 'big'), figure('Purchases', int(tt.purchases)),
			figure('Cashback earned', money(tt.cashback_earned)), figure('Cashback owed to customers', money(d.outstanding_cashback)));
	} catch (e) {
		if (!(e instanceof SessionEnded)) setMsg('today-error', e);
	}
}

export function renderSteps() {
	const staff = st.users.filter((u) => u.user_type === 'system_user' && !u.disabled).length;
	const cards = st.programs.reduce((n, p) => n + (Number.isInteger(p.card_count) ? p.card_count : 0), 0);
	const steps = [
		[true, 'Your shop is set up.', null, null],
		[st.locations.length > 0, plural(st.locations.length, 'location', 'locations') + '. Add one for each shop or stand.', '#locations', 'Locations'],
		[staff > 0, staff ? plural(staff, 'till login', 'till logins') + '.' : 'Add a login for each till or cashier.', '#staff', 'Staff'],
		[st.programs.length > 0, st.programs.length ? plural(st.programs.length, 'loyalty program', 'loyalty programs') + '.' : 'Create a loyalty program: punch card, cashback or discount.', '#programs', 'Programs'],
		[cards > 0, cards ? plural(cards, 'card', 'cards') + ' issued.' : 'Issue cards to your customers and print them.', '#cards', 'Cards'],
		[null, 'Record purchases on the till; follow them in the reports.', 'index.html', 'Open the till']
	];
	setKids($('steps'), ...steps.map(([done, text, href, label]) => h('li', { className: done ? 'done' : done === false ? 'todo' : '' },
		h('span', { className: 'step-mark', 'aria-hidden': 'true' }, done ? '✓' : ''),
		h('span', { className: 'visually-hidden' }, done ? 'Done: ' : done === false ? 'To do: ' : ''),
		h('span', { className: 'step-text' }, text),
		href ? h('a', { href, className: 'btn btn-small' }, label) : null)));
}

export function figure(label, value, cls) {
	return h('div', { className: 'bal ' + (cls || '') }, h('dt', null, label), h('dd', null, value));
}

