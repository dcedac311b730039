/*
 * History stays fast on a busy card: a page of a card with 100,000
 * transactions is served from the indexes (no table scan, no sort) and
 * costs about what a page of a card with 10 costs.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lc_http.h"
#include "lc_backend.h"
#include "lc_sqlite.h"
#include "tap.h"

#define BIG 100000
#define SMALL 10
#define RUNS 30

static struct lc_db *db;

static void
exec(const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(lc_sq_handle(db), sql, NULL, NULL, &err) != SQLITE_OK)
		bail("%s: %s", sql, err);
}

static void
seed(void)
{
	sqlite3_stmt *st;
	int i;

	exec("INSERT INTO merchants VALUES ('m', 'M', 0);"
	    "INSERT INTO locations VALUES ('l', 'm', 'L', 0);"
	    "INSERT INTO users(id, merchant_id, email, display_name, user_type, "
	    "  location_id, password_hash, created_at) VALUES ('u', 'm', 'u@x', 'U', 'owner', NULL, 'x', 0);"
	    "INSERT INTO programs(id, merchant_id, type, title, punch_requirement, "
	    "  reward_title, created_at) VALUES ('p', 'm', 'punch', 'P', 10, 'R', 0);"
	    "INSERT INTO cards(id, merchant_id, program_id, customer_name, barcode, "
	    "  qr_code, created_at) VALUES ('big', 'm', 'p', 'A', '1', 'QUFB', 0),"
	    "  ('small', 'm', 'p', 'B', '2', 'QkJC', 0);"
	    "BEGIN");
	if (sqlite3_prepare_v2(lc_sq_handle(db), "INSERT INTO transactions(id, "
	    "merchant_id, card_id, location_id, staff_user_id, type, "
	    "purchase_amount, punches_added, created_at) VALUES (?, 'm', ?, 'l', "
	    "'u', ?, 100, 1, ?)", -1, &st, NULL) != SQLITE_OK)
		bail("prepare");
	for (i = 0; i < BIG + SMALL; i++) {
		char id[32];

		snprintf(id, sizeof(id), "t%d", i);
		sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, i < BIG ? "big" : "small", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, i % 3 ? "punch" : "cashback", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 4, 1700000000000LL + (int64_t)i * 60000);
		if (sqlite3_step(st) != SQLITE_DONE)
			bail("insert");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	exec("COMMIT");
}

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Mean milliseconds of one history request with query q. */
static double
time_page(const char *q, int *items)
{
	struct lc_ctx ctx;
	double t0 = now_ms();
	int r;

	for (r = 0; r < RUNS; r++) {
		memset(&ctx, 0, sizeof(ctx));
		ctx.dom.db = db;
		strcpy(ctx.dom.caller.merchant_id, "m");
		ctx.req.query = (char *)q;
		if (lc_h_history(&ctx) == -1)
			bail("history %s failed: %s", q, ctx.dom.err.msg);
		*items = (int)json_object_array_length(
		    json_object_object_get(ctx.out, "transactions"));
		json_object_put(ctx.out);
	}
	return (now_ms() - t0) / RUNS;
}

/* 1 when the plan of storage's statement name (db_lists.c), for card
 * "big" (and type, when not NULL) over all time, finds the page in a
 * covering index and reads no other row of the table (sorting the page's
 * own rows is fine). */
static int
plan_ok(const char *name, const char *type)
{
	sqlite3_stmt *st;
	char q[4096];
	int good = 0, bad = 0, i = 1;

	snprintf(q, sizeof(q), "EXPLAIN QUERY PLAN %s", lc_st_lists_sql(name));
	if (sqlite3_prepare_v2(lc_sq_handle(db), q, -1, &st, NULL) != SQLITE_OK)
		bail("plan: %s", sqlite3_errmsg(lc_sq_handle(db)));
	sqlite3_bind_text(st, i++, "big", -1, SQLITE_STATIC);
	if (type != NULL)
		sqlite3_bind_text(st, i++, type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, i++, 0);
	sqlite3_bind_int64(st, i++, 9999999999999LL);
	sqlite3_bind_int64(st, i++, 20);
	sqlite3_bind_int64(st, i++, 0);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *d = (const char *)sqlite3_column_text(st, 3);

		diag("plan: %s", d);
		if (strstr(d, "COVERING INDEX transactions_card") != NULL)
			good = 1;
		if (strncmp(d, "SCAN t", 6) == 0)
			bad = 1;
	}
	sqlite3_finalize(st);
	return good && !bad;
}

int
main(void)
{
	char dir[] = "/tmp/lc-history-XXXXXX", path[256];
	const char *why = NULL;
	double big, small, bigtyped, smalltyped;
	int nbig, nsmall;

	if (mkdtemp(dir) == NULL)
		bail("mkdtemp");
	snprintf(path, sizeof(path), "%s/t.db", dir);
	if ((db = lc_db_open(path, 1, &why)) == NULL)
		bail("open: %s", why);
	seed();

	ok(plan_ok("HISTORY_PAGE", NULL),
	    "the page query finds its rows in the (card_id, created_at) index");
	ok(plan_ok("HISTORY_PAGE_TYPE", "punch"),
	    "the filtered page query walks the (card_id, type, created_at) index");

	small = time_page("card_instance_id=small&page_size=20", &nsmall);
	big = time_page("card_instance_id=big&page_size=20", &nbig);
	is_int(nsmall, SMALL, "a card with %d transactions gives its %d", SMALL, SMALL);
	is_int(nbig, 20, "a card with %d transactions gives a page of 20", BIG);
	diag("page 1 of 20: %.3f ms with %d transactions, %.3f ms with %d",
	    small, SMALL, big, BIG);
	{
		int n;
		double deep = time_page("card_instance_id=big&page=2500&page_size=20", &n);

		is_int(n, 20, "a deep page of the big card is full");
		diag("page 2500 (OFFSET 49980): %.3f ms", deep);
		ok(deep < 15.0, "a deep page skips through the index alone");
	}
	{
		int n;
		double ranged = time_page("card_instance_id=big&from_date="
		    "2023-11-14&to_date=2023-11-20", &n);

		diag("a week's range on the big card: %.3f ms", ranged);
		ok(ranged < small + 5.0, "a date range counts only its own rows");
	}
	smalltyped = time_page("card_instance_id=small&transaction_type=punch", &nsmall);
	bigtyped = time_page("card_instance_id=big&transaction_type=punch", &nbig);
	diag("filtered page: %.3f ms with %d transactions, %.3f ms with %d",
	    smalltyped, SMALL, bigtyped, BIG);
	/* Both are index-bound: within a millisecond of each other (a margin
	 * that holds on slow machines and sanitizer builds). */
	ok(big < small + 1.0, "a page of the big card costs %.3f ms, the small "
	    "card's %.3f ms", big, small);
	ok(bigtyped < smalltyped + 1.0, "a filtered page costs %.3f ms on the "
	    "big card, %.3f ms on the small", bigtyped, smalltyped);

	lc_db_close(db);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
	return done_testing();
}
