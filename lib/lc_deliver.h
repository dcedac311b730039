/*
 * The deliverer (deliver.c, deliver_http.c, sign.c): webhooks sent
 * outside any till's request, signed by the Standard Webhooks
 * specification, retried, pruned.
 */
#ifndef LC_DELIVER_H
#define LC_DELIVER_H

#include "lc_dom.h"

/* The deliverer's rules (the design of issue 28): not limits of what a
 * client sends, so not in lc_limits.h or the pages' tables. */
#define LC_DELIVER_RESPONSE_MAX 512	/* an answer's bytes kept in the log */
#define LC_DELIVER_TIMEOUT_MS 10000	/* a 2xx within this counts */
#define LC_DELIVER_BACKOFF_MS 10000	/* after the first failure */
#define LC_DELIVER_BACKOFF_MAX_MS (6LL * 3600 * 1000)
/* An endpoint failing everything this long is disabled ('failing');
 * with the backoff's cap, each event is tried for days before that. */
#define LC_DELIVER_FAILING_MS (5LL * 86400 * 1000)
/* A run holds an endpoint or a job this long for one attempt: well
 * beyond the attempt's timeout, so another run never sends it too;
 * a run killed mid-attempt frees it when it ends. This lease is the
 * bound of "two runs never send one attempt twice": an attempt whose
 * take, send and record together outlast it (a stalled process, a
 * database wait over 50 s) can meet another run's attempt of the same
 * event; the record of the later holder stands, the earlier's is
 * dropped (its log says so). */
#define LC_DELIVER_LEASE_MS 60000
/* Events scanned past in one step for an endpoint's types. */
#define LC_DELIVER_SCAN 500

/* Standard Webhooks (sign.c). "v1," and the base64 of HMAC-SHA256 of
 * "id.timestamp.body" keyed with the bytes of secret ("whsec_" and
 * base64; the prefix may be left off), into out (LC_SIGN_MAX bytes): 0,
 * or -1 when the secret is not one (nothing useful in out). */
#define LC_SIGN_MAX 64
int lc_sign(const char *secret, const char *id, int64_t timestamp,
    const char *body, size_t len, char out[LC_SIGN_MAX]);

/* One POST (deliver_http.c). */
enum lc_post_outcome {
	LC_POST_DELIVERED,	/* a 2xx answer */
	LC_POST_FAILED,		/* another answer, or none (error says) */
	LC_POST_REFUSED		/* the address is one not sent to */
};
struct lc_post {
	enum lc_post_outcome outcome;
	long status;		/* the answer's, 0 none */
	int64_t duration_ms;
	char response[LC_DELIVER_RESPONSE_MAX + 1];	/* its first bytes */
	char error[256];	/* "" none */
};
/* Once per process, before any lc_post_send: 0, or -1 (logged). */
int lc_post_init(void);
/* POSTs body (application/json) to url with the extra header lines
 * ("Name: value", NULL-ended): no redirect followed, no proxy, http and
 * https only, LC_DELIVER_TIMEOUT_MS in all, the peer's address checked
 * after resolution unless allow_private. Fills *p; never fails otherwise
 * (a failure is an outcome). */
void lc_post_send(const char *url, const char *const *headers,
    const char *body, size_t len, int allow_private, struct lc_post *p);
/* The backoff after attempt n (1: the first failure) in ms, jitter
 * included: LC_DELIVER_BACKOFF_MS doubling, at most LC_DELIVER_BACKOFF_MAX_MS,
 * then +-20 %. */
int64_t lc_deliver_backoff(int64_t n);

/* One run of the deliverer: what is due, until nothing is or max_ms of
 * real time has passed; the deliverer's row and the pruning after the
 * retention too. 0, or -1 with dom->err (a storage failure: what was
 * delivered so far is recorded). *sent: the attempts made. */
int lc_deliver_run(struct lc_dom *, int64_t max_ms, long *sent);

#endif /* LC_DELIVER_H */
