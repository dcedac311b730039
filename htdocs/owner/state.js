/* What the back office's sections share: the shop's lists and settings,
 * the logged-in user, fixed sizes and names, the shop's calendar. */
import { limit } from '../js/limits.js';
import { addDays } from './dom.js';
import { apiGet } from './net.js';
import { showHosting } from './session.js';

/* Rows a page asks for: within the server's CARDS_PAGE_MAX,
 * HISTORY_PAGE_MAX and TXN_PAGE_MAX (tests/js/limits.test.mjs). */
export const CARDS_PAGE = 20;
export const HIST_PAGE = 10;
export const TX_PAGE = 20;
export const SHEET_MAX = limit('SHEET_MAX');
export const ISSUE_MAX = limit('ISSUE_MAX');
export const TIERS_MAX = limit('TIERS_MAX');
export const PASSWORD_MIN = limit('PASSWORD_MIN');
export const SECTIONS = ['overview', 'locations', 'staff', 'programs', 'cards', 'reports', 'backup', 'settings', 'integrations', 'audit'];
export const SECTION_NAMES = {
	overview: 'Overview', locations: 'Locations', staff: 'Staff', programs: 'Programs',
	cards: 'Cards', reports: 'Reports', backup: 'Backup', settings: 'Settings', integrations: 'Integrations', audit: 'Audit'
};
export const TYPE_NAMES = {
	punch: 'Punch', cashback: 'Cashback', discount: 'Discount',
	reward_claim: 'Reward claim', cashback_redeem: 'Cashback redeem',
	void: 'Void', adjustment: 'Adjustment', expiry: 'Expiry'
};
/* Corrections are not undone by a void (an adjustment is corrected by
 * another one); what the server refuses otherwise, it says why. */
export const NOT_VOIDABLE = ['void', 'adjustment', 'expiry'];
/* What the settings mean, in the owner's words. */
export const SETTING_INFO = {
	access_token_ttl: ['Login renewal interval (seconds)', 'How long a login works before the page renews it in the background.'],
	refresh_token_ttl: ['Stay logged in for (seconds)', 'How long a till or this page keeps its login before asking for the password again. The login lives in the open tab: once the browser is closed or the tablet restarts, the password is asked again.'],
	login_max_failures: ['Wrong passwords before a pause', 'Failed logins for one e-mail address before further tries are refused for a while: counted apart for each place that signed in to it lately (your tills), and together for all other places, so strangers cannot lock your tills out.'],
	login_window_seconds: ['Pause after wrong passwords (seconds)', 'How long the failed logins are counted, and so how long the pause lasts.'],
	sync_max_age_days: ['Oldest offline purchase accepted (days)', 'A purchase a till kept while offline is refused when it is older than this.'],
	utc_offset_minutes: ['Shop time zone (minutes from UTC)', 'Reports count days in this time: 60 is UTC+1, -300 is UTC−5; a multiple of 15. Summer time is not followed: change it when the clocks change.'],
	staff_enrolment: ['Staff may issue cards at the till', 'When off, only an owner logged in on the till can give a new customer a card.'],
	void_window_minutes: ['Staff may void their own sale for (minutes)', 'How long after a sale the cashier who made it can void it at the till. 0: only you void transactions, here.'],
	redeem_needs_card_code: ['Rewards and cashback need the code on the customer\'s phone', 'When on, the till hands out a reward or takes cashback only on the QR code of the customer\'s card page, which changes every minute: a photo of a card or an old screenshot no longer spends. Purchases still earn on printed cards.'],
	currency_symbol: ['Currency symbol', 'Shown before amounts on the till and on the customer\'s card page, such as € or $.'],
	event_retention_days: ['Keep events for (days)', 'How long the list of what happened to your cards is kept for integrations (Integrations), with the webhooks\' delivery log. A program that has not read the events by then misses the older ones.'],
	/* A third item true: set on the server only (loyalty-admin setting
	 * set), which the owner API refuses; the page shows it, unchangeable. */
	webhook_allow_private: ['Webhooks may go to this machine and your own network', 'Webhooks to private addresses (the server itself, the shop\'s own network) are refused, so that nobody can use them to reach what the internet cannot. Whoever runs the server can allow them, for a receiver in the shop: loyalty-admin setting set webhook_allow_private 1.', true],
	public_url: ['Address of this site for customers', 'Printed on each card with the card\'s own link, such as https://shop.example/loyalty/ (the folder of this page, ending in /). Empty: cards carry no link.']
};

/* ---- state ------------------------------------------------------------ */

export let user = null;
export function setUser(u) { user = u; }
export const st = {
	locations: [], users: [], programs: [], settings: [],
	section: null
};
export const locName = (id) => { const l = st.locations.find((x) => x.id === id); return l ? l.name : '—'; };
export const progOf = (id) => st.programs.find((p) => p.id === id) || null;
export function settingValue(key, def) {
	const x = st.settings.find((v) => v.key === key);
	return x && Number.isInteger(x.value) ? x.value : def;
}

export async function loadLocations() { st.locations = (await apiGet('admin/locations')).locations || []; }
export async function loadUsers() { st.users = (await apiGet('admin/users')).users || []; }
export async function loadPrograms() { st.programs = (await apiGet('admin/programs')).programs || []; }
export async function loadSettings() {
	const d = await apiGet('admin/settings');
	st.settings = d.settings || [];
	showHosting('hosting-warn', d.hosting);
}

/* Today in the shop's time zone (the utc_offset_minutes setting the
 * reports count days in). */
export function shopToday() {
	const off = settingValue('utc_offset_minutes', 0);
	const now = new Date(Date.now() + off * 60000);
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
export function presetRange(p) {
	const t = shopToday(), y = t.getUTCFullYear(), m = t.getUTCMonth();
	switch (p) {
	case 'today': return [t, t];
	case 'yesterday': return [addDays(t, -1), addDays(t, -1)];
	case 'last7': return [addDays(t, -6), t];
	case 'thisweek': return [addDays(t, -((t.getUTCDay() + 6) % 7)), t];
	case 'thismonth': return [new Date(Date.UTC(y, m, 1)), t];
	case 'lastmonth': return [new Date(Date.UTC(y, m - 1, 1)), new Date(Date.UTC(y, m, 0))];
	case 'last30': return [addDays(t, -29), t];
	case 'thisyear': return [new Date(Date.UTC(y, 0, 1)), t];
	default: return null;
	}
}

/* A card's customer as the page names them: cards made without a name
 * (a box of cards to hand out) are "No name". theCard(c): "the card of
 * Ann" or "the card without a name (barcode …)", for sentences. */
export const customerName = (c) => (c && typeof c.customer_name === 'string' && c.customer_name ? c.customer_name : 'No name');
export const theCard = (c) => (c && c.customer_name ? 'the card of ' + c.customer_name :
    'the card without a name' + (c && c.barcode_value ? ' (' + c.barcode_value + ')' : ''));
