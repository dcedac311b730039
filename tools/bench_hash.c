/*
 * bench_hash: what a password costs, for tools/bench. For the given time
 * it hashes a password as setup, a new user and a password change do
 * (lc_auth_hash_password: scrypt with the parameters of rule_auth.c; a
 * login's check is the same work), one after the other in one process,
 * and measures the memory the hashing takes: the process's peak RSS
 * (getrusage) after the hashes, and before the first.
 *
 *	bench_hash SECONDS
 *
 * Prints one line:
 *
 *	BENCH req=N dur_us=D rps=R p50_us=P p99_us=Q bad=B rss_kb=K base_kb=K0
 *
 * (req: hashes made; rss_kb the peak RSS after them, base_kb before the
 * first: their difference is the hashing's own). Exit status 0, 1 when a
 * hash failed, 2 on misuse.
 */
#include <sys/resource.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lc_http.h"

#define HASHES_MAX 100000

static int64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static long
peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	char hash[LC_HASH_MAX + 1];
	int64_t *took = NULL, start, end, t;
	long seconds, base;
	size_t n = 0;
	int bad = 0, rc = 2;

	if (argc != 2 || (seconds = strtol(argv[1], NULL, 10)) < 1) {
		fprintf(stderr, "usage: bench_hash SECONDS\n");
		return 2;
	}
	if ((took = calloc(HASHES_MAX, sizeof(*took))) == NULL)
		goto out;
	base = peak_rss_kb();
	start = now_us();
	end = start + seconds * 1000000;
	while (n < HASHES_MAX && (t = now_us()) < end) {
		if (lc_auth_hash_password("a password of twenty", hash,
		    sizeof(hash)) == -1) {
			fprintf(stderr, "bench_hash: hashing failed\n");
			bad = 1;
			break;
		}
		took[n++] = now_us() - t;
	}
	t = now_us() - start;
	if (n == 0) {
		printf("BENCH req=0 dur_us=%lld rps=0 p50_us=0 p99_us=0 bad=%d\n",
		    (long long)t, bad);
		rc = bad;
		goto out;
	}
	qsort(took, n, sizeof(*took), cmp64);
	printf("BENCH req=%zu dur_us=%lld rps=%.2f p50_us=%lld p99_us=%lld "
	    "bad=%d rss_kb=%ld base_kb=%ld\n", n, (long long)t,
	    (double)n * 1e6 / (double)t, (long long)took[(n - 1) / 2],
	    (long long)took[(n * 99 + 99) / 100 - 1], bad, peak_rss_kb(), base);
	rc = bad;
out:
	free(took);
	return rc;
}
