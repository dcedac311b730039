/*
 * Adjustment: the owner's signed correction of a card, punches or
 * cashback, recorded as an 'adjustment' transaction with its reason.
 * Never below zero: taking more than the card holds is refused. Punches
 * added carry over into rewards as a purchase's do, and punches taken
 * may take back pending rewards (the newest first: a +12 keyed for +2
 * that filled the card is undone by -10); cashback added is an
 * earning of its own, and cashback taken is consumed from the ledger in
 * the order a redemption takes it, so the balance stays the sum of what
 * remains.
 */
#include <string.h>

#include "lc_core.h"

static int
punches(struct lc_dom *dom, struct lc_card *c, int64_t n, struct lc_txn *t,
    struct lc_adjust_result *r)
{
	struct lc_reward rw;
	int64_t total, earned, i, req = c->program.punch_requirement;
	int rc;

	if (n < 0) {
		if (-n > c->current_punches + c->pending_rewards * req)
			return c->pending_rewards == 0 ?
			    lc_dom_fail(dom, LC_E_INSUFFICIENT_BALANCE,
			    "punches", "The card has %lld punches.",
			    (long long)c->current_punches) :
			    lc_dom_fail(dom, LC_E_INSUFFICIENT_BALANCE,
			    "punches", "The card has %lld punch%s and %lld "
			    "reward%s waiting: %lld punches in all.",
			    (long long)c->current_punches,
			    c->current_punches == 1 ? "" : "es",
			    (long long)c->pending_rewards,
			    c->pending_rewards == 1 ? "" : "s",
			    (long long)(c->current_punches +
			    c->pending_rewards * req));
		while (c->current_punches < -n) {
			if ((rc = lc_db_reward_pending_of(dom->db, "", c->id,
			    &rw)) == -1)
				return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
			if (rc == 1 && (rc = lc_db_reward_withdraw(dom->db,
			    rw.id)) == -1)
				return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
			if (rc != 1) {
				lc_log("card %s: pending rewards not as counted",
				    c->id);
				return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
			}
			c->current_punches += req;
			c->pending_rewards--;
			r->rewards_withdrawn++;
		}
		c->current_punches += n;
		c->lifetime_punches = c->lifetime_punches >= -n ?
		    c->lifetime_punches + n : 0;
		return lc_txn_add(dom, t);
	}
	total = c->current_punches + n;
	earned = total / c->program.punch_requirement;
	c->current_punches = total % c->program.punch_requirement;
	c->pending_rewards += earned;
	c->lifetime_punches += n;
	memset(&rw, 0, sizeof(rw));
	memcpy(rw.card_id, c->id, sizeof(rw.card_id));
	memcpy(rw.earned_txn_id, t->id, sizeof(rw.earned_txn_id));
	memcpy(rw.title, c->program.reward_title, sizeof(rw.title));
	memcpy(rw.description, c->program.reward_description,
	    sizeof(rw.description));
	rw.amount = c->program.reward_amount;
	rw.earned_at = dom->now_ms;
	if (earned > 0 && lc_uuid(rw.id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	t->reward_id = earned > 0 ? rw.id : NULL;
	/* The transaction first: the rewards' report trigger reads it. */
	if (lc_txn_add(dom, t) == -1)
		return -1;
	for (i = 0; i < earned; i++)
		if ((i > 0 && lc_uuid(rw.id) == -1) ||
		    lc_db_reward_add(dom->db, &rw) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	r->rewards_earned = earned;
	return 0;
}

static int
cashback(struct lc_dom *dom, struct lc_card *c, int64_t x, struct lc_txn *t)
{
	struct lc_earning e;
	int64_t left, use;
	int rc;

	if (x > 0) {
		c->cashback_balance += x;
		c->lifetime_cashback += x;
		if (lc_txn_add(dom, t) == -1)
			return -1;
		if (lc_db_earning_add(dom->db, t->id, c->id, x, dom->now_ms) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		return 0;
	}
	if (-x > c->cashback_balance)
		return lc_dom_fail(dom, LC_E_INSUFFICIENT_BALANCE,
		    "cashback_amount", "The cashback balance is %lld.%02lld.",
		    (long long)(c->cashback_balance / 100),
		    (long long)(c->cashback_balance % 100));
	if (lc_txn_add(dom, t) == -1)
		return -1;
	/* Taken as a redemption takes it, recorded the same way. */
	for (left = -x; left > 0; left -= use) {
		if ((rc = lc_db_earning_oldest(dom->db, c->id, &e)) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		if (rc == 0) {
			lc_log("cashback ledger of card %s is short", c->id);
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		}
		use = e.remaining < left ? e.remaining : left;
		if (lc_db_earning_use(dom->db, e.txn_id, use) != 1 ||
		    lc_db_entry_add(dom->db, t->id, e.txn_id, use) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	c->cashback_balance += x;
	return 0;
}

static int
first_location(void *arg, const struct lc_location *l)
{
	memcpy(arg, l->id, LC_ID_LEN + 1);
	return 1;
}

int
lc_adjust(struct lc_dom *dom, const struct lc_adjust *q,
    struct lc_adjust_result *r)
{
	struct lc_card *c = &r->card;
	struct lc_txn t;
	const char *loc = q->location_id;
	int rc, punch;

	memset(r, 0, sizeof(*r));
	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, q->card_id, c)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "No such card.");
	if (strcmp(c->status, "active") != 0)
		return lc_dom_fail(dom, LC_E_CARD_INACTIVE, NULL, NULL);
	punch = strcmp(c->program.type, "punch") == 0;
	/* What expired before now leaves first: never taken twice. */
	if (strcmp(c->program.type, "cashback") == 0 &&
	    lc_expiry_sweep(dom, c) == -1)
		return -1;
	if (strcmp(c->program.type, "discount") == 0)
		return lc_dom_fail(dom, LC_E_WRONG_CARD_TYPE, NULL,
		    "A discount card has nothing to adjust.");
	if (punch != q->has_punches)
		return lc_dom_fail(dom, LC_E_WRONG_CARD_TYPE,
		    punch ? "cashback_amount" : "punches",
		    "This is a %s card: adjust its %s.", c->program.type,
		    punch ? "punches" : "cashback_amount");
	/* Where: the one named, else the merchant's first location. */
	if (loc == NULL) {
		if ((rc = lc_db_locations(dom->db, dom->caller.merchant_id,
		    first_location, r->location_id)) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		if (rc == 0)
			return lc_dom_fail(dom, LC_E_VALIDATION, "location_id",
			    "The shop has no location to record this at.");
		loc = r->location_id;
	}
	if (lc_auth_scope(dom, loc, dom->caller.user_id, 1) == -1 ||
	    lc_txn_new(dom, &t, c, loc, dom->caller.user_id, "adjustment",
	    dom->now_ms) == -1)
		return -1;
	t.reason = q->reason;
	t.punches_added = punch ? q->punches : LC_TXN_NONE;
	t.cashback_earned = punch ? LC_TXN_NONE : q->cashback;
	t.rate_bp = t.discount_amount = t.redeemed_amount = LC_TXN_NONE;
	if ((punch ? punches(dom, c, q->punches, &t, r) :
	    cashback(dom, c, q->cashback, &t)) == -1 ||
	    lc_card_save(dom, c) == -1)
		return -1;
	memcpy(r->txn_id, t.id, sizeof(r->txn_id));
	return 0;
}
