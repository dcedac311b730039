/*
 * Integration tokens: made, checked, revoked; their scopes. A token is
 * LC_APITOKEN_TAG and 24 random bytes in base64url; only its SHA-256
 * digest is stored, so a copy of the database gives no usable token.
 * Unlike a login's token (rule_auth.c, scrypt), a token of 192 random
 * bits needs no slow digest: no one can guess one to test against it.
 */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "lc_core.h"

static const struct {
	const char *name;
	int bit;
} scopes[] = {
	{ "events:read", LC_SCOPE_EVENTS },
	{ "webhooks:manage", LC_SCOPE_HOOKS },
};
#define NSCOPES (sizeof(scopes) / sizeof(scopes[0]))

/* base64url of 24 bytes: 32 characters, no padding. */
#define SECRET_BYTES 24
#define DIGEST_HEX 64

int
lc_apitoken_scope(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < NSCOPES; i++)
		if (strcmp(scopes[i].name, name) == 0)
			return scopes[i].bit;
	return 0;
}

const char *
lc_apitoken_scope_name(int bit)
{
	size_t i;

	for (i = 0; i < NSCOPES; i++)
		if (scopes[i].bit == bit)
			return scopes[i].name;
	return NULL;
}

int
lc_apitoken_scopes_parse(const char *names)
{
	char one[32];
	size_t n;
	int bits = 0;

	while (names != NULL && *names != '\0') {
		names += strspn(names, " ");
		n = strcspn(names, " ");
		if (n > 0 && n < sizeof(one)) {
			memcpy(one, names, n);
			one[n] = '\0';
			bits |= lc_apitoken_scope(one);
		}
		names += n;
	}
	return bits;
}

void
lc_apitoken_scopes_text(int bits, char *out, size_t outsz)
{
	size_t i, o = 0;
	int n;

	if (outsz == 0)
		return;
	out[0] = '\0';
	for (i = 0; i < NSCOPES; i++) {
		if (!(bits & scopes[i].bit))
			continue;
		n = snprintf(out + o, outsz - o, "%s%s", o > 0 ? " " : "",
		    scopes[i].name);
		if (n < 0 || (size_t)n >= outsz - o)
			return;
		o += (size_t)n;
	}
}

int
lc_apitoken_is(const char *token)
{
	return token != NULL && strncmp(token, LC_APITOKEN_TAG,
	    strlen(LC_APITOKEN_TAG)) == 0;
}

static int
wellformed(const char *t)
{
	size_t tag = strlen(LC_APITOKEN_TAG);

	return strlen(t) == LC_APITOKEN_LEN && lc_apitoken_is(t) &&
	    strspn(t + tag, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789-_") == LC_APITOKEN_LEN - tag;
}

/* The token's SHA-256 in lowercase hex: 0 or -1. */
static int
digest_hex(const char *token, char out[DIGEST_HEX + 1])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0, i;

	if (EVP_Digest(token, strlen(token), md, &n, EVP_sha256(), NULL) != 1 ||
	    n * 2 != DIGEST_HEX) {
		lc_log("cannot compute SHA-256 (libcrypto)");
		return -1;
	}
	for (i = 0; i < n; i++) {
		out[2 * i] = hex[md[i] >> 4];
		out[2 * i + 1] = hex[md[i] & 0xf];
	}
	out[DIGEST_HEX] = '\0';
	return 0;
}

/* Its last use now, a write of bookkeeping only (no audit row). */
static int
touch_rule(struct lc_dom *dom, void *arg)
{
	return lc_db_apitoken_touch(dom->db, arg, dom->now_ms,
	    dom->now_ms - LC_APITOKEN_TOUCH_MS) == -1 ? -1 : 0;
}

int
lc_apitoken_auth(struct lc_dom *dom, const char *token, int want)
{
	struct lc_caller *c = &dom->caller;
	struct lc_apitoken t;
	struct lc_write w = { NULL, NULL, touch_rule, NULL, t.id,
	    LC_AUDIT_NONE, NULL, NULL };
	char dg[DIGEST_HEX + 1], stored[DIGEST_HEX + 1];
	int rc;

	if (!wellformed(token))
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The integration token is unknown or revoked.");
	if (digest_hex(token, dg) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	if ((rc = lc_db_apitoken_by_digest(dom->db, dg, &t, stored)) == -1)
		return -1;
	/* The index found it by the digest; compared again in constant
	 * time, so no answer's timing depends on how much of it matched. */
	if (rc == 0 || CRYPTO_memcmp(dg, stored, DIGEST_HEX) != 0 ||
	    t.revoked_at >= 0)
		return lc_dom_fail(dom, LC_E_UNAUTHORIZED, NULL,
		    "The integration token is unknown or revoked.");
	memset(c, 0, sizeof(*c));
	memcpy(c->merchant_id, t.merchant_id, sizeof(c->merchant_id));
	memcpy(c->token_id, t.id, sizeof(c->token_id));
	c->scopes = t.scopes;
	/* A refused use is no use: last_used_at tells the owner where the
	 * token works. */
	if (want == 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, NULL, "An integration "
		    "token may only read events and manage webhooks.");
	if ((t.scopes & want) == 0)
		return lc_dom_fail(dom, LC_E_FORBIDDEN, NULL, "This integration "
		    "token does not have the scope this needs (%s).",
		    lc_apitoken_scope_name(want) != NULL ?
		    lc_apitoken_scope_name(want) : "one of its scopes");
	if (t.last_used_at >= 0 &&
	    t.last_used_at > dom->now_ms - LC_APITOKEN_TOUCH_MS)
		return 0;
	/* The write ends the request's read snapshot: one again after. */
	if (lc_write(dom, &w, NULL) == -1)
		return -1;
	return lc_read_begin(dom);
}

int
lc_apitoken_create(struct lc_dom *dom, const char *name, int bits,
    struct lc_apitoken *t, char secret[LC_APITOKEN_LEN + 1])
{
	unsigned char raw[SECRET_BYTES];
	char dg[DIGEST_HEX + 1], names[64];
	size_t tag = strlen(LC_APITOKEN_TAG);
	int64_t live;

	if (bits == 0 || (bits & ~LC_SCOPE_ALL) != 0)
		return lc_dom_fail(dom, LC_E_VALIDATION, "scopes",
		    "scopes must name at least one known scope.");
	if (lc_db_apitokens_live(dom->db, dom->caller.merchant_id,
	    &live) == -1)
		return -1;
	if (live >= LC_APITOKEN_MAX)
		return lc_dom_fail(dom, LC_E_CONFLICT, NULL, "A shop may have "
		    "at most %d integration tokens: revoke one first.",
		    LC_APITOKEN_MAX);
	memset(t, 0, sizeof(*t));
	if (lc_uuid(t->id) == -1 || lc_random(raw, sizeof(raw)) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(secret, LC_APITOKEN_TAG, tag);
	if (lc_b64_encode(raw, sizeof(raw), secret + tag, 1) !=
	    LC_APITOKEN_LEN - tag) {
		lc_log("an integration token is not %d characters",
		    LC_APITOKEN_LEN);
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	secret[LC_APITOKEN_LEN] = '\0';
	if (digest_hex(secret, dg) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(t->merchant_id, dom->caller.merchant_id, sizeof(t->merchant_id));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->scopes = bits;
	memcpy(t->prefix, secret, LC_APITOKEN_PREFIX_LEN);
	t->prefix[LC_APITOKEN_PREFIX_LEN] = '\0';
	t->created_at = dom->now_ms;
	t->last_used_at = t->revoked_at = -1;
	lc_apitoken_scopes_text(bits, names, sizeof(names));
	if (lc_db_apitoken_add(dom->db, t, names, dg,
	    dom->caller.user_id) == -1)
		return -1;
	lc_audit_object(dom, t->id);
	return 0;
}

int
lc_apitoken_revoke(struct lc_dom *dom, const char *id, struct lc_apitoken *t)
{
	int rc;

	if ((rc = lc_db_apitoken_get(dom->db, dom->caller.merchant_id, id,
	    t)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL,
		    "No such integration token.");
	lc_audit_object(dom, t->id);
	/* Revoked before: the same answer again, and nothing written. */
	if (t->revoked_at >= 0) {
		lc_audit_skip(dom);
		return 0;
	}
	if (lc_db_apitoken_revoke(dom->db, id, dom->now_ms) != 1)
		return -1;
	t->revoked_at = dom->now_ms;
	return 0;
}
