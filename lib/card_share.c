/*
 * A card's share token: the unguessable name of the card's own page for
 * its customer (GET /api/v1/mycard/TOKEN), 128 bits from the system's
 * random source as 32 lowercase hex characters. Whoever holds the link
 * sees that one card, read-only; nothing else of the shop.
 */
#include <string.h>

#include "lc_core.h"

int
lc_share_token(char out[LC_SHARE_LEN + 1])
{
	return lc_random_hex(out, LC_SHARE_LEN);
}

int
lc_share_token_ok(const char *s)
{
	return strlen(s) == LC_SHARE_LEN &&
	    strspn(s, "0123456789abcdef") == LC_SHARE_LEN;
}

/* Never a token: the lookup a malformed one makes instead. */
#define NO_TOKEN "--------------------------------"

struct shared {
	const char *token;
	struct lc_card *card;
	int64_t *updated_at;
};

static int
shared_read(struct lc_dom *dom, void *arg)
{
	struct shared *sh = arg;
	int rc;

	if ((rc = lc_db_card_by_share(dom->db, sh->token, sh->card)) == -1 ||
	    (rc == 1 && lc_db_card_updated(dom->db, sh->card,
	    sh->updated_at) == -1))
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return rc == 1 ? 0 : lc_dom_fail(dom, LC_E_NOT_FOUND, NULL,
	    "No such card.");
}

int
lc_card_shared(struct lc_dom *dom, const char *token, struct lc_card *c,
    int64_t *updated_at)
{
	struct shared sh = { token, c, updated_at };

	/* A malformed token is looked up too, as one that cannot exist,
	 * so it answers as an unknown one does, in the same time: nothing
	 * tells a guesser which tokens are well formed. */
	if (!lc_share_token_ok(token))
		sh.token = NO_TOKEN;
	return lc_read(dom, shared_read, &sh);
}

/* A new token for card c, read inside the running write, and a new
 * secret of its codes: the old link names no card, and whoever copied the
 * old secret (a backup gone astray) makes no code, from the commit on.
 * 0, or -1 with dom->err. */
static int
redraw(struct lc_dom *dom, struct lc_card *c)
{
	if (lc_share_token(c->share_token) == -1 ||
	    lc_card_secret(c->code_secret) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, "no randomness");
	if (lc_db_card_set_share(dom->db, c->id, c->share_token,
	    c->code_secret) != 1)
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return 0;
}

int
lc_card_redraw(struct lc_dom *dom, const char *card_id, struct lc_card *c)
{
	int rc;

	if ((rc = lc_card_get(dom, LC_CARDKEY_ID, card_id, c)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "No such card.");
	/* What an idempotency key of the owner's names: the card. */
	if (dom->txn_id[0] == '\0')
		memcpy(dom->txn_id, c->id, sizeof(dom->txn_id));
	return redraw(dom, c);
}

int
lc_card_redraw_shared(struct lc_dom *dom, const char *token, struct lc_card *c)
{
	int rc;

	/* As a read: a malformed token is looked up as one that cannot
	 * exist, and answers as an unknown one. */
	if (!lc_share_token_ok(token))
		token = NO_TOKEN;
	if ((rc = lc_db_card_by_share(dom->db, token, c)) == -1)
		return -1;
	if (rc == 0)
		return lc_dom_fail(dom, LC_E_NOT_FOUND, NULL, "No such card.");
	/* No one is logged in: the holder of the link asked, which the
	 * row says in its own words, in the card's shop. */
	lc_audit_who(dom, "service", "", c->merchant_id);
	lc_audit_object(dom, c->id);
	lc_audit_note_str(dom, "requested_by", "card_link");
	return redraw(dom, c);
}
