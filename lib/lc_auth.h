/*
 * Logins, tokens, the throttle of guesses and who may act where
 * (rule_auth.c).
 */
#ifndef LC_AUTH_H
#define LC_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "lc_dom.h"

#define LC_TOKEN_LEN 43		/* base64url of 256 random bits */
struct lc_profile {
	struct lc_user user;
	struct lc_location *locations;	/* malloc'd; staff: their one */
	size_t nlocations;
	/* What the till shows and offers: the shop's settings (its own,
	 * else the installation's) and the installation's. */
	char currency_symbol[LC_BYTES(LC_CURRENCY_MAX)];
	char public_url[LC_BYTES(LC_URL_MAX)];	/* "" when unset */
	struct lc_currency currency;		/* code "" : none named */
	char time_zone[64];			/* "" : utc_offset_minutes */
	int64_t utc_offset_minutes;
	char language[8];
	int staff_enrolment;
	int64_t void_window;	/* minutes staff may void their own sale */
	int card_code;		/* claims and redemptions need the code */
};
void lc_profile_free(struct lc_profile *);
/* The user and the locations they act at: 0, or -1 (UNAUTHORIZED when
 * there is no such user). */
int lc_profile_get(struct lc_dom *, const char *user_id, struct lc_profile *);
struct lc_tokens {
	char access[LC_TOKEN_LEN + 1];
	char refresh[LC_TOKEN_LEN + 1];
	int64_t expires_in;	/* seconds */
};
struct lc_login_result {
	struct lc_tokens tokens;
	struct lc_profile profile;	/* free with lc_profile_free */
};
/* The guard of a secret against guesses, per key and client address
 * (dom->client_addr; see rule_auth.c): reserve runs its own writes
 * (waiting if it must) and fails with RATE_LIMITED; settle runs inside
 * the write that acts on the check. */
enum lc_guard_kind {
	/* An account's password: an address that logged in to it lately
	 * has a limit of its own; all others share the account's. */
	LC_GUARD_ACCOUNT,
	/* A secret of no account (the setup code, a card's time-based
	 * code): a limit per address, and LC_SETUP_CODE_CAP times it for
	 * all addresses together. */
	LC_GUARD_SECRET
};
struct lc_guard {
	char key[LC_EMAIL_MAX + 8];
	char addr[LC_ADDR_MAX + 1];
	enum lc_guard_kind kind;
	int shared;		/* counted in the key's shared limit */
	int capped;		/* refused by the shared limit */
	int64_t attempt;
};
int lc_guard_reserve(struct lc_dom *, const char *key, enum lc_guard_kind,
    struct lc_guard *);
int lc_guard_settle(struct lc_dom *, const struct lc_guard *, int failed);
/* Settles a check in a write of its own, when the write that should have
 * failed; the caller's error stays. */
void lc_guard_abandon(const struct lc_dom *, const struct lc_guard *,
    int failed);
/* Throttled per e-mail and address (LC_GUARD_ACCOUNT); runs its own
 * writes. 0, or -1 with dom->err. */
int lc_login(struct lc_dom *, const char *email, const char *password,
    struct lc_login_result *);
int lc_refresh(struct lc_dom *, const char *refresh_token, struct lc_tokens *);
/* Ends the logins (token families) of an access and a refresh token,
 * either NULL: 0 when one of them was live, else -1 (401). */
int lc_logout(struct lc_dom *, const char *access_token,
    const char *refresh_token);
/* The caller of a bearer access token into dom->caller: 0, or -1. */
int lc_auth_token(struct lc_dom *, const char *token);
/* The scope of a purchase, claim, redemption or void: 0, or -1 with
 * FORBIDDEN naming the field. credit: staff_user_id is credited with
 * something new, which a disabled user may not be (a read, such as the
 * list of what may be voided, passes 0). */
int lc_auth_scope(struct lc_dom *, const char *location_id,
    const char *staff_user_id, int credit);
/* scrypt hash of a password for storage, with the parameters of today
 * (rule_auth.c). 0 or -1. */
int lc_auth_hash_password(const char *password, char *out, size_t outsz);
/* 1 when the stored hash mcf was made with today's parameters; 0 when
 * with others (a login then stores its password hashed anew). */
int lc_auth_hash_current(const char *mcf);

/* Validators shared by the API and the admin tool (rule_auth.c). */
/* 1 when s is a password we accept (1 to LC_PASSWORD_MAX bytes). */
int lc_password_ok(const char *s);
/* 1 when s is an e-mail address we accept. */
int lc_email_ok(const char *s);

#endif /* LC_AUTH_H */
