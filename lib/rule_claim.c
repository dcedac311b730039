/*
 * Reward claim: the oldest pending reward of a punch card, one per call.
 */
#include <string.h>

#include "lc_core.h"

int
lc_claim(struct lc_dom *dom, const struct lc_claim *c, struct lc_claim_result *r)
{
	struct lc_card card;
	struct lc_txn t;
	int rc;

	memset(r, 0, sizeof(*r));
	if (lc_card_for(dom, c->card_id, LC_CT_PUNCH, &card) == -1 ||
	    lc_card_code_take(dom, &card, c->card_code) == -1)
		return -1;
	if ((rc = lc_db_reward_oldest(dom->db, card.id, &r->reward)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NO_PENDING_REWARDS, NULL, NULL);
	if (lc_txn_new(dom, &t, &card, c->location_id, c->staff_user_id,
	    "reward_claim", dom->now_ms) == -1)
		return -1;
	t.reward_id = r->reward.id;
	if (lc_txn_add(dom, &t) == -1)
		return -1;
	/* Exactly the reward read: anything else and the counts drift. */
	if (lc_db_reward_claim(dom->db, r->reward.id, dom->now_ms, t.id) != 1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	card.pending_rewards--;
	if (lc_card_save(dom, &card) == -1)
		return -1;
	memcpy(r->txn_id, t.id, sizeof(r->txn_id));
	r->pending_remaining = card.pending_rewards;
	return 0;
}
