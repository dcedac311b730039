/*
 * The audit trail: the one row of each committed write, made by the write
 * path (write.c) inside the write's own transaction, so a write that
 * rolls back leaves none and one that commits always has its row. What it
 * says comes from what the write declared (struct lc_write: the action,
 * the type of object, its id when known before) and what only its rule
 * knows (struct lc_audit): who, where, from which terminal, in which
 * request, and for the owner's changes the object before and after.
 */
#include <string.h>

#include "lc_core.h"

/* Every action and type of object a row may name: the audit log's
 * filters accept these alone, and a write naming another is refused
 * (lc_audit_record), so the list cannot fall behind the writes. Each
 * action with its words for a person (the audit trail's CSV). */
static const char *const action_words[][2] = {
	{ "transaction.record", "Purchase" },
	{ "transaction.sync", "Purchase (offline)" },
	{ "transaction.void", "Void" },
	{ "transaction.sync_refused", "Offline purchase refused (not recorded)" },
	{ "reward.claim", "Reward claim" },
	{ "cashback.redeem", "Cashback redeem" },
	{ "cashback.expire", "Cashback expired" },
	{ "card.enrol", "Card issued at the till" },
	{ "card.issue", "Cards issued" }, { "card.update", "Card changed" },
	{ "card.adjust", "Card adjusted" },
	{ "card.redraw", "Card link replaced" },
	{ "location.create", "Location added" },
	{ "location.update", "Location renamed" },
	{ "user.create", "Staff added" }, { "user.update", "Staff changed" },
	{ "program.create", "Program added" },
	{ "program.update", "Program changed" },
	{ "settings.update", "Settings changed" },
	{ "backup.download", "Backup downloaded" },
	{ "auth.login", "Login" }, { "auth.login_failed", "Wrong password" },
	{ "auth.refresh", "Login renewed" },
	{ "auth.refresh_reuse", "Login revoked (token reused)" },
	{ "auth.logout", "Logged out" }, { "setup", "Shop set up" },
	{ "merchant.create", "Shop created" },
	{ "demo.create", "Demo shop made" },
	{ "webhook.create", "Webhook added" },
	{ "webhook.update", "Webhook changed" },
	{ "webhook.delete", "Webhook deleted" },
	{ "webhook.rotate", "Webhook secret replaced" },
	{ "webhook.test", "Webhook test sent" },
	{ "webhook.resend", "Webhook event sent again" },
	{ "token.create", "API token created" },
	{ "token.revoke", "API token revoked" }, { NULL, NULL }
};
static const char *const object_types[] = {
	"card", "transaction", "location", "user", "program", "settings",
	"session", "backup", "merchant", "webhook", "token", NULL
};

static int
listed(const char *const *list, const char *s)
{
	for (; s != NULL && *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

int
lc_audit_action_known(const char *action)
{
	return lc_audit_action_words(action) != NULL;
}

const char *
lc_audit_action_words(const char *action)
{
	size_t i;

	for (i = 0; action != NULL && action_words[i][0] != NULL; i++)
		if (strcmp(action_words[i][0], action) == 0)
			return action_words[i][1];
	return NULL;
}

int
lc_audit_object_type_known(const char *type)
{
	return listed(object_types, type);
}

void
lc_audit_clear(struct lc_dom *dom)
{
	json_object_put(dom->audit.note);
	memset(&dom->audit, 0, sizeof(dom->audit));
}

void
lc_audit_object(struct lc_dom *dom, const char *id)
{
	if (dom->audit.object_id[0] == '\0' && id != NULL)
		snprintf(dom->audit.object_id, sizeof(dom->audit.object_id),
		    "%s", id);
}

void
lc_audit_where(struct lc_dom *dom, const char *location_id,
    const char *terminal_id)
{
	struct lc_audit *a = &dom->audit;

	if (a->location_id[0] == '\0' && location_id != NULL)
		snprintf(a->location_id, sizeof(a->location_id), "%s",
		    location_id);
	if (a->terminal_id[0] == '\0' && terminal_id != NULL)
		snprintf(a->terminal_id, sizeof(a->terminal_id), "%s",
		    terminal_id);
}

void
lc_audit_who(struct lc_dom *dom, const char *actor, const char *user_id,
    const char *merchant_id)
{
	struct lc_audit *a = &dom->audit;

	snprintf(a->actor, sizeof(a->actor), "%s", actor);
	snprintf(a->user_id, sizeof(a->user_id), "%s", user_id);
	snprintf(a->merchant_id, sizeof(a->merchant_id), "%s", merchant_id);
}

void
lc_audit_note(struct lc_dom *dom, const char *key, json_object *v)
{
	if (dom->audit.note == NULL)
		dom->audit.note = json_object_new_object();
	json_object_object_add(dom->audit.note, key, v);
}

void
lc_audit_note_str(struct lc_dom *dom, const char *key, const char *v)
{
	lc_audit_note(dom, key, json_object_new_string(v));
}

/* The currency of the shop merchant_id, whose amounts the trail shows
 * as its owner sees them: the caller's (dom->cur), else (the admin
 * tool's writes) read into buf. A failed read is the write's failure
 * (lc_db_failed); its row is never kept. */
static const struct lc_currency *
shop_cur(struct lc_dom *dom, const char *merchant_id, struct lc_currency *buf)
{
	if (merchant_id == NULL ||
	    strcmp(merchant_id, dom->caller.merchant_id) == 0 ||
	    lc_currency_of(dom->db, merchant_id, buf) == -1)
		return &dom->cur;
	return buf;
}

/* A money or count field of t: signed on a void or an adjustment (none
 * is LC_TXN_NONE), else below 0 is none. */
static void
txn_field(struct lc_dom *dom, const struct lc_txn *t, const char *key,
    int64_t v, const struct lc_currency *money)
{
	int sig = t->voided_id != NULL || strcmp(t->type, "adjustment") == 0;

	if (sig ? v == LC_TXN_NONE : v < 0)
		return;
	lc_audit_note(dom, key, money != NULL ? lc_json_money_of(money, v) :
	    json_object_new_int64(v));
}

void
lc_audit_txn(struct lc_dom *dom, const struct lc_txn *t)
{
	struct lc_currency buf;
	const struct lc_currency *cur = shop_cur(dom, t->merchant_id, &buf);

	lc_audit_note_str(dom, "transaction_id", t->id);
	lc_audit_note_str(dom, "transaction_type", t->type);
	if (t->voided_id != NULL)
		lc_audit_note_str(dom, "voided_transaction_id", t->voided_id);
	if (t->reason != NULL)
		lc_audit_note_str(dom, "reason", t->reason);
	if (t->purchase_amount > 0)
		lc_audit_note(dom, "purchase_amount",
		    lc_json_money_of(cur, t->purchase_amount));
	txn_field(dom, t, "punches_added", t->punches_added, NULL);
	txn_field(dom, t, "cashback_earned", t->cashback_earned, cur);
	txn_field(dom, t, "discount_amount", t->discount_amount, cur);
	txn_field(dom, t, "redeemed_amount", t->redeemed_amount, cur);
}

void
lc_audit_cards(struct lc_dom *dom, const struct lc_card *cards, size_t n)
{
	json_object *ids;
	size_t i;

	/* The row names the first card; a batch lists them all. */
	if (n < 2)
		return;
	ids = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(ids, json_object_new_string(cards[i].id));
	lc_audit_note(dom, "card_ids", ids);
}

void
lc_audit_skip(struct lc_dom *dom)
{
	dom->audit.skip = 1;
}

/* The object's merchant, for a write of the admin tool (no caller). */
static void
owner_of(struct lc_dom *dom, const char *merchant_id)
{
	if (dom->audit.merchant_id[0] == '\0')
		snprintf(dom->audit.merchant_id, sizeof(dom->audit.merchant_id),
		    "%s", merchant_id);
}

/* The owner's view of o without what never changes or is not its own. */
static json_object *
trim(json_object *o)
{
	json_object_object_del(o, "id");
	json_object_object_del(o, "created_at");
	json_object_object_del(o, "card_count");
	return o;
}

/* A card's own fields and balance: no QR payload nor share token, which
 * are its secrets and never change. */
static json_object *
card_snap(const struct lc_card *c, const struct lc_currency *cur)
{
	const struct lc_cardtype *ct;
	struct lc_json_fields jf;
	json_object *o = json_object_new_object();

	json_object_object_add(o, "customer_name",
	    json_object_new_string(c->customer_name));
	json_object_object_add(o, "status", json_object_new_string(c->status));
	json_object_object_add(o, "program_id",
	    json_object_new_string(c->program.id));
	/* Its type's balance fields (struct lc_cardtype's audit). */
	if ((ct = lc_cardtype(c->program.type)) != NULL)
		ct->audit(c, lc_json_fields(&jf, o, cur));
	return o;
}

/* The settings as the shop sees them (its own, else the installation's;
 * merchant_id "": the installation's), each by its name. */
static json_object *
settings_snap(struct lc_db *db, const char *merchant_id)
{
	const struct lc_setting_info *si;
	json_object *o = json_object_new_object();
	char text[LC_BYTES(LC_URL_MAX)];
	int i;

	for (i = 0; i < LC_SET__MAX; i++) {
		si = lc_setting_info((enum lc_setting)i);
		json_object_object_add(o, si->name, si->kind == LC_SETTING_TEXT ?
		    json_object_new_string(lc_setting_shop_text(db, merchant_id,
		    (enum lc_setting)i, text, sizeof(text))) :
		    json_object_new_int64(lc_setting_shop(db, merchant_id,
		    (enum lc_setting)i)));
	}
	return o;
}

/* The object as the trail shows it; NULL when it has none or is not
 * found (a write about to be refused), and *failed set when storage
 * failed: the write must fail then, not keep a row without its values. */
static json_object *
snapshot(struct lc_dom *dom, const char *type, const char *id, int *failed)
{
	struct lc_location l;
	struct lc_user u;
	struct lc_program p;
	struct lc_card c;
	struct lc_webhook wh;
	struct lc_currency cur;
	char name[LC_BYTES(LC_NAME_MAX)];
	int rc = 0;

	*failed = 0;
	if (type == NULL)
		return NULL;
	/* A shop's settings: the caller's, or the shop loyalty-admin names
	 * (the object's id, whose trail it then is). */
	if (strcmp(type, "settings") == 0) {
		if (id != NULL && *id != '\0')
			owner_of(dom, id);
		return settings_snap(dom->db, id != NULL && *id != '\0' ? id :
		    dom->caller.merchant_id);
	}
	if (id == NULL || *id == '\0')
		return NULL;
	if (strcmp(type, "location") == 0) {
		if ((rc = lc_db_location_get(dom->db, id, &l)) == 1) {
			owner_of(dom, l.merchant_id);
			return trim(lc_view_location(&l));
		}
	} else if (strcmp(type, "user") == 0) {
		if ((rc = lc_db_user_get(dom->db, id, &u)) == 1) {
			owner_of(dom, u.merchant_id);
			return trim(lc_view_staff(&u));
		}
	} else if (strcmp(type, "program") == 0) {
		if ((rc = lc_db_program_get(dom->db, id, &p)) == 1) {
			owner_of(dom, p.merchant_id);
			return trim(lc_view_program(&p, 0,
			    shop_cur(dom, p.merchant_id, &cur)));
		}
	} else if (strcmp(type, "card") == 0) {
		if ((rc = lc_db_card_any(dom->db, id, &c)) == 1) {
			owner_of(dom, c.merchant_id);
			return card_snap(&c, shop_cur(dom, c.merchant_id,
			    &cur));
		}
	} else if (strcmp(type, "webhook") == 0) {
		/* Its settings, not its secret nor its delivery's state. */
		if ((rc = lc_db_hook_get(dom->db, NULL, id, &wh)) == 1) {
			owner_of(dom, wh.merchant_id);
			return trim(lc_view_webhook(&wh, dom->now_ms, 0));
		}
	} else if (strcmp(type, "merchant") == 0) {
		if ((rc = lc_db_merchant_name(dom->db, id, name,
		    sizeof(name))) == 1) {
			owner_of(dom, id);
			return lc_view_one("name",
			    json_object_new_string(name));
		}
	}
	*failed = rc == -1;
	return NULL;
}

/* As snapshot(), a storage failure said in dom->err (DATABASE_ERROR). */
json_object *
lc_audit_snapshot(struct lc_dom *dom, const char *type, const char *id)
{
	json_object *o;
	int failed;

	if ((o = snapshot(dom, type, id, &failed)) == NULL && failed)
		lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	return o;
}

static const char *
text_of(json_object *o)
{
	return o != NULL ? lc_json_text(o) : NULL;
}

static const char *
or_null(const char *s)
{
	return s != NULL && *s != '\0' ? s : NULL;
}

int
lc_audit_record(struct lc_dom *dom, const struct lc_write *w,
    json_object *before)
{
	const struct lc_audit *a = &dom->audit;
	const struct lc_caller *c = &dom->caller;
	struct lc_audit_row r;
	json_object *after = NULL;
	int rc, failed;

	if (strcmp(w->action, LC_AUDIT_NONE) == 0 || a->skip) {
		json_object_put(before);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.at = dom->now_ms;
	r.action = a->action != NULL ? a->action : w->action;
	r.object_type = w->object_type;
	if (!lc_audit_action_known(r.action) || (r.object_type != NULL &&
	    !listed(object_types, r.object_type))) {
		lc_log("audit: %s on %s is not in audit.c's lists", r.action,
		    r.object_type != NULL ? r.object_type : "nothing");
		json_object_put(before);
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	}
	r.object_id = or_null(a->object_id) ? a->object_id :
	    w->object_id != NULL ? w->object_id : or_null(dom->txn_id);
	after = snapshot(dom, r.object_type, r.object_id, &failed);
	if (failed) {
		json_object_put(before);
		return lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL);
	}
	if (a->note != NULL) {
		if (after == NULL)
			after = json_object_new_object();
		json_object_object_foreach(a->note, k, v)
			json_object_object_add(after, k, json_object_get(v));
	}
	if (a->actor[0] != '\0') {
		r.actor_type = a->actor;
		r.user_id = or_null(a->user_id);
		r.merchant_id = or_null(a->merchant_id);
	} else if (c->token_id[0] != '\0') {
		/* An integration token's write: the token, not a person. */
		r.actor_type = "integration";
		r.user_id = c->token_id;
		r.merchant_id = c->merchant_id;
	} else if (c->user_id[0] != '\0') {
		r.actor_type = c->is_owner ? "owner" : "system_user";
		r.user_id = c->user_id;
		r.merchant_id = c->merchant_id;
	} else {
		/* The admin tool: the shop of what it changed; none for
		 * the installation's settings. */
		r.actor_type = "loyalty-admin";
		r.merchant_id = or_null(a->merchant_id);
	}
	r.location_id = or_null(a->location_id) ? a->location_id :
	    or_null(c->location_id);
	/* The till's own name for itself first, else the purchase's. */
	r.terminal_id = or_null(dom->terminal_id) ? dom->terminal_id :
	    or_null(a->terminal_id);
	r.request_id = or_null(dom->request_id);
	r.before = text_of(before);
	r.after = text_of(after);
	rc = lc_db_audit_add(dom->db, &r);
	json_object_put(before);
	json_object_put(after);
	return rc == -1 ? lc_dom_fail(dom, LC_E_DATABASE, NULL, NULL) : 0;
}
