/*
 * Punch cards: punches with carry-over into pending rewards, and a
 * cooldown between punches of one card.
 */
#include <string.h>

#include "lc_core.h"

/*
 * Refuses a punch at time at when another punch of the card lies within
 * the program's cooldown of it, before or after (offline items may arrive
 * out of order). Retry-After counts from the nearest earlier punch.
 */
static int
cooldown(struct lc_dom *dom, const struct lc_card *c, int64_t at)
{
	int64_t cd = c->program.cooldown_seconds * 1000, other;
	int rc;

	if (cd <= 0)
		return 0;
	if ((rc = lc_db_punch_near(dom->db, c->id, at - cd, at + cd,
	    &other)) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 0)
		return 0;
	dom->err.retry_after = (long)((other + cd - at + 999) / 1000);
	if (dom->err.retry_after < 1)
		dom->err.retry_after = 1;
	return lc_dom_fail(dom, LC_E_COOLDOWN_ACTIVE, NULL,
	    "This card was punched less than %lld seconds ago.",
	    (long long)c->program.cooldown_seconds);
}

static int
punch_purchase(struct lc_dom *dom, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t,
    struct lc_purchase_result *r)
{
	struct lc_reward rw;
	int64_t total, earned, i;

	if (c->program.max_punches > 0 && p->punch_count > c->program.max_punches)
		return lc_dom_fail(dom, LC_E_VALIDATION, "punch_count",
		    "This card takes at most %lld punches a purchase.",
		    (long long)c->program.max_punches);
	if (cooldown(dom, c, p->at_ms) == -1)
		return -1;
	/* Carry-over: punches beyond the requirement start the next card. */
	total = c->current_punches + p->punch_count;
	earned = total / c->program.punch_requirement;
	c->current_punches = total % c->program.punch_requirement;
	c->pending_rewards += earned;
	c->lifetime_punches += p->punch_count;

	memset(&rw, 0, sizeof(rw));
	memcpy(rw.card_id, c->id, sizeof(rw.card_id));
	memcpy(rw.earned_txn_id, t->id, sizeof(rw.earned_txn_id));
	memcpy(rw.title, c->program.reward_title, sizeof(rw.title));
	memcpy(rw.description, c->program.reward_description,
	    sizeof(rw.description));
	rw.amount = c->program.reward_amount;
	rw.earned_at = p->at_ms;
	if (earned > 0 && lc_uuid(rw.id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	t->punches_added = p->punch_count;
	t->reward_id = earned > 0 ? rw.id : NULL;
	if (lc_txn_add(dom, t) == -1)
		return -1;
	r->reward = rw;
	for (i = 0; i < earned; i++) {
		if (i > 0 && lc_uuid(rw.id) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		if (lc_db_reward_add(dom->db, &rw) == -1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	if (lc_card_save(dom, c) == -1)
		return -1;
	r->punches_added = p->punch_count;
	r->new_punch_count = c->current_punches;
	r->rewards_earned = earned;
	r->pending_rewards = c->pending_rewards;
	return 0;
}

const struct lc_cardtype lc_cardtype_punch = { "punch", punch_purchase };
