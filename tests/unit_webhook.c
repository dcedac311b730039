/*
 * Unit tests of lib/webhook.c's checks: the addresses a webhook is never
 * sent to (lc_addr_private, as the deliverer calls it on each address it
 * connects to, and lc_addr_text_private on a URL's host), and a URL's
 * shape. One behaviour per test point, named after the case.
 */
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <string.h>

#include "lc_core.h"
#include "tap.h"

/* lc_addr_private of text parsed as the resolver would hand it over. */
static int
sock_private(const char *text)
{
	struct sockaddr_in s4;
	struct sockaddr_in6 s6;

	memset(&s4, 0, sizeof(s4));
	memset(&s6, 0, sizeof(s6));
	if (inet_pton(AF_INET, text, &s4.sin_addr) == 1) {
		s4.sin_family = AF_INET;
		return lc_addr_private((struct sockaddr *)&s4);
	}
	if (inet_pton(AF_INET6, text, &s6.sin6_addr) == 1) {
		s6.sin6_family = AF_INET6;
		return lc_addr_private((struct sockaddr *)&s6);
	}
	return -2;
}

static void
test_sockaddr(void)
{
	static const char *const refused[] = {
		"0.0.0.0", "127.0.0.1", "127.255.255.254", "10.0.0.1",
		"172.16.0.1", "172.31.255.255", "192.168.0.1", "100.64.0.1",
		"100.127.255.255", "169.254.169.254", "169.254.0.1",
		"224.0.0.1", "239.255.255.250", "255.255.255.255",
		"240.0.0.1", "::", "::1", "fe80::1", "febf::1", "fc00::1",
		"fd00:ec2::254", "ff02::1", "::ffff:127.0.0.1",
		"::ffff:10.1.2.3", "::ffff:169.254.169.254", "::127.0.0.1",
		"64:ff9b::7f00:1", "2002:c0a8:0101::1", "2002:7f00:1::",
		/* IPv4 0/8, benchmarking, reserved, IETF, documentation,
		 * the 6to4 relay anycast. */
		"0.1.2.3", "198.18.0.1", "198.19.255.255", "240.0.0.0",
		"192.0.0.8", "192.0.2.1", "198.51.100.7", "203.0.113.9",
		"192.88.99.1",
		/* Local-use NAT64 by its IPv4 (/96, and /48 and /64). */
		"64:ff9b:1::7f00:1", "64:ff9b:1::a00:1", "64:ff9b:1::a9fe:a9fe",
		"64:ff9b:1:a00:0:100::", "64:ff9b:1:0:a:0:100:0",
		/* SIIT IPv4-translated. */
		"::ffff:0:7f00:1", "::ffff:0:a00:1",
		/* Teredo, whatever its client. */
		"2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
		/* Discard, documentation, unspecified, loopback,
		 * site-local. */
		"100::", "100::1:2:3:4", "2001:db8::1", "2001:db8:ffff::1",
		"::", "::1", "fec0::1", "feff::1",
		NULL
	};
	static const char *const taken[] = {
		"8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1",
		"100.63.255.255", "100.128.0.1", "169.253.255.255",
		"192.169.0.1", "93.184.216.34", "2606:4700::1111",
		"::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1",
		"2a00:1450:4001:80b::200e",
		/* Just outside the ranges above. */
		"198.17.255.255", "198.20.0.1", "1.0.0.1", "192.0.1.1",
		"192.0.3.1", "198.51.99.1",
		"203.0.112.1", "192.88.98.1", "192.88.100.1",
		"64:ff9b:1::808:808", "::ffff:0:808:808", "64:ff9b:2::a00:1",
		"2001:1::1", "2001:db9::1", "100:0:0:1::1", "2001:db7::1",
		NULL
	};
	struct sockaddr sa;
	size_t i;

	for (i = 0; refused[i] != NULL; i++)
		is_int(sock_private(refused[i]), 1,
		    "sockaddr %s is one a webhook is not sent to", refused[i]);
	for (i = 0; taken[i] != NULL; i++)
		is_int(sock_private(taken[i]), 0,
		    "sockaddr %s is public: sent to", taken[i]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_family = AF_UNIX;
	is_int(lc_addr_private(&sa), 1,
	    "sockaddr of another family than IPv4 or IPv6 is refused");
	is_int(lc_addr_private(NULL), 1, "no sockaddr is refused");
}

static void
test_text(void)
{
	static const char *const refused[] = {
		"127.1", "0x7f.0.0.1", "2130706433", "017700000001", "10.1",
		"[::1]", "::1", "[::ffff:7f00:1]", "localhost", "LOCALHOST",
		"api.localhost", "localhost.", "api.LocalHost.", "0", NULL
	};
	static const char *const names[] = {
		"example.com", "localhost.example.com", "my-localhost",
		"localhost.com", "localhostx", "example.com.",
		"1.2.3.example", NULL
	};
	size_t i;

	for (i = 0; refused[i] != NULL; i++)
		is_int(lc_addr_text_private(refused[i]), 1,
		    "host %s is a private address in a form the resolver "
		    "takes", refused[i]);
	for (i = 0; names[i] != NULL; i++)
		is_int(lc_addr_text_private(names[i]), -1,
		    "host %s is a name, checked when resolved", names[i]);
	is_int(lc_addr_text_private("8.8.8.8"), 0, "host 8.8.8.8 is public");
	is_int(lc_addr_text_private("[2606:4700::1111]"), 0,
	    "host [2606:4700::1111] is public");
}

static void
test_url(void)
{
	static const char *const good[] = {
		"https://hooks.example.com/", "https://hooks.example.com",
		"HTTPS://Hooks.Example.com/x?a=b&c=%20",
		"https://hooks.example.com:8443/a/b",
		"https://[2606:4700::1111]:443/h", "https://8.8.8.8/h", NULL
	};
	static const char *const bad[] = {
		"", "hooks.example.com", "//hooks.example.com/",
		"ftp://hooks.example.com/", "https://", "https:///x",
		"https://u:p@hooks.example.com/", "https://u@hooks.example.com/",
		"https://hooks.example.com/#x", "https://hooks.example.com:0/",
		"https://hooks.example.com:65536/", "https://hooks.example.com:/",
		"https://hooks.example.com:8a/", "https://hooks example.com/",
		"https://hooks.example.com/\x7f", "https://b\xc3\xbc" "cher.de/",
		"https://[::1/", "https://[hooks]/", "https://ho\"oks/",
		"https://10.0.0.1/", "https://[fe80::1]/", "https://localhost/",
		"http://hooks.example.com/", NULL
	};
	struct lc_error e;
	char longurl[LC_WEBHOOK_URL_MAX + 2];
	size_t i;

	for (i = 0; good[i] != NULL; i++)
		is_int(lc_webhook_url_check(&e, good[i], 0), 0,
		    "url %s is taken", good[i]);
	for (i = 0; bad[i] != NULL; i++) {
		memset(&e, 0, sizeof(e));
		is_int(lc_webhook_url_check(&e, bad[i], 0), -1,
		    "url %s is refused", bad[i]);
		ok(e.code == LC_E_VALIDATION && strcmp(e.field, "url") == 0,
		    "url %s is refused as VALIDATION_ERROR on url", bad[i]);
	}
	is_int(lc_webhook_url_check(&e, "http://127.0.0.1:41000/h", 1), 0,
	    "url http://127.0.0.1 is taken where private addresses are "
	    "allowed");
	memcpy(longurl, "https://a.example/", 18);
	memset(longurl + 18, 'a', LC_WEBHOOK_URL_MAX - 18);
	longurl[LC_WEBHOOK_URL_MAX] = '\0';
	is_int(lc_webhook_url_check(&e, longurl, 0), 0,
	    "url of LC_WEBHOOK_URL_MAX characters is taken");
	longurl[LC_WEBHOOK_URL_MAX] = 'a';
	longurl[LC_WEBHOOK_URL_MAX + 1] = '\0';
	is_int(lc_webhook_url_check(&e, longurl, 0), -1,
	    "url of one character more is refused");
}

static void
test_wants(void)
{
	const char *types = "card.issued reward.earned transaction.recorded";

	ok(lc_webhook_wants(NULL, "card.issued"), "wants: NULL takes all");
	ok(lc_webhook_wants("", "card.issued"), "wants: \"\" takes all");
	ok(lc_webhook_wants(types, "card.issued"), "wants: the first type");
	ok(lc_webhook_wants(types, "reward.earned"), "wants: a middle type");
	ok(lc_webhook_wants(types, "transaction.recorded"),
	    "wants: the last type");
	ok(!lc_webhook_wants(types, "card.updated"), "wants: not another");
	ok(!lc_webhook_wants(types, "card"), "wants: not a type's start");
	ok(!lc_webhook_wants(types, "issued"), "wants: not a type's end");
	ok(!lc_webhook_wants(types, "reward.earned transaction"),
	    "wants: not across two types");
	ok(!lc_webhook_wants("xcard.issued card.issuedx", "card.issued"),
	    "wants: not inside a longer type, whichever side");
	ok(lc_webhook_wants("xcard.issued card.issued", "card.issued"),
	    "wants: a whole word after a longer one holding it");
	ok(!lc_webhook_wants(types, ""), "wants: never an empty type");
	ok(!lc_webhook_wants(types, "card.issued reward.earned"),
	    "wants: never a type holding a blank, two of its types though");
	ok(!lc_webhook_wants("card.%", "card.issued"),
	    "wants: '%%' is no wildcard");
}

int
main(void)
{
	test_sockaddr();
	test_text();
	test_url();
	test_wants();
	return done_testing();
}
