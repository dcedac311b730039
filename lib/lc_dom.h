/*
 * The room every rule runs in: the error a rule reports, who is acting,
 * the domain context (storage, caller, clock, error), the one write path
 * (write.c) and the audit trail it keeps (audit.c).
 */
#ifndef LC_DOM_H
#define LC_DOM_H

#include <stdarg.h>

#include <json-c/json.h>

#include "lcard.h"
#include "lc_currency.h"
#include "lc_store.h"

/* What a failed rule tells its caller: all an answer needs. */
struct lc_error {
	enum lc_err code;	/* LC_OK: no error */
	char field[64];		/* the offending field, "" for none */
	char msg[256];		/* "" for the code's default message */
	long retry_after;	/* seconds, 0 for none */
};

/* Sets e and returns -1. fmt NULL: the code's default message. A
 * DATABASE_ERROR gets Retry-After 1 unless one is set. */
int lc_error_set(struct lc_error *, enum lc_err, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The message to show: e's own, else the code's default. */
const char *lc_error_msg(const struct lc_error *);

/* Who is acting. Empty for the admin tool (acting for the machine's
 * owner, on any merchant). */
struct lc_caller {
	char user_id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];	/* staff's location; "" owner */
	char family[LC_ID_LEN + 1];		/* the login of its token */
	int is_owner;
	/* An integration token's caller (apitoken.c): its id and scopes
	 * (LC_SCOPE_*); user_id and location_id are then "", is_owner 0.
	 * "" and 0 for every other caller. */
	char token_id[LC_ID_LEN + 1];
	int scopes;
};

/*
 * What the running write adds to its row of the audit trail (audit.c)
 * beyond what its caller declared in struct lc_write: what only the rule
 * knows. The write path clears it at each begin and records it before
 * the commit.
 */
struct lc_audit {
	const char *action;		/* NULL: the declared one */
	const char *object_type;	/* the declared one (write.c sets it) */
	char object_id[LC_ID_LEN + 1];	/* "": the declared, else txn_id */
	char location_id[LC_ID_LEN + 1];	/* "": the caller's */
	char terminal_id[LC_POSREF_MAX + 1];	/* "": the request's */
	/* Who, when the caller is not (a login, setup; "service" for what
	 * the service does by itself): actor "" none. */
	char actor[16];
	char user_id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];	/* the object's, for the tool */
	json_object *note;		/* owned: members added to "after" */
	int skip;			/* nothing of the shop's was written */
};

/*
 * What the running write did to cards, for its events (event.c): the
 * cards it read, saved, issued or changed, the expiries and rewards on
 * the way, and where and by whom its first transaction was made. The
 * write path clears it at each begin and turns it on; only a write's
 * reads and changes are followed. The arrays are event.c's (owned).
 */
struct lc_ev_card;
struct lc_ev_expiry;
struct lc_evtrack {
	int on;				/* inside a write */
	int broken;			/* out of memory: the write fails */
	struct lc_ev_card *cards;
	size_t ncards, acards;
	struct lc_ev_expiry *exp;
	size_t nexp, aexp;
	int have_txn;			/* the write made a transaction */
	char location_id[LC_ID_LEN + 1];	/* its, "" none */
	char staff_user_id[LC_ID_LEN + 1];	/* its, "" none */
};

/* The domain context of a rule: storage, caller, clock, error. */
struct lc_dom {
	struct lc_db *db;	/* borrowed */
	struct lc_caller caller;
	int64_t now_ms;
	struct lc_error err;
	/* The first transaction the running write recorded ("" none): the
	 * one an idempotency key points at. */
	char txn_id[LC_ID_LEN + 1];
	/* The request's, for the audit trail (NULL: none, as in the admin
	 * tool): X-Request-Id or the one made, and X-Terminal-Id. */
	const char *request_id, *terminal_id;
	/* The client's address, which the throttle of guesses counts by
	 * (REMOTE_ADDR; NULL: none, as in the admin tool). */
	const char *client_addr;
	struct lc_audit audit;
	/* Its writes are ones no one waits for at the counter (a sync
	 * batch's items): other writes go first for a moment. */
	int later;
	struct lc_evtrack ev;
	/* The caller's shop's currency, whose minor unit every amount read
	 * and written is in: loaded once the shop is known; zeroed, it is
	 * the unnamed currency (two decimals: lc_currency_exp). cur_known:
	 * loaded for the caller's shop, so a write checks it still holds. */
	struct lc_currency cur;
	int cur_known;
};
#define lc_dom_fail(d, ...) lc_error_set(&(d)->err, __VA_ARGS__)
/* After a rule returned -1: dom->err as the rule set it, else
 * DATABASE_ERROR when storage failed since the request began
 * (lc_db_failed), else INTERNAL_ERROR. Returns -1. So a rule passes a
 * storage call's -1 on as it is: the write path, lc_read and the server
 * report it (write.c). */
int lc_dom_settle(struct lc_dom *);

/*
 * The one write path (write.c). A write runs rule in one write
 * transaction: begin, replay the idempotency key when one is given,
 * run the rule, build the answer, store it under the key, commit; on any
 * failure roll back, so nothing of it stays.
 *
 * Every write fills all eight fields by position, in this order, with
 * NULL where one does not apply ({ kind, key, rule, answer, arg, action,
 * object_type, object_id }), never by designated initialisers: a field
 * added here then leaves every write one short, which -Wextra
 * (-Wmissing-field-initializers) names, so none is forgotten.
 */
struct lc_write {
	const char *kind;	/* the key's kind: "purchase", "claim", ... */
	const char *key;	/* the client's idempotency key, NULL none */
	/* 0, or -1 with dom->err set. */
	int (*rule)(struct lc_dom *, void *arg);
	/* The answer of the rule's result, built inside the transaction so
	 * the one stored under a key and the one returned are the same;
	 * NULL for a write with no answer to keep. */
	json_object *(*answer)(void *arg);
	void *arg;
	/* Its row of the audit trail, written in the same transaction (a
	 * write without it is refused): what it does ("location.update"),
	 * the type of object it acts on ("location"), and that object's id
	 * when known before (NULL: the one the rule names with
	 * lc_audit_object, else the first it made). LC_AUDIT_NONE: a write
	 * of the service's bookkeeping only (the throttle's checks). */
	const char *action;
	const char *object_type;
	const char *object_id;
};
#define LC_AUDIT_NONE "-"
/* 0 written (*answer set when w->answer is), 1 the key was known: *answer
 * is the stored answer and nothing ran, -1 nothing written (dom->err). */
int lc_write(struct lc_dom *, const struct lc_write *, json_object **answer);

/* The audit trail (audit.c). Inside a write: the object acted on, once
 * (the first call wins); where; who, when the caller is not the actor
 * (actor "owner", "system_user" or "setup"); a member added to the
 * row's "after" (v owned by the call); nothing to record after all. */
void lc_audit_object(struct lc_dom *, const char *id);
void lc_audit_where(struct lc_dom *, const char *location_id,
    const char *terminal_id);
void lc_audit_who(struct lc_dom *, const char *actor, const char *user_id,
    const char *merchant_id);
void lc_audit_note(struct lc_dom *, const char *key, json_object *v);
void lc_audit_note_str(struct lc_dom *, const char *key, const char *v);
/* The write's own transaction in its row: its id, type, amounts as
 * recorded (signed on a void or adjustment) and reason. */
void lc_audit_txn(struct lc_dom *, const struct lc_txn *);
/* The n cards a write issued: for more than one, their ids (card_ids). */
struct lc_card;
void lc_audit_cards(struct lc_dom *, const struct lc_card *, size_t n);
void lc_audit_skip(struct lc_dom *);
/* By the write path: forgets the last write's, and records the running
 * one's row, before (owned by the call) the snapshot taken before its
 * rule: 0, or -1 with dom->err. */
void lc_audit_clear(struct lc_dom *);
/* Whether an action or a type of object is one the trail may hold. */
int lc_audit_action_known(const char *action);
int lc_audit_object_type_known(const char *type);
/* The action in words ("card.issue": "Cards issued"); NULL: unknown. */
const char *lc_audit_action_words(const char *action);
json_object *lc_audit_snapshot(struct lc_dom *, const char *type,
    const char *id);
int lc_audit_record(struct lc_dom *, const struct lc_write *,
    json_object *before);
/* Runs fn on one consistent read snapshot. 0, or -1 with dom->err. */
int lc_read(struct lc_dom *, int (*fn)(struct lc_dom *, void *), void *arg);
/* The request's read snapshot (http_serve.c): the token's check and the
 * handler's reads see one state, with one lock instead of one a
 * statement; a write ends it first, lc_db_idle after the handler. 0, or
 * -1 (dom->err). */
int lc_read_begin(struct lc_dom *);

#endif /* LC_DOM_H */
