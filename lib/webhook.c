/*
 * Webhook endpoints: their rules. An owner's endpoint is a URL checked
 * here (its literal address at once; a name when the deliverer resolves
 * it, with the same lc_addr_private), the event types it takes, and a
 * secret ("whsec_" and base64 of random bytes) shown once, in the
 * answers of its create and its rotation. Tests and re-sends are jobs
 * the deliverer (deliver.c) sends beside the ordered stream.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "lc_core.h"

/* Addresses. */

static int
v4_private(uint32_t a)
{
	/* prefix, bits */
	static const uint32_t nets[][2] = {
		{ 0x00000000, 8 },	/* "this network", unspecified */
		{ 0x0a000000, 8 },	/* private */
		{ 0x64400000, 10 },	/* carrier-grade NAT */
		{ 0x7f000000, 8 },	/* loopback */
		{ 0xa9fe0000, 16 },	/* link-local, cloud metadata */
		{ 0xac100000, 12 },	/* private */
		{ 0xc0000000, 24 },	/* IETF protocol assignments */
		{ 0xc0000200, 24 },	/* documentation */
		{ 0xc0586300, 24 },	/* 6to4 relay anycast */
		{ 0xc0a80000, 16 },	/* private */
		{ 0xc6120000, 15 },	/* benchmarking */
		{ 0xc6336400, 24 },	/* documentation */
		{ 0xcb007100, 24 },	/* documentation */
		{ 0xe0000000, 4 },	/* multicast */
		{ 0xf0000000, 4 },	/* reserved, broadcast */
	};
	size_t i;

	for (i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if ((a & (0xffffffffu << (32 - nets[i][1]))) == nets[i][0])
			return 1;
	return 0;
}

static uint32_t
v4_at(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
}

/* The IPv4 address at bytes at[0..3] of b (RFC 6052 skips byte 8). */
static uint32_t
v4_nat64(const unsigned char *b, const unsigned char at[4])
{
	return (uint32_t)b[at[0]] << 24 | (uint32_t)b[at[1]] << 16 |
	    (uint32_t)b[at[2]] << 8 | b[at[3]];
}

static int
v6_private(const unsigned char *b)
{
	static const unsigned char zero[16];
	/* Where the /48, /56 and /64 prefixes of RFC 6052 put an IPv4. */
	static const unsigned char local64[][4] = {
		{ 6, 7, 9, 10 }, { 7, 9, 10, 11 }, { 9, 10, 11, 12 },
	};
	size_t i;

	/* ::, ::1, and ::a.b.c.d (compatible, deprecated) by its IPv4. */
	if (memcmp(b, zero, 12) == 0)
		return memcmp(b, zero, 15) == 0 ? 1 : v4_private(v4_at(b + 12));
	/* ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (SIIT translated) and
	 * 64:ff9b::a.b.c.d (NAT64). */
	if ((memcmp(b, zero, 10) == 0 && b[10] == 0xff && b[11] == 0xff) ||
	    (memcmp(b, zero, 8) == 0 && b[8] == 0xff && b[9] == 0xff &&
	    b[10] == 0 && b[11] == 0) ||
	    (b[0] == 0 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b &&
	    memcmp(b + 4, zero, 8) == 0))
		return v4_private(v4_at(b + 12));
	/* 64:ff9b:1::/48, local-use NAT64: its prefix length is the
	 * network's choice. By the IPv4 of the last 32 bits as /96 puts
	 * it; when bytes 13-15 are zero (a shorter prefix's suffix) it may
	 * be of /48, /56 or /64 too: private when any of those is. */
	if (b[0] == 0 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b &&
	    b[4] == 0 && b[5] == 1) {
		if (v4_private(v4_at(b + 12)))
			return 1;
		if (memcmp(b + 13, zero, 3) != 0)
			return 0;
		for (i = 0; i < sizeof(local64) / sizeof(local64[0]); i++)
			if (v4_private(v4_nat64(b, local64[i])))
				return 1;
		return 0;
	}
	/* 2002:a.b.c.d::/48, 6to4. */
	if (b[0] == 0x20 && b[1] == 0x02)
		return v4_private(v4_at(b + 2));
	return (b[0] & 0xfe) == 0xfc ||		/* unique local fc00::/7 */
	    (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) ||	/* link-local */
	    (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) ||	/* site-local */
	    b[0] == 0xff ||				/* multicast */
	    (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d &&
	    b[3] == 0xb8) ||				/* documentation */
	    /* Teredo 2001::/32: a tunnel to an address of any kind. */
	    (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0) ||
	    /* 100::/64, discard-only. */
	    (b[0] == 0x01 && memcmp(b + 1, zero, 7) == 0);
}

int
lc_addr_private(const struct sockaddr *sa)
{
	const struct sockaddr_in *s4;
	const struct sockaddr_in6 *s6;

	if (sa == NULL)
		return 1;
	if (sa->sa_family == AF_INET) {
		s4 = (const struct sockaddr_in *)(const void *)sa;
		return v4_private(ntohl(s4->sin_addr.s_addr));
	}
	if (sa->sa_family == AF_INET6) {
		s6 = (const struct sockaddr_in6 *)(const void *)sa;
		return v6_private(s6->sin6_addr.s6_addr);
	}
	return 1;
}

int
lc_addr_text_private(const char *host)
{
	char buf[64];
	struct in_addr a4;
	struct in6_addr a6;
	size_t n = strlen(host);

	/* A name's final dot ("localhost.") names the same host. */
	if (n > 1 && host[n - 1] == '.')
		n--;
	if ((n == 9 && strncasecmp(host, "localhost", 9) == 0) || (n > 10 &&
	    strncasecmp(host + n - 10, ".localhost", 10) == 0))
		return 1;
	if (n > 2 && host[0] == '[' && host[n - 1] == ']' && n - 2 < sizeof(buf)) {
		memcpy(buf, host + 1, n - 2);
		buf[n - 2] = '\0';
		host = buf;
	}
	/* inet_aton, not inet_pton: the resolver takes "127.1" and
	 * "0x7f000001" as addresses too, and so must this. */
	if (inet_aton(host, &a4) == 1)
		return v4_private(ntohl(a4.s_addr));
	if (inet_pton(AF_INET6, host, &a6) == 1)
		return v6_private(a6.s6_addr);
	return -1;
}

/* Whether an event of type is one of event_types' (its types one space
 * apart, as stored; NULL or "" every type): type a whole word of it. */
int
lc_webhook_wants(const char *event_types, const char *type)
{
	size_t n = strlen(type);
	const char *p;

	if (event_types == NULL || *event_types == '\0')
		return 1;
	/* A type is one word: one with a blank is none of them. */
	if (n == 0 || strchr(type, ' ') != NULL)
		return 0;
	for (p = event_types; (p = strstr(p, type)) != NULL; p++)
		if ((p == event_types || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Checks. */

int
lc_webhook_url_check(struct lc_error *e, const char *url, int allow_private)
{
	char host[256];
	const char *p, *end, *h, *he, *q;
	size_t n = strlen(url);
	int https;

	if (n > LC_WEBHOOK_URL_MAX)
		return lc_error_set(e, LC_E_VALIDATION, "url", "url must be at "
		    "most %d characters", LC_WEBHOOK_URL_MAX);
	for (p = url; *p != '\0'; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return lc_error_set(e, LC_E_VALIDATION, "url", "url "
			    "must be printable ASCII without blanks (a "
			    "name in another script in its xn-- form)");
	if (strncasecmp(url, "https://", 8) == 0)
		https = 1;
	else if (strncasecmp(url, "http://", 7) == 0)
		https = 0;
	else
		return lc_error_set(e, LC_E_VALIDATION, "url", "url must be an "
		    "absolute https:// address");
	if (!https && !allow_private)
		return lc_error_set(e, LC_E_VALIDATION, "url", "url must use "
		    "https:// (plain http:// only where the server allows "
		    "private addresses)");
	if (strchr(url, '#') != NULL)
		return lc_error_set(e, LC_E_VALIDATION, "url", "url must not "
		    "have a fragment (#)");
	h = url + (https ? 8 : 7);
	end = h + strcspn(h, "/?");
	if (memchr(h, '@', (size_t)(end - h)) != NULL)
		return lc_error_set(e, LC_E_VALIDATION, "url", "url must not "
		    "hold a user name or password");
	/* The host, and a port after it. */
	if (*h == '[') {
		if ((he = memchr(h, ']', (size_t)(end - h))) == NULL)
			goto bad_host;
		he++;
	} else
		for (he = h; he < end && *he != ':'; he++)
			if (!isalnum((unsigned char)*he) && *he != '-' &&
			    *he != '.' && *he != '_')
				goto bad_host;
	if (he == h || (size_t)(he - h) >= sizeof(host))
		goto bad_host;
	if (he < end) {
		if (*he != ':' || he + 1 == end || end - he > 6)
			goto bad_port;
		for (q = he + 1; q < end; q++)
			if (!isdigit((unsigned char)*q))
				goto bad_port;
		if (atoi(he + 1) < 1 || atoi(he + 1) > 65535)
			goto bad_port;
	}
	memcpy(host, h, (size_t)(he - h));
	host[he - h] = '\0';
	switch (lc_addr_text_private(host)) {
	case 1:
		if (!allow_private)
			return lc_error_set(e, LC_E_VALIDATION, "url", "url's "
			    "address is a loopback, private, link-local or "
			    "other address this server does not send to");
		break;
	case -1:
		if (*h == '[')
			goto bad_host;
		break;
	}
	return 0;
bad_host:
	return lc_error_set(e, LC_E_VALIDATION, "url", "url must name a host "
	    "(a name or an IP address)");
bad_port:
	return lc_error_set(e, LC_E_VALIDATION, "url", "url's port must be a "
	    "number from 1 to 65535");
}

int
lc_webhook_types_check(struct lc_error *e, const char *const *types, size_t n)
{
	size_t i, k;

	if (n == 0)
		return lc_error_set(e, LC_E_VALIDATION, "event_types",
		    "event_types must list at least one type (or be null "
		    "for all)");
	for (i = 0; i < n; i++) {
		/* webhook.test is no event: a test delivery only. */
		if (!lc_event_type_known(types[i]))
			return lc_error_set(e, LC_E_VALIDATION, "event_types",
			    "%.64s is not an event type", types[i]);
		for (k = 0; k < i; k++)
			if (strcmp(types[k], types[i]) == 0)
				return lc_error_set(e, LC_E_VALIDATION,
				    "event_types", "%.64s is listed twice",
				    types[i]);
	}
	return 0;
}

/* The types one space apart into w, all when none are asked for. */
static void
types_set(struct lc_webhook *w, const struct lc_webhook_in *in)
{
	size_t i, len = 0;

	w->all_types = in->ntypes == 0;
	w->event_types[0] = '\0';
	for (i = 0; i < in->ntypes; i++)
		len += (size_t)snprintf(w->event_types + len,
		    sizeof(w->event_types) - len, "%s%s", i ? " " : "",
		    in->types[i]);
}

static int
checks(struct lc_dom *dom, const struct lc_webhook_in *in)
{
	int allow;

	if (in->url != NULL) {
		/* Unreadable, the setting reads as its default: the write
		 * must fail instead, not go on as if it had read it. */
		allow = lc_setting(dom->db, LC_SET_WEBHOOK_PRIVATE) == 1;
		if (lc_db_failed(dom->db))
			return -1;
		if (lc_webhook_url_check(&dom->err, in->url, allow) == -1)
			return -1;
	}
	if (in->description != NULL && lc_text_check(&dom->err,
	    "description", in->description, LC_WEBHOOK_DESC_MAX, 1) == -1)
		return -1;
	if (in->types_set && in->ntypes > 0 && lc_webhook_types_check(
	    &dom->err, in->types, in->ntypes) == -1)
		return -1;
	return 0;
}

static int
secret_new(struct lc_dom *dom, char out[LC_WEBHOOK_SECRET_LEN + 1])
{
	unsigned char b[LC_WEBHOOK_SECRET_BYTES];

	if (lc_random(b, sizeof(b)) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(out, "whsec_", 6);
	out[6 + lc_b64_encode(b, sizeof(b), out + 6, 0)] = '\0';
	return 0;
}

/* The rules. */

int
lc_webhook_get(struct lc_dom *dom, const char *id, struct lc_webhook *w)
{
	int rc;

	if ((rc = lc_db_hook_get(dom->db, dom->caller.merchant_id, id, w)) != 1)
		return rc == 0 ? (lc_dom_fail(dom, LC_E_NOT_FOUND, NULL,
		    "No such webhook."), 0) : -1;
	if (lc_db_hook_pending(dom->db, w, &w->pending) == -1)
		return -1;
	return 1;
}

/* A rule's own endpoint, NOT_FOUND when it is not the merchant's. */
static int
own(struct lc_dom *dom, const char *id, struct lc_webhook *w)
{
	return lc_webhook_get(dom, id, w) == 1 ? 0 : -1;
}

int
lc_webhook_create(struct lc_dom *dom, const struct lc_webhook_in *in,
    struct lc_webhook *w)
{
	int64_t n;

	if (in->url == NULL)
		return lc_dom_fail(dom, LC_E_VALIDATION, "url",
		    "url is required");
	if (checks(dom, in) == -1)
		return -1;
	if (lc_db_hooks_count(dom->db, dom->caller.merchant_id, &n) == -1)
		return -1;
	if (n >= LC_WEBHOOK_MAX)
		return lc_dom_fail(dom, LC_E_CONFLICT, NULL, "A shop has at "
		    "most %d webhooks: delete one first.", LC_WEBHOOK_MAX);
	memset(w, 0, sizeof(*w));
	if (lc_uuid(w->id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(w->merchant_id, dom->caller.merchant_id, sizeof(w->merchant_id));
	snprintf(w->url, sizeof(w->url), "%s", in->url);
	snprintf(w->description, sizeof(w->description), "%s",
	    in->description != NULL ? in->description : "");
	types_set(w, in);
	w->enabled = 1;
	w->created_at = w->updated_at = dom->now_ms;
	w->old_secret_until = w->next_attempt_at = w->failing_since =
	    w->last_success_at = -1;
	/* From now on: the events already there are not its. */
	if (secret_new(dom, w->secret) == -1 ||
	    lc_db_hook_last_seq(dom->db, w->merchant_id, &w->cursor_seq) == -1 ||
	    lc_db_hook_add(dom->db, w) == -1)
		return -1;
	lc_audit_object(dom, w->id);
	return 0;
}

int
lc_webhook_update(struct lc_dom *dom, const char *id,
    const struct lc_webhook_in *in, struct lc_webhook *w)
{
	int clear = 0;

	if (own(dom, id, w) == -1 || checks(dom, in) == -1)
		return -1;
	if (in->url != NULL && strcmp(in->url, w->url) != 0) {
		snprintf(w->url, sizeof(w->url), "%s", in->url);
		/* A new address is tried at once, its failures its own. */
		clear = 1;
	}
	if (in->description != NULL)
		snprintf(w->description, sizeof(w->description), "%s",
		    in->description);
	if (in->types_set)
		types_set(w, in);
	if (in->enabled == 1) {
		w->enabled = 1;
		w->disabled_reason[0] = '\0';
		clear = 1;
	} else if (in->enabled == 0 && w->enabled) {
		w->enabled = 0;
		snprintf(w->disabled_reason, sizeof(w->disabled_reason),
		    "owner");
	}
	w->updated_at = dom->now_ms;
	if (lc_db_hook_set(dom->db, w) != 1 || (clear &&
	    lc_db_hook_clear_failures(dom->db, w->merchant_id, w->id) != 1))
		return -1;
	return lc_webhook_get(dom, id, w) == 1 ? 0 : -1;
}

int
lc_webhook_delete(struct lc_dom *dom, const char *id, struct lc_webhook *w)
{
	if (own(dom, id, w) == -1 || lc_db_hook_delete(dom->db,
	    w->merchant_id, id) != 1)
		return -1;
	return 0;
}

int
lc_webhook_rotate(struct lc_dom *dom, const char *id, struct lc_webhook *w)
{
	char old[LC_WEBHOOK_SECRET_LEN + 1];

	if (own(dom, id, w) == -1)
		return -1;
	/* Only the newest old secret signs alongside: one rotated twice in
	 * a day drops the oldest at once. */
	memcpy(old, w->secret, sizeof(old));
	if (secret_new(dom, w->secret) == -1)
		return -1;
	w->old_secret_until = dom->now_ms + LC_WEBHOOK_ROTATE_MS;
	w->updated_at = dom->now_ms;
	return lc_db_hook_secret(dom->db, w->merchant_id, id, w->secret, old,
	    w->old_secret_until, dom->now_ms) == 1 ? 0 : -1;
}

static int
job_add(struct lc_dom *dom, struct lc_webhook_job *j)
{
	j->created_at = dom->now_ms;
	if (lc_db_hook_job_add(dom->db, j) == -1)
		return -1;
	lc_audit_note_str(dom, "delivery_job_id", j->id);
	return 0;
}

int
lc_webhook_test(struct lc_dom *dom, const char *id, struct lc_webhook_job *j)
{
	struct lc_webhook w;
	json_object *body;
	int rc;

	memset(j, 0, sizeof(*j));
	if (own(dom, id, &w) == -1)
		return -1;
	if (lc_uuid(j->id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(j->webhook_id, w.id, sizeof(j->webhook_id));
	j->kind = "test";
	j->event_seq = -1;
	if ((body = lc_view_webhook_test(j->id, &w, dom->now_ms)) == NULL)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	j->payload = lc_json_text(body);
	rc = job_add(dom, j);
	j->payload = NULL;
	json_object_put(body);
	return rc;
}

int
lc_webhook_resend(struct lc_dom *dom, const char *id, const char *event_id,
    struct lc_webhook_job *j)
{
	struct lc_webhook w;
	char type[64];
	int rc;

	memset(j, 0, sizeof(*j));
	if (own(dom, id, &w) == -1)
		return -1;
	if (lc_event_id_parse(event_id, &j->event_seq) == -1)
		return lc_dom_fail(dom, LC_E_VALIDATION, "event_id",
		    "event_id must be an event's id (evt_ and 16 digits)");
	/* Another merchant's, or pruned after the retention: unknown. */
	if ((rc = lc_db_hook_event_type(dom->db, w.merchant_id, j->event_seq,
	    type, sizeof(type))) != 1)
		return rc == -1 ? -1 : lc_dom_fail(dom, LC_E_NOT_FOUND,
		    "event_id", "No such event (or it is older than the "
		    "events kept).");
	if (lc_uuid(j->id) == -1)
		return lc_dom_fail(dom, LC_E_INTERNAL, NULL, NULL);
	memcpy(j->webhook_id, w.id, sizeof(j->webhook_id));
	j->kind = "resend";
	lc_audit_note_str(dom, "event_id", event_id);
	return job_add(dom, j);
}

/* The deliverer's command. */

/* s for a POSIX shell, in single quotes when it needs them. */
static void
shell_word(char *out, size_t outsz, const char *s)
{
	size_t n = 0;
	const char *p;

	if (strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/._-:=@+,") == strlen(s) && *s != '\0') {
		snprintf(out, outsz, "%s", s);
		return;
	}
	if (outsz < 3) {
		*out = '\0';
		return;
	}
	out[n++] = '\'';
	for (p = s; *p != '\0' && n + 6 < outsz; p++) {
		if (*p == '\'') {
			memcpy(out + n, "'\\''", 4);
			n += 4;
		} else
			out[n++] = *p;
	}
	out[n++] = '\'';
	out[n] = '\0';
}

static int
executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

const char *
lc_webhook_command(const char *db_path, const char *prog_dir, char *out,
    size_t outsz)
{
	char admin[4096 + 32], q_admin[2 * sizeof(admin)], shown[1024];
	char q_db[2 * sizeof(shown)], real[PATH_MAX];
	struct passwd *pw;

	/* The installed tool (a package's, make install's); the build's,
	 * beside the responders' folder (tools/serve); else where the
	 * hosting guide has it copied, the home folder. */
	snprintf(admin, sizeof(admin), "%s/loyalty-admin", LC_SBINDIR);
	if (executable(admin)) {
		shell_word(q_admin, sizeof(q_admin), admin);
	} else {
		snprintf(admin, sizeof(admin), "%s/../tools/loyalty-admin",
		    prog_dir != NULL ? prog_dir : "");
		if (prog_dir != NULL && *prog_dir != '\0' && executable(admin) &&
		    realpath(admin, real) != NULL)
			shell_word(q_admin, sizeof(q_admin), real);
		else {
			/* The account the responders run as (a shared host
			 * runs a site's programs as its account). */
			pw = getpwuid(geteuid());
			if (pw != NULL && pw->pw_dir != NULL &&
			    pw->pw_dir[0] == '/') {
				snprintf(admin, sizeof(admin),
				    "%s/loyalty-admin", pw->pw_dir);
				shell_word(q_admin, sizeof(q_admin), admin);
			} else
				snprintf(q_admin, sizeof(q_admin),
				    "$HOME/loyalty-admin");
		}
	}
	/* A password of the database is the server's, not a shop's: the
	 * line shows *** for it. */
	shell_word(q_db, sizeof(q_db), lc_db_name_shown(db_path != NULL ?
	    db_path : lc_db_default_path(NULL), shown, sizeof(shown)));
	/* Its output each minute would be mailed: errors alone are. */
	snprintf(out, outsz, "* * * * * %s --db %s events deliver >/dev/null",
	    q_admin, q_db);
	return out;
}
