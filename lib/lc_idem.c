/*
 * Idempotency keys: one namespace per merchant, kept forever, shared by
 * record, sync, claim and redeem. The stored response is what a replay
 * returns. Lookups and inserts run inside the caller's BEGIN IMMEDIATE
 * transaction, and the primary key (merchant_id, key) makes a second
 * insert fail rather than count a purchase twice.
 */
#include <string.h>

#include "lc_int.h"

#define LC_KEY_MAX 255

int
lc_in_key(struct lc_ctx *ctx, json_object *obj, int required, const char **key)
{
	if (lc_in_str(ctx, obj, "idempotency_key", required, LC_KEY_MAX, key) == -1)
		return -1;
	if (*key != NULL && (**key == '\0' || !lc_is_printable_ascii(*key)))
		return lc_fail(ctx, LC_E_VALIDATION, "idempotency_key",
		    "idempotency_key must be 1 to 255 printable ASCII characters");
	return 0;
}

int
lc_idem_get(struct lc_ctx *ctx, const char *key, const char *kind,
    json_object **replay)
{
	sqlite3_stmt *st;
	char have[16];
	const char *resp;
	int rc;

	*replay = NULL;
	if ((st = lc_db_prep(ctx->db, LC_SQL_IDEM_GET, "ss",
	    ctx->caller.merchant_id, key)) == NULL)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	if ((rc = lc_db_step(ctx->db, st)) != SQLITE_ROW) {
		lc_db_reset(st);
		return rc == SQLITE_DONE ? 0 : lc_fail(ctx, LC_E_DATABASE,
		    NULL, NULL);
	}
	lc_db_col(st, 0, have, sizeof(have));
	if (strcmp(have, kind) != 0) {
		lc_db_reset(st);
		return lc_fail(ctx, LC_E_VALIDATION, "idempotency_key",
		    "This idempotency_key was used for another kind of "
		    "operation.");
	}
	resp = (const char *)sqlite3_column_text(st, 1);
	*replay = resp == NULL ? NULL : json_tokener_parse(resp);
	lc_db_reset(st);
	if (*replay == NULL)
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	return 1;
}

int
lc_idem_put(struct lc_ctx *ctx, const char *key, const char *kind,
    const char *txn_id, json_object *response)
{
	sqlite3_stmt *st;

	if ((st = lc_db_prep(ctx->db, LC_SQL_IDEM_ADD, "sssssi",
	    ctx->caller.merchant_id, key, kind, txn_id,
	    json_object_to_json_string_ext(response, JSON_C_TO_STRING_PLAIN |
	    JSON_C_TO_STRING_NOSLASHESCAPE), ctx->now_ms)) == NULL ||
	    lc_db_exec(ctx->db, st) == -1)
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	return 0;
}
