/*
 * Fuzz target: a whole request, headers and body, through an endpoint's
 * handler against a throwaway database, the way a responder serves it.
 *
 * How it runs the request: through the server's own lc_serve_one (lib/
 * http_serve.c), with an in-memory environment, reader and writer, and
 * the target's database instead of the one the request could name. A
 * handler that leaves a write open is answered 500 by the server, which
 * check_answer refuses.
 *
 * The databases. LLVMFuzzerInitialize makes, in a new folder under
 * $TMPDIR (default /tmp), removed at exit:
 * - the shop: seeded as tests/seed.sh seeds the fixtures' database, with
 *   the library's admin functions (lc_shop_*) in one write, then the four
 *   users logged in (lc_login) for their tokens; access tokens live a day
 *   (access_token_ttl 86400), sync_max_age_days is 3650;
 * - a new installation: migrated, no shop, its setup code file written.
 * Each is copied into an in-memory database. After an input whose request
 * changed rows (sqlite3_total_changes), the copy is written back over the
 * database with SQLite's backup API, so every input starts from the same
 * data and the files stay small. Commits are not synced (synchronous OFF):
 * nothing here must survive a power cut.
 *
 * Input layout:
 *
 *   byte 0      the endpoint: lc_endpoints[byte % number of rows]
 *   byte 1      the bearer token (byte % 8): 1 staff, 2 staff2, 3 owner,
 *               4 owner2, 5 one that names nothing, else none
 *   env lines   NAME=VALUE each ended by '\n', setting a CGI variable;
 *               NAME alone removes one; the empty line ends them
 *   body        the bytes after the empty line (no empty line: no body)
 *
 * Before the split, ${NAME} is replaced by the seed's value of NAME, with
 * the names of tests/seed.sh (M1, L1, STAFF_ID, CASH_ID, PUNCH_QR, ...),
 * the tokens STAFF_TOKEN, STAFF_REFRESH, ... OWNER2_REFRESH, and CODE (the
 * new installation's setup code); an unknown name stays as it is. So the
 * fixtures' requests are seeds as they are written.
 *
 * Defaults, which the env lines override: REQUEST_METHOD the row's first
 * method, REQUEST_URI its path (/api/v1/no-such-path for the catch-all
 * row), QUERY_STRING the URI's part after '?', and with a body (even an
 * empty one) CONTENT_TYPE application/json and CONTENT_LENGTH its length,
 * as in tests/fixtures.sh. A LOYALTY_DB line (any value) sends the
 * request to the new installation instead of the shop; its value is never
 * opened. The tokens are made once: a run longer than a day sees them
 * expired.
 *
 * Checks, beyond the sanitizers: no handler leaves a transaction open, and
 * every answer passes what tests/fixtures.sh checks of each (check_answer
 * below), no 500 (INTERNAL_ERROR) among them but the catch-all row's
 * relaying a web server's own error (REDIRECT_STATUS).
 *
 * FUZZ_HANDLER_SHOW=1 in the environment prints every answer to stderr,
 * e.g. to see what a saved input does: fuzz_handler FILE.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <sqlite3.h>

#include "lc_http.h"
#include "lc_sqlite.h"

#define ENV_MAX 64
#define VARS_MAX 96
#define VAR_NAME_MAX 32
#define CODE_LEN 20

struct fdb {
	char path[4096];
	struct lc_db *db;
	sqlite3 *pristine;	/* the in-memory copy */
	int changes;		/* sqlite3_total_changes at the copy */
};

struct var {
	char name[VAR_NAME_MAX];
	char *value;
};

struct env {
	char *name[ENV_MAX];
	char *value[ENV_MAX];
	int n;
};

struct reader {
	const char *p;
	size_t left;
};

struct out {
	char *buf;
	size_t len, cap;
};

static char dir[4096];
static struct fdb shop, fresh;
static struct var vars[VARS_MAX];
static int nvars;
static size_t nendpoints;
static int show;	/* FUZZ_HANDLER_SHOW: print every answer */

static void __attribute__((noreturn))
die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_handler: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	abort();
}

static char *
xstrdup(const char *s)
{
	char *d;

	if ((d = strdup(s)) == NULL)
		die("out of memory", NULL);
	return d;
}

static void
setvar(const char *name, const char *value)
{
	int i;

	for (i = 0; i < nvars; i++)
		if (strcmp(vars[i].name, name) == 0) {
			free(vars[i].value);
			vars[i].value = xstrdup(value);
			return;
		}
	if (nvars >= VARS_MAX || strlen(name) >= VAR_NAME_MAX)
		die("too many seed variables", name);
	snprintf(vars[nvars].name, sizeof(vars[nvars].name), "%s", name);
	vars[nvars].value = xstrdup(value);
	nvars++;
}

static const char *
getvar(const char *name, size_t len)
{
	int i;

	for (i = 0; i < nvars; i++)
		if (strlen(vars[i].name) == len &&
		    memcmp(vars[i].name, name, len) == 0)
			return vars[i].value;
	return NULL;
}

/* Seeding: the shop of tests/seed.sh, in one write. */

struct seed_user {
	const char *var, *email, *password, *name, *merchant, *location;
	int owner;
	char hash[LC_HASH_MAX + 1];
};

static struct seed_user users[] = {
	{ "OWNER", "owner@m1.test", "owner-pass", "Olive Owner", "M1", NULL,
	    1, "" },
	{ "STAFF", "staff@m1.test", "staff-pass", "Sam Staff", "M1", "L1",
	    0, "" },
	{ "STAFF2", "staff2@m1.test", "staff2-pass", "", "M1", "L2", 0, "" },
	{ "OWNER2", "owner@m2.test", "owner2-pass", "", "M2", NULL, 1, "" },
};

static int
seed_merchant(struct lc_dom *dom, const char *var, const char *name)
{
	char id[LC_ID_LEN + 1], key[VAR_NAME_MAX];

	if (lc_shop_merchant_add(dom, name, id) == -1)
		return -1;
	snprintf(key, sizeof(key), "%s_NAME", var);
	setvar(key, name);
	setvar(var, id);
	return 0;
}

static int
seed_location(struct lc_dom *dom, const char *var, const char *merchant,
    const char *name)
{
	char id[LC_ID_LEN + 1], key[VAR_NAME_MAX];

	if (lc_shop_location_add(dom, getvar(merchant, strlen(merchant)),
	    name, id) == -1)
		return -1;
	snprintf(key, sizeof(key), "%s_NAME", var);
	setvar(key, name);
	setvar(var, id);
	return 0;
}

static int
seed_user(struct lc_dom *dom, const struct seed_user *s)
{
	char id[LC_ID_LEN + 1], key[VAR_NAME_MAX];
	struct lc_user u;

	memset(&u, 0, sizeof(u));
	snprintf(u.merchant_id, sizeof(u.merchant_id), "%s",
	    getvar(s->merchant, strlen(s->merchant)));
	if (s->location != NULL)
		snprintf(u.location_id, sizeof(u.location_id), "%s",
		    getvar(s->location, strlen(s->location)));
	snprintf(u.email, sizeof(u.email), "%s", s->email);
	snprintf(u.display_name, sizeof(u.display_name), "%s", s->name);
	snprintf(u.password_hash, sizeof(u.password_hash), "%s", s->hash);
	u.is_owner = s->owner;
	if (lc_shop_user_add(dom, &u, id) == -1)
		return -1;
	snprintf(key, sizeof(key), "%s_ID", s->var);
	setvar(key, id);
	snprintf(key, sizeof(key), "%s_EMAIL", s->var);
	setvar(key, s->email);
	snprintf(key, sizeof(key), "%s_PASSWORD", s->var);
	setvar(key, s->password);
	return 0;
}

/* tiers: "NAME:MIN_SPEND_CENTS:RATE_BP" each, NULL-ended. */
static int
seed_program(struct lc_dom *dom, const char *var, const char *merchant,
    const char *type, const char *title, int64_t punches,
    const char *reward, const char *desc, int64_t amount, int64_t cooldown,
    const char *const *tiers)
{
	struct lc_program p;
	char id[LC_ID_LEN + 1];
	long long min, rate;
	int n;

	memset(&p, 0, sizeof(p));
	snprintf(p.merchant_id, sizeof(p.merchant_id), "%s",
	    getvar(merchant, strlen(merchant)));
	p.type = lc_cardtype_id(type);
	snprintf(p.title, sizeof(p.title), "%s", title);
	p.punch_requirement = punches;
	snprintf(p.reward_title, sizeof(p.reward_title), "%s",
	    reward != NULL ? reward : "");
	snprintf(p.reward_description, sizeof(p.reward_description), "%s",
	    desc != NULL ? desc : "");
	p.reward_amount = amount;
	p.cooldown_seconds = cooldown;
	for (; tiers != NULL && *tiers != NULL; tiers++) {
		if (p.ntiers >= LC_TIERS_MAX ||
		    sscanf(*tiers, "%*[^:]:%lld:%lld", &min, &rate) != 2)
			die("bad seed tier", *tiers);
		n = (int)strcspn(*tiers, ":");
		snprintf(p.tiers[p.ntiers].name, sizeof(p.tiers[p.ntiers].name),
		    "%.*s", n, *tiers);
		p.tiers[p.ntiers].min_spend = min;
		p.tiers[p.ntiers].rate_bp = rate;
		p.ntiers++;
	}
	if (lc_shop_program_add(dom, &p, id) == -1)
		return -1;
	setvar(var, id);
	return 0;
}

static int
seed_card(struct lc_dom *dom, const char *var, const char *program,
    const char *customer)
{
	struct lc_card c;
	char key[VAR_NAME_MAX];

	if (lc_shop_card_issue(dom, getvar(program, strlen(program)), customer,
	    &c) == -1)
		return -1;
	snprintf(key, sizeof(key), "%s_ID", var);
	setvar(key, c.id);
	snprintf(key, sizeof(key), "%s_QR", var);
	setvar(key, c.qr);
	snprintf(key, sizeof(key), "%s_BARCODE", var);
	setvar(key, c.barcode);
	snprintf(key, sizeof(key), "%s_CUSTOMER", var);
	setvar(key, customer);
	return 0;
}

static int
seed_rule(struct lc_dom *dom, void *arg)
{
	static const char *const cash[] = { "Bronze:0:500", "Silver:10000:1000",
	    NULL };
	static const char *const disc[] = { "Member:0:1000", "VIP:25000:2000",
	    NULL };
	size_t i;

	(void)arg;
	if (lc_setting_set(dom, "sync_max_age_days", "3650") == -1 ||
	    lc_setting_set(dom, "access_token_ttl", "86400") == -1 ||
	    seed_merchant(dom, "M1", "Test Cafe") == -1 ||
	    seed_location(dom, "L1", "M1", "Front") == -1 ||
	    seed_location(dom, "L2", "M1", "Back") == -1 ||
	    seed_merchant(dom, "M2", "Other Shop") == -1 ||
	    seed_location(dom, "M2L1", "M2", "Main") == -1)
		return -1;
	for (i = 0; i < sizeof(users) / sizeof(users[0]); i++)
		if (seed_user(dom, &users[i]) == -1)
			return -1;
	if (seed_program(dom, "PUNCH_PROG", "M1", "punch", "Coffee Card", 10,
	    "Free coffee", "Any hot drink", 350, 60, NULL) == -1 ||
	    seed_program(dom, "QUICK_PROG", "M1", "punch", "Quick Card", 3,
	    "Cookie", NULL, 0, 1, NULL) == -1 ||
	    seed_program(dom, "CASH_PROG", "M1", "cashback", "Cashback Club",
	    0, NULL, NULL, 0, 0, cash) == -1 ||
	    seed_program(dom, "DISC_PROG", "M1", "discount", "Member Discount",
	    0, NULL, NULL, 0, 0, disc) == -1 ||
	    seed_program(dom, "M2_PROG", "M2", "punch", "Tea Card", 5,
	    "Free tea", NULL, 0, LC_COOLDOWN_DEFAULT, NULL) == -1)
		return -1;
	if (seed_card(dom, "PUNCH", "PUNCH_PROG", "Pat Punch") == -1 ||
	    seed_card(dom, "QUICK", "QUICK_PROG", "Quinn Quick") == -1 ||
	    seed_card(dom, "CASH", "CASH_PROG", "Cass Cash") == -1 ||
	    seed_card(dom, "DISC", "DISC_PROG", "Dee Discount") == -1 ||
	    seed_card(dom, "INACTIVE", "PUNCH_PROG", "Ira Inactive") == -1 ||
	    seed_card(dom, "M2CARD", "M2_PROG", "Mo Other") == -1)
		return -1;
	return lc_shop_card_status(dom, getvar("INACTIVE_ID", 11), 0);
}

static void
fdb_open(struct fdb *f, const char *name)
{
	const char *why = NULL;

	if (snprintf(f->path, sizeof(f->path), "%s/%s", dir, name) >=
	    (int)sizeof(f->path))
		die("folder name too long", dir);
	if ((f->db = lc_db_open(f->path, 1, &why)) == NULL)
		die("cannot make a database", why);
	if (sqlite3_exec(lc_sq_handle(f->db), "PRAGMA synchronous = OFF",
	    NULL, NULL, NULL) != SQLITE_OK)
		die("cannot set synchronous", f->path);
}

/* Copies the database from src into dst (both "main"). */
static void
copy_db(sqlite3 *dst, sqlite3 *src)
{
	sqlite3_backup *b;

	if ((b = sqlite3_backup_init(dst, "main", src, "main")) == NULL)
		die("cannot start a database copy", sqlite3_errmsg(dst));
	if (sqlite3_backup_step(b, -1) != SQLITE_DONE) {
		(void)sqlite3_backup_finish(b);
		die("cannot copy a database", sqlite3_errmsg(dst));
	}
	if (sqlite3_backup_finish(b) != SQLITE_OK)
		die("cannot finish a database copy", sqlite3_errmsg(dst));
}

static void
fdb_keep(struct fdb *f)
{
	if (sqlite3_open(":memory:", &f->pristine) != SQLITE_OK)
		die("cannot open an in-memory database", NULL);
	copy_db(f->pristine, lc_sq_handle(f->db));
	f->changes = sqlite3_total_changes(lc_sq_handle(f->db));
}

/* The new installation's setup code, written when missing, into CODE. */
static void
setup_code(void)
{
	char file[4200], code[CODE_LEN + 1];
	struct lc_dom dom;
	ssize_t n;
	int fd;

	memset(&dom, 0, sizeof(dom));
	dom.db = fresh.db;
	dom.now_ms = lc_now_ms();
	if (lc_setup_needed(&dom, fresh.path, 1) != 1 ||
	    lc_setup_file(fresh.path, file, sizeof(file)) == -1)
		die("cannot make the setup code", lc_error_msg(&dom.err));
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) == -1)
		die("cannot open the setup code", file);
	n = read(fd, code, CODE_LEN);
	if (close(fd) == -1 || n != CODE_LEN)
		die("cannot read the setup code", file);
	code[CODE_LEN] = '\0';
	setvar("CODE", code);
}

static void
fdb_restore(struct fdb *f)
{
	sqlite3 *h = lc_sq_handle(f->db);

	if (sqlite3_total_changes(h) == f->changes)
		return;
	copy_db(h, f->pristine);
	f->changes = sqlite3_total_changes(h);
	if (f == &fresh)
		setup_code();
}

static void
remove_all(void)
{
	char path[8192];
	struct dirent *d;
	DIR *dp;

	lc_db_close(shop.db);
	lc_db_close(fresh.db);
	(void)sqlite3_close(shop.pristine);
	(void)sqlite3_close(fresh.pristine);
	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, d->d_name) <
		    (int)sizeof(path) && unlink(path) == -1)
			fprintf(stderr, "fuzz_handler: cannot remove %s: %s\n",
			    path, strerror(errno));
	}
	if (closedir(dp) == -1 || rmdir(dir) == -1)
		fprintf(stderr, "fuzz_handler: cannot remove %s: %s\n", dir,
		    strerror(errno));
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	struct lc_login_result lr;
	struct lc_write w;
	struct lc_dom dom;
	char key[VAR_NAME_MAX];
	size_t i;

	(void)argc;
	(void)argv;
	show = getenv("FUZZ_HANDLER_SHOW") != NULL;
	for (nendpoints = 0; lc_endpoints[nendpoints].name != NULL;
	    nendpoints++)
		continue;
	if (snprintf(dir, sizeof(dir), "%s/lc-fuzz-handler-XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp") >= (int)sizeof(dir) ||
	    mkdtemp(dir) == NULL)
		die("cannot make a temporary folder", strerror(errno));
	if (atexit(remove_all) != 0)
		die("atexit failed", NULL);
	umask(027);
	fdb_open(&shop, "loyalty.db");
	fdb_open(&fresh, "fresh.db");

	/* Slow (scrypt): before the write, as the admin tool does. */
	for (i = 0; i < sizeof(users) / sizeof(users[0]); i++)
		if (lc_auth_hash_password(users[i].password, users[i].hash,
		    sizeof(users[i].hash)) == -1)
			die("cannot hash a password", users[i].email);
	memset(&dom, 0, sizeof(dom));
	dom.db = shop.db;
	dom.now_ms = lc_now_ms();
	memset(&w, 0, sizeof(w));
	w.kind = "seed";
	w.rule = seed_rule;
	/* The test's own shop: nothing for an audit trail. */
	w.action = LC_AUDIT_NONE;
	if (lc_write(&dom, &w, NULL) == -1)
		die("cannot seed the shop", lc_error_msg(&dom.err));
	for (i = 0; i < sizeof(users) / sizeof(users[0]); i++) {
		memset(&dom, 0, sizeof(dom));
		dom.db = shop.db;
		dom.now_ms = lc_now_ms();
		if (lc_login(&dom, users[i].email, users[i].password,
		    &lr) == -1)
			die("cannot log in", lc_error_msg(&dom.err));
		snprintf(key, sizeof(key), "%s_TOKEN", users[i].var);
		setvar(key, lr.tokens.access);
		snprintf(key, sizeof(key), "%s_REFRESH", users[i].var);
		setvar(key, lr.tokens.refresh);
		lc_profile_free(&lr.profile);
	}
	setup_code();
	fdb_keep(&shop);
	fdb_keep(&fresh);
	return 0;
}

/* The request: ${NAME} replaced, then split into env lines and body. */

static char *
expand(const char *in, size_t len, size_t *outlen)
{
	const char *p, *end = in + len, *rb, *v;
	size_t cap = len + 1, n = 0, vl, need;
	char *out, *nb;

	if ((out = malloc(cap)) == NULL)
		die("out of memory", NULL);
	for (p = in; p < end; p = v != NULL ? rb + 1 : p + 1) {
		v = NULL;
		vl = 1;
		if (end - p >= 3 && p[0] == '$' && p[1] == '{' &&
		    (rb = memchr(p + 2, '}', (size_t)(end - p - 2))) != NULL &&
		    rb - p - 2 < VAR_NAME_MAX &&
		    (v = getvar(p + 2, (size_t)(rb - p - 2))) != NULL)
			vl = strlen(v);
		if ((need = n + vl + 1) > cap) {
			cap = need * 2;
			if ((nb = realloc(out, cap)) == NULL)
				die("out of memory", NULL);
			out = nb;
		}
		memcpy(out + n, v != NULL ? v : p, vl);
		n += vl;
	}
	out[n] = '\0';
	*outlen = n;
	return out;
}

static int
env_find(const struct env *e, const char *name)
{
	int i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->name[i], name) == 0)
			return i;
	return -1;
}

/* Sets name (value NULL: removes it). Both strings are copied. */
static void
env_set(struct env *e, const char *name, const char *value)
{
	int i = env_find(e, name);

	if (i >= 0) {
		free(e->value[i]);
		if (value != NULL) {
			e->value[i] = xstrdup(value);
			return;
		}
		free(e->name[i]);
		e->n--;
		e->name[i] = e->name[e->n];
		e->value[i] = e->value[e->n];
		return;
	}
	if (value == NULL || e->n >= ENV_MAX)
		return;
	e->name[e->n] = xstrdup(name);
	e->value[e->n] = xstrdup(value);
	e->n++;
}

static void
env_free(struct env *e)
{
	int i;

	for (i = 0; i < e->n; i++) {
		free(e->name[i]);
		free(e->value[i]);
	}
	e->n = 0;
}

static const char *
getparam(const char *name, void *envp)
{
	const struct env *e = envp;
	int i = env_find(e, name);

	return i < 0 ? NULL : e->value[i];
}

static int
readfn(void *arg, char *buf, int n)
{
	struct reader *r = arg;
	size_t k = (size_t)n < r->left ? (size_t)n : r->left;

	if (k == 0)
		return 0;
	memcpy(buf, r->p, k);
	r->p += k;
	r->left -= k;
	return (int)k;
}

static void
writefn(void *arg, const char *buf, size_t n)
{
	struct out *o = arg;
	char *nb;

	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		if ((nb = realloc(o->buf, o->cap)) == NULL)
			die("out of memory", NULL);
		o->buf = nb;
	}
	memcpy(o->buf + o->len, buf, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/*
 * Builds the environment: the defaults, then the input's lines. Returns
 * the body (in s) and its length, or NULL for none; *use_fresh is set by a
 * LOYALTY_DB line.
 */
static const char *
build_env(const struct lc_endpoint *ep, unsigned auth, char *s, size_t len,
    struct env *e, size_t *bodylen, int *use_fresh)
{
	static const char *const who[] = { NULL, "STAFF_TOKEN", "STAFF2_TOKEN",
	    "OWNER_TOKEN", "OWNER2_TOKEN" };
	char *p, *end = s + len, *nl, *eq, hdr[128], method[16], *q;
	const char *body = NULL, *uri;
	int query_given = 0;
	size_t n;

	*bodylen = 0;
	*use_fresh = 0;
	/* The body first: the defaults depend on it. */
	for (p = s; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		if (nl == p) {
			body = p + 1;
			*bodylen = (size_t)(end - p - 1);
			end = p;
			break;
		}
	}
	n = strcspn(ep->method, " ");
	snprintf(method, sizeof(method), "%.*s", (int)n, ep->method);
	env_set(e, "REQUEST_METHOD", method);
	env_set(e, "REQUEST_URI", ep->path != NULL ? ep->path :
	    "/api/v1/no-such-path");
	auth %= 8;
	if (auth >= 1 && auth <= 4) {
		snprintf(hdr, sizeof(hdr), "Bearer %s",
		    getvar(who[auth], strlen(who[auth])));
		env_set(e, "HTTP_AUTHORIZATION", hdr);
	} else if (auth == 5)
		env_set(e, "HTTP_AUTHORIZATION",
		    "Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	if (body != NULL) {
		snprintf(hdr, sizeof(hdr), "%zu", *bodylen);
		env_set(e, "CONTENT_LENGTH", hdr);
		env_set(e, "CONTENT_TYPE", "application/json");
	}
	for (p = s; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		*nl = '\0';
		if ((eq = strchr(p, '=')) != NULL)
			*eq = '\0';
		if (strcmp(p, "LOYALTY_DB") == 0)
			*use_fresh = 1;
		else
			env_set(e, p, eq != NULL ? eq + 1 : NULL);
		query_given |= strcmp(p, "QUERY_STRING") == 0;
	}
	if (!query_given && (uri = getparam("REQUEST_URI", e)) != NULL &&
	    (q = strchr(uri, '?')) != NULL) {
		q = xstrdup(q + 1);
		env_set(e, "QUERY_STRING", q);
		free(q);
	}
	return body;
}

/* A request through the server's own lc_serve_one, on the target's
 * database whatever the request names; the answer into o. Returns the
 * request's REDIRECT_STATUS (0 none). */
static int
serve(const struct lc_endpoint *ep, struct env *e, struct reader *rd,
    struct fdb *f, struct out *o)
{
	struct lc_serve_io io = { getparam, e, readfn, rd, writefn, o, f->db,
	    f->path };

	return lc_serve_one(ep, &io);
}

/* The header name (with its ": ") in the headers of o, or NULL. */
static const char *
header(const struct out *o, const char *body, const char *name)
{
	const char *p;
	size_t n = strlen(name);

	for (p = strstr(o->buf, "\r\n"); p != NULL && p < body;
	    p = strstr(p + 2, "\r\n"))
		if (strncmp(p + 2, name, n) == 0)
			return p + 2 + n;
	return NULL;
}

/*
 * The answer as tests/fixtures.sh checks every one: a status line, never
 * 500, an X-Request-Id, a Content-Length that is the body's, Allow on a
 * 405, WWW-Authenticate on a 401, Retry-After in whole seconds on a 429
 * and a 503, and a JSON answer one object that lc_json_check accepts. A
 * 500 is the answer only of the catch-all row relaying a web server's
 * error (REDIRECT_STATUS).
 */
static void
check_answer(const struct lc_endpoint *ep, const struct out *o, int redirect)
{
	const char *body, *v;
	unsigned long long n;
	int status = 0;

	if (o->buf == NULL || sscanf(o->buf, "Status: %3d ", &status) != 1 ||
	    status < 200 || status > 599)
		die("no status line", ep->name);
	if ((body = strstr(o->buf, "\r\n\r\n")) == NULL)
		die("no end of the headers", ep->name);
	body += 4;
	if (status == 500 && !(ep->path == NULL && redirect != 0)) {
		fprintf(stderr, "%s\n", o->buf);
		die("answered 500 INTERNAL_ERROR", ep->name);
	}
	if (header(o, body, "X-Request-Id: ") == NULL)
		die("no X-Request-Id", ep->name);
	if ((v = header(o, body, "Content-Length: ")) == NULL ||
	    sscanf(v, "%llu", &n) != 1 ||
	    n != (unsigned long long)(o->len - (size_t)(body - o->buf)))
		die("Content-Length is not the body's length", ep->name);
	if ((status == 405 && header(o, body, "Allow: ") == NULL) ||
	    (status == 401 &&
	    header(o, body, "WWW-Authenticate: Bearer") == NULL) ||
	    ((status == 429 || status == 503) &&
	    ((v = header(o, body, "Retry-After: ")) == NULL ||
	    *v < '1' || *v > '9'))) {
		fprintf(stderr, "%s\n", o->buf);
		die("a 405, 401, 429 or 503 without its header", ep->name);
	}
	if ((v = header(o, body, "Content-Type: ")) != NULL &&
	    strncmp(v, "application/json", 16) == 0 && (*body != '{' ||
	    lc_json_check(body, strlen(body)) == -1)) {
		fprintf(stderr, "%s\n", o->buf);
		die("a JSON answer that is not one JSON object", ep->name);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct lc_endpoint *ep;
	struct reader rd;
	struct env e;
	struct out o;
	struct fdb *f;
	const char *body;
	size_t len, bodylen;
	char *s;
	int use_fresh, redirect;

	if (size < 2)
		return 0;
	ep = &lc_endpoints[data[0] % nendpoints];
	s = expand((const char *)data + 2, size - 2, &len);
	memset(&e, 0, sizeof(e));
	body = build_env(ep, data[1], s, len, &e, &bodylen, &use_fresh);
	f = use_fresh ? &fresh : &shop;
	rd.p = body;
	rd.left = body != NULL ? bodylen : 0;
	memset(&o, 0, sizeof(o));
	redirect = serve(ep, &e, &rd, f, &o);
	if (show)
		fprintf(stderr, "fuzz_handler: %s on the %s:\n%s\n", ep->name,
		    f == &shop ? "shop" : "new installation",
		    o.buf != NULL ? o.buf : "(nothing)");
	check_answer(ep, &o, redirect);
	fdb_restore(f);
	free(o.buf);
	env_free(&e);
	free(s);
	return 0;
}
