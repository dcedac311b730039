/*
 * Unit tests of the deliverer's pure parts: the Standard Webhooks
 * signature (lib/sign.c) against the specification's own example, and
 * the backoff's doubling, cap and jitter (lib/deliver.c). One behaviour
 * per test point. What goes over the network is tests/webhooks.sh's.
 */
#include <stdint.h>
#include <string.h>

#include "lc_core.h"
#include "tap.h"

static void
test_sign(void)
{
	char sig[LC_SIGN_MAX], sig2[LC_SIGN_MAX];
	const char *body = "{\"test\": 2432232314}";

	/* The example of standardwebhooks.com's libraries' tests. */
	ok(lc_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	    "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body, strlen(body),
	    sig) == 0, "sign: a whsec_ secret signs");
	is_string(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
	    "sign: the specification's example signature");
	ok(lc_sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	    "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body, strlen(body),
	    sig2) == 0 && strcmp(sig, sig2) == 0,
	    "sign: the secret without its whsec_ prefix signs the same");
	ok(lc_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	    "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331, body, strlen(body),
	    sig2) == 0 && strcmp(sig, sig2) != 0,
	    "sign: another timestamp, another signature");
	ok(lc_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
	    "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body,
	    strlen(body) - 1, sig2) == 0 && strcmp(sig, sig2) != 0,
	    "sign: another body, another signature");
	ok(lc_sign("whsec_not base64!", "msg", 1, body, strlen(body),
	    sig2) == -1, "sign: a secret that is not base64 is refused");
	ok(lc_sign("whsec_", "msg", 1, body, strlen(body), sig2) == -1,
	    "sign: an empty secret is refused");
}

static void
test_backoff(void)
{
	int64_t n, want, ms, lo = INT64_MAX, hi = 0;
	int i, inside = 1;

	for (n = 1; n <= 30; n++) {
		want = LC_DELIVER_BACKOFF_MS;
		for (i = 1; i < n && want < LC_DELIVER_BACKOFF_MAX_MS; i++)
			want *= 2;
		if (want > LC_DELIVER_BACKOFF_MAX_MS)
			want = LC_DELIVER_BACKOFF_MAX_MS;
		for (i = 0; i < 200; i++) {
			ms = lc_deliver_backoff(n);
			if (ms < want * 8 / 10 || ms > want * 12 / 10)
				inside = 0;
			if (n == 1) {
				lo = ms < lo ? ms : lo;
				hi = ms > hi ? ms : hi;
			}
		}
	}
	ok(inside, "backoff: 10 s doubling, capped at 6 h, within +-20 %%");
	ok(hi - lo > 1000, "backoff: jittered (first retry between %lld and "
	    "%lld ms)", (long long)lo, (long long)hi);
	ok(lc_deliver_backoff(1000) <= LC_DELIVER_BACKOFF_MAX_MS * 12 / 10,
	    "backoff: the 1000th retry still at most 6 h + 20 %%");
}

int
main(void)
{
	test_sign();
	test_backoff();
	return done_testing();
}
