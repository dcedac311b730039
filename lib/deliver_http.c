/*
 * One webhook POST, with libcurl. A webhook's URL is the owner's to set,
 * so the request is one that cannot be turned against the machine or its
 * network: the address is checked when the socket is opened, after the
 * name was resolved (a name that resolves to 127.0.0.1, or changes its
 * answer after the URL was saved, is caught there), no redirect is
 * followed, no proxy of the environment is used, only http and https.
 *
 * The address check: engineer hooks's classifier of issue 28 was not yet
 * committed when this was written, so it is here (lc_post_addr_private),
 * and the API's check of a literal address may use it too.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <string.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <curl/curl.h>

#include "lc_core.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

/* An IPv4 address (host order) not to send to. */
static int
v4_private(uint32_t a)
{
	static const struct { uint32_t net, mask; } nets[] = {
		{ 0x00000000, 0xff000000 },	/* 0/8: this network, 0.0.0.0 */
		{ 0x0a000000, 0xff000000 },	/* 10/8 */
		{ 0x64400000, 0xffc00000 },	/* 100.64/10: shared (CGN) */
		{ 0x7f000000, 0xff000000 },	/* 127/8: loopback */
		{ 0xa9fe0000, 0xffff0000 },	/* 169.254/16: link-local,
						 * 169.254.169.254 metadata */
		{ 0xac100000, 0xfff00000 },	/* 172.16/12 */
		{ 0xc0000000, 0xffffff00 },	/* 192.0.0/24: protocol use */
		{ 0xc0a80000, 0xffff0000 },	/* 192.168/16 */
		{ 0xc6120000, 0xfffe0000 },	/* 198.18/15: benchmarking */
		{ 0xe0000000, 0xf0000000 },	/* 224/4: multicast */
		{ 0xf0000000, 0xf0000000 },	/* 240/4: reserved, broadcast */
	};
	size_t i;

	for (i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if ((a & nets[i].mask) == nets[i].net)
			return 1;
	return 0;
}

static uint32_t
v4_at(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
}

static int
v6_private(const unsigned char *b)
{
	static const unsigned char zero[16];
	static const unsigned char nat64[12] = { 0x00, 0x64, 0xff, 0x9b };

	if (memcmp(b, zero, 15) == 0 && (b[15] == 0 || b[15] == 1))
		return 1;			/* :: and ::1 */
	if ((b[0] & 0xfe) == 0xfc)
		return 1;			/* fc00::/7: unique local */
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
		return 1;			/* fe80::/10: link-local */
	if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0)
		return 1;			/* fec0::/10: site-local */
	if (b[0] == 0xff)
		return 1;			/* multicast */
	/* Forms that carry an IPv4 address: mapped ::ffff:a.b.c.d, the
	 * old compatible ::a.b.c.d, NAT64's 64:ff9b::/96, 6to4's 2002::/16. */
	if (memcmp(b, zero, 10) == 0 && ((b[10] == 0xff && b[11] == 0xff) ||
	    (b[10] == 0 && b[11] == 0)))
		return v4_private(v4_at(b + 12));
	if (memcmp(b, nat64, 12) == 0)
		return v4_private(v4_at(b + 12));
	if (b[0] == 0x20 && b[1] == 0x02)
		return v4_private(v4_at(b + 2));
	return 0;
}

int
lc_post_addr_private(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return v4_private(ntohl(((const struct sockaddr_in *)
		    (const void *)sa)->sin_addr.s_addr));
	if (sa->sa_family == AF_INET6)
		return v6_private(((const struct sockaddr_in6 *)
		    (const void *)sa)->sin6_addr.s6_addr);
	return 1;	/* neither: not one to send to */
}

int
lc_post_init(void)
{
	static int done;

	if (done)
		return 0;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		lc_log("deliver: curl_global_init failed");
		return -1;
	}
	done = 1;
	return 0;
}

struct call {
	struct lc_post *p;
	size_t kept;
	int allow_private, refused;
};

/* Each address curl is about to connect to, after resolution. */
static curl_socket_t
open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *a)
{
	struct call *c = arg;

	(void)purpose;
	if (!c->allow_private && lc_post_addr_private(&a->addr)) {
		c->refused = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(a->family, a->socktype, a->protocol);
}

/* The answer: its first bytes kept, the rest read and let go. */
static size_t
keep(char *data, size_t size, size_t n, void *arg)
{
	struct call *c = arg;
	size_t len = size * n, room = LC_DELIVER_RESPONSE_MAX - c->kept;

	if (room > len)
		room = len;
	memcpy(c->p->response + c->kept, data, room);
	c->kept += room;
	c->p->response[c->kept] = '\0';
	return len;
}

#define SET(opt, v) do { \
	if (rc == CURLE_OK) rc = curl_easy_setopt(h, (opt), (v)); \
} while (0)

void
lc_post_send(const char *url, const char *const *headers, const char *body,
    size_t len, int allow_private, struct lc_post *p)
{
	struct call c;
	struct curl_slist *hl = NULL, *t;
	CURL *h = NULL;
	CURLcode rc = CURLE_OK;
	char errbuf[CURL_ERROR_SIZE] = "";
	int64_t t0 = lc_mono_ms();
	size_t i;

	memset(p, 0, sizeof(*p));
	memset(&c, 0, sizeof(c));
	c.p = p;
	c.allow_private = allow_private;
	p->outcome = LC_POST_FAILED;
	if (lc_post_init() == -1 || (h = curl_easy_init()) == NULL) {
		snprintf(p->error, sizeof(p->error), "cannot start libcurl");
		goto out;
	}
	for (i = 0; headers[i] != NULL; i++) {
		if ((t = curl_slist_append(hl, headers[i])) == NULL)
			goto nomem;
		hl = t;
	}
	/* No "Expect: 100-continue" wait on a larger body. */
	if ((t = curl_slist_append(hl, "Expect:")) == NULL)
		goto nomem;
	hl = t;
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	/* "" uses no proxy, not even one named in the environment. */
	SET(CURLOPT_PROXY, "");
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_TIMEOUT_MS, (long)LC_DELIVER_TIMEOUT_MS);
	SET(CURLOPT_USERAGENT, "loyalty-pos-webhooks/" PACKAGE_VERSION);
	SET(CURLOPT_HTTPHEADER, hl);
	SET(CURLOPT_POST, 1L);
	SET(CURLOPT_POSTFIELDS, body);
	SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	SET(CURLOPT_OPENSOCKETFUNCTION, open_socket);
	SET(CURLOPT_OPENSOCKETDATA, &c);
	SET(CURLOPT_WRITEFUNCTION, keep);
	SET(CURLOPT_WRITEDATA, &c);
	SET(CURLOPT_ERRORBUFFER, errbuf);
	if (rc != CURLE_OK) {
		snprintf(p->error, sizeof(p->error), "libcurl: %s",
		    curl_easy_strerror(rc));
		goto out;
	}
	rc = curl_easy_perform(h);
	(void)curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &p->status);
	if (rc != CURLE_OK) {
		if (c.refused && p->status == 0) {
			p->outcome = LC_POST_REFUSED;
			snprintf(p->error, sizeof(p->error), "the address of "
			    "this URL is private, loopback, link-local or "
			    "reserved (the installation's "
			    "webhook_allow_private is off)");
		} else
			snprintf(p->error, sizeof(p->error), "%s",
			    errbuf[0] != '\0' ? errbuf :
			    curl_easy_strerror(rc));
		/* An answer cut short is not one that counts. */
		if (p->outcome != LC_POST_REFUSED)
			p->outcome = LC_POST_FAILED;
	} else if (p->status >= 200 && p->status <= 299)
		p->outcome = LC_POST_DELIVERED;
	else
		snprintf(p->error, sizeof(p->error), "HTTP status %ld",
		    p->status);
	goto out;
nomem:
	snprintf(p->error, sizeof(p->error), "out of memory");
out:
	p->duration_ms = lc_mono_ms() - t0;
	curl_slist_free_all(hl);
	if (h != NULL)
		curl_easy_cleanup(h);
}
