/*
 * Cards: loading a card of the caller's merchant with its program and
 * tiers, saving its counters, and the read-only lookup endpoint.
 */
#include <string.h>

#include "lc_int.h"

static const struct lc_cardtype *
cardtype(const char *name)
{
	if (strcmp(name, "punch") == 0)
		return &lc_cardtype_punch;
	if (strcmp(name, "cashback") == 0)
		return &lc_cardtype_cashback;
	if (strcmp(name, "discount") == 0)
		return &lc_cardtype_discount;
	return NULL;
}

static int
load_tiers(struct lc_ctx *ctx, struct lc_card *card)
{
	sqlite3_stmt *st;
	int rc;

	card->ntiers = 0;
	if ((st = lc_db_prep(ctx->db, LC_SQL_TIERS_OF_PROGRAM, "s",
	    card->program_id)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	while ((rc = lc_db_step(ctx->db, st)) == SQLITE_ROW &&
	    card->ntiers < LC_TIERS_MAX) {
		struct lc_tier *t = &card->tiers[card->ntiers++];

		lc_db_col(st, 0, t->name, sizeof(t->name));
		t->min_spend = sqlite3_column_int64(st, 1);
		t->rate_bp = sqlite3_column_int64(st, 2);
	}
	lc_db_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}

int
lc_card_load(struct lc_ctx *ctx, enum lc_cardkey key, const char *value,
    struct lc_card *card)
{
	static const enum lc_sql which[] = { LC_SQL_CARD_BY_ID,
	    LC_SQL_CARD_BY_QR, LC_SQL_CARD_BY_BARCODE };
	sqlite3_stmt *st;
	int rc;

	memset(card, 0, sizeof(*card));
	if ((st = lc_db_prep(ctx->db, which[key], "ss",
	    ctx->caller.merchant_id, value)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		return rc == SQLITE_DONE ? 0 : lc_fail(ctx, LC_E_DATABASE,
		    NULL, NULL);
	}
	lc_db_col(st, 0, card->id, sizeof(card->id));
	lc_db_col(st, 1, card->merchant_id, sizeof(card->merchant_id));
	lc_db_col(st, 2, card->program_id, sizeof(card->program_id));
	lc_db_col(st, 3, card->type, sizeof(card->type));
	lc_db_col(st, 4, card->title, sizeof(card->title));
	lc_db_col(st, 5, card->merchant_name, sizeof(card->merchant_name));
	lc_db_col(st, 6, card->customer_name, sizeof(card->customer_name));
	lc_db_col(st, 7, card->status, sizeof(card->status));
	card->current_punches = sqlite3_column_int64(st, 8);
	card->pending_rewards = sqlite3_column_int64(st, 9);
	card->lifetime_punches = sqlite3_column_int64(st, 10);
	card->cashback_balance = sqlite3_column_int64(st, 11);
	card->lifetime_cashback = sqlite3_column_int64(st, 12);
	card->lifetime_spend = sqlite3_column_int64(st, 13);
	card->punch_requirement = sqlite3_column_int64(st, 14);
	lc_db_col(st, 15, card->reward_title, sizeof(card->reward_title));
	lc_db_col(st, 16, card->reward_description,
	    sizeof(card->reward_description));
	card->reward_amount = sqlite3_column_int64(st, 17);
	card->cooldown_seconds = sqlite3_column_int64(st, 18);
	lc_db_reset(st);
	if ((card->ops = cardtype(card->type)) == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	if (strcmp(card->type, "punch") != 0 && load_tiers(ctx, card) == -1)
		return -1;
	return 1;
}

int
lc_card_save(struct lc_ctx *ctx, const struct lc_card *c)
{
	sqlite3_stmt *st;

	if ((st = lc_db_prep(ctx->db, LC_SQL_CARD_SAVE, "iiiiiis",
	    c->current_punches, c->pending_rewards, c->lifetime_punches,
	    c->cashback_balance, c->lifetime_cashback, c->lifetime_spend,
	    c->id)) == NULL || lc_db_exec(ctx->db, st) == -1 ||
	    sqlite3_changes(lc_db_handle(ctx->db)) != 1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}

int
lc_card_tier(const struct lc_card *c, int64_t spend)
{
	int i, t = 0;

	for (i = 0; i < c->ntiers; i++)
		if (spend >= c->tiers[i].min_spend)
			t = i;
	return t;
}

int64_t
lc_card_rate(const struct lc_card *c)
{
	return c->ntiers ? c->tiers[lc_card_tier(c, c->lifetime_spend)].rate_bp : 0;
}

const char *
lc_card_tier_name(const struct lc_card *c)
{
	return c->ntiers ? c->tiers[lc_card_tier(c, c->lifetime_spend)].name : "";
}

int64_t
lc_card_tiered_purchase(struct lc_card *c, int64_t amount, int *changed)
{
	int before = lc_card_tier(c, c->lifetime_spend);
	int64_t rate = lc_card_rate(c);

	c->lifetime_spend += amount;
	*changed = lc_card_tier(c, c->lifetime_spend) != before;
	return rate;
}

json_object *
lc_txn_result(const struct lc_txn *t, const char *card_type)
{
	json_object *d = json_object_new_object();

	json_object_object_add(d, "transaction_id", json_object_new_string(t->id));
	json_object_object_add(d, "card_type", json_object_new_string(card_type));
	return d;
}

int64_t
lc_apply_rate(int64_t v, int64_t bp)
{
	/* Exact integers: v <= 10^8 cents and bp <= 10^4 cannot overflow. */
	return (v * bp + 5000) / 10000;
}

/* Binds v, or NULL when v < 0 (an optional count that does not apply). */
static int
bind_opt(sqlite3_stmt *st, int i, int64_t v)
{
	return v < 0 ? sqlite3_bind_null(st, i) : sqlite3_bind_int64(st, i, v);
}

static int
bind_text(sqlite3_stmt *st, int i, const char *s)
{
	return s == NULL ? sqlite3_bind_null(st, i) :
	    sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

int
lc_txn_insert(struct lc_ctx *ctx, const struct lc_txn *t)
{
	sqlite3_stmt *st;

	st = lc_db_prep(ctx->db, LC_SQL_TXN_ADD, "ssssssi", t->id,
	    ctx->caller.merchant_id, t->card_id, t->location_id,
	    t->staff_user_id, t->type, t->purchase_amount);
	if (st == NULL ||
	    bind_opt(st, 8, t->punches_added) != SQLITE_OK ||
	    bind_opt(st, 9, t->rate_bp) != SQLITE_OK ||
	    bind_opt(st, 10, t->cashback_earned) != SQLITE_OK ||
	    bind_opt(st, 11, t->discount_amount) != SQLITE_OK ||
	    bind_opt(st, 12, t->redeemed_amount) != SQLITE_OK ||
	    bind_text(st, 13, t->reward_id) != SQLITE_OK ||
	    bind_text(st, 14, t->notes) != SQLITE_OK ||
	    bind_text(st, 15, t->pos_ref) != SQLITE_OK ||
	    bind_text(st, 16, t->pos_term) != SQLITE_OK ||
	    bind_text(st, 17, t->client_ts) != SQLITE_OK ||
	    sqlite3_bind_int64(st, 18, t->created_at) != SQLITE_OK ||
	    lc_db_exec(ctx->db, st) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}

/* Base64 a QR payload must be to name a card; anything else names none. */
static int
qr_decodable(const char *qr)
{
	unsigned char buf[256];

	return strlen(qr) <= 340 && lc_b64_decode(qr, buf, sizeof(buf)) >= 0;
}

/*
 * Lookup result: both documented forms at once (decisions §5), the
 * enveloped fields with balance, and the balance fields flat beside them.
 */
static json_object *
lookup_json(const struct lc_card *c)
{
	json_object *d = json_object_new_object(), *bal = json_object_new_object();

	json_object_object_add(d, "card_instance_id", json_object_new_string(c->id));
	json_object_object_add(d, "card_type", json_object_new_string(c->type));
	json_object_object_add(d, "card_title", json_object_new_string(c->title));
	json_object_object_add(d, "card_name", json_object_new_string(c->title));
	json_object_object_add(d, "merchant_name",
	    json_object_new_string(c->merchant_name));
	json_object_object_add(d, "customer_name",
	    json_object_new_string(c->customer_name));
	json_object_object_add(d, "status", json_object_new_string(c->status));
	c->ops->balance(c, bal);
	c->ops->balance(c, d);
	json_object_object_add(d, "balance", bal);
	return d;
}

int
lc_h_lookup(struct lc_ctx *ctx)
{
	const char *qr, *barcode;
	struct lc_card card;
	int rc;

	if (lc_in_str(ctx, ctx->in, "qr_code_data", 0, LC_REF_MAX, &qr) == -1 ||
	    lc_in_str(ctx, ctx->in, "barcode_value", 0, LC_REF_MAX, &barcode) == -1)
		return -1;
	if ((qr == NULL) == (barcode == NULL))
		return lc_fail(ctx, LC_E_VALIDATION, qr ? "barcode_value" :
		    "qr_code_data", "Send exactly one of qr_code_data and "
		    "barcode_value.");
	if (qr != NULL && !qr_decodable(qr))
		return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
	rc = qr != NULL ? lc_card_load(ctx, LC_CARDKEY_QR, qr, &card) :
	    lc_card_load(ctx, LC_CARDKEY_BARCODE, barcode, &card);
	if (rc == -1)
		return -1;
	if (rc == 0)
		return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
	ctx->out = lookup_json(&card);
	return 0;
}

int
lc_card_resolve(struct lc_ctx *ctx, const char *card_id, const char *qr,
    const char *barcode, struct lc_card *card)
{
	const char *vals[3] = { card_id, qr, barcode };
	static const char *const names[3] = { "card_instance_id",
	    "qr_code_data", "barcode_value" };
	struct lc_card other;
	int i, rc, found = 0;

	for (i = 0; i < 3; i++) {
		if (vals[i] == NULL)
			continue;
		if (i == LC_CARDKEY_QR && !qr_decodable(vals[i]))
			return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
		rc = lc_card_load(ctx, (enum lc_cardkey)i, vals[i],
		    found ? &other : card);
		if (rc == -1)
			return -1;
		if (rc == 0)
			return lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
		if (found && strcmp(other.id, card->id) != 0)
			return lc_fail(ctx, LC_E_VALIDATION, names[i],
			    "The card identifiers name different cards.");
		found = 1;
	}
	if (!found)
		return lc_fail(ctx, LC_E_VALIDATION, "card_instance_id",
		    "Send qr_code_data, card_instance_id or barcode_value.");
	return 0;
}

int
lc_card_write_begin(struct lc_ctx *ctx, const char *card_id, const char *key,
    const char *kind, const char *want, struct lc_card *card,
    json_object **replay)
{
	int rc;

	*replay = NULL;
	if (lc_db_begin(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if (key != NULL) {
		if ((rc = lc_idem_get(ctx, key, kind, replay)) == -1)
			goto fail;
		if (rc == 1) {
			lc_db_rollback(ctx->db);
			return 0;
		}
	}
	if ((rc = lc_card_load(ctx, LC_CARDKEY_ID, card_id, card)) == -1)
		goto fail;
	if (rc == 0) {
		lc_fail(ctx, LC_E_CARD_NOT_FOUND, NULL, NULL);
		goto fail;
	}
	if (strcmp(card->status, "active") != 0) {
		lc_fail(ctx, LC_E_CARD_INACTIVE, NULL, NULL);
		goto fail;
	}
	if (strcmp(card->type, want) != 0) {
		lc_fail(ctx, LC_E_WRONG_CARD_TYPE, NULL,
		    "This is a %s card; this operation needs a %s card.",
		    card->type, want);
		goto fail;
	}
	return 1;
fail:
	lc_db_rollback(ctx->db);
	return -1;
}

int
lc_txn_init(struct lc_ctx *ctx, struct lc_txn *t, const struct lc_card *card,
    const char *location_id, const char *staff_user_id, const char *type,
    int64_t created_at)
{
	memset(t, 0, sizeof(*t));
	if (lc_uuid(t->id) == -1)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	t->card_id = card->id;
	t->location_id = location_id;
	t->staff_user_id = staff_user_id;
	t->type = type;
	t->punches_added = t->rate_bp = t->cashback_earned = -1;
	t->discount_amount = t->redeemed_amount = -1;
	t->created_at = created_at;
	return 0;
}

int
lc_card_write_end(struct lc_ctx *ctx, const char *key, const char *kind,
    const char *txn_id, json_object *response)
{
	if (key != NULL && lc_idem_put(ctx, key, kind, txn_id, response) == -1) {
		lc_db_rollback(ctx->db);
		return -1;
	}
	if (lc_db_commit(ctx->db) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}
