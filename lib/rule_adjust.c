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
	const char *sent;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, q->card_id, c)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "No such card.");
	if (strcmp(c->status, "active") != 0)
		return lc_dom_fail(dom, LC_E_CARD_INACTIVE, NULL, NULL);
	/* What expired before now leaves first: never taken twice. */
	if ((c->ops->cols & LC_CT_EXPIRES) && lc_expiry_sweep(dom, c) == -1)
		return -1;
	if (c->ops->adjust == NULL)
		return lc_dom_fail(dom, LC_E_WRONG_CARD_TYPE, NULL,
		    "A %s card has nothing to adjust.", c->ops->name);
	sent = q->has_punches ? "punches" : "cashback_amount";
	if (strcmp(sent, c->ops->adjust_field) != 0)
		return lc_dom_fail(dom, LC_E_WRONG_CARD_TYPE, sent,
		    "This is a %s card: adjust its %s.", c->ops->name,
		    c->ops->adjust_field);
	/* Where: the one named, else the merchant's first location. */
	if (loc == NULL) {
		if ((rc = lc_db_locations(dom->db, dom->caller.merchant_id,
		    first_location, r->location_id)) == -1)
			return -1;
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
	t.punches_added = t.cashback_earned = LC_TXN_NONE;
	t.rate_bp = t.discount_amount = t.redeemed_amount = LC_TXN_NONE;
	if (c->ops->adjust(dom, c, q, &t, r) == -1 ||
	    lc_card_save(dom, c) == -1)
		return -1;
	memcpy(r->txn_id, t.id, sizeof(r->txn_id));
	return 0;
}
