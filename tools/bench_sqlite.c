/*
 * bench_sqlite: the database ceiling of a recorded purchase, for
 * tools/bench. One connection, no web stack: for the given time it runs
 * the purchase's statements as POST /api/v1/transactions/record runs
 * them, with the library's own functions on the database as shipped
 * (lc_db_open: WAL, synchronous=FULL): the write of the purchase under a
 * fresh idempotency key (lc_purchase_write: the caller's scope, the key's
 * replay check, the card's rule, the transaction, the stored answer, the
 * audit row, the commit), then the end of the request (lc_db_idle) and
 * the upkeep after it (lc_db_tidy: the log's checkpoints). The
 * bearer token is checked once, before (lc_auth_token), for the caller:
 * that read is the request's, not the purchase's.
 *
 *	bench_sqlite DB SECONDS CARDS KEY_PREFIX LOCATION_ID STAFF_USER_ID
 *	bench_sqlite issue DB PROGRAM_ID COUNT
 *
 * CARDS is a file of card ids, one a line, used in turn (a punch card
 * must be outside its program's cooldown when its turn comes again). The
 * access token is read from the environment, LC_BENCH_TOKEN, so it is not
 * on a command line. Prints one line:
 *
 *	BENCH req=N dur_us=D rps=R p50_us=P p99_us=Q bad=B
 *
 * (bad: purchases refused; the run stops at the first one and says why
 * on stderr). Exit status: 0, 1 when a purchase failed, 2 on misuse or
 * any other failure.
 *
 * "issue" is tools/bench's seed: COUNT cards of the program, each issued
 * in its own write as `loyalty-admin card issue` issues it (the same rule,
 * audit row and commit), without a process for each; one JSON line a
 * card on stdout, the admin tool's. Exit status 0, or 2.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lc_http.h"

#define CARDS_MAX 100000
#define LINE_MAX_ 128

struct cards {
	char (*id)[LC_ID_LEN + 1];
	size_t n;
};

static int
cards_read(const char *path, struct cards *c)
{
	FILE *f;
	char line[LINE_MAX_];
	size_t len;
	int rc = -1;

	c->n = 0;
	if ((c->id = calloc(CARDS_MAX, sizeof(*c->id))) == NULL)
		return -1;
	if ((f = fopen(path, "r")) == NULL) {
		fprintf(stderr, "bench_sqlite: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		len = strcspn(line, "\r\n");
		line[len] = '\0';
		if (len == 0)
			continue;
		if (len > LC_ID_LEN || c->n == CARDS_MAX) {
			fprintf(stderr, "bench_sqlite: %s: bad line or too many "
			    "cards\n", path);
			goto out;
		}
		memcpy(c->id[c->n++], line, len + 1);
	}
	if (ferror(f) || c->n == 0) {
		fprintf(stderr, "bench_sqlite: %s: no cards\n", path);
		goto out;
	}
	rc = 0;
out:
	(void)fclose(f);
	return rc;
}

/* Microseconds of the monotonic clock: a purchase takes a few ms. */
static int64_t
now_us(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The caller of token, as a request's check finds it. 0 or -1. */
static int
caller_of(struct lc_db *db, const char *token, struct lc_caller *caller)
{
	struct lc_dom dom;
	int rc;

	memset(&dom, 0, sizeof(dom));
	dom.db = db;
	dom.now_ms = lc_now_ms();
	rc = lc_auth_token(&dom, token);
	lc_db_idle(db);
	if (rc == -1) {
		fprintf(stderr, "bench_sqlite: the token: %s (%s)\n",
		    lc_err_info(dom.err.code)->code, lc_error_msg(&dom.err));
		return -1;
	}
	*caller = dom.caller;
	return 0;
}

/* One purchase, as the record responder runs it. 0, or -1 with e set. */
static int
one_purchase(struct lc_db *db, const struct lc_caller *caller,
    const char *card, const char *key, const char *loc, const char *staff,
    int64_t amount, struct lc_error *e)
{
	struct lc_dom dom;
	struct lc_purchase p;
	json_object *answer = NULL;
	int rc = -1;

	memset(&dom, 0, sizeof(dom));
	dom.db = db;
	dom.caller = *caller;
	dom.now_ms = lc_now_ms();
	dom.request_id = "bench";
	dom.terminal_id = "bench-till";
	memset(&p, 0, sizeof(p));
	p.card_id = card;
	p.location_id = loc;
	p.staff_user_id = staff;
	p.amount = amount;
	p.punch_count = 1;
	p.key = key;
	p.at_ms = dom.now_ms;
	if (lc_purchase_write(&dom, &p, 0, &answer) == -1) {
		*e = dom.err;
		goto out;
	}
	rc = 0;
out:
	json_object_put(answer);
	lc_db_idle(db);
	return rc;
}

struct issue {
	const char *program_id;
	char customer[64];
	struct lc_card card;
};

static int
issue_rule(struct lc_dom *dom, void *arg)
{
	struct issue *is = arg;

	return lc_shop_card_issue(dom, is->program_id, is->customer, &is->card);
}

static int
issue_main(int argc, char *argv[])
{
	struct issue is;
	struct lc_write w = { NULL, NULL, issue_rule, NULL, &is, "card.issue",
	    "card", NULL };
	struct lc_dom dom;
	json_object *o;
	const char *why = NULL;
	char *endp;
	long count, i;
	int status = 2;

	if (argc != 5) {
		fputs("usage: bench_sqlite issue DB PROGRAM_ID COUNT\n", stderr);
		return 2;
	}
	errno = 0;
	count = strtol(argv[4], &endp, 10);
	if (errno != 0 || *endp != '\0' || count < 1 || count > CARDS_MAX) {
		fputs("bench_sqlite: COUNT: 1 to 100000\n", stderr);
		return 2;
	}
	memset(&dom, 0, sizeof(dom));
	if ((dom.db = lc_db_open(argv[2], 0, &why)) == NULL) {
		fprintf(stderr, "bench_sqlite: cannot open %s: %s\n", argv[2],
		    why ? why : "unknown");
		return 2;
	}
	memset(&is, 0, sizeof(is));
	is.program_id = argv[3];
	for (i = 0; i < count; i++) {
		(void)snprintf(is.customer, sizeof(is.customer), "Customer %ld",
		    i + 1);
		dom.now_ms = lc_now_ms();
		if (lc_write(&dom, &w, NULL) == -1) {
			fprintf(stderr, "bench_sqlite: card issue: %s (%s)\n",
			    lc_err_info(dom.err.code)->code,
			    lc_error_msg(&dom.err));
			goto out;
		}
		o = lc_fmt_issued(&is.card);
		printf("%s\n", lc_json_text(o));
		json_object_put(o);
		/* The upkeep a responder does after each answer: without its
		 * checkpoints the log grows by every card, and the first run
		 * after the seeding would pay for them all. */
		lc_db_tidy(dom.db);
	}
	if (fflush(stdout) == 0)
		status = 0;
out:
	lc_db_close(dom.db);
	return status;
}

int
main(int argc, char *argv[])
{
	struct lc_db *db = NULL;
	struct cards cards = { NULL, 0 };
	struct lc_error e;
	struct lc_caller caller;
	const char *why = NULL, *token;
	char key[LC_KEY_MAX + 1];
	int64_t *lat = NULL, *grown, start, end, t0, n = 0, cap = 4096, bad = 0;
	char *endp;
	long secs;
	int status = 2;

	if (argc > 1 && strcmp(argv[1], "issue") == 0)
		return issue_main(argc, argv);
	if (argc != 7) {
		fputs("usage: bench_sqlite DB SECONDS CARDS KEY_PREFIX "
		    "LOCATION_ID STAFF_USER_ID (token in LC_BENCH_TOKEN)\n",
		    stderr);
		return 2;
	}
	errno = 0;
	secs = strtol(argv[2], &endp, 10);
	if (errno != 0 || *endp != '\0' || secs < 1 || secs > 3600) {
		fputs("bench_sqlite: SECONDS: 1 to 3600\n", stderr);
		return 2;
	}
	if ((token = getenv("LC_BENCH_TOKEN")) == NULL || *token == '\0') {
		fputs("bench_sqlite: set LC_BENCH_TOKEN to an access token\n",
		    stderr);
		return 2;
	}
	if (strlen(argv[4]) > LC_KEY_MAX - 24) {
		fputs("bench_sqlite: KEY_PREFIX is too long\n", stderr);
		return 2;
	}
	if (cards_read(argv[3], &cards) == -1)
		goto out;
	if ((lat = malloc((size_t)cap * sizeof(*lat))) == NULL)
		goto out;
	if ((db = lc_db_open(argv[1], 0, &why)) == NULL) {
		fprintf(stderr, "bench_sqlite: cannot open %s: %s\n", argv[1],
		    why ? why : "unknown");
		goto out;
	}
	if (caller_of(db, token, &caller) == -1)
		goto out;
	start = now_us();
	end = start + (int64_t)secs * 1000000;
	for (t0 = start; t0 < end; n++) {
		(void)snprintf(key, sizeof(key), "%s-%lld", argv[4],
		    (long long)n);
		if (one_purchase(db, &caller, cards.id[(size_t)n % cards.n], key,
		    argv[5], argv[6], 100 + n % 4900, &e) == -1) {
			fprintf(stderr, "bench_sqlite: purchase %lld on %s: "
			    "%s (%s)\n", (long long)n,
			    cards.id[(size_t)n % cards.n],
			    lc_err_info(e.code)->code, lc_error_msg(&e));
			bad++;
			status = 1;
			break;
		}
		if (n == cap) {
			cap *= 2;
			if ((grown = realloc(lat, (size_t)cap * sizeof(*lat))) ==
			    NULL)
				goto out;
			lat = grown;
		}
		lat[n] = now_us() - t0;
		/* As a responder after its answer: the purchase's latency
		 * leaves the checkpoints out, the rate counts them. Without
		 * them the log grew by every purchase of the run, and the
		 * service's next run paid to copy it all (a punch p99 of
		 * 93 ms where 20 was its own). */
		lc_db_tidy(db);
		t0 = now_us();
	}
	if (n > 0 && bad == 0) {
		qsort(lat, (size_t)n, sizeof(*lat), cmp_i64);
		printf("BENCH req=%lld dur_us=%lld rps=%.1f p50_us=%lld "
		    "p99_us=%lld bad=0\n", (long long)n, (long long)(t0 - start),
		    (double)n * 1e6 / (double)(t0 - start),
		    (long long)lat[(size_t)(n - 1) / 2],
		    (long long)lat[(size_t)((n - 1) * 99 / 100)]);
		status = 0;
	} else if (bad == 0)
		fputs("bench_sqlite: no purchase in the time\n", stderr);
	else
		printf("BENCH req=%lld dur_us=0 rps=0 p50_us=0 p99_us=0 bad=%lld\n",
		    (long long)n, (long long)bad);
out:
	lc_db_close(db);
	free(lat);
	free(cards.id);
	return status;
}
