/*
 * The shop's objects (shop.c): what the admin tool and the owner's pages
 * create and change.
 */
#ifndef LC_SHOP_H
#define LC_SHOP_H

#include <stddef.h>
#include <stdint.h>

#include "lc_dom.h"

/* Shop setup (shop.c): what the admin tool (and later the owner's pages)
 * create. Each runs inside a write; 0, or -1 with dom->err. Text is
 * checked against the limits: UTF-8, no control characters. */
int lc_text_check(struct lc_error *, const char *field, const char *s,
    size_t maxchars, int empty_ok);
int lc_shop_merchant_add(struct lc_dom *, const char *name,
    char id[LC_ID_LEN + 1]);
int lc_shop_location_add(struct lc_dom *, const char *merchant_id,
    const char *name, char id[LC_ID_LEN + 1]);
/* hash: from lc_auth_hash_password, made before the write. */
int lc_shop_user_add(struct lc_dom *, const struct lc_user *u,
    char id[LC_ID_LEN + 1]);
/* "disable", "enable" or "passwd" (with hash); disable and passwd end
 * every session of the user. */
int lc_shop_user_change(struct lc_dom *, const char *verb, const char *user_id,
    const char *hash);
int lc_shop_program_add(struct lc_dom *, struct lc_program *p,
    char id[LC_ID_LEN + 1]);
/* Fills c's id, barcode, QR payload and share token; the caller (none
 * for the admin tool) is kept as who issued it. customer NULL: a card
 * without a name (its customer_name ""), named later or never. */
int lc_shop_card_issue(struct lc_dom *, const char *program_id,
    const char *customer, struct lc_card *c);
/* The same at the counter, at location_id (NULL: none). */
int lc_shop_card_issue_at(struct lc_dom *, const char *program_id,
    const char *customer, const char *location_id, struct lc_card *c);
/* n cards (1 to LC_ISSUE_MAX) as lc_shop_card_issue, names[i] each
 * (names NULL, or an entry NULL: without a name; else names holds n
 * entries); a batch's audit row
 * lists them all (card_ids). 0, or -1 with dom->err. */
int lc_shop_cards_issue(struct lc_dom *, const char *program_id,
    const char *const *names, size_t n, struct lc_card *cards);
int lc_shop_card_status(struct lc_dom *, const char *card_id, int active);

/* The owner's changes (shop.c), each on the caller's merchant only: an
 * id of another merchant is NOT_FOUND, as one that does not exist. A
 * field left NULL (or below 0 for a number) is not changed. */
int lc_shop_location_rename(struct lc_dom *, const char *id, const char *name,
    struct lc_location *out);
struct lc_user_change {
	const char *name, *location_id;
	int disabled;			/* 0, 1, or -1 unchanged */
	const char *hash;		/* a new password's hash */
};
int lc_shop_user_update(struct lc_dom *, const char *id,
    const struct lc_user_change *, struct lc_user *out);
struct lc_program_change {
	const char *title, *reward_title, *reward_description;
	int64_t reward_amount, cooldown_seconds;
	int64_t max_punches;		/* 0: no cap (up to 100) */
	struct lc_tier tiers[LC_TIERS_MAX];
	int ntiers;			/* 0: unchanged */
	/* Cashback: 0 never expire; for new earnings only. */
	int64_t expiry_days;
};
int lc_shop_program_update(struct lc_dom *, const char *id,
    const struct lc_program_change *, struct lc_program *out);
int lc_shop_card_update(struct lc_dom *, const char *id,
    const char *customer_name, int active, struct lc_card *out);
/* The caller's merchant's program, location or user: 0, or -1 NOT_FOUND. */
int lc_shop_program(struct lc_dom *, const char *id, struct lc_program *);
int lc_shop_location(struct lc_dom *, const char *id, struct lc_location *);
int lc_shop_user(struct lc_dom *, const char *id, struct lc_user *);

#endif /* LC_SHOP_H */
