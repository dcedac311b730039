/*
 * Authentication rules: login with throttling, refresh rotation with reuse
 * detection, the bearer token check, the user's profile, and the write
 * scope of staff and owners.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libscrypt.h>

#include "lc_core.h"

#define LC_TOKEN_BYTES 32	/* 256 bits from the OS random source */

/*
 * Cost of stored password hashes, in this one place: OWASP's scrypt
 * setting N=2^14, r=8, p=5. It takes the memory p=1 takes (128 * r * N:
 * 16 MiB, which a Raspberry Pi has to spare for a few logins at once)
 * and five times the work. A login with a hash of other parameters (an
 * older, weaker setting) stores the password hashed anew (login_settle).
 */
#define LC_SCRYPT_LOG2N 14
#define LC_SCRYPT_R 8
#define LC_SCRYPT_P 5

/* A login waiting for other checks of its e-mail looks again after 20 ms
 * (a seventh of a password check), backing off to 200 ms while an account
 * is under attack, so waiters barely touch the database. */
#define LC_GUARD_POLL_MS 20
#define LC_GUARD_POLL_MAX_MS 200

/* The MCF's id and parameters ("$s1$0e0805$", as libscrypt writes them:
 * log2 N, r, p in hex) of a hash made now. */
#define LC_MCF_PREFIX_LEN 11
static void
mcf_prefix(char out[LC_MCF_PREFIX_LEN + 1])
{
	snprintf(out, LC_MCF_PREFIX_LEN + 1, "$s1$%02x%02x%02x$",
	    LC_SCRYPT_LOG2N, LC_SCRYPT_R, LC_SCRYPT_P);
}

/*
 * The salt and hash of nothing anyone knows, after the parameters of a
 * hash made now: checking a password for an unknown e-mail against it
 * costs the same work as a wrong password, so timing does not reveal
 * which accounts exist. (libscrypt_check works out what it compares from
 * the parameters and the salt; the hash part need only be of the form.)
 */
static const char lc_dummy_tail[] = "gKW3di/XGzOz/W3fKLo1WQ==$"
    "9xGoT45bHoVbGgvFxPeLrt+AsYQsTYzctVpRajoUtP9p0OoXYZzG0VkVyeIfW4tuqPT1"
    "vAeQD9bjb3jCQQUFRA==";

int
lc_auth_hash_password(const char *password, char *out, size_t outsz)
{
	if (outsz < SCRYPT_MCF_LEN)
		return -1;
	return libscrypt_hash(out, password, 1u << LC_SCRYPT_LOG2N,
	    LC_SCRYPT_R, LC_SCRYPT_P) > 0 ? 0 : -1;
}

int
lc_auth_hash_current(const char *mcf)
{
	char want[LC_MCF_PREFIX_LEN + 1];

	mcf_prefix(want);
	return strncmp(mcf, want, LC_MCF_PREFIX_LEN) == 0;
}

/*
 * After a wrong password against a hash of an older, cheaper setting, the
 * work that setting spared, so that the account answers as slowly as any
 * other and timing does not tell which accounts still have such a hash:
 * the work grows with p, so a dummy of the missing p at the same N and r
 * (a whole dummy for any other setting).
 */
static void dummy_mcf(char out[SCRYPT_MCF_LEN + 1]);
static int check_password(const char *mcf, const char *password);
static void
pad_check(const char *mcf, const char *password)
{
	char dummy[SCRYPT_MCF_LEN + 1], p2[3];
	unsigned n, r, p;

	dummy_mcf(dummy);
	if (sscanf(mcf, "$s1$%2x%2x%2x$", &n, &r, &p) == 3 &&
	    n == LC_SCRYPT_LOG2N && r == LC_SCRYPT_R && p >= 1 &&
	    p < LC_SCRYPT_P) {
		/* "$s1$0e0805$": p's two hex digits are at 8. */
		snprintf(p2, sizeof(p2), "%02x", LC_SCRYPT_P - p);
		memcpy(dummy + 8, p2, 2);
	}
	(void)check_password(dummy, password);
}

/* The dummy hash, with the parameters of a hash made now, into out. */
static void
dummy_mcf(char out[SCRYPT_MCF_LEN + 1])
{
	mcf_prefix(out);
	snprintf(out + LC_MCF_PREFIX_LEN, SCRYPT_MCF_LEN + 1 - LC_MCF_PREFIX_LEN,
	    "%s", lc_dummy_tail);
}

int
lc_password_ok(const char *s)
{
	return s != NULL && *s != '\0' && strlen(s) <= LC_PASSWORD_MAX;
}

int
lc_email_ok(const char *s)
{
	return strlen(s) <= LC_EMAIL_MAX && strchr(s, '@') != NULL &&
	    strchr(s, ' ') == NULL && lc_is_printable_ascii(s);
}

/* 1 when password matches the stored MCF hash. */
static int
check_password(const char *mcf, const char *password)
{
	char copy[SCRYPT_MCF_LEN + 1];

	/* libscrypt_check writes into the hash it is given: pass a copy. */
	if (strlen(mcf) >= sizeof(copy))
		return 0;
	memcpy(copy, mcf, strlen(mcf) + 1);
	return libscrypt_check(copy, password) > 0;
}

/*
 * The stored form of a token. A token is 256 random bits, so no one can
 * guess it and a slow hash buys nothing: scrypt at minimal cost with a
 * fixed salt is a plain one-way digest, deterministic so it can be looked
 * up by an index. A database leak then yields no usable token.
 */
static int
token_digest(const char *token, unsigned char out[LC_DIGEST_LEN])
{
	static const char salt[] = "loyalty-pos token v1";

	return libscrypt_scrypt((const uint8_t *)token, strlen(token),
	    (const uint8_t *)salt, sizeof(salt) - 1, 2, 1, 1, out,
	    LC_DIGEST_LEN) == 0 ? 0 : -1;
}

/*
 * The digest of a bearer token, remembered for the last few tokens this
 * process checked: a till sends the same access token with every request,
 * and libscrypt maps and unmaps memory for each digest (two system calls
 * of a lookup's dozen). Only well-formed tokens (LC_TOKEN_LEN) come here;
 * whether the token is still valid is asked of the database every time.
 */
#define LC_DIGEST_CACHE 8
static int
bearer_digest(const char *token, unsigned char out[LC_DIGEST_LEN])
{
	static struct {
		char token[LC_TOKEN_LEN + 1];
		unsigned char dg[LC_DIGEST_LEN];
	} seen[LC_DIGEST_CACHE];
	static unsigned next;
	unsigned i, k;
	unsigned char d;

	for (i = 0; i < LC_DIGEST_CACHE; i++) {
		/* In constant time: how long a comparison took must not
		 * tell a guesser how much of a remembered token it has. */
		for (d = 0, k = 0; k < LC_TOKEN_LEN; k++)
			d |= (unsigned char)(seen[i].token[k] ^ token[k]);
		if (d == 0) {
			memcpy(out, seen[i].dg, LC_DIGEST_LEN);
			return 0;
		}
	}
	if (token_digest(token, out) == -1)
		return -1;
	i = next++ % LC_DIGEST_CACHE;
	memcpy(seen[i].token, token, LC_TOKEN_LEN + 1);
	memcpy(seen[i].dg, out, LC_DIGEST_LEN);
	return 0;
}

static int
token_wellformed(const char *t)
{
	return strlen(t) == LC_TOKEN_LEN && strspn(t,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_") == LC_TOKEN_LEN;
}

/* Issues and stores one token of kind for user in family. */
static int
token_issue(struct lc_dom *dom, const char *kind, const char *user_id,
    const char *family, int64_t ttl, char out[LC_TOKEN_LEN + 1])
{
	unsigned char raw[LC_TOKEN_BYTES], dg[LC_DIGEST_LEN];

	if (lc_random(raw, sizeof(raw)) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	lc_b64_encode(raw, sizeof(raw), out, 1);
	if (token_digest(out, dg) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if (lc_db_token_add(dom->db, dg, kind, user_id, family,
	    dom->now_ms + ttl * 1000, dom->now_ms) == -1)
		return -1;
	return 0;
}

/* An access and a refresh token for user in family, inside a write. */
static int
token_pair(struct lc_dom *dom, const char *user_id, const char *family,
    struct lc_tokens *t)
{
	t->expires_in = lc_setting(dom->db, LC_SET_ACCESS_TTL);
	return token_issue(dom, "access", user_id, family, t->expires_in,
	    t->access) == -1 || token_issue(dom, "refresh", user_id, family,
	    lc_setting(dom->db, LC_SET_REFRESH_TTL), t->refresh) == -1 ? -1 : 0;
}

static int
location_push(void *arg, const struct lc_location *l)
{
	struct lc_profile *p = arg;
	struct lc_location *n;

	if ((n = realloc(p->locations, (p->nlocations + 1) * sizeof(*n))) == NULL)
		return -2;
	p->locations = n;
	p->locations[p->nlocations++] = *l;
	return 0;
}

void
lc_profile_free(struct lc_profile *p)
{
	free(p->locations);
	p->locations = NULL;
	p->nlocations = 0;
}

/*
 * A staff member acts at their one location; an owner at every location
 * of the merchant, the first created being the active one.
 */
int
lc_profile_get(struct lc_dom *dom, const char *user_id, struct lc_profile *p)
{
	struct lc_location l;
	int rc;

	memset(p, 0, sizeof(*p));
	if ((rc = lc_db_user_get(dom->db, user_id, &p->user)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL, NULL);
	if (!p->user.is_owner) {
		if ((rc = lc_db_location_get(dom->db, p->user.location_id,
		    &l)) == 1)
			rc = location_push(p, &l);
	} else
		rc = lc_db_locations(dom->db, p->user.merchant_id,
		    location_push, p);
	if (rc < 0) {
		lc_profile_free(p);
		return lc_dom_fail(dom, rc == -2 ? LC_E_INTERNAL : LC_E_DATABASE,
		    NULL, NULL);
	}
	/* The shop's own settings, each else the installation's. */
	lc_setting_shop_text(dom->db, p->user.merchant_id, LC_SET_CURRENCY,
	    p->currency_symbol, sizeof(p->currency_symbol));
	lc_setting_shop_text(dom->db, p->user.merchant_id, LC_SET_PUBLIC_URL,
	    p->public_url, sizeof(p->public_url));
	lc_setting_shop_text(dom->db, p->user.merchant_id, LC_SET_TIME_ZONE,
	    p->time_zone, sizeof(p->time_zone));
	lc_setting_shop_text(dom->db, p->user.merchant_id, LC_SET_LANGUAGE,
	    p->language, sizeof(p->language));
	if (lc_currency_of(dom->db, p->user.merchant_id, &p->currency) == -1) {
		lc_profile_free(p);
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	p->utc_offset_minutes = lc_setting(dom->db, LC_SET_UTC_OFFSET);
	p->staff_enrolment = lc_setting(dom->db, LC_SET_STAFF_ENROLMENT) == 1;
	p->void_window = lc_setting(dom->db, LC_SET_VOID_WINDOW);
	p->card_code = lc_setting(dom->db, LC_SET_CARD_CODE) == 1;
	return 0;
}

/*
 * The guard of a secret checked against guesses (a password, the setup
 * code), per key: a check is reserved before it starts, in a write,
 * refused when its counts hold login_max_failures failures in the
 * window, and kept waiting while failures plus checks in flight reach
 * it, so concurrent guesses can never check more than the limit while
 * right answers in parallel are delayed, never refused. The check's
 * outcome is settled in the write that acts on it. Whether to refuse or
 * wait is read from a snapshot first, so refused and waiting guesses
 * take no write lock from the tills.
 *
 * Counted per client address and key together, so that a stranger's
 * guesses cannot lock the owner out, while guesses from many addresses
 * still get no more than the limit in all:
 *
 * - An account's password (LC_GUARD_ACCOUNT). An address that logged in
 *   to the account, or refreshed one of its sessions, within the refresh
 *   token's lifetime is known to it (the shop's till, its office; the
 *   table login_known) and counts its own failures only,
 *   against the limit. Every other address counts its own and, shared,
 *   all failures of addresses unknown to the account, against the same
 *   limit: strangers together get login_max_failures guesses a window,
 *   and can lock out each other (and the owner on a new address) but
 *   not the owner's known ones. A success forgets its address's own
 *   failures (the owner's typos), not the strangers'.
 * - The setup code (LC_GUARD_SECRET), of no account yet: each address
 *   the limit, and all addresses together LC_SETUP_CODE_CAP times it.
 *   Once that cap is reached the code is refused from everywhere for the
 *   window; the proof file's way has a guard of its own (lc_setup).
 *
 * The address is REMOTE_ADDR as the web server gives it: behind a proxy
 * every client is the proxy's address, and shares its limits.
 */
struct guard_reserve {
	struct lc_guard *g;
	int wait;
	int64_t oldest_pending;
};

/* RATE_LIMITED, Retry-After: whole seconds, rounded up, until when;
 * the message says whom it stops, so the owner locked out by their own
 * typos knows where a login still works. */
static int
guard_refuse(struct lc_dom *dom, const struct lc_guard *g, int64_t when)
{
	dom->err.retry_after = (long)((when - dom->now_ms + 999) / 1000);
	if (dom->err.retry_after < 1)
		dom->err.retry_after = 1;
	if (g->kind == LC_GUARD_ACCOUNT)
		return lc_dom_fail(dom, LC_E_RATE_LIMITED, NULL, "Too many "
		    "wrong passwords for this account from here, lately. A "
		    "till or computer that has logged in to it in the last "
		    "days can still log in.");
	return lc_dom_fail(dom, LC_E_RATE_LIMITED, NULL, "Too many wrong "
	    "codes from here, lately.");
}

/* The guard's key of an account's logins, the e-mail in one case: 0, or
 * -1 when it is too long. */
static int
login_key(const char *email, char out[LC_EMAIL_MAX + 8])
{
	size_t i;

	/* Keyed apart from the setup code's guard. */
	if (snprintf(out, LC_EMAIL_MAX + 8, "login:%s", email) >= LC_EMAIL_MAX + 8)
		return -1;
	for (i = 0; out[i] != '\0'; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return 0;
}

/* The client's address as the guard keeps it ("" none), cut to fit. An
 * IPv6 address is its /64, the network of one household or shop, as a
 * device there draws a new address of it every day or so (privacy
 * addresses) and a stranger may draw many. */
static void
client_addr(const struct lc_dom *dom, char out[LC_ADDR_MAX + 1])
{
	const char *a = dom->client_addr != NULL ? dom->client_addr : "";
	unsigned char b[16];
	char net[INET6_ADDRSTRLEN];

	if (strchr(a, ':') != NULL && inet_pton(AF_INET6, a, b) == 1 &&
	    !IN6_IS_ADDR_V4MAPPED((struct in6_addr *)b)) {
		memset(b + 8, 0, 8);
		if (inet_ntop(AF_INET6, b, net, sizeof(net)) != NULL) {
			snprintf(out, LC_ADDR_MAX + 1, "%s/64", net);
			return;
		}
	}
	snprintf(out, LC_ADDR_MAX + 1, "%s", a);
}

/* Refuses (RATE_LIMITED), or says to wait or go, from the key's counts:
 * the address's own, and the shared ones when the check is shared. */
static int
guard_decide(struct lc_dom *dom, struct guard_reserve *gr)
{
	struct lc_guard *g = gr->g;
	int64_t max = lc_setting(dom->db, LC_SET_LOGIN_MAX_FAILURES);
	int64_t window = lc_setting(dom->db, LC_SET_LOGIN_WINDOW) * 1000;
	int64_t since = dom->now_ms - window;
	int64_t stale = dom->now_ms - LC_LOGIN_STALE_MS;
	int64_t cap = g->kind == LC_GUARD_SECRET ? max * LC_SETUP_CODE_CAP :
	    max;
	struct lc_attempts own, all;
	int rc, own_full, all_full;

	gr->wait = 0;
	g->capped = 0;
	g->shared = 1;
	if (g->kind == LC_GUARD_ACCOUNT) {
		if ((rc = lc_db_known(dom->db, g->key, g->addr, dom->now_ms -
		    lc_setting(dom->db, LC_SET_REFRESH_TTL) * 1000)) == -1)
			return -1;
		g->shared = !rc;
	}
	memset(&all, 0, sizeof(all));
	if (lc_db_attempts(dom->db, g->key, g->addr, since, stale,
	    &own) == -1 || (g->shared && lc_db_attempts(dom->db, g->key,
	    NULL, since, stale, &all) == -1))
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (own.failures >= max)
		return guard_refuse(dom, g, own.oldest + window);
	if (all.failures >= cap) {
		g->capped = 1;
		return guard_refuse(dom, g, all.oldest + window);
	}
	own_full = own.failures + own.pending >= max;
	all_full = all.failures + all.pending >= cap;
	gr->wait = own_full || all_full;
	gr->oldest_pending = own_full ? own.oldest_pending :
	    all.oldest_pending;
	return 0;
}

static int
guard_look(struct lc_dom *dom, void *arg)
{
	return guard_decide(dom, arg);
}

static int
guard_reserve_rule(struct lc_dom *dom, void *arg)
{
	struct guard_reserve *gr = arg;
	int64_t window = lc_setting(dom->db, LC_SET_LOGIN_WINDOW) * 1000;

	if (guard_decide(dom, gr) == -1 || gr->wait)
		return gr->wait ? 0 : -1;
	if (lc_db_attempts_prune(dom->db, dom->now_ms - window,
	    dom->now_ms - LC_LOGIN_STALE_MS) == -1 ||
	    lc_db_attempt_add(dom->db, gr->g->key, gr->g->addr, gr->g->shared,
	    dom->now_ms, &gr->g->attempt) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

static void
sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		continue;
}

int
lc_guard_reserve(struct lc_dom *dom, const char *key,
    enum lc_guard_kind kind, struct lc_guard *g)
{
	struct guard_reserve gr = { g, 0, 0 };
	struct lc_write w = { NULL, NULL, guard_reserve_rule, NULL, &gr,
	    LC_AUDIT_NONE, NULL, NULL };
	long poll = LC_GUARD_POLL_MS, waited = 0;
	unsigned char jitter;
	size_t i;

	memset(g, 0, sizeof(*g));
	for (i = 0; key[i] != '\0' && i < sizeof(g->key) - 1; i++)
		g->key[i] = (char)tolower((unsigned char)key[i]);
	g->kind = kind;
	client_addr(dom, g->addr);
	for (;;) {
		if (lc_read(dom, guard_look, &gr) == -1)
			return -1;
		/* It looked free: reserve, looking again under the lock. */
		if (!gr.wait && lc_write(dom, &w, NULL) == -1)
			return -1;
		if (!gr.wait)
			return 0;
		/* Counted in sleeps, not by the wall clock, which a Pi
		 * without a clock chip may step back. */
		if (waited >= LC_LOGIN_WAIT_MS) {
			dom->err.retry_after = (long)((gr.oldest_pending +
			    LC_LOGIN_STALE_MS - dom->now_ms + 999) / 1000);
			if (dom->err.retry_after < 1)
				dom->err.retry_after = 1;
			return lc_dom_fail(dom, LC_E_RATE_LIMITED, NULL,
			    "Other logins of this account are being checked; "
			    "try again shortly.");
		}
		if (lc_random(&jitter, 1) == -1)
			jitter = 0;
		sleep_ms(poll + jitter % (poll / 2 + 1));
		waited += poll;
		poll = poll * 2 > LC_GUARD_POLL_MAX_MS ? LC_GUARD_POLL_MAX_MS :
		    poll * 2;
		dom->now_ms = lc_now_ms();
	}
}

/* failed: 1 a wrong guess, 0 a right one, -1 no verdict (the check never
 * ran, or its write failed): the reservation goes, nothing is learnt. */
int
lc_guard_settle(struct lc_dom *dom, const struct lc_guard *g, int failed)
{
	int rc = lc_db_attempt_settle(dom->db, g->attempt, failed > 0,
	    dom->now_ms);

	if (rc == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	if (rc == 0)
		lc_log("the check of %s outlived its record (window shorter "
		    "than the check?)", g->key);
	if (failed)
		return 0;
	/* A success wipes its address's failures, and its checks that
	 * died; others' stay. */
	if (lc_db_attempts_clear(dom->db, g->key, g->addr,
	    dom->now_ms - LC_LOGIN_STALE_MS) == -1)
		return -1;
	/* The address is known to the account from now on, for the
	 * refresh token's lifetime. */
	if (g->kind == LC_GUARD_ACCOUNT && (lc_db_known_add(dom->db, g->key,
	    g->addr, dom->now_ms) == -1 || lc_db_known_prune(dom->db,
	    dom->now_ms - lc_setting(dom->db, LC_SET_REFRESH_TTL) * 1000) == -1))
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

struct guard_end {
	const struct lc_guard *g;
	int failed;
};

static int
guard_end_rule(struct lc_dom *dom, void *arg)
{
	struct guard_end *ge = arg;

	return lc_guard_settle(dom, ge->g, ge->failed);
}

void
lc_guard_abandon(const struct lc_dom *dom, const struct lc_guard *g,
    int failed)
{
	struct guard_end ge = { g, failed };
	struct lc_write w = { NULL, NULL, guard_end_rule, NULL, &ge,
	    LC_AUDIT_NONE, NULL, NULL };
	struct lc_dom d = *dom;

	/* Its own context: the error the caller answers stays. */
	d.now_ms = lc_now_ms();
	if (lc_write(&d, &w, NULL) == -1)
		lc_log("the check of %s stays pending until it goes stale",
		    g->key);
}

/* The audit row of a login names its user, who is not yet a caller. */
static void
audit_user(struct lc_dom *dom, const struct lc_user *u)
{
	lc_audit_who(dom, u->is_owner ? "owner" : "system_user", u->id,
	    u->merchant_id);
	lc_audit_where(dom, u->location_id[0] ? u->location_id : NULL, NULL);
}

/*
 * Login: the guard, then the password check (slow, scrypt, outside any
 * transaction), then one write that settles the guard and logs in only if
 * the user is still enabled and has the very hash that was checked: a
 * password change or a disable that committed meanwhile wins, so no
 * session is ever made with an old password.
 */
struct login {
	struct lc_guard g;
	int found;
	struct lc_user user;
	int ok;				/* the password matched */
	/* The password hashed anew when its hash was made with other
	 * parameters than a new one is: "" none. */
	char rehash[LC_HASH_MAX + 1];
	char family[LC_ID_LEN + 1];
	struct lc_login_result *r;
};

static int
login_settle(struct lc_dom *dom, void *arg)
{
	struct login *l = arg;
	struct lc_user now;
	int rc;

	if (!l->ok) {
		/* A wrong password of an account is its shop's to know; a
		 * guess at an address that is no one's is no shop's (and
		 * unthrottled across addresses, it would fill the trail). */
		if (l->found) {
			dom->audit.action = "auth.login_failed";
			audit_user(dom, &l->user);
		} else
			lc_audit_skip(dom);
		return lc_guard_settle(dom, &l->g, 1);
	}
	if ((rc = lc_db_user_get(dom->db, l->user.id, &now)) == -1)
		return -1;
	if (rc == 0 || now.disabled ||
	    strcmp(now.password_hash, l->user.password_hash) != 0) {
		/* Changed while we checked: the checked password is no
		 * longer the user's. Not a guess, so not a failure. */
		l->ok = 0;
		lc_audit_skip(dom);
		return lc_db_attempt_settle(dom->db, l->g.attempt, 0, 0) == -1 ?
		    lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
	}
	if (lc_guard_settle(dom, &l->g, 0) == -1)
		return -1;
	/* In the login's write: the stored hash was the one checked (just
	 * above), so no change of password made meanwhile is undone. */
	if (l->rehash[0] != '\0' && lc_db_user_set_password(dom->db, now.id,
	    l->rehash) == -1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	audit_user(dom, &now);
	lc_audit_object(dom, l->family);
	if (lc_db_tokens_prune(dom->db, dom->now_ms) == -1)
		return -1;
	if (token_pair(dom, now.id, l->family, &l->r->tokens) == -1)
		return -1;
	return lc_profile_get(dom, now.id, &l->r->profile);
}

int
lc_login(struct lc_dom *dom, const char *email, const char *password,
    struct lc_login_result *r)
{
	struct login l;
	struct lc_write w = { NULL, NULL, login_settle, NULL, &l,
	    "auth.login", "session", NULL };
	char key[LC_EMAIL_MAX + 8], dummy[SCRYPT_MCF_LEN + 1];
	int rc;

	memset(r, 0, sizeof(*r));
	memset(&l, 0, sizeof(l));
	l.r = r;
	/* Everything that can fail on its own comes before the guard, so
	 * a reserved check is always settled. */
	if (lc_uuid(l.family) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if (login_key(email, key) == -1)
		return lc_dom_fail(dom, LC_E_INVALID_CREDENTIALS, NULL, NULL);
	if (lc_guard_reserve(dom, key, LC_GUARD_ACCOUNT, &l.g) == -1)
		return -1;
	/* A disabled user is an unknown one; either costs a full check. */
	if ((rc = lc_db_user_by_email(dom->db, email, &l.user)) == -1) {
		lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
		lc_guard_abandon(dom, &l.g, -1);
		return -1;
	}
	l.found = rc == 1 && !l.user.disabled;
	dummy_mcf(dummy);
	l.ok = check_password(l.found ? l.user.password_hash : dummy,
	    password) && l.found;
	if (l.found && !l.ok && !lc_auth_hash_current(l.user.password_hash))
		pad_check(l.user.password_hash, password);
	/* Only a right password is hashed anew (never a guess): a hash of
	 * an older setting is made to today's while the password is at
	 * hand. Failing that, the login goes on with the old one. */
	if (l.ok && !lc_auth_hash_current(l.user.password_hash) &&
	    lc_auth_hash_password(password, l.rehash, sizeof(l.rehash)) == -1) {
		lc_log("cannot hash a password anew: the old hash stays");
		l.rehash[0] = '\0';
	}
	dom->now_ms = lc_now_ms();
	if (lc_write(dom, &w, NULL) == -1) {
		lc_profile_free(&r->profile);
		/* A wrong password counts whatever became of the write;
		 * a right one not logged in clears and knows nothing. */
		lc_guard_abandon(dom, &l.g, l.ok ? -1 : 1);
		return -1;
	}
	if (!l.ok)
		return lc_dom_fail(dom, LC_E_INVALID_CREDENTIALS, NULL, NULL);
	return 0;
}

/* Refresh: rotation, with reuse of a rotated token revoking its login. */
struct refresh {
	unsigned char dg[LC_DIGEST_LEN];
	int reused;
	struct lc_tokens *t;
};

static int
refresh_rule(struct lc_dom *dom, void *arg)
{
	struct refresh *rf = arg;
	struct lc_token tok;
	struct lc_user u;
	char key[LC_EMAIL_MAX + 8], addr[LC_ADDR_MAX + 1];
	int rc;

	if ((rc = lc_db_token_get(dom->db, rf->dg, &tok)) == -1)
		return -1;
	if (rc == 0 || strcmp(tok.kind, "refresh") != 0 || tok.revoked ||
	    tok.expires_at <= dom->now_ms)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token is invalid or expired.");
	lc_audit_who(dom, tok.is_owner ? "owner" : "system_user", tok.user_id,
	    tok.merchant_id);
	lc_audit_where(dom, tok.location_id[0] ? tok.location_id : NULL, NULL);
	lc_audit_object(dom, tok.family);
	if (tok.rotated) {
		/* A rotated token presented again: someone holds a copy.
		 * Revoke everything descended from that login, and commit
		 * that before refusing. */
		if (lc_db_tokens_revoke_family(dom->db, tok.family) == -1)
			return -1;
		lc_log("refresh token reuse: revoked login family %s",
		    tok.family);
		dom->audit.action = "auth.refresh_reuse";
		rf->reused = 1;
		return 0;
	}
	if (lc_db_token_rotate(dom->db, rf->dg, dom->now_ms) != 1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	/* A till kept signed in by its refresh token, which may not log in
	 * for months, stays known to its account at its address (the
	 * guard's), as a login there would keep it. */
	client_addr(dom, addr);
	if ((rc = lc_db_user_get(dom->db, tok.user_id, &u)) == -1 ||
	    (rc == 1 && login_key(u.email, key) == 0 &&
	    lc_db_known_add(dom->db, key, addr, dom->now_ms) == -1))
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	/* The addresses known no longer go here too: a shop whose tills
	 * only ever refresh keeps none past the refresh token's life. */
	if (lc_db_known_prune(dom->db, dom->now_ms -
	    lc_setting(dom->db, LC_SET_REFRESH_TTL) * 1000) == -1)
		return -1;
	return token_pair(dom, tok.user_id, tok.family, rf->t);
}

int
lc_refresh(struct lc_dom *dom, const char *token, struct lc_tokens *t)
{
	struct refresh rf;
	struct lc_write w = { NULL, NULL, refresh_rule, NULL, &rf,
	    "auth.refresh", "session", NULL };

	memset(&rf, 0, sizeof(rf));
	rf.t = t;
	if (!token_wellformed(token))
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token is invalid or expired.");
	if (token_digest(token, rf.dg) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	if (rf.reused)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The refresh token was already used; log in again.");
	return 0;
}

/*
 * Log out: each token's login, the family of every token descended from
 * it, revoked in one write, so neither the access token nor any refresh
 * token of that login works after. Either token will do (an access token
 * expires within the hour, a page may hold only its refresh token); one
 * of another user's login ends that login, as whoever holds it could use
 * it anyway.
 */
struct logout {
	const char *kind[2];
	unsigned char dg[2][LC_DIGEST_LEN];
	int n;
};

static int
logout_rule(struct lc_dom *dom, void *arg)
{
	struct logout *lo = arg;
	struct lc_token tok;
	char family[LC_ID_LEN + 1] = "";
	int i, rc;

	for (i = 0; i < lo->n; i++) {
		if ((rc = lc_db_token_get(dom->db, lo->dg[i], &tok)) == -1)
			return -1;
		/* An access token names its login after it expired too: the
		 * login's refresh token may well live on. */
		if (rc == 0 || strcmp(tok.kind, lo->kind[i]) != 0 ||
		    tok.revoked || (strcmp(tok.kind, "refresh") == 0 &&
		    tok.expires_at <= dom->now_ms))
			continue;
		if (family[0] != '\0') {
			if (strcmp(family, tok.family) == 0)
				continue;
			/* One logout, one login, one row of the trail. */
			return lc_dom_fail(dom, LC_E_VALIDATION,
			    "refresh_token", "The refresh_token is of another "
			    "login than the bearer token: send one login's "
			    "tokens.");
		}
		memcpy(family, tok.family, sizeof(family));
		if (lc_db_tokens_revoke_family(dom->db, tok.family) == -1)
			return -1;
		lc_audit_who(dom, tok.is_owner ? "owner" : "system_user",
		    tok.user_id, tok.merchant_id);
		lc_audit_where(dom, tok.location_id[0] ? tok.location_id :
		    NULL, NULL);
		lc_audit_object(dom, tok.family);
	}
	if (family[0] == '\0')
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The session has ended already, or the token is invalid "
		    "or expired.");
	return 0;
}

int
lc_logout(struct lc_dom *dom, const char *access, const char *refresh)
{
	struct logout lo;
	struct lc_write w = { NULL, NULL, logout_rule, NULL, &lo,
	    "auth.logout", "session", NULL };
	const char *tok[2] = { access, refresh };
	static const char *const kind[2] = { "access", "refresh" };
	int i;

	memset(&lo, 0, sizeof(lo));
	for (i = 0; i < 2; i++) {
		if (tok[i] == NULL || !token_wellformed(tok[i]))
			continue;
		if (token_digest(tok[i], lo.dg[lo.n]) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		lo.kind[lo.n++] = kind[i];
	}
	if (access == NULL && refresh == NULL)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "Send the session's access token (Authorization: Bearer) "
		    "or its refresh_token.");
	/* Malformed tokens: the rule's answer, without a write. */
	if (lo.n == 0)
		return logout_rule(dom, &lo);
	return lc_write(dom, &w, NULL) == -1 ? -1 : 0;
}

int
lc_auth_token(struct lc_dom *dom, const char *token)
{
	unsigned char dg[LC_DIGEST_LEN];
	struct lc_caller *c = &dom->caller;
	struct lc_token t;
	int rc;

	if (!token_wellformed(token))
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The access token is invalid or expired.");
	if (bearer_digest(token, dg) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if ((rc = lc_db_token_get(dom->db, dg, &t)) == -1)
		return -1;
	if (rc == 0 || strcmp(t.kind, "access") != 0 || t.revoked ||
	    t.expires_at <= dom->now_ms)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The access token is invalid or expired.");
	memcpy(c->user_id, t.user_id, sizeof(c->user_id));
	memcpy(c->merchant_id, t.merchant_id, sizeof(c->merchant_id));
	memcpy(c->location_id, t.location_id, sizeof(c->location_id));
	memcpy(c->family, t.family, sizeof(c->family));
	c->is_owner = t.is_owner;
	return 0;
}

int
lc_auth_scope(struct lc_dom *dom, const char *location_id,
    const char *staff_user_id, int credit)
{
	const struct lc_caller *c = &dom->caller;
	struct lc_location l;
	struct lc_user u;
	int rc;

	if (!c->is_owner) {
		/* Staff act at their own location, as themselves. */
		if (strcmp(location_id, c->location_id) != 0)
			return lc_dom_fail(dom, LC_E_FORBIDDEN, "location_id",
			    "You can only act at your own location.");
		if (strcmp(staff_user_id, c->user_id) != 0)
			return lc_dom_fail(dom, LC_E_FORBIDDEN, "staff_user_id",
			    "You can only act as yourself.");
		return 0;
	}
	if ((rc = lc_db_location_get(dom->db, location_id, &l)) == -1)
		return -1;
	if (rc == 0 || strcmp(l.merchant_id, c->merchant_id) != 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "location_id",
		    "This location is not one of your merchant's.");
	if ((rc = lc_db_user_get(dom->db, staff_user_id, &u)) == -1)
		return -1;
	if (rc == 0 || strcmp(u.merchant_id, c->merchant_id) != 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "staff_user_id",
		    "This user is not one of your merchant's.");
	/* A disabled account may log in no more, and is credited with
	 * nothing new either (enable it again first). */
	if (credit && u.disabled)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, "staff_user_id",
		    "This user is disabled: nothing new can be recorded as "
		    "theirs.");
	return 0;
}
