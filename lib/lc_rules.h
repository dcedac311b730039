/*
 * The rules of the service, apart from HTTP: what a till does with a card
 * (purchase, claim, redeem, void, adjust); the other rooms' headers
 * below, cards and their types in lc_card.h. A rule reads and writes through
 * storage (lc_store.h) and returns a result struct or an error; it never
 * sees a request or builds an answer.
 */
#ifndef LC_RULES_H
#define LC_RULES_H

#include "lc_dom.h"
#include "lc_card.h"
#include "lc_settings.h"
#include "lc_enrol.h"
#include "lc_auth.h"
#include "lc_setup.h"
#include "lc_shop.h"

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

#endif /* LC_RULES_H */
