/*
 * The owner's objects as JSON (view.c): one shape each, shared by the
 * back office's answers and the audit trail's snapshots of them, so the
 * trail shows what the owner saw.
 */
#ifndef LC_VIEW_H
#define LC_VIEW_H

#include <stdint.h>

#include <json-c/json.h>

struct lc_location;
struct lc_user;
struct lc_program;
struct lc_webhook;
struct lc_card;
struct lc_currency;

json_object *lc_view_location(const struct lc_location *);
json_object *lc_view_staff(const struct lc_user *);
/* Amounts (a reward, tiers' minimum spend) in the currency cur (NULL:
 * the unnamed one). */
json_object *lc_view_program(const struct lc_program *, int64_t cards,
    const struct lc_currency *cur);
/* An endpoint, never its secret; with status: its delivery's state
 * (the trail's snapshots leave that out). secret_rotated_until while
 * the old secret still signs at now. */
json_object *lc_view_webhook(const struct lc_webhook *, int64_t now,
    int status);
/* The body of a test delivery of job job_id to w: the shape of an
 * event, type webhook.test, id "msg_test_" and the job's id. */
json_object *lc_view_webhook_test(const char *job_id,
    const struct lc_webhook *w, int64_t now);
/* A card as POST /cards/lookup answers it (its data), and as an event
 * carries it: no secret of it. Its amounts in its shop's currency cur
 * (NULL: the unnamed one), named by "currency" and "currency_decimals". */
json_object *lc_view_card(const struct lc_card *,
    const struct lc_currency *cur);
/* {key: v}, taking v. */
json_object *lc_view_one(const char *key, json_object *v);

#endif /* LC_VIEW_H */
