/*
 * The one write path. Every change to the data (a purchase, a sync item,
 * a claim, a redemption, a login's steps, a refresh, every admin command)
 * runs here, in one write transaction from begin to commit; nothing else
 * begins, commits or rolls back. Idempotency keys live here too: one
 * namespace per merchant, kept forever, the key looked up and stored in
 * the same transaction as the write it names, so a key sent to two tills
 * at once records once. And the audit trail (audit.c): each write's row
 * is added here, just before the commit, from what the write declared:
 * a write that rolls back leaves no row, one that commits always has
 * one. A replay of a key writes nothing, so it adds no row either (the
 * first write's row stands, with its request id). The outbox (event.c)
 * the same way: the write's events go in just before its audit row.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_core.h"

/* The stored answer of key: 1 (*answer set), 0 unknown, -1 (dom->err). */
static int
currency_holds(struct lc_dom *dom)
{
	struct lc_currency now;

	if (lc_currency_of(dom->db, dom->caller.merchant_id, &now) == -1)
		return -1;
	if (strcmp(now.code, dom->cur.code) != 0)
		return lc_dom_fail(dom, LC_E_CONFLICT, "currency", "The shop's "
		    "currency changed while this was sent: send it again.");
	return 0;
}

static int
replay(struct lc_dom *dom, const struct lc_write *w, json_object **answer)
{
	struct lc_idem k;
	int rc;

	if ((rc = lc_db_idem_get(dom->db, dom->caller.merchant_id, w->key,
	    &k)) <= 0)
		return rc == 0 ? 0 : lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (strcmp(k.kind, w->kind) != 0) {
		free(k.answer);
		return lc_dom_fail(dom, LC_E_VALIDATION, "idempotency_key",
		    "This idempotency_key was used for another kind of "
		    "operation.");
	}
	*answer = lc_json_parse(k.answer, strlen(k.answer));
	free(k.answer);
	if (*answer == NULL)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	return 1;
}

int
lc_write(struct lc_dom *dom, const struct lc_write *w, json_object **answer)
{
	json_object *a = NULL, *before = NULL;
	int rc;

	if (answer != NULL)
		*answer = NULL;
	memset(&dom->err, 0, sizeof(dom->err));
	dom->txn_id[0] = '\0';
	lc_audit_clear(dom);
	lc_event_reset(dom, 0);
	/* A write that does not say what it is for the audit trail is a
	 * bug: refused before anything is written. */
	if (w->action == NULL || (strcmp(w->action, LC_AUDIT_NONE) != 0 &&
	    w->object_type == NULL)) {
		lc_log("a write of kind %s declares no audit action and object "
		    "type (struct lc_write)", w->kind ? w->kind : "(none)");
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	dom->audit.object_type = w->object_type;
	if (lc_db_begin(dom->db, dom->later ? LC_DB_WRITE_LATER : 1) == -1)
		return lc_dom_settle(dom);
	/* What the rule does to cards is noted from here (event.c). */
	lc_event_reset(dom, 1);
	if (w->key != NULL && (rc = replay(dom, w, &a)) != 0) {
		lc_event_reset(dom, 0);
		if (rc == -1) {
			lc_db_rollback(dom->db);
			return -1;
		}
		/* Committed, though it wrote nothing: the write it repeats
		 * may be another process's, committed and not yet synced,
		 * and its answer is given only once it is durable, as that
		 * write's own is (lc_db_commit syncs the log). */
		if (lc_db_commit(dom->db) == -1) {
			json_object_put(a);
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		}
		if (answer != NULL)
			*answer = a;
		else
			json_object_put(a);
		return 1;
	}
	/*
	 * The request's amounts were read in the shop's currency as it was
	 * before this write began; the owner may have named another since
	 * (only before money moved, but that is this very write's money).
	 * Now that no other write can run, it must still be the one.
	 */
	if (dom->cur_known && currency_holds(dom) == -1)
		goto fail;
	/* The object as it was, for an owner's change of a known one. */
	if (strcmp(w->action, LC_AUDIT_NONE) != 0 &&
	    (before = lc_audit_snapshot(dom, w->object_type,
	    w->object_id)) == NULL && dom->err.code != LC_OK)
		goto fail;
	if (w->rule(dom, w->arg) == -1)
		goto fail;
	if (w->answer != NULL && (a = w->answer(w->arg)) == NULL) {
		lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		goto fail;
	}
	if (w->key != NULL && (dom->txn_id[0] == '\0' || a == NULL ||
	    lc_db_idem_add(dom->db, dom->caller.merchant_id, w->key, w->kind,
	    dom->txn_id, lc_json_text(a), dom->now_ms) == -1)) {
		lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		goto fail;
	}
	rc = lc_event_emit(dom, w, a);
	lc_event_reset(dom, 0);
	if (rc == -1)
		goto fail;
	rc = lc_audit_record(dom, w, before);
	before = NULL;
	if (rc == -1)
		goto fail;
	if (lc_db_commit(dom->db) == -1) {
		lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		goto fail;
	}
	lc_audit_clear(dom);
	if (answer != NULL)
		*answer = a;
	else
		json_object_put(a);
	return 0;
fail:
	lc_event_reset(dom, 0);
	lc_db_rollback(dom->db);
	lc_audit_clear(dom);
	json_object_put(before);
	json_object_put(a);
	return lc_dom_settle(dom);
}

int
lc_read_begin(struct lc_dom *dom)
{
	if (lc_db_begin(dom->db, 0) == -1)
		return lc_dom_settle(dom);
	return 0;
}

int
lc_read(struct lc_dom *dom, int (*fn)(struct lc_dom *, void *), void *arg)
{
	int rc;

	if (lc_db_begin(dom->db, 0) == -1)
		return lc_dom_settle(dom);
	rc = fn(dom, arg);
	if (rc == -1)
		(void)lc_dom_settle(dom);
	/* A read snapshot changed nothing: ending it is all. */
	lc_db_rollback(dom->db);
	return rc;
}

int
lc_dom_settle(struct lc_dom *dom)
{
	/* Storage said so in the log; the rule above it need not. A rule
	 * that failed without saying why is a bug, not the client's. */
	if (dom->err.code == LC_OK)
		lc_dom_fail(dom, lc_db_failed(dom->db) ? LC_E_DATABASE :
		    LC_E_INTERNAL, NULL, NULL);
	return -1;
}
