/*
 * One webhook POST, with libcurl. A webhook's URL is the owner's to set,
 * so the request is one that cannot be turned against the machine or its
 * network: the address is checked when the socket is opened, after the
 * name was resolved (a name that resolves to 127.0.0.1, or changes its
 * answer after the URL was saved, is caught there), no redirect is
 * followed, no proxy of the environment is used, only http and https.
 * The address check is webhook.c's (lc_addr_private), the one the API
 * applies to a literal address when the URL is saved.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <string.h>

#include <sys/socket.h>

#include <curl/curl.h>

#include "lc_core.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "0"
#endif

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
	if (!c->allow_private && lc_addr_private(&a->addr)) {
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
