/* Handing out a reward, and redeeming cashback. */
import { ApiError, NetError, SessionEnded } from '../js/api.js';
import { centsStr, parseMoney, toCents } from '../js/money.js';
import { balanceOf, card, cardCodeOf, cardGen, cardIdent, lookup } from './card.js';
import { $, busy, h, money, MONEY_HINT, nameOf, pct, plural, shortId, show, when } from './dom.js';
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
		$('claim-confirm-text').textContent = 'Hand over ' + (rw.title ? rw.title : 'the reward') + ' to ' + (card.customer_name || 'the customer') +
		    ' now?' + (b.pending_rewards > 1 ? ' (' + plural(b.pending_rewards, 'reward', 'rewards') + ' waiting; one is claimed.)' : '');
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
			h('p', { className: 'res-head' }, 'Reward claimed: ' + (d.reward_name || 'reward')),
			h('p', null, 'Hand over the reward' + (toCents(d.reward_amount) > 0 ? ' (value ' + money(d.reward_amount) + ')' : '') +
			    '. Earned ' + when(d.earned_at) + '.'),
			h('p', null, plural(d.pending_rewards_remaining, 'reward', 'rewards') + ' still waiting.'),
			d.idempotent === true ? h('p', { className: 'note' }, 'Already claimed earlier: this is the original result.') : null));
		if (here()) {
			lookup(sale.ident, false);
			hist.page = 1;
			loadHistory();
		}
	} catch (e) {
		if (e instanceof SessionEnded) return;
		if (!(e instanceof NetError) && attempts.claim === a) delete attempts.claim;
		showResult(h('div', { className: 'res res-error' }, previousSale(sale),
			h('p', { className: 'res-head' }, 'Reward not claimed'), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, 'Press Claim again to retry; it will not be claimed twice.') : null));
		if (!(e instanceof NetError) && here()) lookup(sale.ident, false);
	} finally {
		busy(btn, false);
		/* The claim box may be gone: focus stays on the page's content. */
		if (here()) $('result-panel').focus({ preventScroll: true });
	}
}

export function onRedeemMax() {
	if (!card) return;
	const bal = toCents(balanceOf(card).cashback_balance);
	const p = parseMoney($('redeem-purchase').value);
	const c = p ? Math.min(bal, p.cents) : bal;
	$('redeem-amount').value = centsStr(c);
	fieldError('redeem-amount', null);
}

export async function onRedeem(ev) {
	ev.preventDefault();
	if (!card) return;
	clearFieldErrors();
	const p = parseMoney($('redeem-purchase').value), r = parseMoney($('redeem-amount').value);
	const bal = toCents(balanceOf(card).cashback_balance);
	let bad = null;
	if (!r || r.cents <= 0) { fieldError('redeem-amount', MONEY_HINT.replace('an amount', 'an amount above 0')); bad = 'redeem-amount'; }
	else if (r.cents > bal) { fieldError('redeem-amount', 'The balance is only ' + money(balanceOf(card).cashback_balance) + '.'); bad = 'redeem-amount'; }
	else if (p && r.cents > p.cents) { fieldError('redeem-amount', 'Cannot use more cashback than the purchase amount.'); bad = 'redeem-amount'; }
	if (!p || p.cents === 0) { fieldError('redeem-purchase', p ? 'Enter the amount of the purchase: it must be above 0.' : MONEY_HINT); bad = 'redeem-purchase'; }
	if (bad) { $(bad).focus(); return; }
	const loc = currentLocation();
	const body = {
		card_instance_id: card.card_instance_id, redemption_amount: r.value, purchase_amount: p.value,
		location_id: loc ? loc.id : '', staff_user_id: user.id,
		/* Nothing left to pay: no 0.00 purchase to earn on. */
		earn_on_remainder: $('redeem-earn').checked && r.cents < p.cents
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
			h('p', { className: 'res-head' }, 'Cashback not redeemed'), h('p', null, errorNode(e)),
			e instanceof NetError && here() ? h('p', null, 'Press Redeem again to retry; it will not be counted twice.') : null));
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
		h('p', { className: 'res-head' }, 'Charge the customer'),
		h('p', { className: 'charge' }, money(d.final_purchase_amount)),
		h('p', null, 'Cashback used ' + money(d.redeemed_amount) + '. Balance now ' + money(d.new_balance) + '.')
	];
	if (entries.length)
		kids.push(h('details', { className: 'entries' },
			h('summary', null, 'Cashback used from ' + plural(entries.length, 'earning', 'earnings')),
			h('table', { className: 'mini' },
				h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Earned'), h('th', { scope: 'col' }, 'Transaction'), h('th', { scope: 'col', className: 'num' }, 'Used'))),
				h('tbody', null, entries.map((x) => h('tr', null,
					h('td', null, when(x.earned_at)), h('td', null, shortId(x.earning_transaction_id)), h('td', { className: 'num' }, money(x.amount_used))))))));
	const e = d.earned;
	if (e && typeof e === 'object')
		kids.push(h('p', { className: 'note good' }, 'Also earned ' + money(e.cashback_earned) + ' cashback (' + pct(e.cashback_rate) + ' of ' +
		    money(e.purchase_amount) + '). Balance after earning ' + money(e.new_balance) + '.' + (e.tier_changed ? ' New tier reached!' : '')));
	if (d.idempotent === true) kids.push(h('p', { className: 'note' }, 'Already redeemed earlier: this is the original result.'));
	return h('div', { className: 'res res-ok' }, kids);
}
