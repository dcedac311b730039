/*
 * The money invariants, checked after every operation of a long mixed
 * sequence driven through the real handlers: a cashback card's balance
 * equals the sum of its ledger's remaining amounts and the test's own
 * model; redemptions consume the soonest-expiring earnings first and
 * their entries sum to the amount; time passes and the program's term
 * changes, so earnings expire, each exactly once and to the cent, when
 * the card is next read or written; punch counters match the rewards
 * table. Voids of any kept transaction (purchases, redemptions with their
 * earn-on-remainder part, punches, claims) and the owner's adjustments
 * up and down join the mix, each against the same model.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_http.h"
#include "lc_sqlite.h"
#include "tap.h"

#define OPS 2000
#define DAY 86400000LL
#define EARNINGS_MAX OPS

/* The model's ledger, in insertion order: what remains of each earning
 * and when it expires (-1 never). */
static struct { int64_t rem, at, exp; } led[EARNINGS_MAX];
static int nled;
static int64_t expired_total;

/* Soonest expiry first, one that never expires last; then earned first,
 * then inserted first: the service's order. */
static int
model_before(int a, int b)
{
	if ((led[a].exp < 0) != (led[b].exp < 0))
		return led[b].exp < 0;
	if (led[a].exp != led[b].exp)
		return led[a].exp < led[b].exp;
	if (led[a].at != led[b].at)
		return led[a].at < led[b].at;
	return a < b;
}

/* What is due at now; taken off the model when take is set. */
static int64_t
model_due(int64_t now, int take)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < nled; i++)
		if (led[i].rem > 0 && led[i].exp >= 0 && led[i].exp <= now) {
			sum += led[i].rem;
			if (take)
				led[i].rem = 0;
		}
	if (take)
		expired_total += sum;
	return sum;
}

static void
model_earn(int64_t amount, int64_t at, int64_t days)
{
	if (amount == 0)
		return;
	if (nled == EARNINGS_MAX)
		bail("model ledger full");
	led[nled].rem = amount;
	led[nled].at = at;
	led[nled].exp = days > 0 ? at + days * DAY : -1;
	nled++;
}

static void
model_spend(int64_t amount)
{
	int i, best;
	int64_t use;

	while (amount > 0) {
		for (best = -1, i = 0; i < nled; i++)
			if (led[i].rem > 0 && (best < 0 || model_before(i, best)))
				best = i;
		if (best < 0)
			bail("model ledger short");
		use = led[best].rem < amount ? led[best].rem : amount;
		led[best].rem -= use;
		amount -= use;
	}
}

/*
 * Voids and adjustments in the mix. What the test keeps of each
 * transaction a void may pick: a cashback purchase ('c': its earning in
 * the model, its spend), a redemption ('r': what it took from which
 * earning, its earn-on-remainder part), a punch purchase ('p': its
 * punches), a claim ('k': the reward it took). Rewards pending are a
 * queue in the order they were earned (claims take the front), each
 * with the purchase that earned it (-1: an adjustment).
 */
#define VT_MAX OPS
static struct lc_db *db;
#define ENTS_MAX (8 * OPS)
#define RQ_MAX (4 * OPS)
static char ledid[EARNINGS_MAX][LC_ID_LEN + 1];
static int ledvoid[EARNINGS_MAX];
static struct vt {
	char id[LC_ID_LEN + 1];
	char kind;
	int voided;
	int led, child_led, ent0, nent;
	int64_t amount, child_amount, seq, owner;
} vts[VT_MAX];
static int nvt;
static struct { int led; int64_t amount; } vents[ENTS_MAX];
static int nvents;
static struct { int64_t seq, owner; } rq[RQ_MAX];
static int nrq;
static int64_t rq_seq;

static const char *
jstr(json_object *o, const char *k1, const char *k2)
{
	json_object *v = NULL;

	if (o == NULL || !json_object_object_get_ex(o, k1, &v))
		return NULL;
	if (k2 != NULL && !json_object_object_get_ex(v, k2, &v))
		return NULL;
	return json_object_get_string(v);
}

/* The model's last earning is transaction id (when amount made one). */
static int
led_note(int64_t amount, const char *id)
{
	if (amount <= 0 || id == NULL)
		return -1;
	snprintf(ledid[nled - 1], sizeof(ledid[0]), "%s", id);
	return nled - 1;
}

static int
led_find(const char *id)
{
	int i;

	for (i = 0; id != NULL && i < nled; i++)
		if (strcmp(ledid[i], id) == 0)
			return i;
	return -1;
}

static struct vt *
vt_add(char kind, const char *id)
{
	struct vt *v;

	if (nvt == VT_MAX)
		bail("too many transactions kept");
	v = &vts[nvt++];
	memset(v, 0, sizeof(*v));
	snprintf(v->id, sizeof(v->id), "%s", id != NULL ? id : "");
	v->kind = kind;
	v->led = v->child_led = -1;
	return v;
}

static void
rq_insert(int64_t seq, int64_t owner)
{
	int i;

	if (nrq == RQ_MAX)
		bail("reward queue full");
	for (i = nrq; i > 0 && rq[i - 1].seq > seq; i--)
		rq[i] = rq[i - 1];
	rq[i].seq = seq;
	rq[i].owner = owner;
	nrq++;
}

/* A pending reward leaves the queue, purchase owner's newest, else the
 * newest of all: 1, 0 none. */
static int
rq_withdraw(int64_t owner)
{
	int i;

	if (nrq == 0)
		return 0;
	for (i = nrq - 1; i > 0 && rq[i].owner != owner; i--)
		;
	if (rq[i].owner != owner)
		i = nrq - 1;
	memmove(&rq[i], &rq[i + 1], (size_t)(nrq - i - 1) * sizeof(rq[0]));
	nrq--;
	return 1;
}

/* Punches n on the card model: carry-over into rewards of owner. */
static void
punch_model(int64_t *cur, int64_t *lifetime, int64_t n, int64_t owner)
{
	int64_t total = *cur + n, k;

	for (k = 0; k < total / 7; k++)
		rq_insert(rq_seq++, owner);
	*cur = total % 7;
	*lifetime += n;
}

struct adjust_write {
	struct lc_adjust q;
	struct lc_adjust_result r;
};

static char last_adjust[LC_ID_LEN + 1];

static int
adjust_rule(struct lc_dom *dom, void *arg)
{
	struct adjust_write *aw = arg;

	return lc_adjust(dom, &aw->q, &aw->r);
}

/* The owner's adjustment of card id (the handler's write: the path
 * takes a UUID, which the test's cards' ids are not). */
static enum lc_err
adjust(const char *id, int64_t punches, int64_t cash, int64_t now)
{
	static struct adjust_write aw;
	struct lc_write w = { "adjust", NULL, adjust_rule, NULL, &aw,
	    "card.adjust", "card", id };
	struct lc_dom dom;

	memset(&dom, 0, sizeof(dom));
	memset(&aw, 0, sizeof(aw));
	dom.db = db;
	dom.now_ms = now;
	strcpy(dom.caller.user_id, "u");
	strcpy(dom.caller.merchant_id, "m");
	dom.caller.is_owner = 1;
	aw.q.card_id = id;
	aw.q.reason = "ledger test";
	aw.q.has_punches = punches != 0;
	aw.q.punches = punches;
	aw.q.cashback = cash;
	if (lc_write(&dom, &w, NULL) == -1 && dom.err.code == LC_OK)
		dom.err.code = LC_E_INTERNAL;
	memcpy(last_adjust, aw.r.txn_id, sizeof(last_adjust));
	if (!sqlite3_get_autocommit(lc_sq_handle(db)))
		bail("adjustment left a transaction open");
	return dom.err.code;
}

static uint64_t rng = 88172645463325252ULL;

static uint64_t
rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

static int64_t
q1(const char *sql, const char *arg)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	if (sqlite3_prepare_v2(lc_sq_handle(db), sql, -1, &st, NULL) != SQLITE_OK)
		bail("prepare %s: %s", sql, sqlite3_errmsg(lc_sq_handle(db)));
	if (arg != NULL)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
exec_sql(const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(lc_sq_handle(db), sql, NULL, NULL, &err) != SQLITE_OK)
		bail("%s: %s", sql, err);
}

static void
seed(void)
{
	char *err = NULL;
	static const char sql[] =
	    "INSERT INTO merchants VALUES ('m', 'M', 0);"
	    "INSERT INTO locations VALUES ('l', 'm', 'L', 0);"
	    "INSERT INTO users(id, merchant_id, email, display_name, user_type, "
	    "  location_id, password_hash, created_at) VALUES ('u', 'm', 'u@x', NULL, 'owner', NULL, 'x', 0);"
	    "INSERT INTO programs(id, merchant_id, type, title, created_at, "
	    "  expiry_days) VALUES ('pc', 'm', 'cashback', 'C', 0, 3);"
	    "INSERT INTO tiers VALUES ('pc', 'Bronze', 0, 500), "
	    "  ('pc', 'Silver', 10000, 1000), ('pc', 'Gold', 100000, 1250);"
	    "INSERT INTO programs(id, merchant_id, type, title, punch_requirement, "
	    "  reward_title, cooldown_seconds, created_at) "
	    "  VALUES ('pp', 'm', 'punch', 'P', 7, 'R', 0, 0);"
	    "INSERT INTO cards(id, merchant_id, program_id, customer_name, barcode, "
	    "  qr_code, created_at) VALUES ('cc', 'm', 'pc', 'A', '1', 'QUFB', 0),"
	    "  ('cp', 'm', 'pp', 'B', '2', 'QkJC', 0);";

	if (sqlite3_exec(lc_sq_handle(db), sql, NULL, NULL, &err) != SQLITE_OK)
		bail("seed: %s", err);
}

/* Runs handler on body as the owner at time now; returns the error. */
static enum lc_err
call(int (*h)(struct lc_ctx *), const char *body, int64_t now,
    json_object **out)
{
	struct lc_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.dom.db = db;
	ctx.dom.now_ms = now;
	strcpy(ctx.dom.caller.user_id, "u");
	strcpy(ctx.dom.caller.merchant_id, "m");
	ctx.dom.caller.is_owner = 1;
	ctx.in = lc_json_parse(body, strlen(body));
	if (ctx.in == NULL)
		bail("bad test body %s", body);
	if (h(&ctx) == -1 && ctx.dom.err.code == LC_OK)
		ctx.dom.err.code = LC_E_INTERNAL;
	if (getenv("LEDGER_DEBUG") != NULL && ctx.dom.err.code != LC_OK)
		diag("%s -> %s: %s", body, lc_err_info(ctx.dom.err.code)->code, ctx.dom.err.msg);
	if (!sqlite3_get_autocommit(lc_sq_handle(db)))
		bail("handler left a transaction open");
	json_object_put(ctx.in);
	*out = ctx.out;
	return ctx.dom.err.code;
}

static int64_t
money(json_object *o, const char *path1, const char *path2)
{
	json_object *v = NULL;
	int64_t c = -1;

	if (!json_object_object_get_ex(o, path1, &v))
		return -1;
	if (path2 != NULL && !json_object_object_get_ex(v, path2, &v))
		return -1;
	if (lc_decimal_parse(json_object_get_string(v), 2, INT64_MAX / 100, &c) == -1)
		return -1;
	return c;
}

static int64_t
tier_rate(int64_t spend)
{
	return spend >= 100000 ? 1250 : spend >= 10000 ? 1000 : 500;
}

int
main(void)
{
	char dir[] = "/tmp/lc-ledger-XXXXXX", path[256], body[512];
	const char *why = NULL;
	int64_t balance = 0, spend = 0, now = 1790000000000LL;
	int64_t lifetime = 0, pending = 0, ledger_bad = 0, model_bad = 0;
	int64_t fifo_bad = 0, entry_bad = 0, punch_bad = 0, earn_bad = 0;
	int64_t redeemed_ok = 0, refused = 0, i, days = 3, expiries = 0;
	int64_t expiry_bad = 0, looked = 0;
	int64_t cur = 0, voids = 0, void_refused = 0, void_bad = 0;
	int64_t adjusts = 0, adjust_refused = 0, adjust_bad = 0;
	json_object *out;
	enum lc_err e;

	if (mkdtemp(dir) == NULL)
		bail("mkdtemp");
	snprintf(path, sizeof(path), "%s/t.db", dir);
	if ((db = lc_db_open(path, 1, &why)) == NULL)
		bail("open: %s", why);
	seed();

	for (i = 0; i < OPS; i++) {
		uint64_t op = rnd(16);
		int64_t amt, red;

		now += 1000;
		/* What the card holds once what has expired leaves it: a
		 * purchase on the card records that first. */
		if (op < 5)
			balance -= model_due(now, 1);
		if (op < 3) {
			/* An online cashback purchase. */
			amt = 1 + (int64_t)rnd(20000);
			snprintf(body, sizeof(body), "{\"card_instance_id\":\"cc\","
			    "\"location_id\":\"l\",\"staff_user_id\":\"u\","
			    "\"purchase_amount\":%lld.%02lld}",
			    (long long)(amt / 100), (long long)(amt % 100));
			e = call(lc_h_record, body, now, &out);
			if (e != LC_OK || money(out, "cashback_earned", NULL) !=
			    lc_apply_rate(amt, tier_rate(spend)))
				earn_bad++;
			balance += lc_apply_rate(amt, tier_rate(spend));
			model_earn(lc_apply_rate(amt, tier_rate(spend)), now, days);
			if (e == LC_OK) {
				struct vt *v = vt_add('c', jstr(out,
				    "transaction_id", NULL));

				v->led = led_note(lc_apply_rate(amt,
				    tier_rate(spend)), v->id);
				v->amount = amt;
			}
			spend += amt;
		} else if (op < 5) {
			/* An offline purchase, captured up to a day ago: it
			 * lands anywhere in the FIFO order. */
			char ts[32];
			int64_t at = now - (int64_t)rnd(86400000);

			amt = 1 + (int64_t)rnd(20000);
			lc_time_fmt(at, ts);
			snprintf(body, sizeof(body), "{\"transactions\":[{"
			    "\"card_instance_id\":\"cc\",\"location_id\":\"l\","
			    "\"staff_user_id\":\"u\",\"purchase_amount\":%lld.%02lld,"
			    "\"idempotency_key\":\"s%lld\",\"client_timestamp\":\"%s\"}]}",
			    (long long)(amt / 100), (long long)(amt % 100),
			    (long long)i, ts);
			e = call(lc_h_sync, body, now, &out);
			if (e != LC_OK || !json_object_get_boolean(
			    json_object_object_get(json_object_object_get(
			    json_object_array_get_idx(json_object_object_get(out,
			    "results"), 0), "result"), "success")))
				earn_bad++;
			balance += lc_apply_rate(amt, tier_rate(spend));
			model_earn(lc_apply_rate(amt, tier_rate(spend)), at, days);
			if (e == LC_OK) {
				struct vt *v = vt_add('c', jstr(
				    json_object_array_get_idx(json_object_object_get(
				    out, "results"), 0), "result", "transaction_id"));

				v->led = led_note(lc_apply_rate(amt,
				    tier_rate(spend)), v->id);
				v->amount = amt;
			}
			spend += amt;
		} else if (op < 8) {
			/* A redemption, sometimes above the balance. */
			int earn = (int)rnd(2);
			int64_t oldest_left;

			red = 1 + (int64_t)rnd((uint64_t)balance + 500);
			amt = red + (int64_t)rnd(5000);
			snprintf(body, sizeof(body), "{\"card_instance_id\":\"cc\","
			    "\"location_id\":\"l\",\"staff_user_id\":\"u\","
			    "\"redemption_amount\":%lld.%02lld,"
			    "\"purchase_amount\":%lld.%02lld,"
			    "\"earn_on_remainder\":%s}",
			    (long long)(red / 100), (long long)(red % 100),
			    (long long)(amt / 100), (long long)(amt % 100),
			    earn ? "true" : "false");
			e = call(lc_h_redeem, body, now, &out);
			/* A refusal rolls back the expiry it found, too. */
			if (red > balance - model_due(now, 0)) {
				if (e != LC_E_INSUFFICIENT_BALANCE)
					model_bad++;
				refused++;
			} else if (e != LC_OK) {
				model_bad++;
			} else {
				json_object *ents = json_object_object_get(out,
				    "redeemed_entries");
				int64_t sum = 0;
				size_t k;

				redeemed_ok++;
				balance -= model_due(now, 1);
				model_spend(red);
				{
					/* What it took, for a void to give back. */
					struct vt *v = vt_add('r', jstr(out,
					    "transaction_id", NULL));
					json_object *en;

					v->ent0 = nvents;
					for (k = 0; k < json_object_array_length(ents);
					    k++) {
						if (nvents == ENTS_MAX)
							bail("too many entries");
						en = json_object_array_get_idx(ents, k);
						vents[nvents].led = led_find(jstr(en,
						    "earning_transaction_id", NULL));
						vents[nvents++].amount = money(en,
						    "amount_used", NULL);
						v->nent++;
					}
				}
				for (k = 0; k < json_object_array_length(ents); k++)
					sum += money(json_object_array_get_idx(ents,
					    k), "amount_used", NULL);
				if (sum != red || money(out, "redeemed_amount",
				    NULL) != red)
					entry_bad++;
				balance -= red;
				if (money(out, "new_balance", NULL) != balance)
					model_bad++;
				/* Soonest-expiring first: nothing that comes
				 * before the last earning this redemption
				 * touched is left (but what it earned on the
				 * remainder, at its own time). */
				oldest_left = q1("SELECT count(*) FROM "
				    "cashback_earnings e WHERE card_id = 'cc' AND "
				    "remaining > 0 AND earned_at < (SELECT "
				    "created_at FROM transactions WHERE id = ?1) "
				    "AND (expires_at IS NULL, "
				    "coalesce(expires_at, 0), earned_at, rowid) < "
				    "(SELECT c.expires_at IS NULL, "
				    "coalesce(c.expires_at, 0), c.earned_at, c.rowid "
				    "FROM cashback_earnings c JOIN redemption_entries r "
				    "ON r.earning_transaction_id = c.transaction_id "
				    "WHERE r.redeem_transaction_id = ?1 ORDER BY "
				    "c.expires_at IS NULL DESC, coalesce(c.expires_at, "
				    "0) DESC, c.earned_at DESC, c.rowid DESC LIMIT 1)",
				    json_object_get_string(json_object_object_get(
				    out, "transaction_id")));
				if (oldest_left != 0)
					fifo_bad++;
				if (earn) {
					int64_t rest = amt - red;

					if (money(out, "earned", "cashback_earned") !=
					    lc_apply_rate(rest, tier_rate(spend)))
						earn_bad++;
					balance += lc_apply_rate(rest, tier_rate(spend));
					model_earn(lc_apply_rate(rest, tier_rate(spend)),
					    now, days);
					vts[nvt - 1].child_led = led_note(lc_apply_rate(
					    rest, tier_rate(spend)), jstr(out, "earned",
					    "transaction_id"));
					vts[nvt - 1].child_amount = rest;
					spend += rest;
					if (money(out, "earned", "new_balance") != balance)
						model_bad++;
				}
			}
		} else if (op < 9) {
			/* A punch purchase with carry-over. */
			int64_t n = 1 + (int64_t)rnd(30);

			snprintf(body, sizeof(body), "{\"card_instance_id\":\"cp\","
			    "\"location_id\":\"l\",\"staff_user_id\":\"u\","
			    "\"purchase_amount\":1,\"punch_count\":%lld}", (long long)n);
			if (call(lc_h_record, body, now, &out) != LC_OK) {
				punch_bad++;
			} else {
				vt_add('p', jstr(out, "transaction_id",
				    NULL))->amount = n;
				punch_model(&cur, &lifetime, n, nvt - 1);
			}
		} else if (op < 10) {
			e = call(lc_h_claim, "{\"card_instance_id\":\"cp\","
			    "\"location_id\":\"l\",\"staff_user_id\":\"u\"}", now, &out);
			if (pending == 0 ? e != LC_E_NO_PENDING_REWARDS : e != LC_OK)
				punch_bad++;
			if (e == LC_OK && nrq > 0) {
				struct vt *v = vt_add('k', jstr(out,
				    "transaction_id", NULL));

				v->seq = rq[0].seq;
				v->owner = rq[0].owner;
				memmove(&rq[0], &rq[1], (size_t)(nrq - 1) *
				    sizeof(rq[0]));
				nrq--;
			}
		} else if (op < 11) {
			/* Time passes, then a till looks the card up: what
			 * has expired since is recorded then, once. */
			int64_t gone;

			now += (int64_t)rnd(2 * DAY);
			gone = model_due(now, 1);
			balance -= gone;
			e = call(lc_h_lookup, "{\"barcode_value\":\"1\"}", now,
			    &out);
			looked++;
			if (e != LC_OK || money(out, "cashback_balance", NULL) !=
			    balance)
				model_bad++;
			if (gone > 0)
				expiries++;
		} else if (op < 14 && nvt > 0) {
			/* A void of any transaction kept; a second void of
			 * one is refused and changes nothing. */
			struct vt *v = &vts[rnd((uint64_t)nvt)];
			int64_t got = 0;
			int k;

			snprintf(body, sizeof(body), "{\"transaction_id\":\"%s\","
			    "\"reason\":\"test\",\"location_id\":\"l\","
			    "\"staff_user_id\":\"u\"}", v->id);
			e = call(lc_h_void, body, now, &out);
			if (v->voided) {
				if (e != LC_E_ALREADY_VOIDED)
					void_bad++;
				void_refused++;
			} else if (v->kind == 'k' && v->owner >= 0 &&
			    vts[v->owner].voided) {
				/* Its reward's purchase was voided: the claim
				 * stands, nothing changes. */
				if (e != LC_E_NOT_VOIDABLE)
					void_bad++;
				void_refused++;
			} else if (e != LC_OK) {
				void_bad++;
			} else if (v->kind == 'c') {
				v->voided = 1;
				voids++;
				balance -= model_due(now, 1);
				if (v->led >= 0) {
					got = led[v->led].rem;
					led[v->led].rem = 0;
					ledvoid[v->led] = 1;
				}
				balance -= got;
				spend -= v->amount;
				if (money(out, "cashback_removed", NULL) != got)
					void_bad++;
			} else if (v->kind == 'r') {
				v->voided = 1;
				voids++;
				balance -= model_due(now, 1);
				for (k = v->ent0; k < v->ent0 + v->nent; k++) {
					if (vents[k].led < 0)
						bail("an entry of no earning");
					if (ledvoid[vents[k].led])
						continue;
					led[vents[k].led].rem += vents[k].amount;
					got += vents[k].amount;
				}
				balance += got;
				if (v->child_led >= 0) {
					balance -= led[v->child_led].rem;
					led[v->child_led].rem = 0;
					ledvoid[v->child_led] = 1;
				}
				spend -= v->child_amount;
				/* Given back past its date: expires now. */
				balance -= model_due(now, 1);
				if (money(out, "cashback_returned", NULL) != got)
					void_bad++;
			} else if (v->kind == 'p') {
				v->voided = 1;
				voids++;
				while (cur < v->amount && rq_withdraw(v - vts))
					cur += 7;
				cur = cur >= v->amount ? cur - v->amount : 0;
				lifetime = lifetime >= v->amount ?
				    lifetime - v->amount : 0;
			} else {
				v->voided = 1;
				voids++;
				rq_insert(v->seq, v->owner);
			}
		} else if (op < 15) {
			/* The owner's adjustment, up or down, sometimes below
			 * zero (refused, nothing changes). */
			int64_t x;

			if (rnd(2)) {
				x = rnd(2) ? 1 + (int64_t)rnd(3000) :
				    -1 - (int64_t)rnd((uint64_t)balance + 300);
				e = adjust("cc", 0, x, now);
				if (x < 0 && -x > balance - model_due(now, 0)) {
					if (e != LC_E_INSUFFICIENT_BALANCE)
						adjust_bad++;
					adjust_refused++;
				} else if (e != LC_OK) {
					adjust_bad++;
				} else {
					adjusts++;
					balance -= model_due(now, 1);
					if (x > 0) {
						/* An owner's credit never
						 * expires. */
						model_earn(x, now, 0);
						led_note(x, last_adjust);
					} else {
						model_spend(-x);
					}
					balance += x;
				}
			} else {
				x = rnd(2) ? 1 + (int64_t)rnd(10) :
				    -1 - (int64_t)rnd((uint64_t)(cur + nrq * 7) + 2);
				e = adjust("cp", x, 0, now);
				/* Below the card's own punches, pending
				 * rewards come back, the newest first. */
				if (x < 0 && -x > cur + (int64_t)nrq * 7) {
					if (e != LC_E_INSUFFICIENT_BALANCE)
						adjust_bad++;
					adjust_refused++;
				} else if (e != LC_OK) {
					adjust_bad++;
				} else if (x > 0) {
					adjusts++;
					punch_model(&cur, &lifetime, x, -1);
				} else {
					adjusts++;
					while (cur < -x && rq_withdraw(-2))
						cur += 7;
					cur += x;
					lifetime = lifetime >= -x ? lifetime + x : 0;
				}
			}
			out = NULL;
		} else {
			/* The owner changes the term, or drops it: for new
			 * earnings only. */
			static const char *const terms[] = { "NULL", "1", "3",
			    "7" };
			uint64_t t = rnd(4);

			snprintf(body, sizeof(body), "UPDATE programs SET "
			    "expiry_days = %s WHERE id = 'pc'", terms[t]);
			exec_sql(body);
			days = t == 0 ? 0 : atoi(terms[t]);
			out = NULL;
		}
		json_object_put(out);
		pending = nrq;

		if (q1("SELECT cashback_balance FROM cards WHERE id = 'cc'", NULL) !=
		    q1("SELECT coalesce(sum(remaining), 0) FROM cashback_earnings "
		    "WHERE card_id = 'cc'", NULL))
			ledger_bad++;
		if (q1("SELECT cashback_balance FROM cards WHERE id = 'cc'", NULL) !=
		    balance)
			model_bad++;
		if (q1("SELECT coalesce(sum(expired_amount), 0) FROM transactions "
		    "WHERE type = 'expiry'", NULL) != expired_total)
			expiry_bad++;
		if (q1("SELECT pending_rewards FROM cards WHERE id = 'cp'", NULL) !=
		    pending || q1("SELECT count(*) FROM rewards WHERE card_id = 'cp' "
		    "AND status = 'pending_claim'", NULL) != pending ||
		    q1("SELECT current_punches FROM cards WHERE id = 'cp'", NULL) !=
		    cur || q1("SELECT lifetime_punches FROM cards WHERE "
		    "id = 'cp'", NULL) != lifetime)
			punch_bad++;
	}

	is_int(ledger_bad, 0, "balance equals the ledger's remaining sum after each of %d operations", OPS);
	is_int(model_bad, 0, "balance equals the model after every operation");
	is_int(earn_bad, 0, "every earning is the tier rate of the purchase, rounded half away from zero");
	is_int(entry_bad, 0, "redeemed entries sum to the redeemed amount");
	is_int(fifo_bad, 0, "redemptions consume the soonest-expiring earnings first");
	is_int(expiry_bad, 0, "the expiries recorded equal the model's, to the cent, after every operation");
	ok(expiries > 20 && looked > 50, "the sequence exercised %lld lookups, "
	    "%lld of them recording expiries, %lld cents expired in all",
	    (long long)looked, (long long)expiries, (long long)expired_total);
	is_int(q1("SELECT count(*) FROM transactions t WHERE t.type = 'expiry' "
	    "AND NOT EXISTS (SELECT 1 FROM cashback_earnings e WHERE "
	    "e.card_id = t.card_id AND e.expires_at = t.created_at AND "
	    "e.remaining = 0)", NULL), 0,
	    "every expiry is dated at the expiry of an earning it emptied");
	is_int(punch_bad, 0, "punch counters and pending rewards match the rewards table");
	is_int(void_bad, 0, "every void gives back what the model says, and a second void is refused");
	ok(voids > 50 && void_refused > 5, "the sequence exercised %lld voids "
	    "and %lld second voids", (long long)voids, (long long)void_refused);
	is_int(adjust_bad, 0, "every adjustment moves the card as the model says, never below zero");
	ok(adjusts > 20 && adjust_refused > 5, "the sequence exercised %lld "
	    "adjustments and %lld refused below zero", (long long)adjusts,
	    (long long)adjust_refused);
	ok(redeemed_ok > 50 && refused > 10, "the sequence exercised %lld redemptions and %lld refusals",
	    (long long)redeemed_ok, (long long)refused);
	is_int(q1("SELECT count(*) FROM redemption_entries r JOIN transactions t "
	    "ON t.id = r.redeem_transaction_id WHERE t.type = 'cashback_redeem' "
	    "GROUP BY NULL HAVING "
	    "sum(r.amount_used) <> (SELECT sum(redeemed_amount) FROM transactions "
	    "WHERE type = 'cashback_redeem')", NULL), -1,
	    "all entries together equal all redemptions");
	is_int(q1("SELECT count(*) FROM pragma_integrity_check WHERE "
	    "integrity_check <> 'ok'", NULL), 0, "integrity_check is ok");

	lc_db_close(db);
	snprintf(path, sizeof(path), "%s/t.db", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
