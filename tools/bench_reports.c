/*
 * bench_reports: how fast the owner's reports answer on a year of a busy
 * shop.
 *
 *	bench_reports [-k] [-p] [-r runs] [transactions]
 *
 * Creates a database in a new temporary folder with lc_db_open (so every
 * migration and trigger is the production one) and seeds one merchant with
 * 3 locations, 8 staff (an owner and 7 tills), a punch, a cashback and a
 * discount program and 5,000 cards, then the given number of transactions
 * (default 1,000,000) over one year of opening hours, through the
 * storage's own writes (lc_db_txn_add, lc_db_reward_add, the cashback
 * ledger) inside one SQLite transaction, so the triggers fill
 * report_buckets as in production. Any of a location's staff may ring any
 * sale, which gives the most report_buckets rows a year can have for this
 * shop. Idempotency keys are not stored.
 *
 * It then times, over several runs, what the report endpoints call: the
 * year's summary by day, by location and by staff member (lc_db_report,
 * then lc_db_outstanding, as GET /admin/reports/summary does), a month's
 * first page of transactions (lc_db_txns_count and lc_db_txns, 100 rows)
 * and the whole year as CSV (lc_db_txns, every row formatted as the CSV
 * export formats it, into a stream that only counts bytes). Last it checks
 * the summary's totals against a direct aggregate of the transactions
 * table and against what the seed recorded.
 *
 * Each timing gives the median and the maximum elapsed time and the
 * median CPU time of this process (what the work costs when other
 * processes share the cores). One line per figure on stdout. -k keeps
 * the database (its path is printed), -p prints the report statements'
 * query plans, -r sets the runs of each timing (the CSV export runs at
 * most 3 times).
 * Exit status: 0, 1 when a check fails, 2 on any other failure.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lc_http.h"
#include "lc_backend.h"
#include "lc_sqlite.h"

#define NLOC 3
#define NSTAFF 8		/* users[0] is the owner */
#define NCARDS 5000
#define NDAYS 365
#define YEAR_FIRST "2025-01-01"
#define MONTH_FIRST "2025-06-01"	/* the month of the page */
#define MONTH_NEXT "2025-07-01"
#define UTC_OFFSET_MIN 60	/* the shop's days start at 23:00 UTC */
#define OPEN_HOUR 7		/* local opening hours, every day */
#define CLOSE_HOUR 20
#define HOUR_MS 3600000LL
#define DAY_MS 86400000LL
#define BUCKET_MS 900000LL
#define RUNS 7
#define RUNS_MAX 100
#define CSV_RUNS 3
#define PAGE_ROWS 100
#define PATH_SZ 256

enum { PROG_PUNCH, PROG_CASHBACK, PROG_DISCOUNT, NPROG };

/* What the seed keeps of a card, to apply the card rules itself. */
struct card {
	char id[LC_ID_LEN + 1];
	int prog;
	int64_t punches, pending, lifetime_punches;
	int64_t balance, lifetime_cashback, spend;
};

struct shop {
	struct lc_db *db;
	char path[PATH_SZ], dir[PATH_SZ];
	char merchant[LC_ID_LEN + 1];
	char loc[NLOC][LC_ID_LEN + 1];
	char user[NSTAFF][LC_ID_LEN + 1];
	struct lc_program prog[NPROG];
	struct card *cards;
	int64_t ntxns;			/* to seed */
	int64_t from_ms, to_ms;		/* the year, UTC, inclusive */
	int64_t offset_ms;
	int64_t done;			/* transactions seeded */
	int64_t rewards;		/* rewards earned */
	struct lc_report_row gen;	/* the year's figures as seeded */
};

/* The staff of each location: users[first] .. users[first + n - 1]. */
static const int loc_first[NLOC] = { 1, 4, 6 };
static const int loc_staff[NLOC] = { 3, 2, 2 };
static const char *const loc_names[NLOC] = { "High Street", "Station",
    "Market Square" };
static const char *const staff_names[NSTAFF] = { "Olive Owner", "Ben",
    "Chloe", "Dev", "Ewa", "Farid", "Grace", "Hugo" };
static const char *const first_names[] = { "Ann", "Bob", "Carla", "Dan",
    "Eve", "Femi", "Gus", "Hana", "Ivan", "Jo", "Kai", "Lena", "Mo", "Nia",
    "Omar", "Pia", "Quinn", "Rosa", "Sam", "Tess" };
static const char *const last_names[] = { "Smith", "O'Brien", "Nowak",
    "Garcia", "Müller", "Okafor", "Rossi", "Lee", "Dubois", "Khan",
    "Smith, Jr.", "Jensen", "Silva", "Novak", "Ito", "Brown", "Haddad",
    "Kowalski", "Walsh", "Costa" };

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/* xorshift64*: the same shop every run. */
static uint64_t
rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [lo, hi]. */
static int64_t
rnd_in(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

/* 1 with a chance of permille in 1000. */
static int
chance(int permille)
{
	return rnd() % 1000 < (uint64_t)permille;
}

/* A UUID-shaped id, as lc_uuid makes, but from the seeded generator. */
static void
make_id(char out[LC_ID_LEN + 1])
{
	uint64_t a = rnd(), b = rnd();

	snprintf(out, LC_ID_LEN + 1, "%08x-%04x-4%03x-%04x-%012llx",
	    (unsigned)(a >> 32), (unsigned)(a >> 16) & 0xffff,
	    (unsigned)a & 0xfff, 0x8000 | ((unsigned)(b >> 48) & 0x3fff),
	    (unsigned long long)b & 0xffffffffffffULL);
}

static double
clock_ms(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts) == -1)
		abort();	/* only for a clock that does not exist */
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double
now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/* Floor division: a time's quarter hour, as api_admin_reports.c. */
static int64_t
bucket(int64_t ms)
{
	return (ms - ((ms % BUCKET_MS) + BUCKET_MS) % BUCKET_MS) / BUCKET_MS;
}

static int64_t
apply_rate(int64_t v, int64_t bp)
{
	return (v * bp + LC_RATE_MAX / 2) / LC_RATE_MAX;
}

/* The card's tier rate at its lifetime spend before this purchase. */
static int64_t
tier_rate(const struct lc_program *p, int64_t spend)
{
	int i, t = 0;

	for (i = 0; i < p->ntiers; i++)
		if (spend >= p->tiers[i].min_spend)
			t = i;
	return p->tiers[t].rate_bp;
}

static int
exec(struct shop *s, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(lc_sq_handle(s->db), sql, NULL, NULL, &err) !=
	    SQLITE_OK) {
		fprintf(stderr, "bench_reports: %s: %s\n", sql,
		    err != NULL ? err : "?");
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* The int64 columns of the one row of sql, bound with the merchant and
 * the times a and b (when the statement has them). 0 or -1. */
static int
query_row(struct shop *s, const char *sql, int64_t a, int64_t b,
    int64_t *out, int n)
{
	sqlite3 *h = lc_sq_handle(s->db);
	sqlite3_stmt *st = NULL;
	int i, np, rc = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	np = sqlite3_bind_parameter_count(st);
	if ((np >= 1 && sqlite3_bind_text(st, 1, s->merchant, -1,
	    SQLITE_STATIC) != SQLITE_OK) ||
	    (np >= 2 && sqlite3_bind_int64(st, 2, a) != SQLITE_OK) ||
	    (np >= 3 && sqlite3_bind_int64(st, 3, b) != SQLITE_OK))
		goto out;
	if (sqlite3_step(st) != SQLITE_ROW || sqlite3_column_count(st) < n)
		goto out;
	for (i = 0; i < n; i++)
		out[i] = sqlite3_column_int64(st, i);
	rc = 0;
out:
	if (rc == -1)
		fprintf(stderr, "bench_reports: %s: %s\n", sql,
		    sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return rc;
}

/* The merchant, its locations, staff, programs and cards. */
static int
seed_shop(struct shop *s, int64_t at)
{
	struct lc_location l;
	struct lc_user u;
	struct lc_program *p;
	struct lc_card c;
	int i;

	make_id(s->merchant);
	if (lc_db_merchant_add(s->db, s->merchant, "Corner Cafe", at) == -1)
		return -1;
	for (i = 0; i < NLOC; i++) {
		memset(&l, 0, sizeof(l));
		make_id(l.id);
		memcpy(l.merchant_id, s->merchant, sizeof(l.merchant_id));
		snprintf(l.name, sizeof(l.name), "%s", loc_names[i]);
		if (lc_db_location_add(s->db, &l, at) == -1)
			return -1;
		memcpy(s->loc[i], l.id, sizeof(s->loc[i]));
	}
	for (i = 0; i < NSTAFF; i++) {
		memset(&u, 0, sizeof(u));
		make_id(u.id);
		memcpy(u.merchant_id, s->merchant, sizeof(u.merchant_id));
		u.is_owner = i == 0;
		if (i > 0)
			memcpy(u.location_id, s->loc[i < loc_first[1] ? 0 :
			    i < loc_first[2] ? 1 : 2], sizeof(u.location_id));
		snprintf(u.email, sizeof(u.email), "staff%d@cafe.example", i);
		snprintf(u.display_name, sizeof(u.display_name), "%s",
		    staff_names[i]);
		/* Nobody logs in: any MCF-shaped text will do. */
		snprintf(u.password_hash, sizeof(u.password_hash),
		    "$s1$0e0801$bench$bench");
		if (lc_db_user_add(s->db, &u, at) != 0)
			return -1;
		memcpy(s->user[i], u.id, sizeof(s->user[i]));
	}

	p = &s->prog[PROG_PUNCH];
	make_id(p->id);
	memcpy(p->merchant_id, s->merchant, sizeof(p->merchant_id));
	p->type = LC_CT_PUNCH;
	snprintf(p->title, sizeof(p->title), "Coffee Card");
	snprintf(p->reward_title, sizeof(p->reward_title), "Free coffee");
	p->punch_requirement = 10;
	p->reward_amount = 350;
	p->cooldown_seconds = 60;

	p = &s->prog[PROG_CASHBACK];
	make_id(p->id);
	memcpy(p->merchant_id, s->merchant, sizeof(p->merchant_id));
	p->type = LC_CT_CASHBACK;
	snprintf(p->title, sizeof(p->title), "Cashback");
	p->ntiers = 3;
	p->tiers[0] = (struct lc_tier){ "Bronze", 0, 200 };
	p->tiers[1] = (struct lc_tier){ "Silver", 20000, 300 };
	p->tiers[2] = (struct lc_tier){ "Gold", 50000, 500 };

	p = &s->prog[PROG_DISCOUNT];
	make_id(p->id);
	memcpy(p->merchant_id, s->merchant, sizeof(p->merchant_id));
	p->type = LC_CT_DISCOUNT;
	snprintf(p->title, sizeof(p->title), "Member Discount");
	p->ntiers = 2;
	p->tiers[0] = (struct lc_tier){ "Member", 0, 500 };
	p->tiers[1] = (struct lc_tier){ "VIP", 100000, 1000 };

	for (i = 0; i < NPROG; i++)
		if (lc_db_program_add(s->db, &s->prog[i], at) == -1)
			return -1;

	/* Half punch cards, 3 in 10 cashback, 2 in 10 discount, mixed so
	 * that the regulars (the low numbers) hold every kind. */
	for (i = 0; i < NCARDS; i++) {
		unsigned char raw[16];
		uint64_t r1 = rnd(), r2 = rnd();
		struct card *k = &s->cards[i];

		k->prog = i % 10 < 5 ? PROG_PUNCH : i % 10 < 8 ?
		    PROG_CASHBACK : PROG_DISCOUNT;
		memset(&c, 0, sizeof(c));
		make_id(c.id);
		memcpy(c.merchant_id, s->merchant, sizeof(c.merchant_id));
		memcpy(c.program.id, s->prog[k->prog].id,
		    sizeof(c.program.id));
		snprintf(c.customer_name, sizeof(c.customer_name), "%s %s",
		    first_names[rnd() % (sizeof(first_names) /
		    sizeof(first_names[0]))], last_names[rnd() %
		    (sizeof(last_names) / sizeof(last_names[0]))]);
		snprintf(c.barcode, sizeof(c.barcode), "29%011d", i);
		memcpy(raw, &r1, 8);
		memcpy(raw + 8, &r2, 8);
		c.qr[lc_b64_encode(raw, sizeof(raw), c.qr, 1)] = '\0';
		if (lc_share_token(c.share_token) == -1 ||
		    lc_db_card_add(s->db, &c, NULL, NULL, at + i) != 0)
			return -1;
		memcpy(k->id, c.id, sizeof(k->id));
	}
	return 0;
}

/* A customer: the regulars (low numbers) come far more often. */
static struct card *
pick_card(struct shop *s)
{
	double u = (double)(rnd() >> 11) / 9007199254740992.0;

	return &s->cards[(int)(NCARDS * u * u)];
}

/* Takes amount from the card's oldest cashback earnings, as
 * rule_redeem.c does. */
static int
consume(struct shop *s, const struct card *k, const char *txn_id,
    int64_t amount)
{
	struct lc_earning e;
	int64_t use;

	while (amount > 0) {
		if (lc_db_earning_oldest(s->db, k->id, &e) != 1)
			return -1;
		use = e.remaining < amount ? e.remaining : amount;
		if (lc_db_earning_use(s->db, e.txn_id, use) != 1 ||
		    lc_db_entry_add(s->db, txn_id, e.txn_id, use) == -1)
			return -1;
		amount -= use;
	}
	return 0;
}

/*
 * One visit at time at: a purchase of the card's kind, or a reward claim,
 * or a cashback redemption (with a purchase on what is left to pay when
 * room is 2 or more). The number of transactions recorded, or -1.
 */
static int
visit(struct shop *s, int64_t at, int room)
{
	struct lc_txn t;
	struct lc_reward rw, old;
	struct card *k = pick_card(s);
	const struct lc_program *p = &s->prog[k->prog];
	char ref[32], term[32], when[32];
	int64_t earned = 0, i, rate, pay;
	int loc, n = 1, r = (int)(rnd() % 100);

	loc = r < 50 ? 0 : r < 80 ? 1 : 2;
	memset(&t, 0, sizeof(t));
	make_id(t.id);
	t.merchant_id = s->merchant;
	t.card_id = k->id;
	t.location_id = s->loc[loc];
	t.staff_user_id = loc == 0 && chance(50) ? s->user[0] :
	    s->user[loc_first[loc] + (int)(rnd() % loc_staff[loc])];
	t.punches_added = t.rate_bp = t.cashback_earned = -1;
	t.discount_amount = t.redeemed_amount = -1;
	t.created_at = at;
	if (chance(400)) {
		snprintf(ref, sizeof(ref), "R%08lld", (long long)s->done);
		snprintf(term, sizeof(term), "T%d-%d", loc + 1,
		    (int)(rnd() % 2) + 1);
		t.pos_ref = ref;
		t.pos_term = term;
	}
	if (chance(5))
		t.notes = "Birthday, extra candle";
	if (chance(30)) {
		/* Captured offline and synced later. */
		lc_time_fmt(at, when);
		t.client_ts = when;
	}

	switch (k->prog) {
	case PROG_PUNCH:
		if (k->pending > 0 && chance(600)) {
			if (lc_db_reward_oldest(s->db, k->id, &old) != 1)
				return -1;
			t.type = "reward_claim";
			t.reward_id = old.id;
			if (lc_db_txn_add(s->db, &t) == -1 ||
			    lc_db_reward_claim(s->db, old.id, at, t.id) != 1)
				return -1;
			k->pending--;
			s->gen.rewards_claimed++;
			break;
		}
		t.type = "punch";
		t.purchase_amount = rnd_in(250, 900);
		t.punches_added = chance(50) ? 2 : 1;
		k->punches += t.punches_added;
		k->lifetime_punches += t.punches_added;
		earned = k->punches / p->punch_requirement;
		k->punches %= p->punch_requirement;
		memset(&rw, 0, sizeof(rw));
		if (earned > 0) {
			make_id(rw.id);
			memcpy(rw.card_id, k->id, sizeof(rw.card_id));
			memcpy(rw.earned_txn_id, t.id,
			    sizeof(rw.earned_txn_id));
			memcpy(rw.title, p->reward_title, sizeof(rw.title));
			rw.amount = p->reward_amount;
			rw.earned_at = at;
			t.reward_id = rw.id;
		}
		if (lc_db_txn_add(s->db, &t) == -1)
			return -1;
		for (i = 0; i < earned; i++) {
			if (i > 0)
				make_id(rw.id);
			if (lc_db_reward_add(s->db, &rw) == -1)
				return -1;
		}
		k->pending += earned;
		s->rewards += earned;
		s->gen.rewards_earned += earned;
		s->gen.punches += t.punches_added;
		break;
	case PROG_CASHBACK:
		if (k->balance >= 500 && chance(100)) {
			t.type = "cashback_redeem";
			t.redeemed_amount = rnd_in(500, k->balance);
			t.purchase_amount = t.redeemed_amount +
			    rnd_in(0, 3000);
			if (lc_db_txn_add(s->db, &t) == -1 ||
			    consume(s, k, t.id, t.redeemed_amount) == -1)
				return -1;
			k->balance -= t.redeemed_amount;
			s->gen.cashback_redeemed += t.redeemed_amount;
			pay = t.purchase_amount - t.redeemed_amount;
			if (room < 2 || pay == 0 || !chance(500))
				break;
			/* The rest is paid and earns, as rule_redeem.c's
			 * earn option records it. */
			make_id(t.id);
			t.redeemed_amount = -1;
			t.purchase_amount = pay;
			n = 2;
		}
		t.type = "cashback";
		if (n == 1)
			t.purchase_amount = rnd_in(500, 8000);
		rate = tier_rate(p, k->spend);
		k->spend += t.purchase_amount;
		t.rate_bp = rate;
		t.cashback_earned = apply_rate(t.purchase_amount, rate);
		if (lc_db_txn_add(s->db, &t) == -1 ||
		    (t.cashback_earned > 0 && lc_db_earning_add(s->db, t.id,
		    k->id, t.cashback_earned, at) == -1))
			return -1;
		k->balance += t.cashback_earned;
		k->lifetime_cashback += t.cashback_earned;
		s->gen.cashback_earned += t.cashback_earned;
		break;
	default:
		t.type = "discount";
		t.purchase_amount = rnd_in(1000, 15000);
		rate = tier_rate(p, k->spend);
		k->spend += t.purchase_amount;
		t.rate_bp = rate;
		t.discount_amount = apply_rate(t.purchase_amount, rate);
		if (lc_db_txn_add(s->db, &t) == -1)
			return -1;
		s->gen.discounts_given += t.discount_amount;
		break;
	}
	if (strcmp(t.type, "reward_claim") != 0 &&
	    strcmp(t.type, "cashback_redeem") != 0) {
		s->gen.purchases++;
		s->gen.sales_amount += t.purchase_amount;
	}
	s->done += n;
	return n;
}

/*
 * The year's transactions, in time order: a day gets its share by its
 * weekday (Saturday busiest, Sunday quietest), spread evenly with jitter
 * over the opening hours.
 */
static int
seed_txns(struct shop *s)
{
	/* Sunday to Saturday. */
	static const int weight[7] = { 6, 10, 10, 10, 10, 10, 13 };
	struct lc_card c;
	int64_t wsum = 0, w = 0, first_day, open, span, count, k;
	int d, n;
	size_t i;

	first_day = (s->from_ms + s->offset_ms) / DAY_MS;
	for (d = 0; d < NDAYS; d++)
		wsum += weight[(first_day + d + 4) % 7];
	span = (CLOSE_HOUR - OPEN_HOUR) * HOUR_MS;
	for (d = 0; d < NDAYS; d++) {
		count = s->ntxns * (w + weight[(first_day + d + 4) % 7]) /
		    wsum - s->ntxns * w / wsum;
		w += weight[(first_day + d + 4) % 7];
		open = s->from_ms + d * DAY_MS + OPEN_HOUR * HOUR_MS;
		for (k = 0; k < count; k += n) {
			if ((n = visit(s, open + (k * span +
			    (int64_t)(rnd() % (uint64_t)span)) / count,
			    (int)(count - k > 2 ? 2 : count - k))) == -1)
				return -1;
		}
	}
	/* The cards' counters, as the rules would have left them. */
	memset(&c, 0, sizeof(c));
	for (i = 0; i < NCARDS; i++) {
		memcpy(c.id, s->cards[i].id, sizeof(c.id));
		c.current_punches = s->cards[i].punches;
		c.pending_rewards = s->cards[i].pending;
		c.lifetime_punches = s->cards[i].lifetime_punches;
		c.cashback_balance = s->cards[i].balance;
		c.lifetime_cashback = s->cards[i].lifetime_cashback;
		c.lifetime_spend = s->cards[i].spend;
		if (lc_db_card_save(s->db, &c) == -1)
			return -1;
	}
	return 0;
}

static int
seed(struct shop *s)
{
	if (exec(s, "BEGIN") == -1)
		return -1;
	if (seed_shop(s, s->from_ms - 30 * DAY_MS) == -1 ||
	    seed_txns(s) == -1) {
		fprintf(stderr, "bench_reports: seeding failed after %lld "
		    "transactions\n", (long long)s->done);
		(void)exec(s, "ROLLBACK");
		return -1;
	}
	if (exec(s, "COMMIT") == -1 ||
	    exec(s, "PRAGMA wal_checkpoint(TRUNCATE)") == -1)
		return -1;
	return 0;
}

/* A figure's runs: elapsed and CPU (this process) milliseconds. */
struct timing {
	double ms[RUNS_MAX], cpu[RUNS_MAX];
	double start, start_cpu;
	int n;
};

static void
tic(struct timing *t)
{
	t->start = now_ms();
	t->start_cpu = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static void
toc(struct timing *t)
{
	t->ms[t->n] = now_ms() - t->start;
	t->cpu[t->n] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t->start_cpu;
	t->n++;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Elapsed time is what a caller waits; CPU time is what the work costs
 * when other processes share the cores. */
static void
print_timing(const char *what, struct timing *t, const char *extra)
{
	double med = median(t->ms, t->n), cpu = median(t->cpu, t->n);

	printf("%s: median %.1f ms, max %.1f ms, cpu median %.1f ms "
	    "(%d runs%s%s)\n", what, med, t->ms[t->n - 1], cpu, t->n,
	    extra[0] != '\0' ? ", " : "", extra);
}

struct summary {
	int64_t rows;
	struct lc_report_row total;
};

static int
summary_row(void *arg, const struct lc_report_row *r)
{
	struct summary *m = arg;

	m->rows++;
	m->total.purchases += r->purchases;
	m->total.sales_amount += r->sales_amount;
	m->total.punches += r->punches;
	m->total.rewards_earned += r->rewards_earned;
	m->total.rewards_claimed += r->rewards_claimed;
	m->total.cashback_earned += r->cashback_earned;
	m->total.cashback_redeemed += r->cashback_redeemed;
	m->total.discounts_given += r->discounts_given;
	return 0;
}

/* One summary request's storage calls: the rows, then what is owed. */
static int
summary(struct shop *s, struct lc_db *db, enum lc_report_group g,
    struct summary *m, int64_t *owed)
{
	memset(m, 0, sizeof(*m));
	if (lc_db_report(db, s->merchant, bucket(s->from_ms),
	    bucket(s->to_ms), s->offset_ms, g, summary_row, m) != 0 ||
	    lc_db_outstanding(db, s->merchant, bucket(s->to_ms), owed) != 0) {
		fprintf(stderr, "bench_reports: the summary failed\n");
		return -1;
	}
	return 0;
}

struct csv {
	FILE *f;
	int64_t rows;
};

/* A row exactly as api_admin_reports.c's CSV export writes it. */
static int
csv_row(void *arg, const struct lc_txn_row *t)
{
	const struct lc_hist_item *it = &t->it;
	struct csv *c = arg;
	FILE *f = c->f;
	char when[32];

	lc_time_fmt(it->created_at, when);
	lc_csv_text(f, it->id, 0);
	lc_csv_text(f, when, 0);
	lc_csv_text(f, it->type, 0);
	lc_csv_text(f, t->card_id, 0);
	lc_csv_text(f, t->customer_name, 0);
	lc_csv_text(f, t->card_type, 0);
	lc_csv_text(f, t->location_id, 0);
	lc_csv_text(f, it->location_name, 0);
	lc_csv_text(f, t->staff_user_id, 0);
	lc_csv_text(f, it->staff_name, 0);
	lc_csv_money(f, it->purchase_amount, 2, 0);
	if (it->punches_added >= 0)
		lc_csv_int(f, it->punches_added, 0);
	else
		lc_csv_text(f, "", 0);
	lc_csv_money(f, it->cashback_earned, 2, 0);
	lc_csv_money(f, it->discount_amount, 2, 0);
	lc_csv_money(f, it->redeemed_amount, 2, 0);
	lc_csv_text(f, it->reward_name, 0);
	lc_csv_text(f, it->pos_ref, 0);
	lc_csv_text(f, it->pos_term, 0);
	lc_csv_text(f, it->notes, 0);
	lc_csv_text(f, it->client_ts, 1);
	c->rows++;
	return ferror(f) ? -2 : 0;
}

static int
page_row(void *arg, const struct lc_txn_row *t)
{
	(void)t;
	++*(int64_t *)arg;
	return 0;
}

/* A stream that counts what is written to it. */
static ssize_t
count_write(void *cookie, const char *buf, size_t len)
{
	(void)buf;
	*(int64_t *)cookie += (int64_t)len;
	return (ssize_t)len;
}

static int
same(const char *what, const struct lc_report_row *a,
    const struct lc_report_row *b)
{
	int ok = a->purchases == b->purchases &&
	    a->sales_amount == b->sales_amount && a->punches == b->punches &&
	    a->rewards_earned == b->rewards_earned &&
	    a->rewards_claimed == b->rewards_claimed &&
	    a->cashback_earned == b->cashback_earned &&
	    a->cashback_redeemed == b->cashback_redeemed &&
	    a->discounts_given == b->discounts_given;

	printf("check %s: %s\n", what, ok ? "OK" : "MISMATCH");
	if (!ok)
		printf("  %lld %lld %lld %lld %lld %lld %lld %lld\n"
		    "  %lld %lld %lld %lld %lld %lld %lld %lld\n",
		    (long long)a->purchases, (long long)a->sales_amount,
		    (long long)a->punches, (long long)a->rewards_earned,
		    (long long)a->rewards_claimed,
		    (long long)a->cashback_earned,
		    (long long)a->cashback_redeemed,
		    (long long)a->discounts_given, (long long)b->purchases,
		    (long long)b->sales_amount, (long long)b->punches,
		    (long long)b->rewards_earned, (long long)b->rewards_claimed,
		    (long long)b->cashback_earned,
		    (long long)b->cashback_redeemed,
		    (long long)b->discounts_given);
	return ok;
}

static int
check_int(const char *what, int64_t got, int64_t want)
{
	int ok = got == want;

	printf("check %s: %s (%lld", what, ok ? "OK" : "MISMATCH",
	    (long long)got);
	if (!ok)
		printf(", expected %lld", (long long)want);
	printf(")\n");
	return ok;
}

static const char *const plan_names[] = { "REPORT_DAY", "REPORT_LOCATION",
    "REPORT_STAFF", "OUTSTANDING", "TXNS_COUNT", "TXNS_PAGE" };

/* The query plan of each report statement, one line a step. */
static int
plans(struct shop *s)
{
	sqlite3 *h = lc_sq_handle(s->db);
	sqlite3_stmt *st;
	char q[4096];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(plan_names) / sizeof(plan_names[0]); i++) {
		snprintf(q, sizeof(q), "EXPLAIN QUERY PLAN %s",
		    lc_st_lists_sql(plan_names[i]));
		if (sqlite3_prepare_v2(h, q, -1, &st, NULL) != SQLITE_OK) {
			fprintf(stderr, "bench_reports: plan %s: %s\n",
			    plan_names[i], sqlite3_errmsg(h));
			return -1;
		}
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			printf("plan %s: %s\n", plan_names[i],
			    (const char *)sqlite3_column_text(st, 3));
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}

/* Times every report; 0, 1 when a check fails, -1 on a failure. */
static int
bench(struct shop *s, int runs, int show_plans)
{
	static const char *const gname[] = { "day", "location", "staff" };
	static const char direct_sql[] = "SELECT sum(type IN ('punch', "
	    "'cashback', 'discount')), sum(CASE WHEN type IN ('punch', "
	    "'cashback', 'discount') THEN purchase_amount ELSE 0 END), "
	    "sum(coalesce(punches_added, 0)), sum(type = 'reward_claim'), "
	    "sum(coalesce(cashback_earned, 0)), "
	    "sum(coalesce(redeemed_amount, 0)), "
	    "sum(coalesce(discount_amount, 0)), count(*) FROM transactions "
	    "WHERE merchant_id = ? AND created_at BETWEEN ? AND ?";
	cookie_io_functions_t io = { NULL, count_write, NULL, NULL };
	struct summary m[3], fresh;
	struct lc_report_row direct;
	struct timing t;
	struct csv c;
	struct lc_db *db2;
	const char *why;
	char what[128], extra[128];
	int64_t owed = 0, owed_direct, v[8], month_from, month_to, total;
	int64_t rows, bytes, csv_rows = 0;
	int g, i, r, date_only, good = 1;

	if (show_plans && plans(s) == -1)
		return -1;

	for (g = 0; g < 3; g++) {
		t.n = 0;
		for (i = 0; i < runs; i++) {
			tic(&t);
			if (summary(s, s->db, (enum lc_report_group)g, &m[g],
			    &owed) == -1)
				return -1;
			toc(&t);
		}
		snprintf(what, sizeof(what), "summary by %s", gname[g]);
		snprintf(extra, sizeof(extra), "%lld rows, lc_db_report + "
		    "lc_db_outstanding", (long long)m[g].rows);
		print_timing(what, &t, extra);
	}

	t.n = 0;
	for (i = 0; i < runs; i++) {
		tic(&t);
		if (lc_db_outstanding(s->db, s->merchant, bucket(s->to_ms),
		    &owed) != 0)
			return -1;
		toc(&t);
	}
	print_timing("outstanding cashback", &t, "lc_db_outstanding alone");

	/* As a plain CGI responder serves it: a new connection each time. */
	t.n = 0;
	for (i = 0; i < runs; i++) {
		tic(&t);
		if ((db2 = lc_db_open(s->path, 0, &why)) == NULL) {
			fprintf(stderr, "bench_reports: open: %s\n", why);
			return -1;
		}
		r = summary(s, db2, LC_GROUP_DAY, &fresh, &owed);
		lc_db_close(db2);
		if (r == -1)
			return -1;
		toc(&t);
	}
	print_timing("summary by day on a new connection", &t,
	    "lc_db_open + lc_db_report + lc_db_outstanding + lc_db_close");

	if (lc_time_parse(MONTH_FIRST, &month_from, &date_only) == -1 ||
	    lc_time_parse(MONTH_NEXT, &month_to, &date_only) == -1)
		return -1;
	month_from -= s->offset_ms;
	month_to -= s->offset_ms + 1;
	t.n = 0;
	for (i = 0; i < runs; i++) {
		rows = 0;
		tic(&t);
		if (lc_db_txns_count(s->db, s->merchant, month_from, month_to,
		    &total) != 0 || lc_db_txns(s->db, s->merchant, month_from,
		    month_to, PAGE_ROWS, 0, page_row, &rows) != 0)
			return -1;
		toc(&t);
	}
	snprintf(extra, sizeof(extra), "lc_db_txns_count + lc_db_txns, "
	    "%lld rows of %lld", (long long)rows, (long long)total);
	print_timing("month's transactions page 1", &t, extra);

	t.n = 0;
	for (i = 0; i < (runs < CSV_RUNS ? runs : CSV_RUNS); i++) {
		bytes = 0;
		memset(&c, 0, sizeof(c));
		if ((c.f = fopencookie(&bytes, "w", io)) == NULL) {
			fprintf(stderr, "bench_reports: fopencookie: %s\n",
			    strerror(errno));
			return -1;
		}
		tic(&t);
		if (lc_db_txns(s->db, s->merchant, s->from_ms, s->to_ms, -1,
		    0, csv_row, &c) != 0 || fflush(c.f) == EOF) {
			(void)fclose(c.f);
			return -1;
		}
		toc(&t);
		if (fclose(c.f) == EOF)
			return -1;
		csv_rows = c.rows;
	}
	snprintf(extra, sizeof(extra), "%lld rows, %.1f MB of CSV",
	    (long long)csv_rows, bytes / 1e6);
	print_timing("year's transactions as CSV", &t, extra);

	/* The figures, checked once. */
	if (query_row(s, direct_sql, s->from_ms, s->to_ms, v, 8) == -1)
		return -1;
	memset(&direct, 0, sizeof(direct));
	direct.purchases = v[0];
	direct.sales_amount = v[1];
	direct.punches = v[2];
	direct.rewards_claimed = v[3];
	direct.cashback_earned = v[4];
	direct.cashback_redeemed = v[5];
	direct.discounts_given = v[6];
	total = v[7];
	/* CROSS JOIN keeps rewards outside: the planner would otherwise
	 * scan every reward for each transaction. */
	if (query_row(s, "SELECT count(*) FROM rewards r CROSS JOIN "
	    "transactions t ON t.id = r.earned_transaction_id "
	    "WHERE t.merchant_id = ? "
	    "AND t.created_at BETWEEN ? AND ?", s->from_ms, s->to_ms,
	    &direct.rewards_earned, 1) == -1 ||
	    query_row(s, "SELECT coalesce(sum(coalesce(cashback_earned, 0) - "
	    "coalesce(redeemed_amount, 0)), 0) FROM transactions "
	    "WHERE merchant_id = ? AND created_at < ?",
	    (bucket(s->to_ms) + 1) * BUCKET_MS, 0, &owed_direct, 1) == -1)
		return -1;
	for (g = 0; g < 3; g++) {
		snprintf(what, sizeof(what), "summary by %s = aggregate of "
		    "transactions", gname[g]);
		good &= same(what, &m[g].total, &direct);
	}
	good &= same("aggregate of transactions = what the seed recorded",
	    &direct, &s->gen);
	good &= check_int("outstanding = aggregate of transactions", owed,
	    owed_direct);
	good &= check_int("summary by day has a row per day", m[0].rows,
	    NDAYS);
	good &= check_int("transactions in the year = seeded", total,
	    s->ntxns);
	good &= check_int("CSV rows = transactions in the year", csv_rows,
	    total);
	return good ? 0 : 1;
}

static int
file_size(const char *path, int64_t *size)
{
	struct stat sb;

	if (stat(path, &sb) == -1) {
		if (errno != ENOENT)
			return -1;
		*size = 0;
		return 0;
	}
	*size = sb.st_size;
	return 0;
}

/* The database's path with suffix ("-wal", "-shm"): 0, or -1 when it
 * does not fit. */
static int
sidecar(const struct shop *s, const char *suffix, char out[PATH_SZ])
{
	int n = snprintf(out, PATH_SZ, "%s%s", s->path, suffix);

	return n < 0 || n >= PATH_SZ ? -1 : 0;
}

static void
remove_db(struct shop *s)
{
	char p[PATH_SZ];

	(void)unlink(s->path);
	if (sidecar(s, "-wal", p) == 0)
		(void)unlink(p);
	if (sidecar(s, "-shm", p) == 0)
		(void)unlink(p);
	(void)rmdir(s->dir);
}

static int
usage(void)
{
	fputs("usage: bench_reports [-k] [-p] [-r runs] [transactions]\n",
	    stderr);
	return 2;
}

int
main(int argc, char *argv[])
{
	static struct shop shop;
	struct shop *s = &shop;
	const char *why, *tmp;
	char *end, wal_path[PATH_SZ];
	int64_t ms, size, wal, buckets;
	double t0;
	int ch, n, date_only, keep = 0, show_plans = 0, runs = RUNS, rc = 2;
	int made = 0;

	while ((ch = getopt(argc, argv, "kpr:")) != -1) {
		switch (ch) {
		case 'k':
			keep = 1;
			break;
		case 'p':
			show_plans = 1;
			break;
		case 'r':
			runs = (int)strtol(optarg, &end, 10);
			if (*end != '\0' || runs < 1 || runs > RUNS_MAX)
				return usage();
			break;
		default:
			return usage();
		}
	}
	if (argc - optind > 1)
		return usage();
	s->ntxns = 1000000;
	if (argc - optind == 1) {
		errno = 0;
		s->ntxns = strtoll(argv[optind], &end, 10);
		if (errno != 0 || *end != '\0' || s->ntxns < NDAYS ||
		    s->ntxns > 100000000)
			return usage();
	}

	if (lc_time_parse(YEAR_FIRST, &ms, &date_only) == -1)
		return 2;
	s->offset_ms = UTC_OFFSET_MIN * 60000LL;
	s->from_ms = ms - s->offset_ms;
	s->to_ms = ms + NDAYS * DAY_MS - s->offset_ms - 1;
	if ((s->cards = calloc(NCARDS, sizeof(*s->cards))) == NULL)
		return 2;
	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	n = snprintf(s->dir, sizeof(s->dir), "%s/bench-reports-XXXXXX", tmp);
	if (n < 0 || (size_t)n >= sizeof(s->dir) - sizeof("/loyalty.db") -
	    sizeof("-wal")) {
		fprintf(stderr, "bench_reports: TMPDIR too long\n");
		goto out;
	}
	if (mkdtemp(s->dir) == NULL) {
		fprintf(stderr, "bench_reports: mkdtemp %s: %s\n", s->dir,
		    strerror(errno));
		goto out;
	}
	made = 1;
	n = snprintf(s->path, sizeof(s->path), "%s/loyalty.db", s->dir);
	if (n < 0 || (size_t)n >= sizeof(s->path) ||
	    sidecar(s, "-wal", wal_path) == -1)
		goto out;
	if ((s->db = lc_db_open(s->path, 1, &why)) == NULL) {
		fprintf(stderr, "bench_reports: open %s: %s\n", s->path, why);
		goto out;
	}

	/* Each figure as soon as it is measured. */
	if (setvbuf(stdout, NULL, _IOLBF, 0) != 0)
		goto out;
	printf("sqlite: %s\n", sqlite3_libversion());
	printf("transactions: %lld over %s + %d days\n", (long long)s->ntxns,
	    YEAR_FIRST, NDAYS - 1);
	t0 = now_ms();
	if (seed(s) == -1)
		goto out;
	printf("seed: %.1f s (%d cards, %lld transactions, %lld rewards)\n",
	    (now_ms() - t0) / 1e3, NCARDS, (long long)s->done,
	    (long long)s->rewards);
	if (query_row(s, "SELECT count(*) FROM report_buckets", 0, 0,
	    &buckets, 1) == -1)
		goto out;
	printf("report_buckets rows: %lld\n", (long long)buckets);
	/* Measured on a connection opened afresh, as a server would. */
	lc_db_close(s->db);
	if ((s->db = lc_db_open(s->path, 0, &why)) == NULL) {
		fprintf(stderr, "bench_reports: reopen: %s\n", why);
		goto out;
	}
	if (file_size(s->path, &size) == -1 ||
	    file_size(wal_path, &wal) == -1) {
		fprintf(stderr, "bench_reports: stat %s: %s\n", s->path,
		    strerror(errno));
		goto out;
	}
	printf("database size: %.1f MB (%lld bytes, WAL %lld bytes)\n",
	    size / 1e6, (long long)size, (long long)wal);
	if ((rc = bench(s, runs, show_plans)) == -1)
		rc = 2;
out:
	lc_db_close(s->db);
	if (made && keep)
		printf("database kept: %s\n", s->path);
	else if (made)
		remove_db(s);
	free(s->cards);
	return rc;
}
