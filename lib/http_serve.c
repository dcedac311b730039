/*
 * The serve loop shared by every responder: FastCGI through libfcgi's
 * re-entrant API, or one plain CGI request when not started by a FastCGI
 * server; and what every request goes through before its handler (path,
 * method, size, media type, database, bearer token, JSON body). The
 * database connection is the only state kept across requests.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <unistd.h>

#include <fcgiapp.h>

#include "lc_http.h"
#include "lc_conf.h"

/* The process's connection, opened on the first request (never before a
 * fork by the FastCGI server) and kept with its prepared statements. */
static struct lc_db *conn;
static char *conn_path;
/* loyalty.conf beside the responder, read once as the process starts. */
static struct lc_conf conf;

struct io {
	FCGX_Stream *in, *out;
	FCGX_ParamArray envp;
};

static const char *
cgi_getparam(const char *name, void *envp)
{
	(void)envp;
	return getenv(name);
}

static const char *
fcgi_getparam(const char *name, void *envp)
{
	return FCGX_GetParam(name, envp);
}

static int
cgi_read(void *rd, char *buf, int n)
{
	(void)rd;
	return (int)fread(buf, 1, (size_t)n, stdin);
}

static int
fcgi_read(void *rd, char *buf, int n)
{
	return FCGX_GetStr(buf, n, ((struct io *)rd)->in);
}

static void
cgi_write(void *wr, const char *buf, size_t n)
{
	(void)wr;
	fwrite(buf, 1, n, stdout);
}

static void
fcgi_write(void *wr, const char *buf, size_t n)
{
	FCGX_PutStr(buf, (int)n, ((struct io *)wr)->out);
}

/*
 * A request's own id: a version 4 UUID, random as documented, from
 * kernel randomness read for 256 ids at once (one system call in 256
 * requests). The id names a request in the log and the audit trail: it
 * must be unique, never secret.
 */
static int
request_uuid(char out[LC_ID_LEN + 1])
{
	static unsigned char pool[16 * 256];
	static size_t used = sizeof(pool), size = sizeof(pool);

	if (used == size) {
		/* A plain CGI process serves one request. */
		size = FCGX_IsCGI() ? 16 : sizeof(pool);
		if (lc_random(pool, size) == -1)
			return -1;
		used = 0;
	}
	lc_uuid_text(pool + used, out);
	used += 16;
	return 0;
}

/* A client's X-Request-Id is kept when it is 1 to 64 of [A-Za-z0-9._-]. */
static int
valid_request_id(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > LC_REQUEST_ID_MAX)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._-") == n;
}

/*
 * Whether the request path names this endpoint; a prefix before /api/v1
 * is allowed so the service can live below a folder of a shared host. A
 * tree endpoint also takes the paths below its own: *sub is then what
 * follows ("" or "/...").
 */
static int
path_matches(const char *path, const struct lc_endpoint *ep, const char **sub)
{
	size_t pl = strlen(path), wl = strlen(ep->path);
	const char *p;

	*sub = "";
	if (pl >= wl && strcmp(path + pl - wl, ep->path) == 0)
		return 1;
	if (!(ep->flags & LC_EP_TREE))
		return 0;
	for (p = strstr(path, ep->path); p != NULL; p = strstr(p + 1, ep->path))
		if (p[wl] == '/') {
			*sub = p + wl;
			return 1;
		}
	return 0;
}

/* 1 when method is one of the space-separated list. */
static int
method_in(const char *method, const char *list)
{
	size_t n = strlen(method);
	const char *p;

	/* An empty method is none of them (and strstr would find it
	 * everywhere). */
	if (n == 0)
		return 0;
	for (p = list; (p = strstr(p, method)) != NULL; p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

int
lc_method_is(const struct lc_ctx *ctx, const char *m)
{
	return strcmp(ctx->req.method, m) == 0;
}

int
lc_not_allowed(struct lc_ctx *ctx, const char *allow)
{
	snprintf(ctx->allow, sizeof(ctx->allow), "%s", allow);
	return lc_fail(ctx, LC_E_METHOD_NOT_ALLOWED, NULL,
	    "Use %s for this path.", allow);
}

FILE *
lc_raw(struct lc_ctx *ctx, const char *type)
{
	if (ctx->raw == NULL && (ctx->raw = tmpfile()) == NULL) {
		lc_log("cannot make a temporary file for the answer");
		lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
		return NULL;
	}
	ctx->raw_type = type;
	return ctx->raw;
}

int
lc_path_id(struct lc_ctx *ctx, char id[LC_ID_LEN + 1], const char **rest)
{
	const char *p = ctx->subpath, *end;
	size_t n;

	if (*p != '/')
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	p++;
	end = strchr(p, '/');
	n = end != NULL ? (size_t)(end - p) : strlen(p);
	/* Ids are UUIDs; anything else names nothing. */
	if (n != LC_ID_LEN || strspn(p, "0123456789abcdef-") < n)
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	memcpy(id, p, n);
	id[n] = '\0';
	*rest = p + n;
	return 0;
}

/* The media type of a Content-Type value, without parameters. */
static int
is_json_type(const char *ct)
{
	size_t n;

	while (*ct == ' ' || *ct == '\t')
		ct++;
	n = strcspn(ct, "; \t");
	return n == strlen("application/json") &&
	    strncasecmp(ct, "application/json", n) == 0;
}

/*
 * 1 when path names no file yet and its folder is one we may write in: a
 * new installation, whose first request creates its database. A path
 * into a folder that does not exist, or that we may not write, is a
 * configuration to fix, never a database to start somewhere else.
 */
static int
creatable(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	size_t n;

	if (access(path, F_OK) == 0 || errno != ENOENT)
		return 0;
	if (slash == NULL)
		return access(".", W_OK | X_OK) == 0;
	if ((n = (size_t)(slash - path)) >= sizeof(dir))
		return 0;
	memcpy(dir, path, n);
	dir[n == 0 ? 1 : n] = '\0';
	if (n == 0)
		dir[0] = '/';
	return access(dir, W_OK | X_OK) == 0;
}

/*
 * A database this process cannot open or write as set up: the server's
 * log names the file, where its path came from and the user, the answer
 * only what is wrong (a client sees no path).
 */
static int
unusable_db(struct lc_ctx *ctx, const char *path, const char *from,
    const char *why)
{
	char shown[1024];

	lc_log("database %s (%s) cannot be used: %s (this process runs as "
	    "uid %ld, gid %ld)", lc_db_name_shown(path, shown, sizeof(shown)),
	    from, why, (long)geteuid(), (long)getegid());
	if (lc_db_name_is_pg(path))
		return lc_fail(ctx, LC_E_CONFIG, NULL, "The database cannot be "
		    "used: %s. Fix the PostgreSQL database set for the "
		    "service; the server's error log says more.", why);
	if (why == lc_conf_half_deleted)
		return lc_fail(ctx, LC_E_CONFIG, NULL, "The database cannot be "
		    "used: %s.", why);
	return lc_fail(ctx, LC_E_CONFIG, NULL, "The database cannot be used: "
	    "%s. Fix its permissions or the path set for the service; the "
	    "server's error log names the file.", why);
}

static int
ensure_db(struct lc_ctx *ctx)
{
	const char *path, *from, *why = NULL, *env;
	char shown[1024];
	int misconfigured = 0;

	if (conf.err[0] != '\0') {
		lc_log("%s", conf.err);
		return lc_fail(ctx, LC_E_CONFIG, NULL, "The configuration file "
		    LC_CONF_NAME " has an error; the server's error log says "
		    "which line.");
	}
	/* LOYALTY_DB wins (a FastCGI parameter, SetEnv, the environment),
	 * then loyalty.conf, then the build's default. */
	if (ctx->req.db_path != NULL && *ctx->req.db_path != '\0') {
		path = ctx->req.db_path;
		from = "LOYALTY_DB";
	} else if ((env = getenv("LOYALTY_DB")) != NULL && *env != '\0') {
		path = env;
		from = "LOYALTY_DB";
	} else if (conf.db[0] != '\0') {
		path = conf.db;
		from = conf.file;
	} else {
		path = lc_db_default_path(NULL);
		from = "the build's default";
	}
	if (conn != NULL && strcmp(conn_path, path) == 0) {
		if (!lc_db_replaced(conn)) {
			ctx->dom.db = conn;
			ctx->db_path = conn_path;
			return 0;
		}
		/* Deleted or put back by someone: what is there now. */
		lc_log("database %s was removed or replaced since this process "
		    "opened it: opening it again", lc_db_name_shown(path, shown,
		    sizeof(shown)));
	}
	lc_db_close(conn);
	conn = NULL;
	free(conn_path);
	conn_path = NULL;
	if ((why = lc_conf_db_problem(path, 1)) != NULL)
		return unusable_db(ctx, path, from, why);
	/* A new installation's first request makes its SQLite file; a
	 * PostgreSQL database is set up by loyalty-admin init. */
	if ((conn = lc_db_open_ex(path, !lc_db_name_is_pg(path) &&
	    creatable(path), &why, &misconfigured)) == NULL) {
		if (misconfigured)
			return unusable_db(ctx, path, from, why);
		lc_log("cannot open database %s: %s", lc_db_name_shown(path,
		    shown, sizeof(shown)), why ? why : "unknown");
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	if ((conn_path = strdup(path)) == NULL) {
		lc_db_close(conn);
		conn = NULL;
		return lc_fail(ctx, LC_E_INTERNAL, NULL, NULL);
	}
	ctx->dom.db = conn;
	ctx->db_path = conn_path;
	return 0;
}

int
lc_serve_bearer(struct lc_ctx *ctx, int required, const char **out)
{
	const char *h = ctx->req.authorization, *tok;

	*out = NULL;
	if (h == NULL && !required)
		return 0;
	if (h == NULL || strncasecmp(h, "Bearer", 6) != 0 ||
	    (h[6] != ' ' && h[6] != '\0'))
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "Send Authorization: Bearer <access token>.");
	for (tok = h + 6; *tok == ' '; tok++)
		continue;
	if (*tok == '\0' && !required)
		return 0;
	if (*tok == '\0')
		return lc_fail(ctx, LC_E_UNAUTHORIZED, NULL,
		    "The bearer token is missing.");
	ctx->auth_had_token = 1;
	*out = tok;
	return 0;
}

int
lc_serve_auth(struct lc_ctx *ctx, int flags)
{
	const char *tok;
	int want = 0;

	if (lc_serve_bearer(ctx, 1, &tok) == -1)
		return -1;
	if (!lc_apitoken_is(tok)) {
		if (lc_auth_token(&ctx->dom, tok) == -1)
			return -1;
	} else {
		/* An integration token: taken only where its scope is. */
		if (flags & LC_EP_EVENTS)
			want |= LC_SCOPE_EVENTS;
		if (flags & LC_EP_HOOKS)
			want |= LC_SCOPE_HOOKS;
		if (lc_apitoken_auth(&ctx->dom, tok, want) == -1)
			return -1;
	}
	/* The caller's shop is known: every amount the request reads and
	 * writes is in its currency's minor unit. */
	if (lc_currency_of(ctx->dom.db, ctx->dom.caller.merchant_id,
	    &ctx->dom.cur) == -1)
		return lc_dom_settle(&ctx->dom);
	ctx->dom.cur_known = 1;
	return 0;
}

/* Everything before the handler, in this order: the first failure is
 * the answer. */
static int
precheck(struct lc_ctx *ctx, const struct lc_endpoint *ep)
{
	int known = method_in(ctx->req.method, ep->method);
	int body = known && (ep->flags & LC_EP_JSON) &&
	    !lc_method_is(ctx, "GET");
	size_t i, o;

	/* The responder of no path answers by itself: 404, or the web
	 * server's error it is the page of. */
	if (ep->path == NULL)
		return 0;
	if (!path_matches(ctx->req.path, ep, &ctx->subpath))
		return lc_fail(ctx, LC_E_NOT_FOUND, NULL, NULL);
	/* A tree's handler knows which methods each of its paths takes:
	 * it answers 405 with that path's Allow. */
	if (!known && !(ep->flags & LC_EP_TREE)) {
		/* "GET POST" on the wire is "GET, POST". */
		for (i = 0, o = 0; ep->method[i] != '\0' &&
		    o + 3 < sizeof(ctx->allow); i++) {
			if (ep->method[i] == ' ')
				ctx->allow[o++] = ',';
			ctx->allow[o++] = ep->method[i];
		}
		ctx->allow[o] = '\0';
		return lc_fail(ctx, LC_E_METHOD_NOT_ALLOWED, NULL,
		    "Use %s for this endpoint.", ctx->allow);
	}
	if (ctx->req.too_large)
		return lc_fail(ctx, LC_E_PAYLOAD_TOO_LARGE, NULL, NULL);
	/* The till's name for itself, kept in the audit trail: refused
	 * rather than cut or dropped, so a till's bug shows at once. */
	if (ctx->req.terminal_id != NULL) {
		if (*ctx->req.terminal_id == '\0' ||
		    strlen(ctx->req.terminal_id) > LC_POSREF_MAX ||
		    !lc_is_printable_ascii(ctx->req.terminal_id))
			return lc_fail(ctx, LC_E_VALIDATION, "X-Terminal-Id",
			    "X-Terminal-Id must be 1 to %d printable ASCII "
			    "characters.", LC_POSREF_MAX);
		ctx->dom.terminal_id = ctx->req.terminal_id;
	}
	if (body && ctx->req.content_type != NULL &&
	    !is_json_type(ctx->req.content_type))
		return lc_fail(ctx, LC_E_UNSUPPORTED_MEDIA_TYPE, NULL, NULL);
	if (ctx->dom.db == NULL && ensure_db(ctx) == -1)
		return -1;
	/* One read snapshot for the whole request (the token's check, the
	 * handler's reads) instead of one per statement. */
	if (lc_read_begin(&ctx->dom) == -1)
		return -1;
	if ((ep->flags & (LC_EP_AUTH | LC_EP_OWNER)) &&
	    lc_serve_auth(ctx, ep->flags) == -1)
		return -1;
	/* An integration token got here only where its scope is taken. */
	if ((ep->flags & LC_EP_OWNER) && !ctx->dom.caller.is_owner &&
	    ctx->dom.caller.token_id[0] == '\0')
		return lc_fail(ctx, LC_E_FORBIDDEN, NULL,
		    "This needs the shop owner's account.");
	/* A tree's handler reads the body once it knows the path takes
	 * the method, so a wrong method is 405 before a bad body is 400. */
	if (body && !(ep->flags & LC_EP_TREE))
		return lc_body(ctx);
	return 0;
}

int
lc_body(struct lc_ctx *ctx)
{
	if (ctx->in != NULL)
		return 0;
	if (ctx->req.body == NULL || ctx->req.bodylen == 0)
		return lc_fail(ctx, LC_E_VALIDATION, NULL,
		    "The body must be a JSON object.");
	/* JSON null parses to no object at all. */
	if ((ctx->in = lc_json_parse_ex(ctx->req.body, ctx->req.bodylen,
	    &ctx->dom.err)) == NULL && ctx->dom.err.code != LC_OK)
		return -1;
	if (!json_object_is_type(ctx->in, json_type_object))
		return lc_fail(ctx, LC_E_VALIDATION, NULL,
		    "The body must be a JSON object.");
	return 0;
}

/* How much of a path the log may show: a customer's card page is named
 * by its secret token, which stops at /mycard/. */
static int
log_path_len(const char *path)
{
	const char *m;

	if (path == NULL)
		return 0;
	if ((m = strstr(path, "/mycard/")) != NULL)
		return (int)(m - path + strlen("/mycard/"));
	return (int)strlen(path);
}

int
lc_serve_one(const struct lc_endpoint *ep, const struct lc_serve_io *io)
{
	struct lc_ctx ctx;
	int redirect;

	memset(&ctx, 0, sizeof(ctx));
#ifdef LC_TEST_CLOCK
	lc_test_clock_set(io->getparam("LOYALTY_TEST_NOW", io->envp));
	/* Per request, as the clock: a FastCGI process serves many. */
	{
		const char *r = io->getparam("LC_TZ_RULES_ONLY", io->envp);

		lc_tz_rules_only(r != NULL && strcmp(r, "1") == 0);
	}
#endif
	ctx.dom.now_ms = lc_now_ms();
	/* A caller's own connection (a test's) stands for the responder's. */
	if (io->db != NULL) {
		ctx.dom.db = io->db;
		ctx.db_path = io->db_path;
	}
	if (lc_req_read(&ctx.req, io->getparam, io->envp, io->readfn,
	    io->rd) == -1)
		lc_fail(&ctx, LC_E_INTERNAL, NULL, NULL);
	if (ctx.req.request_id != NULL && valid_request_id(ctx.req.request_id))
		snprintf(ctx.request_id, sizeof(ctx.request_id), "%s",
		    ctx.req.request_id);
	else if (request_uuid(ctx.request_id) == -1)
		lc_fail(&ctx, LC_E_INTERNAL, NULL, NULL);
	ctx.dom.request_id = ctx.request_id;
	ctx.dom.client_addr = ctx.req.remote_addr;
	ctx.prog_dir = conf.dir;
	if (ctx.dom.err.code == LC_OK && (precheck(&ctx, ep) == -1 ||
	    ep->handler(&ctx) == -1))
		(void)lc_dom_settle(&ctx.dom);
	/* A handler that left its write open has lost it: no success. */
	if (ctx.dom.db != NULL && lc_db_idle(ctx.dom.db) == 1 &&
	    ctx.dom.err.code == LC_OK)
		lc_fail(&ctx, LC_E_INTERNAL, NULL, NULL);
	/* An error answer carries no half-built success body. */
	if (ctx.dom.err.code != LC_OK) {
		json_object_put(ctx.out);
		ctx.out = NULL;
	}
	/* The request id ties a server error in the log to the till's
	 * request (the lines the failure logged come just before). */
	if (lc_err_info(ctx.dom.err.code)->status >= 500)
		lc_log("request %s %s %.*s: %s (%s)", ctx.request_id,
		    ctx.req.method, log_path_len(ctx.req.path),
		    ctx.req.path ? ctx.req.path : "",
		    lc_err_info(ctx.dom.err.code)->code,
		    lc_error_msg(&ctx.dom.err));
	lc_resp_write(&ctx, ep, io->writefn, io->wr);
	json_object_put(ctx.in);
	json_object_put(ctx.out);
	if (ctx.raw != NULL)
		(void)fclose(ctx.raw);
	/* An outsized request (a sync batch) gives back what it grew: the
	 * pages the connection cached and, as glibc keeps freed heap for
	 * later, the heap (musl returns it by itself). */
	if (ctx.req.bodylen > LC_TRIM_AFTER) {
		if (ctx.dom.db != NULL)
			lc_db_shrink(ctx.dom.db);
#ifdef __GLIBC__
		(void)malloc_trim(0);
#endif
	}
	redirect = ctx.req.redirect_status;
	lc_req_free(&ctx.req);
	return redirect;
}

int
lc_serve(const char *name)
{
	const struct lc_endpoint *ep = lc_endpoint_named(name);
	FCGX_Request req;
	struct io io;
	struct lc_serve_io fio = { fcgi_getparam, NULL, fcgi_read, &io,
	    fcgi_write, &io, NULL, NULL };

	if (ep == NULL) {
		lc_log("no endpoint %s", name);
		return 1;
	}
	signal(SIGPIPE, SIG_IGN);
	/* Once per process: a bad file is answered as a configuration
	 * error, and logged, by every request. */
	(void)lc_conf_load(&conf);
	/* The database, its -wal and -shm, the setup code and backups are
	 * the service's and its group's alone, unless loyalty.conf says. */
	umask(conf.umask >= 0 ? (mode_t)conf.umask : 027);
	if (FCGX_IsCGI()) {
		struct lc_serve_io cgi = { cgi_getparam, NULL, cgi_read, NULL,
		    cgi_write, NULL, NULL, NULL };

		(void)lc_serve_one(ep, &cgi);
		fflush(stdout);
		lc_db_tidy(conn);
		lc_db_close(conn);
		free(conn_path);
		return 0;
	}
	if (FCGX_Init() != 0 || FCGX_InitRequest(&req, 0, 0) != 0) {
		lc_log("cannot initialise FastCGI");
		return 1;
	}
	while (FCGX_Accept_r(&req) >= 0) {
		io.in = req.in;
		io.out = req.out;
		io.envp = req.envp;
		fio.envp = req.envp;
		(void)lc_serve_one(ep, &fio);
		FCGX_Finish_r(&req);
		/* The answer is out: upkeep no request waits for. */
		lc_db_tidy(conn);
	}
	lc_db_close(conn);
	free(conn_path);
	return 0;
}
