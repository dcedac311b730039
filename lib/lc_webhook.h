/*
 * Webhook endpoints (webhook.c): the owner's endpoints, their secrets,
 * test events and re-sends; and the address check the deliverer makes
 * again at connect time.
 */
#ifndef LC_WEBHOOK_H
#define LC_WEBHOOK_H

#include <stdint.h>

#include "lc_dom.h"

struct sockaddr;

/* "whsec_" and the base64 of LC_WEBHOOK_SECRET_BYTES random bytes. */
#define LC_WEBHOOK_SECRET_BYTES 24
#define LC_WEBHOOK_SECRET_LEN (6 + 32)
/* How long the old secret signs alongside after a rotation (ms). */
#define LC_WEBHOOK_ROTATE_MS (24LL * 3600 * 1000)
/* The event types of an endpoint, one space apart ("" for all). */
#define LC_WEBHOOK_TYPES_LEN 512

/*
 * 1 when an address is one a webhook is never sent to unless the
 * installation allows private addresses (webhook_allow_private):
 * unspecified, loopback, private (10/8, 172.16/12, 192.168/16,
 * 100.64/10, fc00::/7), link-local (169.254/16 with the cloud's metadata
 * address, fe80::/10), site-local (fec0::/10), multicast, broadcast,
 * documentation, benchmarking, discard (100::/64), the 6to4 relay
 * (192.88.99/24), Teredo (2001::/32) and reserved; an IPv6 form holding
 * an IPv4 address (mapped, compatible, SIIT translated, NAT64 64:ff9b::/96
 * and 64:ff9b:1::/48, 6to4) by that address. 0 for a public address (and
 * an address family not IPv4 or IPv6, which is no address: 1).
 */
int lc_addr_private(const struct sockaddr *);
/* The same for a host's text: an IPv4 address in any form the resolver
 * takes ("127.1", "0x7f.1", "2130706433"), or IPv6 with or without
 * brackets; also "localhost" and names under ".localhost". 1 private,
 * 0 public, -1 not an address (a name, checked when it is resolved). */
int lc_addr_text_private(const char *host);

/* An endpoint as stored. Times in ms; -1 none. */
struct lc_webhook {
	char id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char url[LC_WEBHOOK_URL_MAX + 1];
	char description[LC_BYTES(LC_WEBHOOK_DESC_MAX)];
	char event_types[LC_WEBHOOK_TYPES_LEN];	/* "" with all_types */
	int all_types;				/* event_types NULL: all */
	int enabled;
	char disabled_reason[16];		/* "" none */
	char secret[LC_WEBHOOK_SECRET_LEN + 1];
	int64_t old_secret_until;		/* -1 none */
	int64_t created_at, updated_at, cursor_seq;
	int64_t attempts, next_attempt_at, failing_since, last_success_at;
	int64_t pending;	/* events waiting for it (read when asked) */
};

/* A one-off delivery beside the stream: a test or a re-send. */
struct lc_webhook_job {
	char id[LC_ID_LEN + 1];
	char webhook_id[LC_ID_LEN + 1];
	const char *kind;		/* "test", "resend" */
	int64_t event_seq;		/* a re-send's; -1 for a test */
	const char *payload;		/* a test's body; NULL a re-send */
	int64_t created_at;
};

/* What a create or a change asks for (absent members: NULL / -1). */
struct lc_webhook_in {
	const char *url, *description;
	/* The types asked for: n of them (n 0 with types_set: all, as null
	 * asks); types_set 0 leaves them as they are. */
	const char *types[32];
	size_t ntypes;
	int types_set;
	int enabled;			/* -1 unchanged */
};

/*
 * The checks, each 0 or -1 with e (VALIDATION_ERROR on its field):
 * an endpoint's URL (absolute http:// or https://, a host, no
 * user:password, no fragment, at most LC_WEBHOOK_URL_MAX bytes of
 * printable ASCII; https and a public literal address unless
 * allow_private); event types known and deliverable, without repeats.
 */
int lc_webhook_url_check(struct lc_error *, const char *url,
    int allow_private);
int lc_webhook_types_check(struct lc_error *, const char *const *types,
    size_t n);
/* 1 when an endpoint of event_types (its types one space apart, as
 * stored; NULL or "" all) takes an event of type, else 0: the one test
 * of it (db_hooks.c's pending count writes the same in SQL). */
int lc_webhook_wants(const char *event_types, const char *type);

/*
 * The rules, each inside a write (lc_write), on the caller's merchant;
 * 0, or -1 with dom->err (NOT_FOUND for an endpoint not the merchant's).
 * Create fills *w (its secret the new one); at most LC_WEBHOOK_MAX
 * endpoints a merchant (CONFLICT). Update changes what in asks;
 * enabling clears the failures (disabled_reason, failing_since,
 * attempts, next_attempt_at), and so does a new URL. Delete removes
 * the endpoint with its jobs and delivery log, *w as it was. Rotate
 * gives a new secret in *w, the old one signing alongside for
 * LC_WEBHOOK_ROTATE_MS. Test and resend add a job (*j); resend's
 * event_id ("evt_" and 16 digits) of the merchant's kept events, else
 * NOT_FOUND.
 */
int lc_webhook_create(struct lc_dom *, const struct lc_webhook_in *,
    struct lc_webhook *w);
int lc_webhook_update(struct lc_dom *, const char *id,
    const struct lc_webhook_in *, struct lc_webhook *w);
int lc_webhook_delete(struct lc_dom *, const char *id, struct lc_webhook *w);
int lc_webhook_rotate(struct lc_dom *, const char *id, struct lc_webhook *w);
int lc_webhook_test(struct lc_dom *, const char *id,
    struct lc_webhook_job *j);
int lc_webhook_resend(struct lc_dom *, const char *id, const char *event_id,
    struct lc_webhook_job *j);
/* The merchant's endpoint id into *w with its pending count: 1, 0 not
 * the merchant's (NOT_FOUND set), -1. */
int lc_webhook_get(struct lc_dom *, const char *id, struct lc_webhook *w);

/*
 * The deliverer's cron line for this installation into out: the admin
 * tool's path (the installed one, else beside the build's responders in
 * prog_dir, else in the home folder of the account the responders run
 * as, where the hosting guide has it uploaded) with --db db_path (a
 * PostgreSQL name with its password hidden), as
 * `* * * * * PATH --db DB events deliver >/dev/null`. Returns out.
 */
const char *lc_webhook_command(const char *db_path, const char *prog_dir,
    char *out, size_t outsz);

#endif /* LC_WEBHOOK_H */
