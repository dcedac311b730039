/*
 * Cashback expiry. An earning of a program with expiry_days expires that
 * many days after it was earned (fixed then: a later change of the
 * program's term applies to new earnings only). There is no cron on
 * shared hosting, so what has expired is recorded lazily: at the next
 * write on the card (inside that write), and at the next read (in a
 * write of its own, taken only when something is due, so a lookup with
 * nothing due costs one indexed query). Each emptied earning gets one
 * 'expiry' transaction dated when it expired; the emptying is checked
 * against the remainder read inside the write, so two tills reading the
 * card at once record it once.
 *
 * A write a read makes for it is the service's own act: its audit row is
 * the actor "service", one for each card, with the balance before and
 * after (whoever's request happened to find it due is not its author).
 */
#include <string.h>

#include "lc_core.h"

/* Cards swept in one request of the owner's reports, at most: each is a
 * write of its own, and the rest waits for the next request. */
#define SWEEP_MAX 500

int64_t
lc_expiry_at(const struct lc_program *p, int64_t earned_at)
{
	return p->expiry_days > 0 ? earned_at + p->expiry_days * 86400000LL :
	    -1;
}

int
lc_expiry_sweep(struct lc_dom *dom, struct lc_card *c)
{
	struct lc_earning e;
	char id[LC_ID_LEN + 1];
	int n, rc;

	/* Everything due, however much: the write that follows (a
	 * redemption, a void, an adjustment) takes the balance and the
	 * oldest earnings as they are after it, and must never spend what
	 * has expired. */
	for (n = 0;; n++) {
		if ((rc = lc_db_earning_due(dom->db, c->id, dom->now_ms,
		    &e)) == -1)
			return -1;
		if (rc == 0)
			break;
		if (e.remaining > c->cashback_balance) {
			lc_log("cashback ledger of card %s is over its balance",
			    c->id);
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		}
		/* Not lc_txn_add: an idempotency key names the write's own
		 * transaction, never an expiry recorded on the way. */
		if (lc_uuid(id) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		if (lc_db_earning_expire(dom->db, &e, id) != 1)
			return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		lc_event_expired(dom, c, id, e.remaining);
		c->cashback_balance -= e.remaining;
	}
	if (n > 0 && lc_card_save(dom, c) == -1)
		return -1;
	return 0;
}

/* The card's next expiry into c: 1 due already, 0 not, -1 (dom->err). */
static int
next(struct lc_dom *dom, struct lc_card *c)
{
	int rc;

	c->next_expiry_at = c->next_expiry_amount = 0;
	if ((lc_cardtype_cols(c->program.type) & LC_CT_EXPIRES) == 0)
		return 0;
	/* The balance comes with it: read with the card, before another
	 * reader's write recorded what was due, it would be the balance of
	 * before the expiry beside a next expiry of after it. */
	if ((rc = lc_db_expiry_next(dom->db, c->id, &c->next_expiry_at,
	    &c->next_expiry_amount, &c->cashback_balance)) == -1)
		return -1;
	if (rc == 0)
		c->next_expiry_at = c->next_expiry_amount = 0;
	return rc == 1 && c->next_expiry_at <= dom->now_ms;
}

int
lc_expiry_next(struct lc_dom *dom, struct lc_card *c)
{
	return next(dom, c) == -1 ? -1 : 0;
}

/* The write of a read: the card read again inside it, then swept. */
static int
sweep_rule(struct lc_dom *dom, void *arg)
{
	struct lc_card *c = arg;
	char merchant[LC_ID_LEN + 1], id[LC_ID_LEN + 1];
	int64_t before;
	int rc;

	memcpy(merchant, c->merchant_id, sizeof(merchant));
	memcpy(id, c->id, sizeof(id));
	if ((rc = lc_db_card_get(dom->db, LC_CARDKEY_ID, merchant, id, c)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_CARD_NOT_FOUND, NULL, NULL);
	before = c->cashback_balance;
	if (lc_expiry_sweep(dom, c) == -1)
		return -1;
	/* Another reader recorded it first: nothing happened here. */
	if (c->cashback_balance == before)
		lc_audit_skip(dom);
	lc_audit_who(dom, "service", "", merchant);
	return 0;
}

/* Sweeps card id of merchant in a write of its own, into c. 0, or -1. */
static int
sweep_write(struct lc_dom *dom, const char *merchant, const char *id,
    struct lc_card *c)
{
	char oid[LC_ID_LEN + 1];
	struct lc_write w = { "expiry", NULL, sweep_rule, NULL, c,
	    "cashback.expire", "card", oid };

	/* c is read again inside: the ids are copied out of it first. */
	snprintf(oid, sizeof(oid), "%s", id);
	snprintf(c->merchant_id, sizeof(c->merchant_id), "%s", merchant);
	snprintf(c->id, sizeof(c->id), "%s", oid);
	return lc_write(dom, &w, NULL) == -1 ? -1 : 0;
}

int
lc_expiry_fresh(struct lc_dom *dom, struct lc_card *c)
{
	const struct lc_cardtype *ops = c->ops;
	char merchant[LC_ID_LEN + 1], id[LC_ID_LEN + 1];
	int rc;

	if ((rc = next(dom, c)) <= 0)
		return rc;
	memcpy(merchant, c->merchant_id, sizeof(merchant));
	memcpy(id, c->id, sizeof(id));
	if (sweep_write(dom, merchant, id, c) == -1)
		return -1;
	c->ops = ops;
	/* The next expiry after the sweep, for the reader to show. */
	return next(dom, c) == -1 ? -1 : 1;
}

int
lc_expiry_merchant(struct lc_dom *dom)
{
	struct lc_card c;
	char id[LC_ID_LEN + 1];
	int n, rc;

	/* A write a card, as a lookup would make: each short, each its
	 * own audit row. At most SWEEP_MAX cards a request. */
	for (n = 0; n < SWEEP_MAX; n++) {
		if ((rc = lc_db_expiry_due_card(dom->db,
		    dom->caller.merchant_id, dom->now_ms, id)) == -1)
			return -1;
		if (rc == 0)
			break;
		if (sweep_write(dom, dom->caller.merchant_id, id, &c) == -1)
			return -1;
	}
	return 0;
}
