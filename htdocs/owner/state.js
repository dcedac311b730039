/* What the back office's sections share: the shop's lists and settings,
 * the logged-in user, fixed sizes and names, the shop's calendar. */
import { t } from '../js/i18n.js';
import { limit } from '../js/limits.js';
import { shopToday as shopDayText } from '../js/dates.js';
import { setShopFormat, shopFormat } from '../js/money.js';
import { parseYmd } from './dom.js';
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
/* Names read when used (NAMES.x), so always in the page's language. */
function named(keys, text) {
	const o = {};
	for (const k of keys) Object.defineProperty(o, k, { enumerable: true, get: () => text(k) });
	return Object.freeze(o);
}
// i18n-keys: owner.nav.audit owner.nav.backup owner.nav.cards owner.nav.integrations owner.nav.locations
// i18n-keys: owner.nav.overview owner.nav.programs owner.nav.reports owner.nav.settings owner.nav.staff
export const SECTION_NAMES = named(SECTIONS, (k) => t('owner.nav.' + k));
export const TYPE_NAMES = named(['punch', 'cashback', 'discount', 'reward_claim', 'cashback_redeem', 'void', 'adjustment', 'expiry'],
	// i18n-keys: owner.type.adjustment owner.type.cashback owner.type.cashback_redeem owner.type.discount
	// i18n-keys: owner.type.expiry owner.type.punch owner.type.reward_claim owner.type.void
	(k) => t('owner.type.' + k));
/* Corrections are not undone by a void (an adjustment is corrected by
 * another one); what the server refuses otherwise, it says why. */
export const NOT_VOIDABLE = ['void', 'adjustment', 'expiry'];
/* What the settings mean, in the owner's words: [name, description],
 * from the catalog (owner.setting.KEY, owner.setting.KEY.hint). A third
 * item true: set on the server only (loyalty-admin setting set), which
 * the owner API refuses; the page shows it, unchangeable. */
const SERVER_ONLY = ['webhook_allow_private'];
export const SETTING_INFO = named(['access_token_ttl', 'refresh_token_ttl', 'login_max_failures', 'login_window_seconds',
	'sync_max_age_days', 'utc_offset_minutes', 'time_zone', 'currency', 'language', 'staff_enrolment', 'void_window_minutes',
	'redeem_needs_card_code', 'currency_symbol', 'event_retention_days', 'webhook_allow_private', 'public_url'],
	// i18n-keys: owner.setting.access_token_ttl owner.setting.access_token_ttl.hint owner.setting.currency
	// i18n-keys: owner.setting.currency.hint owner.setting.currency_symbol owner.setting.currency_symbol.hint
	// i18n-keys: owner.setting.event_retention_days owner.setting.event_retention_days.hint
	// i18n-keys: owner.setting.language owner.setting.language.hint owner.setting.login_max_failures
	// i18n-keys: owner.setting.login_max_failures.hint owner.setting.login_window_seconds
	// i18n-keys: owner.setting.login_window_seconds.hint owner.setting.public_url owner.setting.public_url.hint
	// i18n-keys: owner.setting.redeem_needs_card_code owner.setting.redeem_needs_card_code.hint
	// i18n-keys: owner.setting.refresh_token_ttl owner.setting.refresh_token_ttl.hint
	// i18n-keys: owner.setting.staff_enrolment owner.setting.staff_enrolment.hint
	// i18n-keys: owner.setting.sync_max_age_days owner.setting.sync_max_age_days.hint owner.setting.time_zone
	// i18n-keys: owner.setting.time_zone.hint owner.setting.utc_offset_minutes
	// i18n-keys: owner.setting.utc_offset_minutes.hint owner.setting.void_window_minutes
	// i18n-keys: owner.setting.void_window_minutes.hint owner.setting.webhook_allow_private
	// i18n-keys: owner.setting.webhook_allow_private.hint
	(k) => [t('owner.setting.' + k), t('owner.setting.' + k + '.hint')].concat(SERVER_ONLY.includes(k) ? [true] : []));

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
	setSettings(d.settings || []);
	showHosting('hosting-warn', d.hosting);
}
/* The settings as the server has them; the shop's zone, offset and
 * symbol as they now are (a change in Settings moves "today" at once;
 * the currency's decimals come with the next login, from the server). */
export function setSettings(list) {
	st.settings = list;
	const text = (k) => { const x = list.find((v) => v.key === k); return x && typeof x.value === 'string' ? x.value : null; };
	const f = Object.assign({}, shopFormat());
	const zone = text('time_zone'), symbol = text('currency_symbol');
	if (zone !== null) f.time_zone = zone || null;
	if (symbol !== null) f.currency_symbol = symbol;
	f.utc_offset_minutes = settingValue('utc_offset_minutes', f.utc_offset_minutes);
	setShopFormat(f);
}

/* Today in the shop's calendar (its time zone, else its fixed offset:
 * js/dates.js), as a UTC midnight like every date of the page. */
export function shopToday() {
	return parseYmd(shopDayText());
}
