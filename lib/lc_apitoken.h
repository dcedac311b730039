/*
 * Integration tokens (apitoken.c): named API tokens with scopes that
 * an owner gives integrators, to read the feed of events and manage
 * webhooks (the endpoints flagged LC_EP_EVENTS, LC_EP_HOOKS) and nothing
 * else.
 */
#ifndef LC_APITOKEN_H
#define LC_APITOKEN_H

#include "lc_dom.h"

/* Scopes, as bits of struct lc_caller's and lc_apitoken's scopes. */
#define LC_SCOPE_EVENTS 0x1	/* "events:read": GET /admin/events */
#define LC_SCOPE_HOOKS 0x2	/* "webhooks:manage": /admin/webhooks */
#define LC_SCOPE_ALL (LC_SCOPE_EVENTS | LC_SCOPE_HOOKS)

/* The text every integration token begins with. */
#define LC_APITOKEN_TAG "lci_"

/* A scope's bit by its name, 0 for none. */
int lc_apitoken_scope(const char *name);
/* The name of one scope bit, NULL for none. */
const char *lc_apitoken_scope_name(int bit);
/* The scopes of space-separated names (as stored), unknown ones left out;
 * and into out (at least 64 bytes) the names of bits, space-separated. */
int lc_apitoken_scopes_parse(const char *names);
void lc_apitoken_scopes_text(int scopes, char *out, size_t outsz);

/* 1 when a bearer token is an integration token's (begins with
 * LC_APITOKEN_TAG), not a login's. */
int lc_apitoken_is(const char *token);

/*
 * The caller of an integration token, where a request takes the scopes
 * want (LC_SCOPE_*; 0 none): its merchant, its id and scopes into
 * dom->caller (no user, not an owner). 0; or -1 with dom->err:
 * UNAUTHORIZED for a token unknown, malformed or revoked (wherever it is
 * sent), FORBIDDEN for one without any scope of want, DATABASE_ERROR.
 * Its last use is written at most once in LC_APITOKEN_TOUCH_MS, and only
 * when taken (a write of its own, so the request's read snapshot is
 * begun again after it).
 */
int lc_apitoken_auth(struct lc_dom *, const char *token, int want);

/*
 * Rules, inside a write of the caller's merchant (an owner). Create: a
 * token named name (1..LC_NAME_MAX characters, checked by the caller)
 * with scopes (not 0); CONFLICT when the merchant has LC_APITOKEN_MAX
 * live ones. *t is the new token and secret its text, shown this once.
 * Revoke: the merchant's token id (NOT_FOUND when none), revoked now
 * unless it was already (then nothing is written and *t is as it is).
 * 0, or -1 with dom->err.
 */
int lc_apitoken_create(struct lc_dom *, const char *name, int scopes,
    struct lc_apitoken *t, char secret[LC_APITOKEN_LEN + 1]);
int lc_apitoken_revoke(struct lc_dom *, const char *id,
    struct lc_apitoken *t);

#endif /* LC_APITOKEN_H */
