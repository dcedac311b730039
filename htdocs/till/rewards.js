/* Handing out a reward, and redeeming cashback. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { t } from '../js/i18n.js';
import { balanceOf, card, cardCodeOf, cardGen, cardIdent, lookup } from './card.js';
import { $, busy, h, minorOf, minorStr, money, moneyHint, nameOf, parseAmount, pct, shortId, show, when } from './dom.js';
import { hist, loadHistory } from './history.js';
import { api } from './net.js';
import { attempt, attempts, currentLocation, user } from './state.js';
import { clearFieldErrors, errorNode, fieldError, previousSale, showResult } from './ui.js';
import { loadVoidable } from './void.js';

/* Claiming hands over goods: a second, deliberate press. */
export function claimConfirm(on) {
	show('claim-confirm', on);
	show('claim-button', !on);
	if (on && card) {
		const b = balanceOf(card), rw = card.reward || {};
		const who = card.customer_name || t('till.claim.the_customer');
		$('claim-confirm-text').textContent = (rw.title ? t('till.claim.confirm', { reward: rw.title, name: who }) : t('till.claim.confirm_any', { name: who })) +
		    (b.pending_rewards > 1 ? ' ' + t('till.claim.confirm_many', { n: b.pending_rewards }) : '');
		/* On Cancel: a second Enter must not hand the reward over. */
		$('claim-no').focus();
	}
}

export async function onClaim() {
	if (!card) return;
	claimConfirm(false);
	const loc = currentLocation();
	const body = { card_instance_id: card.card_instance_id, location_id: loc ? loc.id : '', staff_user_id: user.id };
	const a = attempt('claim', JSON.stringify([body, balanceOf(card).pending_rewards]));
	body.idempotency_key = a.key;
	const code = cardCodeOf(cardIdent);
	if (code) body.card_code = code;
	/* The answer may come when another card is shown: it then says whose
	 * it is and leaves that card alone. */
	const sale = { gen: cardGen, label: (card.card_title || '') + ' — ' + nameOf(card), ident: cardIdent };
	const here = () => sale.gen === cardGen;
	const btn = $('claim-button');
	busy(btn, true);
	try {
		const r = await api.call('POST', 'rewards/claim', body);
		const d = r.data;
		if (attempts.claim === a) delete attempts.claim;
		loadVoidable();
		showResult(h('div', { className: 'res res-ok res-reward' }, previousSale(sale),
			h('p', { className: 'res-head' }, t('till.claim.done', { reward: d.reward_name || t('till.claim.reward') })),
			h('p', null, minorOf(d.reward_amount) > 0 ? t('till.claim.hand_over_value', { value: money(d.reward_amount), when: when(d.earned_at) }) :
			    t('till.claim.hand_over', { when: when(d.earned_at) })),
			h('p', null, t('till.claim.remaining', { n: d.pending_rewards_remaining })),
			d.idempotent === true ? h('p', { className: 'note' }, t('till.claim.idempotent')) : null));
		if (here()) {
			lookup(sale.ident, false);
			hist.page = 1;
			loadHistory();
		}
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError) && attempts.claim === a) delete attempts.claim;
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, t('till.claim.failed')), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, t('till.claim.retry')) : null));
		if (!(e instanceof NetError) && here()) lookup(sale.ident, false);
	} finally {
		busy(btn, false);
		/* The claim box may be gone: focus stays on the page's content. */
		if (here()) $('result-panel').focus({ preventScroll: true });
	}
}

export function onRedeemMax() {
	if (!card) return;
	const bal = minorOf(balanceOf(card).cashback_balance);
	const p = parseAmount($('redeem-purchase').value);
	const c = p ? Math.min(bal, p.minor) : bal;
	$('redeem-amount').value = minorStr(c);
	fieldError('redeem-amount', null);
}

export async function onRedeem(ev) {
	ev.preventDefault();
	if (!card) return;
	clearFieldErrors();
	const p = parseAmount($('redeem-purchase').value), r = parseAmount($('redeem-amount').value);
	const bal = minorOf(balanceOf(card).cashback_balance);
	let bad = null;
	if (!r || r.minor <= 0) { fieldError('redeem-amount', moneyHint(true)); bad = 'redeem-amount'; }
	else if (r.minor > bal) { fieldError('redeem-amount', t('till.redeem.balance_only', { amount: money(balanceOf(card).cashback_balance) })); bad = 'redeem-amount'; }
	else if (p && r.minor > p.minor) { fieldError('redeem-amount', t('till.redeem.over_purchase')); bad = 'redeem-amount'; }
	if (!p || p.minor === 0) { fieldError('redeem-purchase', p ? t('till.redeem.purchase_above0') : moneyHint(false)); bad = 'redeem-purchase'; }
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const body = {
		card_instance_id: card.card_instance_id, redemption_amount: r.value, purchase_amount: p.value,
		location_id: loc ? loc.id : '', staff_user_id: user.id,
		/* Nothing left to pay: no 0.00 purchase to earn on. */
		earn_on_remainder: $('redeem-earn').checked && r.minor < p.minor
	};
	const a = attempt('redeem', JSON.stringify(body));
	body.idempotency_key = a.key;
	const code = cardCodeOf(cardIdent);
	if (code) body.card_code = code;
	const sale = { gen: cardGen, label: (card.card_title || '') + ' — ' + nameOf(card), ident: cardIdent };
	const here = () => sale.gen === cardGen;
	const btn = $('redeem-submit');
	busy(btn, true);
	try {
		const res = await api.call('POST', 'cashback/redeem', body);
		const d = res.data;
		if (attempts.redeem === a) delete attempts.redeem;
		loadVoidable();
		const node = redeemResult(d);
		const prev = previousSale(sale);
		if (prev) node.prepend(prev);
		showResult(node);
		if (!here()) return;
		$('redeem-form').reset();
		$('redeem-earn').checked = true;
		$('result-panel').focus({ preventScroll: true });
		lookup(sale.ident, false);
		hist.page = 1;
		loadHistory();
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError) && attempts.redeem === a) delete attempts.redeem;
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, t('till.redeem.failed')), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, t('till.redeem.retry')) : null));
		if (!here()) return;
		if (e instanceof ApiError && e.code === 'INSUFFICIENT_BALANCE') {
			/* Another till spent it: show the balance as it is now, and
			 * let Max fill in that one. */
			$('redeem-amount').value = '';
			lookup(sale.ident, false);
			$('redeem-amount').focus();
		} else {
			$('result-panel').focus({ preventScroll: true });
		}
	} finally {
		busy(btn, false);
	}
}

function redeemResult(d) {
	const entries = Array.isArray(d.redeemed_entries) ? d.redeemed_entries : [];
	const kids = [
		h('p', { className: 'res-head' }, t('till.redeem.charge')),
		h('p', { className: 'charge' }, money(d.final_purchase_amount)),
		h('p', null, t('till.redeem.used', { used: money(d.redeemed_amount), balance: money(d.new_balance) }))
	];
	if (entries.length)
		kids.push(h('details', { className: 'entries' },
			h('summary', null, t('till.redeem.entries', { n: entries.length })),
			h('table', { className: 'mini' },
				h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('till.redeem.col_earned')), h('th', { scope: 'col' }, t('till.redeem.col_transaction')),
					h('th', { scope: 'col', className: 'num' }, t('till.redeem.col_used')))),
				h('tbody', null, entries.map((x) => h('tr', null,
					h('td', null, when(x.earned_at)), h('td', null, shortId(x.earning_transaction_id)), h('td', { className: 'num' }, money(x.amount_used))))))));
	const e = d.earned;
	if (e && typeof e === 'object')
		kids.push(h('p', { className: 'note good' }, t('till.redeem.also_earned', { earned: money(e.cashback_earned), rate: pct(e.cashback_rate),
		    purchase: money(e.purchase_amount), balance: money(e.new_balance) }) + (e.tier_changed ? ' ' + t('till.redeem.new_tier') : '')));
	if (d.idempotent === true) kids.push(h('p', { className: 'note' }, t('till.redeem.idempotent')));
	return h('div', { className: 'res res-ok' }, kids);
}
