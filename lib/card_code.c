/*
 * A card's time-based code: a keyed digest of the number of 60-second
 * steps since 1970 under the card's own secret (20 random bytes, kept in
 * the database and never shown), cut to 6 digits. The digest is scrypt at
 * its least cost (N=2, r=1, p=1: PBKDF2-HMAC-SHA256 keyed by the secret
 * around one tiny mix), libscrypt's, which the service has for passwords
 * anyway: RFC 6238's HMAC-SHA1 would need OpenSSL, which the static
 * bundles cannot carry with Debian's fixes (its Debian source is not on
 * every mirror). Only the service makes and checks the codes, so nothing
 * else need agree; tests check them against Python's hashlib.scrypt.
 * The customer's card page shows it in its QR code, after the
 * card's payload; with the owner's setting redeem_needs_card_code a
 * reward claim or a cashback redemption needs it, taken from a phone
 * showing the page now: a code of the current step or of the 4 before it
 * (a photo older than about 5 minutes is refused), and each step's code
 * once, never one older than the last taken (a photo replayed within
 * those minutes is refused too). Purchases never need it, so printed
 * cards keep earning, offline included.
 */
#include <stdint.h>
#include <string.h>

#include <libscrypt.h>

#include "lc_core.h"

int
lc_card_secret(char out[LC_CODE_SECRET_LEN + 1])
{
	return lc_random_hex(out, LC_CODE_SECRET_LEN);
}

int64_t
lc_card_code_step(int64_t now_ms)
{
	/* Times before 1970 never come; floor anyway. */
	int64_t ms = (int64_t)LC_CODE_STEP_SECONDS * 1000;

	return now_ms >= 0 ? now_ms / ms : -((-now_ms + ms - 1) / ms);
}

static int
hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ?
	    c - 'a' + 10 : -1;
}

int
lc_card_code_at(const char *secret, int64_t step,
    char out[LC_CODE_DIGITS + 1])
{
	static const char label[] = "loyalty-pos card code v1";
	unsigned char key[LC_CODE_SECRET_LEN / 2], salt[sizeof(label) - 1 + 8];
	unsigned char d[4];
	uint32_t bin;
	size_t i;
	int hi, lo;

	if (strlen(secret) != LC_CODE_SECRET_LEN)
		return -1;
	for (i = 0; i < sizeof(key); i++) {
		if ((hi = hexval(secret[2 * i])) < 0 ||
		    (lo = hexval(secret[2 * i + 1])) < 0)
			return -1;
		key[i] = (unsigned char)(hi << 4 | lo);
	}
	/* The salt: the label, then the step as 8 bytes, most significant
	 * first. */
	memcpy(salt, label, sizeof(label) - 1);
	for (i = 0; i < 8; i++)
		salt[sizeof(label) - 1 + i] =
		    (unsigned char)((uint64_t)step >> (56 - 8 * i));
	if (libscrypt_scrypt(key, sizeof(key), salt, sizeof(salt), 2, 1, 1, d,
	    sizeof(d)) != 0)
		return -1;
	/* 31 bits of it, as 6 digits (2^31 is 2,147 times 10^6: the codes
	 * are as good as even). */
	bin = (uint32_t)(d[0] & 0x7f) << 24 | (uint32_t)d[1] << 16 |
	    (uint32_t)d[2] << 8 | d[3];
	snprintf(out, LC_CODE_DIGITS + 1, "%06u", (unsigned)(bin % 1000000));
	return 0;
}

int
lc_card_code_form(const char *s)
{
	return strlen(s) == LC_CODE_DIGITS &&
	    strspn(s, "0123456789") == LC_CODE_DIGITS;
}

/* Equal texts of equal length, in a time that does not tell how much of
 * them agrees. */
static int
same(const char *a, const char *b)
{
	unsigned char d = 0;
	size_t i;

	for (i = 0; i < LC_CODE_DIGITS; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}

/* The refusal of a code of the card's that was taken already: no guess
 * (it proved the phone once), so the guard does not count it. */
static const char used_msg[] = "This code was used already: wait for the "
    "card page's next code (a new one each minute) and scan it.";

int
lc_card_code_take(struct lc_dom *dom, const struct lc_card *card,
    const char *code)
{
	char want[LC_CODE_DIGITS + 1];
	int64_t now = lc_card_code_step(dom->now_ms), s;
	int used = 0, rc;

	if (lc_setting(dom->db, LC_SET_CARD_CODE) != 1)
		return 0;
	if (code == NULL)
		return lc_dom_fail(dom, LC_E_CARD_CODE_REQUIRED, "card_code",
		    NULL);
	if (!lc_card_code_form(code) || card->code_secret[0] == '\0')
		return lc_dom_fail(dom, LC_E_CARD_CODE_INVALID, "card_code",
		    NULL);
	/* The newest step first: a code that two steps happen to share is
	 * taken as the newer one. */
	for (s = now; s >= now - LC_CODE_PAST_STEPS; s--) {
		if (lc_card_code_at(card->code_secret, s, want) == -1)
			return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
		if (!same(want, code))
			continue;
		if (s <= card->code_step_used) {
			used = 1;
			continue;
		}
		/* In the write's transaction: a claim refused after this
		 * (nothing pending, a low balance) gives the code back. */
		if ((rc = lc_db_card_code_use(dom->db, card->id, s)) == -1)
			return -1;
		if (rc == 1)
			return 0;
		used = 1;
	}
	return lc_dom_fail(dom, LC_E_CARD_CODE_INVALID, "card_code", used ?
	    "%s" : NULL, used_msg);
}

/*
 * Wrong codes count per card as the setup code's guesses do: an address
 * gets login_max_failures a window, all addresses LC_SETUP_CODE_CAP times
 * that (5 and 20 in 15 minutes by default). Against 5 valid codes in a
 * million, a guesser with a till's login but not the phone then needs
 * about 10,000 windows, some 100 days, for an even chance. The guess is
 * settled in a write of its own: the claim's write is rolled back with
 * the wrong code. A request without a code has nothing to guess (the
 * rule answers CARD_CODE_REQUIRED), nor has one of the card's codes
 * taken already (a stale scan: it cannot be taken again anyway).
 */
int
lc_card_code_write(struct lc_dom *dom, const char *card_id, const char *code,
    const struct lc_write *w, json_object **answer)
{
	char key[LC_EMAIL_MAX + 8];
	struct lc_guard g;
	int rc;

	if (code == NULL || lc_setting(dom->db, LC_SET_CARD_CODE) != 1)
		return lc_write(dom, w, answer);
	/* A longer id is cut: it names no card, and fails as one. */
	snprintf(key, sizeof(key), "card:%s", card_id);
	if (lc_guard_reserve(dom, key, LC_GUARD_SECRET, &g) == -1) {
		if (dom->err.code == LC_E_RATE_LIMITED) {
			snprintf(dom->err.field, sizeof(dom->err.field), "%s",
			    "card_code");
			snprintf(dom->err.msg, sizeof(dom->err.msg), "%s",
			    "Too many wrong codes for this card from this "
			    "till: it takes none for this card for a while. "
			    "Scan the QR code on the customer's phone later.");
		}
		return -1;
	}
	rc = lc_write(dom, w, answer);
	lc_guard_abandon(dom, &g, rc == -1 &&
	    dom->err.code == LC_E_CARD_CODE_INVALID &&
	    strcmp(dom->err.msg, used_msg) != 0);
	return rc;
}

int
lc_card_code_qr(const struct lc_card *card, int64_t now_ms, char *out,
    size_t size)
{
	char code[LC_CODE_DIGITS + 1];
	int n;

	if (lc_card_code_at(card->code_secret, lc_card_code_step(now_ms),
	    code) == -1)
		return -1;
	n = snprintf(out, size, "%s.%s", card->qr, code);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
