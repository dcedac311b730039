/*
 * Cashback redemption: consumes the card's ledger soonest-expiring
 * earning first (FIFO when every earning has the same term), after what
 * has expired is recorded, inside one write so two tills can never spend
 * the same cashback
 * twice; optionally earns on what the customer still pays, through the
 * purchase rule like any other purchase.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

static int
entry_add(struct lc_redeem_result *r, const struct lc_earning *e, int64_t use)
{
	struct lc_redeem_entry *n;

	if ((n = realloc(r->entries, (r->nentries + 1) * sizeof(*n))) == NULL)
		return -1;
	r->entries = n;
	n = &r->entries[r->nentries++];
	memcpy(n->earning_txn_id, e->txn_id, sizeof(n->earning_txn_id));
	n->amount_used = use;
	n->earned_at = e->earned_at;
	return 0;
}

/* Takes amount from the soonest-expiring earnings of card, recording each use
 * against redemption txn_id. 0, or -1 with dom->err. */
static int
consume(struct lc_dom *dom, const char *card_id, const char *txn_id,
    int64_t amount, struct lc_redeem_result *r)
{
	struct lc_earning e;
	int64_t use;
	int rc;

	while (amount > 0) {
		if ((rc = lc_db_earning_oldest(dom->db, card_id, &e)) == -1)
			return -1;
		if (rc == 0) {
			/* The balance said there was enough: the ledger
			 * disagrees, so refuse rather than guess. */
			lc_log("cashback ledger of card %s is short", card_id);
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		}
		use = e.remaining < amount ? e.remaining : amount;
		/* The update must take exactly what was read: anything else
		 * and the ledger would drift from the balance. */
		if (lc_db_earning_use(dom->db, e.txn_id, use) != 1 ||
		    lc_db_entry_add(dom->db, txn_id, e.txn_id, use) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		if (entry_add(r, &e, use) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		amount -= use;
	}
	return 0;
}

int
lc_redeem(struct lc_dom *dom, const struct lc_redeem *q,
    struct lc_redeem_result *r)
{
	struct lc_purchase p;
	struct lc_card card;
	struct lc_txn t;
	char bal[32];

	memset(r, 0, sizeof(*r));
	if (lc_card_for(dom, q->card_id, LC_CT_CASHBACK, &card) == -1 ||
	    lc_card_code_take(dom, &card, q->card_code) == -1 ||
	    lc_expiry_sweep(dom, &card) == -1)
		return -1;
	if (q->amount > card.cashback_balance) {
		lc_money_fmt(card.cashback_balance, lc_currency_exp(&dom->cur),
		    bal);
		return lc_dom_fail(dom, LC_E_INSUFFICIENT_BALANCE, NULL,
		    "The cashback balance is %s.", bal);
	}
	if (lc_txn_new(dom, &t, &card, q->location_id, q->staff_user_id,
	    "cashback_redeem", dom->now_ms) == -1)
		return -1;
	/* A redemption adds nothing to lifetime spend. */
	t.purchase_amount = q->purchase;
	t.redeemed_amount = q->amount;
	t.notes = q->notes;
	if (lc_txn_add(dom, &t) == -1 ||
	    consume(dom, card.id, t.id, q->amount, r) == -1)
		return -1;
	card.cashback_balance -= q->amount;
	if (lc_card_save(dom, &card) == -1)
		return -1;
	memcpy(r->txn_id, t.id, sizeof(r->txn_id));
	r->redeemed = q->amount;
	r->new_balance = card.cashback_balance;
	r->final_amount = q->purchase - q->amount;
	if (!q->earn)
		return 0;
	memset(&p, 0, sizeof(p));
	p.card_id = card.id;
	p.location_id = q->location_id;
	p.staff_user_id = q->staff_user_id;
	p.amount = q->purchase - q->amount;
	p.punch_count = 1;
	p.notes = q->notes;
	p.at_ms = dom->now_ms;
	/* Linked, so a void of the redemption finds it. */
	p.parent_id = t.id;
	r->earned = 1;
	return lc_purchase(dom, &p, &r->earn);
}

void
lc_redeem_result_free(struct lc_redeem_result *r)
{
	free(r->entries);
	r->entries = NULL;
	r->nentries = 0;
}
