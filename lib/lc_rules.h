/*
 * The rules of the service, apart from HTTP: the domain context a rule
 * runs in, the one write path, and the rules themselves (purchase,
 * claim, redeem, auth, shop setup); cards and their types are in
 * lc_card.h, included here for now. A rule reads and writes
 * through storage (lc_store.h) and returns a result struct or an error;
 * it never sees a request or builds an answer.
 */
#ifndef LC_RULES_H
#define LC_RULES_H

#include <stdarg.h>

#include "lcard.h"
#include "lc_card.h"
#include "lc_store.h"

/* What a failed rule tells its caller: all an answer needs. */
struct lc_error {
	enum lc_err code;	/* LC_OK: no error */
	char field[64];		/* the offending field, "" for none */
	char msg[256];		/* "" for the code's default message */
	long retry_after;	/* seconds, 0 for none */
};

/* Sets e and returns -1. fmt NULL: the code's default message. A
 * DATABASE_ERROR gets Retry-After 1 unless one is set. */
int lc_error_set(struct lc_error *, enum lc_err, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The message to show: e's own, else the code's default. */
const char *lc_error_msg(const struct lc_error *);

/* Who is acting. Empty for the admin tool (acting for the machine's
 * owner, on any merchant). */
struct lc_caller {
	char user_id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];	/* staff's location; "" owner */
	char family[LC_ID_LEN + 1];		/* the login of its token */
	int is_owner;
};

/*
 * What the running write adds to its row of the audit trail (audit.c)
 * beyond what its caller declared in struct lc_write: what only the rule
 * knows. The write path clears it at each begin and records it before
 * the commit.
 */
struct lc_audit {
	const char *action;		/* NULL: the declared one */
	const char *object_type;	/* the declared one (write.c sets it) */
	char object_id[LC_ID_LEN + 1];	/* "": the declared, else txn_id */
	char location_id[LC_ID_LEN + 1];	/* "": the caller's */
	char terminal_id[LC_POSREF_MAX + 1];	/* "": the request's */
	/* Who, when the caller is not (a login, setup; "service" for what
	 * the service does by itself): actor "" none. */
	char actor[16];
	char user_id[LC_ID_LEN + 1];
	char merchant_id[LC_ID_LEN + 1];	/* the object's, for the tool */
	json_object *note;		/* owned: members added to "after" */
	int skip;			/* nothing of the shop's was written */
};

/* The domain context of a rule: storage, caller, clock, error. */
struct lc_dom {
	struct lc_db *db;	/* borrowed */
	struct lc_caller caller;
	int64_t now_ms;
	struct lc_error err;
	/* The first transaction the running write recorded ("" none): the
	 * one an idempotency key points at. */
	char txn_id[LC_ID_LEN + 1];
	/* The request's, for the audit trail (NULL: none, as in the admin
	 * tool): X-Request-Id or the one made, and X-Terminal-Id. */
	const char *request_id, *terminal_id;
	/* The client's address, which the throttle of guesses counts by
	 * (REMOTE_ADDR; NULL: none, as in the admin tool). */
	const char *client_addr;
	struct lc_audit audit;
	/* Its writes are ones no one waits for at the counter (a sync
	 * batch's items): other writes go first for a moment. */
	int later;
};
#define lc_dom_fail(d, ...) lc_error_set(&(d)->err, __VA_ARGS__)

/*
 * The one write path (write.c). A write runs rule in one write
 * transaction: begin, replay the idempotency key when one is given,
 * run the rule, build the answer, store it under the key, commit; on any
 * failure roll back, so nothing of it stays.
 */
struct lc_write {
	const char *kind;	/* the key's kind: "purchase", "claim", ... */
	const char *key;	/* the client's idempotency key, NULL none */
	/* 0, or -1 with dom->err set. */
	int (*rule)(struct lc_dom *, void *arg);
	/* The answer of the rule's result, built inside the transaction so
	 * the one stored under a key and the one returned are the same;
	 * NULL for a write with no answer to keep. */
	json_object *(*answer)(void *arg);
	void *arg;
	/* Its row of the audit trail, written in the same transaction (a
	 * write without it is refused): what it does ("location.update"),
	 * the type of object it acts on ("location"), and that object's id
	 * when known before (NULL: the one the rule names with
	 * lc_audit_object, else the first it made). LC_AUDIT_NONE: a write
	 * of the service's bookkeeping only (the throttle's checks). */
	const char *action;
	const char *object_type;
	const char *object_id;
};
#define LC_AUDIT_NONE "-"
/* 0 written (*answer set when w->answer is), 1 the key was known: *answer
 * is the stored answer and nothing ran, -1 nothing written (dom->err). */
int lc_write(struct lc_dom *, const struct lc_write *, json_object **answer);

/* The audit trail (audit.c). Inside a write: the object acted on, once
 * (the first call wins); where; who, when the caller is not the actor
 * (actor "owner", "system_user" or "setup"); a member added to the
 * row's "after" (v owned by the call); nothing to record after all. */
void lc_audit_object(struct lc_dom *, const char *id);
void lc_audit_where(struct lc_dom *, const char *location_id,
    const char *terminal_id);
void lc_audit_who(struct lc_dom *, const char *actor, const char *user_id,
    const char *merchant_id);
void lc_audit_note(struct lc_dom *, const char *key, json_object *v);
void lc_audit_note_str(struct lc_dom *, const char *key, const char *v);
/* The write's own transaction in its row: its id, type, amounts as
 * recorded (signed on a void or adjustment) and reason. */
void lc_audit_txn(struct lc_dom *, const struct lc_txn *);
void lc_audit_skip(struct lc_dom *);
/* By the write path: forgets the last write's, and records the running
 * one's row, before (owned by the call) the snapshot taken before its
 * rule: 0, or -1 with dom->err. */
void lc_audit_clear(struct lc_dom *);
/* Whether an action or a type of object is one the trail may hold. */
int lc_audit_action_known(const char *action);
int lc_audit_object_type_known(const char *type);
json_object *lc_audit_snapshot(struct lc_dom *, const char *type,
    const char *id);
int lc_audit_record(struct lc_dom *, const struct lc_write *,
    json_object *before);
/* Runs fn on one consistent read snapshot. 0, or -1 with dom->err. */
int lc_read(struct lc_dom *, int (*fn)(struct lc_dom *, void *), void *arg);
/* The request's read snapshot (http_serve.c): the token's check and the
 * handler's reads see one state, with one lock instead of one a
 * statement; a write ends it first, lc_db_idle after the handler. 0, or
 * -1 (dom->err). */
int lc_read_begin(struct lc_dom *);

/* Settings (settings.c), stored in the database with defaults. */
enum lc_setting {
	LC_SET_ACCESS_TTL,
	LC_SET_REFRESH_TTL,
	LC_SET_LOGIN_MAX_FAILURES,
	LC_SET_LOGIN_WINDOW,
	LC_SET_UTC_OFFSET,
	LC_SET_SYNC_MAX_AGE,
	LC_SET_STAFF_ENROLMENT,
	LC_SET_CURRENCY,
	LC_SET_PUBLIC_URL,
	LC_SET_VOID_WINDOW,
	LC_SET_CARD_CODE,
	LC_SET__MAX
};
enum lc_setting_kind { LC_SETTING_INT, LC_SETTING_TEXT };
struct lc_setting_info {
	const char *name;
	int64_t def, min, max, step;	/* a text's max: characters */
	enum lc_setting_kind kind;
	/* A text setting, "" by default: 1 when the text is one it takes,
	 * and what it must be, for the error. */
	int (*text_ok)(const char *);
	const char *text_rule;
};
const struct lc_setting_info *lc_setting_info(enum lc_setting);
/* The setting's value; its default when unset or unreadable. */
int64_t lc_setting(struct lc_db *, enum lc_setting);
/* A text setting's value into buf (truncated to size), returned; "" when
 * unset or unreadable. */
const char *lc_setting_text(struct lc_db *, enum lc_setting, char *buf,
    size_t size);
const char *lc_setting_name(enum lc_setting);
int lc_setting_lookup(const char *key);	/* enum value or -1 */
/* Checks and stores (inside a write): 0, or -1 with dom->err. */
int lc_setting_set(struct lc_dom *, const char *key, const char *value);

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

/* Enrolment at the counter (rule_enrol.c). */
/* 1 when the caller may issue cards at the till: an owner, or staff
 * while the staff_enrolment setting is 1. */
int lc_enrol_allowed(struct lc_dom *);
/* Before the write, each 0 or -1 FORBIDDEN: the caller's right to enrol;
 * the scope of *location_id, which NULL makes the staff member's own
 * (none for an owner). */
int lc_enrol_check(struct lc_dom *);
int lc_enrol_scope(struct lc_dom *, const char **location_id);
struct lc_enrol {
	const char *program_id, *customer_name, *location_id;
};
/* Inside the write: issues the card (NOT_FOUND for a program not the
 * caller's merchant's) into c, whole. 0, or -1 with dom->err. */
int lc_enrol(struct lc_dom *, const struct lc_enrol *, struct lc_card *c);

/* Auth (rule_auth.c). */
#define LC_TOKEN_LEN 43		/* base64url of 256 random bits */
struct lc_profile {
	struct lc_user user;
	struct lc_location *locations;	/* malloc'd; staff: their one */
	size_t nlocations;
	/* What the till shows and offers (the installation's settings). */
	char currency_symbol[LC_BYTES(LC_CURRENCY_MAX)];
	char public_url[LC_BYTES(LC_URL_MAX)];	/* "" when unset */
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

/* First run (rule_setup.c). */
struct lc_setup {
	const char *code, *merchant_name, *location_name, *owner_name;
	const char *owner_email;
	const char *proof;		/* instead of the code: a proof's secret */
	const char *prog_dir;		/* where its file is to be */
	int code_ok;			/* the code may serve (lc_setup_needed
					 * made one) */
	char hash[LC_HASH_MAX + 1];	/* of the owner's password */
};
struct lc_setup_result {
	char merchant_id[LC_ID_LEN + 1];
	char location_id[LC_ID_LEN + 1];
	char user_id[LC_ID_LEN + 1];
};
/* The file of the setup code beside the database. 0 or -1. */
int lc_setup_file(const char *db_path, char *out, size_t outsz);
/* 1 when there is no owner yet, 0 when there is one, -1 with dom->err.
 * On SQLite, with make_code the code's file then exists; without (a host
 * where every site could read it) there is none, an old one deleted. */
int lc_setup_needed(struct lc_dom *, const char *db_path, int make_code);
/* loyalty-admin setup-code: the code, made when there is none yet (in
 * the database on PostgreSQL, in the file on SQLite); NOT_FOUND once an
 * owner exists. 0, or -1 with dom->err. */
#define LC_SETUP_CODE_LEN 20
int lc_setup_code(struct lc_dom *, const char *db_path,
    char out[LC_SETUP_CODE_LEN + 1]);
/*
 * The other way to show the installation is one's own, where the code's
 * file cannot be read over FTP (a shared web user writes it): a file
 * named after a secret, put into the programs' folder, which only the
 * account that owns them may write (lc_conf_prog_trust).
 */
#define LC_PROOF_SECRET_LEN 26
struct lc_setup_proof {
	char secret[LC_PROOF_SECRET_LEN + 1];
	char file[64];			/* loyalty-setup-....txt */
	char round[9];			/* names the database it is for */
};
/* 1 with a new proof in p, 0 when the folder is not private, -1 with
 * dom->err. The name rests on the database too (a nonce it keeps). */
int lc_setup_proof_new(struct lc_dom *, const char *prog_dir,
    struct lc_setup_proof *p);
/* Why no proof file can be offered, as a word for the page
 * ("programs_folder_unknown", "_open", "_shared"), or NULL when it can. */
const char *lc_setup_proof_unavailable(const char *prog_dir);
/* Guarded like a login; NOT_FOUND once an owner exists. in->proof set:
 * its file must be in in->prog_dir, else FORBIDDEN on setup_proof. */
int lc_setup(struct lc_dom *, const char *db_path, const struct lc_setup *,
    struct lc_setup_result *);

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
 * for the admin tool) is kept as who issued it. */
int lc_shop_card_issue(struct lc_dom *, const char *program_id,
    const char *customer, struct lc_card *c);
/* The same at the counter, at location_id (NULL: none). */
int lc_shop_card_issue_at(struct lc_dom *, const char *program_id,
    const char *customer, const char *location_id, struct lc_card *c);
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

/* Validators shared by the API and the admin tool. */
/* 1 when s is a password we accept (1 to LC_PASSWORD_MAX bytes). */
int lc_password_ok(const char *s);
/* 1 when s is an e-mail address we accept. */
int lc_email_ok(const char *s);

#endif /* LC_RULES_H */
