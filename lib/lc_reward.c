/*
 * Reward claim: the oldest pending reward of a punch card, one per call.
 */
#include <string.h>

#include "lc_int.h"

int
lc_h_claim(struct lc_ctx *ctx)
{
	const char *card_id, *loc, *staff, *key;
	char rid[LC_ID_LEN + 1], title[LC_TEXT_MAX];
	int64_t amount, earned_at;
	struct lc_card card;
	struct lc_txn t;
	sqlite3_stmt *st;
	json_object *out = NULL;
	int rc;

	if (lc_in_str(ctx, ctx->in, "card_instance_id", 1, LC_REF_MAX, &card_id) == -1 ||
	    lc_in_str(ctx, ctx->in, "location_id", 1, LC_REF_MAX, &loc) == -1 ||
	    lc_in_str(ctx, ctx->in, "staff_user_id", 1, LC_REF_MAX, &staff) == -1 ||
	    lc_in_key(ctx, ctx->in, 0, &key) == -1 ||
	    lc_auth_scope(ctx, loc, staff) == -1)
		return -1;
	if ((rc = lc_card_write_begin(ctx, card_id, key, "claim", "punch",
	    &card, &out)) == -1)
		return -1;
	if (rc == 0) {
		json_object_object_add(out, "idempotent", json_object_new_boolean(1));
		ctx->out = out;
		return 0;
	}
	if ((st = lc_db_prep(ctx->db, LC_SQL_REWARD_OLDEST, "s", card.id)) == NULL)
		goto dberr;
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		if (rc != SQLITE_DONE)
			goto dberr;
		lc_db_rollback(ctx->db);
		return lc_fail(ctx, LC_E_NO_PENDING_REWARDS, NULL, NULL);
	}
	lc_db_col(st, 0, rid, sizeof(rid));
	lc_db_col(st, 1, title, sizeof(title));
	amount = sqlite3_column_int64(st, 2);
	earned_at = sqlite3_column_int64(st, 3);
	lc_db_reset(st);

	if (lc_txn_init(ctx, &t, &card, loc, staff, "reward_claim",
	    ctx->now_ms) == -1)
		goto fail;
	t.reward_id = rid;
	if (lc_txn_insert(ctx, &t) == -1)
		goto fail;
	if ((st = lc_db_prep(ctx->db, LC_SQL_REWARD_CLAIM, "iss", ctx->now_ms,
	    t.id, rid)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
	    sqlite3_changes(lc_db_handle(ctx->db)) != 1)
		goto dberr;
	card.pending_rewards--;
	if (lc_card_save(ctx, &card) == -1)
		goto fail;
	out = json_object_new_object();
	json_object_object_add(out, "transaction_id", json_object_new_string(t.id));
	json_object_object_add(out, "reward_id", json_object_new_string(rid));
	json_object_object_add(out, "reward_name", json_object_new_string(title));
	json_object_object_add(out, "reward_amount", lc_json_money(amount));
	json_object_object_add(out, "earned_at", lc_json_time(earned_at));
	json_object_object_add(out, "pending_rewards_remaining",
	    json_object_new_int64(card.pending_rewards));
	if (lc_card_write_end(ctx, key, "claim", t.id, out) == -1) {
		json_object_put(out);
		return -1;
	}
	json_object_object_add(out, "idempotent", json_object_new_boolean(0));
	ctx->out = out;
	return 0;
dberr:
	lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
fail:
	lc_db_rollback(ctx->db);
	return -1;
}
