/*
 * The outbox (event.c): the events each write adds inside its own
 * transaction, their types and ids.
 */
#ifndef LC_EVENT_H
#define LC_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "lc_dom.h"

/* An event's public id: "evt_" and its seq in 16 digits. */
#define LC_EVENT_ID_LEN 20

/* The types (one table, event.c): whether name is one an event of the
 * feed may have (webhook.test is not: it is only ever a test delivery),
 * and the i-th of them, NULL past the last, for lists and filters. */
int lc_event_type_known(const char *name);
const char *lc_event_type_at(size_t i);
/* The type a webhook's test delivery has, never stored. */
#define LC_EVENT_TEST "webhook.test"

/* seq as an id into out (LC_EVENT_ID_LEN + 1 bytes). */
void lc_event_id(int64_t seq, char *out);
/* The seq of an id made by lc_event_id: 0 (*seq set, at least 1), or -1
 * when id is not one (any other length, prefix or character). */
int lc_event_id_parse(const char *id, int64_t *seq);

/* The event object, the same in the feed and a webhook's body, from a
 * row of events (data its JSON text): NULL when data does not parse.
 * Owned by the caller. */
json_object *lc_event_object(int64_t seq, const char *type,
    int64_t created_at, const char *merchant_id, const char *data);

/*
 * What a write did, noted as it happens (card.c, card_*.c, shop.c) for
 * its events; nothing outside a write (dom->ev.on). A card read (its
 * tier before), saved (its balance changed), issued (enrol: at the
 * till), renamed or (de)activated (field "customer_name" or "status"),
 * an earning expired, rewards earned; the write's first transaction
 * (where and by whom).
 */
struct lc_card;
struct lc_txn;
void lc_event_seen(struct lc_dom *, const struct lc_card *);
void lc_event_saved(struct lc_dom *, const struct lc_card *);
void lc_event_issued(struct lc_dom *, const struct lc_card *);
void lc_event_changed(struct lc_dom *, const struct lc_card *,
    const char *field);
void lc_event_expired(struct lc_dom *, const struct lc_card *,
    const char *txn_id, int64_t amount);
void lc_event_rewards(struct lc_dom *, const struct lc_card *, int64_t n);
void lc_event_txn(struct lc_dom *, const struct lc_txn *);

/* By the write path: forgets what the last write noted (frees it) and
 * starts (on 1) or stops following; and adds the running write's events
 * from its audit action, its answer (borrowed) and what was noted, just
 * before its audit row: 0, or -1 with dom->err (the write rolls back). */
void lc_event_reset(struct lc_dom *, int on);
int lc_event_emit(struct lc_dom *, const struct lc_write *,
    json_object *answer);

#endif /* LC_EVENT_H */
