/*
 * Punch cards: punches with carry-over into pending rewards, and a
 * cooldown between punches of one card. All a punch card does apart from
 * the other types: its purchase, void and adjustment, its program's
 * checks, and its fields in the answers and the audit trail.
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
		return -1;
	if (rc == 0)
		return 0;
	dom->err.retry_after = (long)((other + cd - at + 999) / 1000);
	if (dom->err.retry_after < 1)
		dom->err.retry_after = 1;
	return lc_dom_fail(dom, LC_E_COOLDOWN_ACTIVE, NULL,
	    "This card was punched less than %lld seconds ago.",
	    (long long)c->program.cooldown_seconds);
}

/*
 * Adds n (> 0) punches to card c at time at by transaction t, not yet
 * stored: punches beyond the requirement carry over into rewards; t is
 * stored (its reward_id the first reward's), then each reward earned,
 * after it, as the rewards' report trigger reads it. *earned and *first
 * (the first reward) for the answer. 0, or -1 with dom->err.
 */
static int
punches_add(struct lc_dom *dom, struct lc_card *c, int64_t n, int64_t at,
    struct lc_txn *t, int64_t *earned, struct lc_reward *first)
{
	struct lc_reward rw;
	int64_t total = c->current_punches + n, i;

	*earned = total / c->program.punch_requirement;
	c->current_punches = total % c->program.punch_requirement;
	c->pending_rewards += *earned;
	c->lifetime_punches += n;
	memset(&rw, 0, sizeof(rw));
	memcpy(rw.card_id, c->id, sizeof(rw.card_id));
	memcpy(rw.earned_txn_id, t->id, sizeof(rw.earned_txn_id));
	memcpy(rw.title, c->program.reward_title, sizeof(rw.title));
	memcpy(rw.description, c->program.reward_description,
	    sizeof(rw.description));
	rw.amount = c->program.reward_amount;
	rw.earned_at = at;
	if (*earned > 0 && lc_uuid(rw.id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	t->reward_id = *earned > 0 ? rw.id : NULL;
	if (lc_txn_add(dom, t) == -1)
		return -1;
	*first = rw;
	for (i = 0; i < *earned; i++) {
		if (i > 0 && lc_uuid(rw.id) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		if (lc_db_reward_add(dom->db, &rw) == -1)
			return -1;
	}
	if (*earned > 0)
		lc_event_rewards(dom, c, *earned);
	return 0;
}

static int
punch_purchase(struct lc_dom *dom, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t,
    struct lc_purchase_result *r)
{
	int64_t earned;

	if (c->program.max_punches > 0 && p->punch_count > c->program.max_punches)
		return lc_dom_fail(dom, LC_E_VALIDATION, "punch_count",
		    "This card takes at most %lld punches a purchase.",
		    (long long)c->program.max_punches);
	if (cooldown(dom, c, p->at_ms) == -1)
		return -1;
	t->punches_added = p->punch_count;
	if (punches_add(dom, c, p->punch_count, p->at_ms, t, &earned,
	    &r->reward) == -1)
		return -1;
	if (lc_card_save(dom, c) == -1)
		return -1;
	r->punches_added = p->punch_count;
	r->new_punch_count = c->current_punches;
	r->rewards_earned = earned;
	r->pending_rewards = c->pending_rewards;
	return 0;
}


/* A void of a punch purchase (rule_void.c): its punches come off; a
 * pending reward gives its punches back while the card has too few. */
static int
punch_void(struct lc_dom *dom, struct lc_card *c,
    const struct lc_txn_info *o, struct lc_txn *t, struct lc_void_result *r)
{
	struct lc_reward rw;
	int64_t n = o->punches_added > 0 ? o->punches_added : 0;
	int64_t cur = c->current_punches;
	int rc;

	/* A pending reward gives its punches back while the card has
	 * fewer than the purchase's left: the purchase's own first, else
	 * the newest, whichever purchase made it. Punches left plus what
	 * the pending rewards hold then come to what replaying the card
	 * without the purchase gives, in whatever order sales are voided. */
	while (cur < n) {
		if ((rc = lc_db_reward_pending_of(dom->db, o->id, c->id,
		    &rw)) == -1)
			return -1;
		if (rc == 0)
			break;
		if (lc_db_reward_withdraw(dom->db, rw.id) != 1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		cur += c->program.punch_requirement;
		c->pending_rewards--;
		r->rewards_withdrawn++;
	}
	c->current_punches = cur >= n ? cur - n : 0;
	c->lifetime_punches = c->lifetime_punches >= n ?
	    c->lifetime_punches - n : 0;
	t->punches_added = -n;
	r->punches_removed = n;
	return 0;
}

/* An adjustment of punches (rule_adjust.c). */
static int
punch_adjust(struct lc_dom *dom, struct lc_card *c,
    const struct lc_adjust *q, struct lc_txn *t, struct lc_adjust_result *r)
{
	int64_t n = q->punches;
	struct lc_reward rw;
	int64_t earned, req = c->program.punch_requirement;
	int rc;

	t->punches_added = n;
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
				return -1;
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
	if (punches_add(dom, c, n, dom->now_ms, t, &earned, &rw) == -1)
		return -1;
	r->rewards_earned = earned;
	return 0;
}

/* A punch program's own fields (shop.c runs it on a new program and on
 * a change). */
static int
punch_program_check(struct lc_dom *dom, const struct lc_program *p,
    int is_new)
{
	if (is_new && (p->punch_requirement < 1 ||
	    p->punch_requirement > LC_PUNCHES_MAX))
		return lc_dom_fail(dom, LC_E_VALIDATION, "punch_requirement",
		    "punches must be 1 to %d", LC_PUNCHES_MAX);
	if (lc_text_check(&dom->err, "reward_title", p->reward_title,
	    LC_NAME_MAX, 0) == -1 || lc_text_check(&dom->err,
	    "reward_description", p->reward_description, LC_DESC_MAX, 1) == -1)
		return -1;
	if (p->reward_amount < 0 || p->reward_amount > LC_MONEY_MAX)
		return lc_dom_fail(dom, LC_E_VALIDATION, "reward_amount",
		    "The reward amount is out of range.");
	if (p->cooldown_seconds < 0 || p->cooldown_seconds > LC_COOLDOWN_MAX)
		return lc_dom_fail(dom, LC_E_VALIDATION, "cooldown_seconds",
		    "The cooldown must be 0 to %d seconds.", LC_COOLDOWN_MAX);
	if (p->max_punches < 0 || p->max_punches > LC_PUNCH_COUNT_MAX)
		return lc_dom_fail(dom, LC_E_VALIDATION,
		    "max_punches_per_purchase", "A purchase gives 1 to %d punches "
		    "at most.", LC_PUNCH_COUNT_MAX);
	return 0;
}

/* Its fields in the answers. */

static void
punch_balance(const struct lc_card *c, struct lc_fields *f)
{
	f->num(f, "current_punches", c->current_punches);
	f->num(f, "punch_requirement", c->program.punch_requirement);
	f->num(f, "pending_rewards", c->pending_rewards);
	f->num(f, "lifetime_punches", c->lifetime_punches);
}

/* The program's reward, as the till and the customer name it. */
static void
reward(const struct lc_program *p, struct lc_fields *f)
{
	f->open(f, "reward");
	f->str(f, "title", p->reward_title);
	f->str(f, "description", p->reward_description);
	f->close(f);
}

/* A till's lookup: the reward and the limits it checks before it sends
 * a punch (the cooldown matters most offline, where the server cannot
 * say it). */
static void
punch_lookup(const struct lc_card *c, struct lc_fields *f)
{
	reward(&c->program, f);
	f->num(f, "cooldown_seconds", c->program.cooldown_seconds);
	f->num(f, "max_punches_per_purchase", c->program.max_punches > 0 ?
	    c->program.max_punches : LC_PUNCH_COUNT_MAX);
}

static void
punch_mycard(const struct lc_card *c, struct lc_fields *f)
{
	reward(&c->program, f);
	f->num(f, "pending_rewards", c->pending_rewards);
}

static void
punch_purchased(const struct lc_purchase_result *r, struct lc_fields *f)
{
	f->num(f, "punches_added", r->punches_added);
	f->num(f, "new_punch_count", r->new_punch_count);
	f->flag(f, "reward_earned", r->rewards_earned > 0);
	if (r->rewards_earned > 0) {
		f->open(f, "reward");
		f->str(f, "reward_id", r->reward.id);
		f->str(f, "title", r->reward.title);
		f->str(f, "description", r->reward.description);
		f->str(f, "status", "pending_claim");
		f->close(f);
	} else
		f->null(f, "reward");
	f->num(f, "rewards_earned", r->rewards_earned);
	f->num(f, "pending_rewards", r->pending_rewards);
}

static void
punch_voided(const struct lc_void_result *r, struct lc_fields *f)
{
	f->num(f, "punches_removed", r->punches_removed);
	f->num(f, "rewards_withdrawn", r->rewards_withdrawn);
}

static void
punch_adjusted(const struct lc_adjust_result *r, struct lc_fields *f)
{
	f->num(f, "rewards_earned", r->rewards_earned);
	f->num(f, "rewards_withdrawn", r->rewards_withdrawn);
}

/* A program a cashier may issue a card of: what tells them apart. */
static void
punch_enrol_program(const struct lc_program *p, struct lc_fields *f)
{
	f->num(f, "punch_requirement", p->punch_requirement);
	f->str(f, "reward_title", p->reward_title);
	if (p->reward_description[0] != '\0')
		f->str(f, "description", p->reward_description);
}

static void
punch_program(const struct lc_program *p, struct lc_fields *f)
{
	f->num(f, "punch_requirement", p->punch_requirement);
	f->str(f, "reward_title", p->reward_title);
	f->str(f, "reward_description", p->reward_description);
	f->money(f, "reward_amount", p->reward_amount);
	f->num(f, "cooldown_seconds", p->cooldown_seconds);
	if (p->max_punches > 0)
		f->num(f, "max_punches_per_purchase", p->max_punches);
	else
		f->null(f, "max_punches_per_purchase");
}

static void
punch_audit(const struct lc_card *c, struct lc_fields *f)
{
	f->num(f, "current_punches", c->current_punches);
	f->num(f, "pending_rewards", c->pending_rewards);
}

/* A punch purchase in a card's history always says its punches. */
static void
punch_history(const struct lc_hist_item *it, struct lc_fields *f)
{
	f->num(f, "punches_added", it->punches_added < 0 ? 0 :
	    it->punches_added);
}

const struct lc_cardtype lc_cardtype_punch = {
	.id = LC_CT_PUNCH,
	.name = "punch",
	.cols = LC_CT_REWARD,
	.purchase = punch_purchase,
	.void_purchase = punch_void,
	.adjust_field = "punches",
	.adjust = punch_adjust,
	.program_check = punch_program_check,
	.balance = punch_balance,
	.lookup = punch_lookup,
	.mycard = punch_mycard,
	.purchased = punch_purchased,
	.voided = punch_voided,
	.adjusted = punch_adjusted,
	.enrol_program = punch_enrol_program,
	.program = punch_program,
	.audit = punch_audit,
	.history = punch_history,
};
