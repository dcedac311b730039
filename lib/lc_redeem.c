/*
 * Cashback redemption: consumes the card's ledger oldest earning first
 * (FIFO), inside one write transaction so two tills can never spend the
 * same cashback twice; optionally earns on what the customer still pays.
 */
#include <string.h>

#include "lc_int.h"

struct redeem_req {
	const char *card_id, *loc, *staff, *notes, *key;
	int64_t redeem, purchase;
	int earn;
};

static int
parse(struct lc_ctx *ctx, struct redeem_req *r)
{
	memset(r, 0, sizeof(*r));
	if (lc_in_str(ctx, ctx->in, "card_instance_id", 1, LC_REF_MAX, &r->card_id) == -1 ||
	    lc_in_money(ctx, ctx->in, "redemption_amount", 1, &r->redeem, NULL) == -1 ||
	    lc_in_money(ctx, ctx->in, "purchase_amount", 1, &r->purchase, NULL) == -1 ||
	    lc_in_str(ctx, ctx->in, "location_id", 1, LC_REF_MAX, &r->loc) == -1 ||
	    lc_in_str(ctx, ctx->in, "staff_user_id", 1, LC_REF_MAX, &r->staff) == -1 ||
	    lc_in_str(ctx, ctx->in, "transaction_notes", 0, LC_NOTES_MAX, &r->notes) == -1 ||
	    lc_in_bool(ctx, ctx->in, "earn_on_remainder", 0, &r->earn, NULL) == -1 ||
	    lc_in_key(ctx, ctx->in, 0, &r->key) == -1)
		return -1;
	if (r->redeem <= 0 || r->redeem > r->purchase)
		return lc_fail(ctx, LC_E_VALIDATION, "redemption_amount",
		    "redemption_amount must be above 0 and at most "
		    "purchase_amount");
	return 0;
}

/*
 * Takes amount from the oldest earnings of card, recording each use
 * against redemption txn_id into entries. 0, or -1 after lc_fail.
 */
static int
consume(struct lc_ctx *ctx, const char *card_id, const char *txn_id,
    int64_t amount, json_object *entries)
{
	char eid[LC_ID_LEN + 1];
	int64_t remaining, earned_at, use;
	sqlite3_stmt *st;
	json_object *e;

	while (amount > 0) {
		if ((st = lc_db_prep(ctx->db, LC_SQL_EARNING_OLDEST, "s",
		    card_id)) == NULL)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		if (lc_db_step(ctx->db, st) != SQLITE_ROW) {
			/* The balance said there was enough: the ledger
			 * disagrees, so refuse rather than guess. */
			lc_db_reset(st);
			lc_log("cashback ledger of card %s is short", card_id);
			return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
		}
		lc_db_col(st, 0, eid, sizeof(eid));
		remaining = sqlite3_column_int64(st, 1);
		earned_at = sqlite3_column_int64(st, 2);
		lc_db_reset(st);
		use = remaining < amount ? remaining : amount;
		/* The update must take exactly what was read: anything else
		 * and the ledger would drift from the balance. */
		if ((st = lc_db_prep(ctx->db, LC_SQL_EARNING_USE, "isi", use, eid,
		    use)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
		    sqlite3_changes(lc_db_handle(ctx->db)) != 1 ||
		    (st = lc_db_prep(ctx->db, LC_SQL_ENTRY_ADD, "ssi", txn_id,
		    eid, use)) == NULL || lc_db_exec(ctx->db, st) == -1)
			return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
		e = json_object_new_object();
		json_object_object_add(e, "earning_transaction_id",
		    json_object_new_string(eid));
		json_object_object_add(e, "amount_used", lc_json_money(use));
		json_object_object_add(e, "earned_at", lc_json_time(earned_at));
		json_object_array_add(entries, e);
		amount -= use;
	}
	return 0;
}

/* Earns cashback on the remainder as a normal cashback purchase. */
static int
earn_remainder(struct lc_ctx *ctx, struct lc_card *card,
    const struct redeem_req *r, json_object **earned)
{
	struct lc_purchase p;
	struct lc_txn t;

	memset(&p, 0, sizeof(p));
	p.amount = r->purchase - r->redeem;
	p.punch_count = 1;
	p.location_id = r->loc;
	p.staff_user_id = r->staff;
	p.at_ms = ctx->now_ms;
	if (lc_txn_init(ctx, &t, card, r->loc, r->staff, "cashback",
	    ctx->now_ms) == -1)
		return -1;
	t.purchase_amount = p.amount;
	t.notes = r->notes;
	return card->ops->purchase(ctx, card, &p, &t, earned);
}

int
lc_h_redeem(struct lc_ctx *ctx)
{
	struct redeem_req r;
	struct lc_card card;
	struct lc_txn t;
	json_object *out = NULL, *entries = NULL, *earned = NULL;
	int rc;

	if (parse(ctx, &r) == -1 || lc_auth_scope(ctx, r.loc, r.staff) == -1)
		return -1;
	if ((rc = lc_card_write_begin(ctx, r.card_id, r.key, "redeem",
	    "cashback", &card, &out)) == -1)
		return -1;
	if (rc == 0) {
		json_object_object_add(out, "idempotent", json_object_new_boolean(1));
		ctx->out = out;
		return 0;
	}
	if (r.redeem > card.cashback_balance) {
		lc_db_rollback(ctx->db);
		return lc_fail(ctx, LC_E_INSUFFICIENT_BALANCE, NULL,
		    "The cashback balance is %lld.%02lld.",
		    (long long)(card.cashback_balance / 100),
		    (long long)(card.cashback_balance % 100));
	}
	if (lc_txn_init(ctx, &t, &card, r.loc, r.staff, "cashback_redeem",
	    ctx->now_ms) == -1)
		goto fail;
	/* A redemption adds nothing to lifetime spend (decisions §5). */
	t.purchase_amount = r.purchase;
	t.redeemed_amount = r.redeem;
	t.notes = r.notes;
	entries = json_object_new_array();
	if (lc_txn_insert(ctx, &t) == -1 ||
	    consume(ctx, card.id, t.id, r.redeem, entries) == -1)
		goto fail;
	card.cashback_balance -= r.redeem;
	if (lc_card_save(ctx, &card) == -1)
		goto fail;
	out = json_object_new_object();
	json_object_object_add(out, "transaction_id", json_object_new_string(t.id));
	json_object_object_add(out, "redeemed_amount", lc_json_money(r.redeem));
	json_object_object_add(out, "new_balance", lc_json_money(card.cashback_balance));
	json_object_object_add(out, "final_purchase_amount",
	    lc_json_money(r.purchase - r.redeem));
	json_object_object_add(out, "redeemed_entries", entries);
	entries = NULL;
	if (r.earn) {
		if (earn_remainder(ctx, &card, &r, &earned) == -1)
			goto fail;
		json_object_object_add(out, "earned", earned);
	}
	if (lc_card_write_end(ctx, r.key, "redeem", t.id, out) == -1)
		goto fail;
	json_object_object_add(out, "idempotent", json_object_new_boolean(0));
	ctx->out = out;
	return 0;
fail:
	lc_db_rollback(ctx->db);
	json_object_put(entries);
	json_object_put(out);
	return -1;
}
