/*
 * The rules of the service, apart from HTTP: cards and their types, and
 * what a till does with them (purchase, claim, redeem, void, adjust);
 * the other rooms' headers below. A rule reads and writes through
 * storage (lc_store.h) and returns a result struct or an error; it never
 * sees a request or builds an answer.
 */
#ifndef LC_RULES_H
#define LC_RULES_H

#include "lc_dom.h"
#include "lc_settings.h"
#include "lc_enrol.h"
#include "lc_auth.h"
#include "lc_setup.h"
#include "lc_shop.h"

/* Cards (card.c). */
/* A card type's rules, side by side in card_punch.c, card_cashback.c,
 * card_discount.c. */
struct lc_purchase;
struct lc_purchase_result;
struct lc_cardtype {
	const char *name;
	/* Records purchase p on card c inside the write: inserts txn t
	 * (id, card and caller fields set), updates c and the store, and
	 * fills r. 0, or -1 with dom->err. */
	int (*purchase)(struct lc_dom *, struct lc_card *c,
	    const struct lc_purchase *p, struct lc_txn *t,
	    struct lc_purchase_result *r);
};
extern const struct lc_cardtype lc_cardtype_punch;
extern const struct lc_cardtype lc_cardtype_cashback;
extern const struct lc_cardtype lc_cardtype_discount;

/* The caller's merchant's card: 1 found, 0 not, -1 with dom->err. */
int lc_card_get(struct lc_dom *, enum lc_cardkey, const char *value,
    struct lc_card *);
/* The card named by up to three identifiers that must agree: 0, or -1
 * (CARD_NOT_FOUND, VALIDATION_ERROR). */
int lc_card_resolve(struct lc_dom *, const char *card_id, const char *qr,
    const char *barcode, struct lc_card *);
/* By id, active and of type want: 0, or -1 (CARD_NOT_FOUND,
 * CARD_INACTIVE, WRONG_CARD_TYPE). */
int lc_card_for(struct lc_dom *, const char *card_id, const char *want,
    struct lc_card *);
int lc_card_save(struct lc_dom *, const struct lc_card *);
/* The tier a lifetime spend falls in (0 when none), and the tier now. */
int lc_card_tier(const struct lc_card *, int64_t spend);
int64_t lc_card_rate(const struct lc_card *);
const char *lc_card_tier_name(const struct lc_card *);
/* The rate of the tier before amount, then adds amount to lifetime
 * spend; *changed: the card moved to another tier. */
int64_t lc_card_tiered_purchase(struct lc_card *, int64_t amount, int *changed);
/* v * bp / 10000 rounded half away from zero (v >= 0). */
int64_t lc_apply_rate(int64_t v, int64_t bp);
/* A new transaction row of card for the caller's write. 0 or -1. */
int lc_txn_new(struct lc_dom *, struct lc_txn *, const struct lc_card *,
    const char *location_id, const char *staff_user_id, const char *type,
    int64_t at);
/* Stores t; the first of a write is the one its key points at. */
int lc_txn_add(struct lc_dom *, const struct lc_txn *);

/* A purchase (rule_purchase.c), from record, a sync item, or redeem's
 * earn-on-remainder. */
struct lc_purchase {
	const char *qr, *card_id, *barcode;	/* NULL when absent */
	const char *location_id, *staff_user_id;
	int64_t amount;				/* cents */
	int64_t punch_count;			/* 1 when not given */
	const char *notes, *key, *pos_ref, *pos_term, *client_ts;
	int64_t client_ms;			/* client_ts parsed */
	int64_t at_ms;				/* when it happened */
	const char *parent_id;	/* earn-on-remainder: its redemption */
};
struct lc_purchase_result {
	char txn_id[LC_ID_LEN + 1];
	const char *card_type;
	int64_t purchase_amount;
	/* Punch. */
	int64_t punches_added, new_punch_count, rewards_earned, pending_rewards;
	struct lc_reward reward;	/* the first earned, when any */
	/* Cashback and discount. */
	int64_t rate_bp, cashback_earned, new_balance;
	int64_t discount_amount, final_amount;
	int tier_changed;
	char tier_name[LC_BYTES(LC_TIER_NAME_MAX)];
};
int lc_purchase(struct lc_dom *, const struct lc_purchase *,
    struct lc_purchase_result *);

/* Reward claim (rule_claim.c). */
struct lc_claim {
	const char *card_id, *location_id, *staff_user_id, *key;
	const char *card_code;	/* NULL: none sent */
};
struct lc_claim_result {
	char txn_id[LC_ID_LEN + 1];
	struct lc_reward reward;
	int64_t pending_remaining;
};
int lc_claim(struct lc_dom *, const struct lc_claim *, struct lc_claim_result *);

/* Cashback redemption (rule_redeem.c). */
struct lc_redeem {
	const char *card_id, *location_id, *staff_user_id, *notes, *key;
	const char *card_code;	/* NULL: none sent */
	int64_t amount, purchase;	/* cents */
	int earn;			/* earn on the remainder */
};
struct lc_redeem_entry {
	char earning_txn_id[LC_ID_LEN + 1];
	int64_t amount_used, earned_at;
};
struct lc_redeem_result {
	char txn_id[LC_ID_LEN + 1];
	int64_t redeemed, new_balance, final_amount;
	struct lc_redeem_entry *entries;	/* malloc'd */
	size_t nentries;
	int earned;				/* earned below is set */
	struct lc_purchase_result earn;
};
int lc_redeem(struct lc_dom *, const struct lc_redeem *, struct lc_redeem_result *);
void lc_redeem_result_free(struct lc_redeem_result *);

/* Void (rule_void.c): a transaction undone by a 'void' linked to it. */
struct lc_void {
	const char *txn_id, *reason, *location_id, *staff_user_id, *key;
};
struct lc_void_result {
	char txn_id[LC_ID_LEN + 1];		/* the void */
	char voided_id[LC_ID_LEN + 1];
	char voided_type[16];
	/* A redemption's earn-on-remainder purchase, voided with it by
	 * also_txn_id ("" none). */
	char also_voided_id[LC_ID_LEN + 1];
	char also_txn_id[LC_ID_LEN + 1];
	struct lc_card card;			/* as the void left it */
	int64_t punches_removed, rewards_withdrawn;
	int64_t cashback_removed, cashback_not_removed;
	int64_t cashback_returned, cashback_not_returned;
	int64_t spend_removed;
	char reward_id[LC_ID_LEN + 1];		/* a claim's, pending again */
};
/* Inside the write: NOT_FOUND, FORBIDDEN (staff: not theirs, not at
 * their location, past the window), NOT_VOIDABLE, ALREADY_VOIDED. */
int lc_void(struct lc_dom *, const struct lc_void *, struct lc_void_result *);
/* A void's or an adjustment's reason, 1 to LC_NOTES_MAX characters of
 * text, not only blanks: 0, or -1 (VALIDATION_ERROR). */
int lc_void_reason_check(struct lc_error *, const char *reason);

/* Adjustment (rule_adjust.c): the owner's signed correction of a card. */
struct lc_adjust {
	const char *card_id, *location_id, *reason, *key;
	int64_t punches, cashback;	/* signed, not 0; by the card's type */
	int has_punches;		/* punches given, else cashback */
};
struct lc_adjust_result {
	char txn_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];	/* the default one, if taken */
	struct lc_card card;			/* as adjusted */
	int64_t rewards_earned, rewards_withdrawn;
};
int lc_adjust(struct lc_dom *, const struct lc_adjust *,
    struct lc_adjust_result *);

/* Cashback expiry (card_expiry.c). */
/* When an earning of program p made at earned_at expires; -1 never. */
int64_t lc_expiry_at(const struct lc_program *p, int64_t earned_at);
/* Inside a write: records what of card c has expired by dom->now_ms (an
 * 'expiry' transaction each) and saves c's balance. 0, or -1. */
int lc_expiry_sweep(struct lc_dom *, struct lc_card *c);
/* For a read of card c (read just before, outside a write): when
 * something is due, records it in a write of its own and reads c again;
 * then sets c's next expiry. 1 recorded, 0 nothing due, -1 (dom->err). */
int lc_expiry_fresh(struct lc_dom *, struct lc_card *c);
/* For a read of the caller's merchant's figures: records what is due on
 * any of its cards, in a write for each such card. 0, or -1. */
int lc_expiry_merchant(struct lc_dom *);

/* Time-based codes (card_code.c): a card's current code, shown by its
 * customer's page, which a claim or a redemption needs when the owner's
 * redeem_needs_card_code is on. */
/* A new secret, random: 0 or -1. */
int lc_card_secret(char out[LC_CODE_SECRET_LEN + 1]);
/* The time step of now_ms (ms since 1970): whole LC_CODE_STEP_SECONDS. */
int64_t lc_card_code_step(int64_t now_ms);
/* The code of secret (hex) at step, as LC_CODE_DIGITS digits: 0, or -1
 * when the secret is not one. */
int lc_card_code_at(const char *secret, int64_t step,
    char out[LC_CODE_DIGITS + 1]);
/* 1 when s has a code's form (LC_CODE_DIGITS digits). */
int lc_card_code_form(const char *s);
/* Inside a claim's or a redemption's write, on card (as read): nothing
 * when the setting is off; else code (NULL: none sent) must be the
 * card's code of the current step or one of the LC_CODE_PAST_STEPS
 * before, of a step later than the last code taken, which it then takes.
 * 0, or -1 with CARD_CODE_REQUIRED or CARD_CODE_INVALID. */
int lc_card_code_take(struct lc_dom *, const struct lc_card *card,
    const char *code);
/* A claim's or a redemption's write w for card_id (as the client named
 * it), under the guard of its code when one is sent and the setting is
 * on: a wrong code counts as a failed guess (LC_GUARD_SECRET, key
 * "card:" and the id), and too many are RATE_LIMITED before the write.
 * lc_write's result. */
int lc_card_code_write(struct lc_dom *, const char *card_id,
    const char *code, const struct lc_write *w, json_object **answer);
/* The text a card's page shows in its QR code when the setting is on:
 * the card's QR payload, '.', its current code. A till reads the payload
 * before the '.' as the card (lc_card_get), the digits after as the
 * code. 0, or -1 (no secret). */
int lc_card_code_qr(const struct lc_card *card, int64_t now_ms, char *out,
    size_t size);

/* Share tokens (card_share.c): a card's public page. */
int lc_share_token(char out[LC_SHARE_LEN + 1]);	/* 0 or -1 */
int lc_share_token_ok(const char *);	/* 1 when of a token's form */
/* Inside a write: the caller's merchant's card card_id gets a new share
 * token (into c, the card as it now is); its old link is refused from
 * the commit on, as an unknown one. 0, or -1 (NOT_FOUND, ...). */
int lc_card_redraw(struct lc_dom *, const char *card_id, struct lc_card *c);
/* The same for the holder of the link token (no login): any merchant's
 * card of that token; a malformed or unknown one is NOT_FOUND. */
int lc_card_redraw_shared(struct lc_dom *, const char *token,
    struct lc_card *c);
/* Any merchant's card by its share token, and the time it last changed
 * (its latest transaction, else its issue), in one snapshot: 0, or -1
 * (NOT_FOUND, alike for an unknown and a malformed token). */
int lc_card_shared(struct lc_dom *, const char *token, struct lc_card *,
    int64_t *updated_at);

#endif /* LC_RULES_H */
