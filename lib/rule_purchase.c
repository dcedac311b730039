/*
 * A purchase on a card, whether it comes alone (record), in a batch
 * (sync) or from a redemption's earn-on-remainder: one rule, run inside
 * the caller's write.
 */
#include <string.h>

#include "lc_core.h"

int
lc_purchase(struct lc_dom *dom, const struct lc_purchase *p,
    struct lc_purchase_result *r)
{
	struct lc_card card;
	struct lc_txn t;

	memset(r, 0, sizeof(*r));
	if (lc_card_resolve(dom, p->card_id, p->qr, p->barcode, &card) == -1)
		return -1;
	if (strcmp(card.status, "active") != 0)
		return lc_dom_fail(dom, LC_E_CARD_INACTIVE, NULL, NULL);
	/* What expired before now leaves first: the answer's balance is
	 * what the customer has. */
	if ((card.ops->cols & LC_CT_EXPIRES) &&
	    lc_expiry_sweep(dom, &card) == -1)
		return -1;
	if (lc_txn_new(dom, &t, &card, p->location_id, p->staff_user_id,
	    card.ops->name, p->at_ms) == -1)
		return -1;
	t.purchase_amount = p->amount;
	t.notes = p->notes;
	t.pos_ref = p->pos_ref;
	t.pos_term = p->pos_term;
	t.client_ts = p->client_ts;
	t.parent_id = p->parent_id;
	if (card.ops->purchase(dom, &card, p, &t, r) == -1)
		return -1;
	memcpy(r->txn_id, t.id, sizeof(r->txn_id));
	r->card_type = card.ops->name;
	r->purchase_amount = p->amount;
	return 0;
}
