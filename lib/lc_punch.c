/*
 * Punch cards: punches with carry-over into pending rewards, and a
 * cooldown between punches of one card.
 */
#include <string.h>

#include "lc_int.h"

static void
punch_balance(const struct lc_card *c, json_object *o)
{
	json_object_object_add(o, "current_punches",
	    json_object_new_int64(c->current_punches));
	json_object_object_add(o, "punch_requirement",
	    json_object_new_int64(c->punch_requirement));
	json_object_object_add(o, "pending_rewards",
	    json_object_new_int64(c->pending_rewards));
	json_object_object_add(o, "lifetime_punches",
	    json_object_new_int64(c->lifetime_punches));
}

/*
 * Refuses a punch at time at when another punch of the card lies within
 * the program's cooldown of it, before or after (offline items may arrive
 * out of order). Retry-After counts from the nearest earlier punch.
 */
static int
cooldown(struct lc_ctx *ctx, const struct lc_card *c, int64_t at)
{
	int64_t cd = c->cooldown_seconds * 1000, other;
	sqlite3_stmt *st;
	int rc;

	if (cd <= 0)
		return 0;
	if ((st = lc_db_prep(ctx->db, LC_SQL_PUNCH_NEAR, "sii", c->id,
	    at - cd, at + cd)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	rc = lc_db_step(ctx->db, st);
	if (rc != SQLITE_ROW) {
		lc_db_reset(st);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	if (sqlite3_column_type(st, 0) == SQLITE_NULL) {
		lc_db_reset(st);
		return 0;
	}
	other = sqlite3_column_int64(st, 0);
	lc_db_reset(st);
	ctx->retry_after = (long)((other + cd - at + 999) / 1000);
	if (ctx->retry_after < 1)
		ctx->retry_after = 1;
	return lc_fail(ctx, LC_E_COOLDOWN_ACTIVE, NULL,
	    "This card was punched less than %lld seconds ago.",
	    (long long)c->cooldown_seconds);
}

static json_object *
reward_json(const char *id, const struct lc_card *c)
{
	json_object *r = json_object_new_object();

	json_object_object_add(r, "reward_id", json_object_new_string(id));
	json_object_object_add(r, "title", json_object_new_string(c->reward_title));
	json_object_object_add(r, "description",
	    json_object_new_string(c->reward_description));
	json_object_object_add(r, "status", json_object_new_string("pending_claim"));
	return r;
}

static int
punch_purchase(struct lc_ctx *ctx, struct lc_card *c,
    const struct lc_purchase *p, struct lc_txn *t, json_object **data)
{
	char first[LC_ID_LEN + 1] = "", rid[LC_ID_LEN + 1];
	int64_t total, earned, i;
	sqlite3_stmt *st;
	json_object *d;

	if (cooldown(ctx, c, p->at_ms) == -1)
		return -1;
	/* Carry-over: punches beyond the requirement start the next card. */
	total = c->current_punches + p->punch_count;
	earned = total / c->punch_requirement;
	c->current_punches = total % c->punch_requirement;
	c->pending_rewards += earned;
	c->lifetime_punches += p->punch_count;
	if (earned > 0 && lc_uuid(first) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	t->type = "punch";
	t->punches_added = p->punch_count;
	t->reward_id = earned > 0 ? first : NULL;
	if (lc_txn_insert(ctx, t) == -1)
		return -1;
	for (i = 0; i < earned; i++) {
		if (i > 0 && lc_uuid(rid) == -1)
			return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
		if ((st = lc_db_prep(ctx->db, LC_SQL_REWARD_ADD, "sssssii",
		    i == 0 ? first : rid, c->id, t->id, c->reward_title,
		    c->reward_description, c->reward_amount, p->at_ms)) == NULL ||
		    lc_db_exec(ctx->db, st) == -1)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	if (lc_card_save(ctx, c) == -1)
		return -1;
	d = lc_txn_result(t, "punch");
	json_object_object_add(d, "punches_added",
	    json_object_new_int64(p->punch_count));
	json_object_object_add(d, "new_punch_count",
	    json_object_new_int64(c->current_punches));
	json_object_object_add(d, "reward_earned", json_object_new_boolean(earned > 0));
	json_object_object_add(d, "reward", earned > 0 ? reward_json(first, c) : NULL);
	json_object_object_add(d, "rewards_earned", json_object_new_int64(earned));
	json_object_object_add(d, "pending_rewards",
	    json_object_new_int64(c->pending_rewards));
	*data = d;
	return 0;
}

const struct lc_cardtype lc_cardtype_punch = {
	"punch", punch_balance, punch_purchase
};
