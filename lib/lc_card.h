/*
 * The card room: card types and their behaviour, finding and saving
 * cards, their transactions, cashback expiry, time-based codes and share
 * links. Rules (lc_rules.h) and the answers (api_*.c) ask a card's type
 * what to do instead of naming types; storage (lc_store.h) holds a
 * program's type as enum lc_ctype and asks its row which columns it uses.
 */
#ifndef LC_CARD_H
#define LC_CARD_H

#include <stddef.h>
#include <stdint.h>

#include "lc_limits.h"

struct json_object;
struct lc_adjust;
struct lc_adjust_result;
struct lc_card;
struct lc_dom;
struct lc_hist_item;
struct lc_program;
struct lc_purchase;
struct lc_purchase_result;
struct lc_txn;
struct lc_txn_info;
struct lc_void_result;
struct lc_write;

/* A program's (and so its cards') type: one row each in card.c's table.
 * LC_CT__MAX is no type (a name lc_cardtype_id does not know). */
enum lc_ctype {
	LC_CT_PUNCH,
	LC_CT_CASHBACK,
	LC_CT_DISCOUNT,
	LC_CT__MAX
};

/* Which key names a card. */
enum lc_cardkey { LC_CARDKEY_ID, LC_CARDKEY_QR, LC_CARDKEY_BARCODE };

/*
 * Where a card type writes the fields of its own into an answer, in the
 * order given; api_shapes.c makes them JSON, so a type's file never
 * builds JSON (tests/layers.sh). A NULL string is a null; open begins a
 * member object of that key, close ends it.
 */
struct lc_fields {
	void (*num)(struct lc_fields *, const char *key, int64_t);
	void (*money)(struct lc_fields *, const char *key, int64_t cents);
	void (*rate)(struct lc_fields *, const char *key, int64_t bp);
	void (*time)(struct lc_fields *, const char *key, int64_t ms);
	void (*str)(struct lc_fields *, const char *key, const char *);
	void (*flag)(struct lc_fields *, const char *key, int);
	void (*null)(struct lc_fields *, const char *key);
	void (*open)(struct lc_fields *, const char *key);
	void (*close)(struct lc_fields *);
};

/* The groups of a program's fields a type uses (struct lc_cardtype's
 * cols): what storage writes of a program, what the owner's page and the
 * admin tool accept, what the checks ask for. */
#define LC_CT_REWARD	0x01	/* punch_requirement, reward_title,
				 * reward_description, reward_amount,
				 * cooldown_seconds, max_punches */
#define LC_CT_TIERS	0x02	/* tiers by lifetime spend (required) */
#define LC_CT_EXPIRES	0x04	/* expiry_days: its earnings expire (a
				 * ledger card_expiry.c sweeps) */

/*
 * A card type: all of its behaviour, one file each (card_punch.c,
 * card_cashback.c, card_discount.c), one row each in card.c's table. No
 * other file names a type: they ask the card's (c->ops) or the
 * program's (lc_cardtype(p->type)) row.
 *
 * A new type provides its file (card_<name>.c, listed in Makefile.am)
 * with its struct lc_cardtype, an enum value above, its row in card.c's
 * table, a migration that lets the programs' type column hold its name,
 * and tests. "Required" slots must be set (tests/unit_cardtype.c checks
 * the table); an optional one may be NULL, which means what its comment
 * says. A type whose programs have fields of a kind none has yet needs a
 * new LC_CT_* group too, which storage, the owner's API and the admin
 * tool then read and write.
 */
struct lc_cardtype {
	enum lc_ctype id;	/* required: its enum value (its row) */
	/* Required: its name on the wire and in storage; also the type of
	 * its purchases' transactions. */
	const char *name;
	unsigned cols;		/* LC_CT_*: the program fields it uses */

	/* Rules, each inside the write; 0, or -1 with dom->err. */
	/* Required. Records purchase p on card c: inserts txn t (id, card
	 * and caller fields set), updates c and the store, and fills r. */
	int (*purchase)(struct lc_dom *, struct lc_card *c,
	    const struct lc_purchase *p, struct lc_txn *t,
	    struct lc_purchase_result *r);
	/* Required. Undoes its purchase o on c (saved by the caller) into
	 * void t (not yet stored) and r. */
	int (*void_purchase)(struct lc_dom *, struct lc_card *c,
	    const struct lc_txn_info *o, struct lc_txn *t,
	    struct lc_void_result *r);
	/* The field of an owner's adjustment ("punches",
	 * "cashback_amount") and the adjustment itself: sets t's signed
	 * change from q, stores t, changes c (saved by the caller), fills
	 * r. NULL: its cards have nothing to adjust (WRONG_CARD_TYPE). */
	const char *adjust_field;
	int (*adjust)(struct lc_dom *, struct lc_card *c,
	    const struct lc_adjust *q, struct lc_txn *t,
	    struct lc_adjust_result *r);
	/* The checks of its own program fields (beyond cols' tiers and
	 * expiry, which shop.c checks), of a new program when is_new.
	 * NULL: none. */
	int (*program_check)(struct lc_dom *, const struct lc_program *p,
	    int is_new);

	/* Answers: its fields, in order (struct lc_fields). */
	/* Required: a card's balance (lookup, the card's page, a void's
	 * and an adjustment's card after). */
	void (*balance)(const struct lc_card *, struct lc_fields *);
	/* What a till's lookup adds after the balance; the customer's
	 * page the same. NULL: nothing. */
	void (*lookup)(const struct lc_card *, struct lc_fields *);
	void (*mycard)(const struct lc_card *, struct lc_fields *);
	/* Required: a purchase's result after its card_type. */
	void (*purchased)(const struct lc_purchase_result *,
	    struct lc_fields *);
	/* What a void of its purchase gave back, after the void's own
	 * fields (also for a redemption's earn-on-remainder purchase).
	 * NULL: nothing. */
	void (*voided)(const struct lc_void_result *, struct lc_fields *);
	/* What an adjustment did beyond the balance. NULL: nothing. */
	void (*adjusted)(const struct lc_adjust_result *, struct lc_fields *);
	/* A program as a cashier choosing what to issue sees it, and as
	 * its owner does (before its tiers, which LC_CT_TIERS adds). NULL:
	 * nothing. */
	void (*enrol_program)(const struct lc_program *, struct lc_fields *);
	void (*program)(const struct lc_program *, struct lc_fields *);
	/* Required: its card's balance in the audit trail's snapshot. */
	void (*audit)(const struct lc_card *, struct lc_fields *);
	/* A history item of its purchase, after purchase_amount. NULL:
	 * nothing. */
	void (*history)(const struct lc_hist_item *, struct lc_fields *);
};

/* The row of type t; NULL for LC_CT__MAX or any other value. */
const struct lc_cardtype *lc_cardtype(enum lc_ctype t);
/* The type of a name (storage's, the API's, the admin tool's), else
 * LC_CT__MAX. */
enum lc_ctype lc_cardtype_id(const char *name);
/* The same, never NULL, for what is shown: storage reads only names the
 * table knows (the schema's CHECK), so an unknown one is a bug, shown as
 * a type of no fields. */
const struct lc_cardtype *lc_cardtype_or_none(enum lc_ctype t);
/* t's name, "" when t is no type. */
const char *lc_cardtype_name(enum lc_ctype t);
/* t's LC_CT_* field groups, 0 when t is no type. */
unsigned lc_cardtype_cols(enum lc_ctype t);
/* The names for a message: "punch, cashback or discount". */
const char *lc_cardtype_names(void);

/* Cards (card.c). */
/* The caller's merchant's card: 1 found, 0 not, -1 with dom->err. */
int lc_card_get(struct lc_dom *, enum lc_cardkey, const char *value,
    struct lc_card *);
/* The card named by up to three identifiers that must agree: 0, or -1
 * (CARD_NOT_FOUND, VALIDATION_ERROR). */
int lc_card_resolve(struct lc_dom *, const char *card_id, const char *qr,
    const char *barcode, struct lc_card *);
/* By id, active and of type want: 0, or -1 (CARD_NOT_FOUND,
 * CARD_INACTIVE, WRONG_CARD_TYPE). */
int lc_card_for(struct lc_dom *, const char *card_id, enum lc_ctype want,
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
/* The card's next expiry into c as lc_expiry_fresh sets it, recording
 * nothing (an event's card, inside its write): 0, or -1 (dom->err). */
int lc_expiry_next(struct lc_dom *, struct lc_card *c);
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
    const char *code, const struct lc_write *w, struct json_object **answer);
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


#endif /* LC_CARD_H */
