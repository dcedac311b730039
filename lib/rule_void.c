/*
 * Void: a transaction undone by a compensating 'void' transaction linked
 * to it; the original stays as it was. Each type gives back what it
 * gave, never more, and no balance goes below zero (a purchase's undo is
 * its card type's void_purchase, in card_<type>.c):
 *
 *   punch purchase   its punches come off the card; a pending reward
 *                    (its own first, else the newest) is withdrawn while
 *                    the punches left cannot pay for the purchase's (so
 *                    a void takes what replaying the card without the
 *                    purchase would, never more); a reward already
 *                    claimed stays claimed, and the punches then floor
 *                    at 0
 *   cashback purchase  what remains of its earning comes off (what was
 *                    spent stays spent: the answer says how much), and
 *                    lifetime spend goes down by its amount
 *   discount purchase  lifetime spend goes down by its amount
 *   reward claim     the reward is pending again
 *   redemption       the cashback goes back to the earnings it came from,
 *                    with their dates (FIFO order kept), and its
 *                    earn-on-remainder purchase is voided with it
 *
 * Staff void their own transactions at their location within the
 * void_window_minutes setting; the owner any of the merchant's.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

/* Who may void o: 0, or -1 FORBIDDEN. */
static int
may_void(struct lc_dom *dom, const struct lc_txn_info *o)
{
	const struct lc_caller *c = &dom->caller;
	int64_t win;

	if (c->is_owner)
		return 0;
	if (strcmp(o->staff_user_id, c->user_id) != 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "transaction_id",
		    "You can only void your own transactions.");
	if (strcmp(o->location_id, c->location_id) != 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "transaction_id",
		    "You can only void transactions of your own location.");
	if ((win = lc_setting(dom->db, LC_SET_VOID_WINDOW)) == 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "transaction_id",
		    "Only the owner can void transactions here.");
	if (dom->now_ms - o->created_at > win * 60000)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "transaction_id",
		    "This transaction is more than %lld minutes old: only the "
		    "owner can void it now.", (long long)win);
	return 0;
}

/* Whether o is one a void may undo: 0, or -1 NOT_VOIDABLE or
 * ALREADY_VOIDED. */
static int
voidable(struct lc_dom *dom, const struct lc_txn_info *o)
{
	if (strcmp(o->type, "void") == 0)
		return lc_dom_fail(dom, LC_E_NOT_VOIDABLE, "transaction_id",
		    "A void cannot be voided.");
	if (strcmp(o->type, "adjustment") == 0 ||
	    strcmp(o->type, "expiry") == 0)
		return lc_dom_fail(dom, LC_E_NOT_VOIDABLE, "transaction_id",
		    "An %s cannot be voided.", o->type);
	if (o->parent_id[0] != '\0')
		return lc_dom_fail(dom, LC_E_NOT_VOIDABLE, "transaction_id",
		    "This purchase was earned on a redemption's remainder: "
		    "void the redemption %s.", o->parent_id);
	if (o->voided_by[0] != '\0')
		return lc_dom_fail(dom, LC_E_ALREADY_VOIDED, "transaction_id",
		    "This transaction was voided by %s.", o->voided_by);
	return 0;
}

static int
claim_undo(struct lc_dom *dom, struct lc_card *c,
    const struct lc_txn_info *o, struct lc_txn *t, struct lc_void_result *r)
{
	int rc;

	/* The reward stayed claimed when its purchase was voided: undoing
	 * the claim now would bring back a reward nothing earned. */
	if ((rc = lc_db_reward_earning_voided(dom->db, o->reward_id)) == -1)
		return -1;
	if (rc == 1)
		return lc_dom_fail(dom, LC_E_NOT_VOIDABLE, "transaction_id",
		    "The purchase that earned this reward was voided: the "
		    "claim stands.");
	if (lc_db_reward_unclaim(dom->db, o->reward_id, o->id) != 1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	c->pending_rewards++;
	t->reward_id = o->reward_id;
	memcpy(r->reward_id, o->reward_id, sizeof(r->reward_id));
	return 0;
}

/* A redemption: each earning gets back what it gave, but one whose
 * purchase was voided since (that cashback is gone). */
static int
redeem_undo(struct lc_dom *dom, struct lc_card *c,
    const struct lc_txn_info *o, struct lc_txn *t, struct lc_void_result *r)
{
	struct lc_entry *es;
	size_t n, i;
	int ret = -1;

	if (lc_db_entries(dom->db, o->id, &es, &n) == -1)
		return -1;
	for (i = 0; i < n; i++) {
		if (es[i].voided) {
			r->cashback_not_returned += es[i].amount;
			continue;
		}
		if (lc_db_earning_return(dom->db, es[i].earning_txn_id,
		    es[i].amount) != 1) {
			lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
			goto out;
		}
		r->cashback_returned += es[i].amount;
	}
	c->cashback_balance += r->cashback_returned;
	t->redeemed_amount = -r->cashback_returned;
	ret = 0;
out:
	free(es);
	return ret;
}

/* Records the void of o on card c (saved by the caller). */
static int
undo(struct lc_dom *dom, struct lc_card *c, const struct lc_txn_info *o,
    const struct lc_void *q, struct lc_void_result *r, char id[LC_ID_LEN + 1])
{
	struct lc_txn t;
	int rc;

	if (lc_txn_new(dom, &t, c, q->location_id, q->staff_user_id, "void",
	    dom->now_ms) == -1)
		return -1;
	t.voided_id = o->id;
	t.reason = q->reason;
	t.purchase_amount = o->purchase_amount;
	t.punches_added = t.rate_bp = t.cashback_earned = LC_TXN_NONE;
	t.discount_amount = t.redeemed_amount = LC_TXN_NONE;
	/* A purchase's type is its card's type's name. */
	if (strcmp(o->type, c->ops->name) == 0)
		rc = c->ops->void_purchase(dom, c, o, &t, r);
	else if (strcmp(o->type, "reward_claim") == 0)
		rc = claim_undo(dom, c, o, &t, r);
	else if (strcmp(o->type, "cashback_redeem") == 0)
		rc = redeem_undo(dom, c, o, &t, r);
	else
		rc = lc_dom_fail(dom, LC_E_NOT_VOIDABLE, "transaction_id", NULL);
	if (rc == -1 || lc_txn_add(dom, &t) == -1)
		return -1;
	memcpy(id, t.id, LC_ID_LEN + 1);
	return 0;
}

int
lc_void(struct lc_dom *dom, const struct lc_void *q, struct lc_void_result *r)
{
	struct lc_txn_info o, child;
	int rc, cash;

	memset(r, 0, sizeof(*r));
	if ((rc = lc_db_txn_get(dom->db, dom->caller.merchant_id, q->txn_id,
	    &o)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, "transaction_id",
		    "No such transaction.");
	if (may_void(dom, &o) == -1 || voidable(dom, &o) == -1)
		return -1;
	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, o.card_id, &r->card)) != 1)
		return rc == -1 ? -1 : lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	/* What expired before now leaves first, as an expiry, not as what
	 * the void removes. */
	cash = (r->card.ops->cols & LC_CT_EXPIRES) != 0;
	if (cash && lc_expiry_sweep(dom, &r->card) == -1)
		return -1;
	if (undo(dom, &r->card, &o, q, r, r->txn_id) == -1)
		return -1;
	memcpy(r->voided_id, o.id, sizeof(r->voided_id));
	memcpy(r->voided_type, o.type, sizeof(r->voided_type));
	/* Its earn-on-remainder purchase goes with a redemption. */
	if (strcmp(o.type, "cashback_redeem") == 0) {
		if ((rc = lc_db_txn_child(dom->db, o.id, r->also_voided_id)) == -1 ||
		    (rc == 1 && lc_db_txn_get(dom->db, dom->caller.merchant_id,
		    r->also_voided_id, &child) != 1))
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		if (rc == 1 && child.voided_by[0] == '\0' &&
		    undo(dom, &r->card, &child, q, r, r->also_txn_id) == -1)
			return -1;
		if (r->also_txn_id[0] == '\0')
			r->also_voided_id[0] = '\0';
	}
	if (lc_card_save(dom, &r->card) == -1)
		return -1;
	/* Cashback given back to an earning past its date expires now. */
	return cash ? lc_expiry_sweep(dom, &r->card) : 0;
}

int
lc_void_reason_check(struct lc_error *e, const char *reason)
{
	if (lc_text_check(e, "reason", reason, LC_NOTES_MAX, 0) == -1)
		return -1;
	if (reason[strspn(reason, " ")] == '\0')
		return lc_error_set(e, LC_E_VALIDATION, "reason",
		    "reason must say why");
	return 0;
}
