/*
 * The endpoint table holds together. lib/endpoints.def lists the
 * endpoints once; endpoints.c compiles it into the table and
 * tools/gen-endpoints writes from it the build's list of responders
 * (cgi-bin/endpoints.am), the rewrite rules of htdocs/.htaccess (which
 * conf/apache-fcgid.conf includes) and LC_ENDPOINTS of tools/lib.sh
 * (lighttpd's rules), so those agree by construction. What is left to
 * check here is what generation cannot see to:
 *
 *  - the rows themselves: names, methods and flags that make sense,
 *    paths that are unique and that no tree shadows, lc_endpoint_named;
 *  - that the generator reads endpoints.def as the compiler does (the
 *    same rows, paths and trees, in the same order);
 *  - that the generated files are current (tools/gen-endpoints -c): a
 *    row added without running it fails here instead of answering 404
 *    on a live till;
 *  - the hand-written configuration around them (conf/).
 *
 * A row's methods are one or more distinct HTTP methods, one space apart
 * ("GET POST PATCH"). A row flagged LC_EP_TREE takes its path and every
 * path below it.
 *
 * Reads the source tree at $top_srcdir (make check sets it), else ".",
 * and runs its tools/gen-endpoints with sh. One fact per test point.
 */
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_http.h"
#include "tap.h"

#define V1		"/api/v1/"	/* every path starts so */
#define NOTFOUND	"notfound"	/* the responder of every other path */
#define NAMESZ		64
#define PATHSZ		128
#define EP_FLAGS	(LC_EP_BARE | LC_EP_AUTH | LC_EP_NOSTORE | \
			LC_EP_JSON | LC_EP_TREE | LC_EP_OWNER | LC_EP_NOINDEX | \
			LC_EP_EVENTS | LC_EP_HOOKS)

static const char *top;		/* the source tree */

/* ---- helpers ---- */

/* top/rel into out; bails when it does not fit. */
static void
src_path(char *out, size_t outsz, const char *rel)
{
	int n;

	n = snprintf(out, outsz, "%s/%s", top, rel);
	if (n < 0 || (size_t)n >= outsz)
		bail("path too long: %s/%s", top, rel);
}

/* rel under the source tree, opened for reading; bails when it cannot,
 * as every file read here is part of the tree. */
static FILE *
src_open(const char *rel)
{
	char path[1024];
	FILE *f;

	src_path(path, sizeof(path), rel);
	if ((f = fopen(path, "r")) == NULL)
		bail("%s: %s", path, strerror(errno));
	return f;
}

/* Closes a file read from the tree; bails when that fails. */
static void
src_close(FILE *f, const char *what)
{
	if (fclose(f) == EOF)
		bail("closing %s: %s", what, strerror(errno));
}

/* Reads one line without its newline into *buf; 0, or -1 at the end.
 * Bails on a read error, which would otherwise look like a short file. */
static int
next_line(FILE *f, char **buf, size_t *bufsz, const char *what)
{
	ssize_t len;

	errno = 0;
	if ((len = getline(buf, bufsz, f)) == -1) {
		if (ferror(f))
			bail("reading %s: %s", what, strerror(errno));
		return -1;
	}
	if (len > 0 && (*buf)[len - 1] == '\n')
		(*buf)[len - 1] = '\0';
	return 0;
}

/*
 * Splits s in place at blanks into words w[0..]; returns their number, or
 * -1 when there are more than max (w then holds the first max).
 */
static int
split(char *s, char **w, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return n;
		if (n == max)
			return -1;
		w[n++] = s;
		while (*s != '\0' && *s != ' ' && *s != '\t')
			s++;
		if (*s != '\0')
			*s++ = '\0';
	}
}

/* The first non-blank character of s. */
static const char *
skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The path of a table row below /api/v1/, or NULL when it has none or
 * it is not under /api/v1/. */
static const char *
rel_path(const struct lc_endpoint *ep)
{
	if (ep->path == NULL || strncmp(ep->path, V1, strlen(V1)) != 0)
		return NULL;
	return ep->path + strlen(V1);
}

/* ---- the table itself ---- */

/* A name becomes a file name and, canonicalized, a make variable:
 * only [a-z0-9_] keeps it the same in both. */
static int
name_usable(const char *s)
{
	size_t i;

	if (s[0] == '\0' || strlen(s) >= NAMESZ)
		return 0;
	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/*
 * A path is pasted into regular expressions (.htaccess, lighttpd): only
 * [a-z0-9_/-] means itself there. And it is segments one slash apart,
 * none empty, so that a tree's rules (PATH, then "(/.*)?" in .htaccess,
 * "/" and "*" in LC_ENDPOINTS) name what they seem to. The first len characters of s are looked at.
 */
static int
span_usable(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len >= PATHSZ || s[0] == '/' || s[len - 1] == '/')
		return 0;
	for (i = 0; i < len; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		    s[i] == '/' || s[i] == '-'))
			return 0;
		if (s[i] == '/' && s[i + 1] == '/')
			return 0;
	}
	return 1;
}

static int
path_usable(const char *rel)
{
	return rel != NULL && span_usable(rel, strlen(rel));
}

/* The methods a row may list (RFC 9110, and PATCH of RFC 5789). */
static const char *const http_methods[] = {
	"GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS",
	"TRACE", "PATCH", NULL
};

/*
 * One or more of http_methods, each once, one space apart: http_serve.c
 * finds a method between spaces and writes the list into a 405's Allow
 * header, so a blank at either end, two in a row, a tab, a typo or a
 * repeat would go wrong there.
 */
static int
methods_usable(const char *s)
{
	const char *p, *e;
	unsigned seen = 0;
	size_t k;

	if (s == NULL)
		return 0;
	for (p = s;; p = e + 1) {
		e = p + strcspn(p, " ");
		for (k = 0; http_methods[k] != NULL; k++)
			if (strlen(http_methods[k]) == (size_t)(e - p) &&
			    strncmp(http_methods[k], p, (size_t)(e - p)) == 0)
				break;
		/* An empty one (a stray blank) matches none either. */
		if (http_methods[k] == NULL || (seen & 1u << k) != 0)
			return 0;
		seen |= 1u << k;
		if (*e == '\0')
			return 1;
	}
}

/*
 * Whether the methods s (usable ones) include one that sends a body:
 * any but GET and HEAD. http_serve.c reads a JSON body only for an
 * LC_EP_JSON row, and never on GET.
 */
static int
takes_body(const char *s)
{
	const char *p, *e;

	for (p = s;; p = e + 1) {
		e = p + strcspn(p, " ");
		if (!((e - p == 3 && strncmp(p, "GET", 3) == 0) ||
		    (e - p == 4 && strncmp(p, "HEAD", 4) == 0)))
			return 1;
		if (*e == '\0')
			return 0;
	}
}

/* Whether a 405's Allow of the methods s ("GET POST" as "GET, POST")
 * fits the answer's buffer, as http_serve.c writes it. */
static int
allow_fits(const char *s)
{
	size_t n = strlen(s), blanks = 0, i;

	for (i = 0; i < n; i++)
		if (s[i] == ' ')
			blanks++;
	return n + blanks + 3 < sizeof(((struct lc_ctx *)NULL)->allow);
}

/* Whether the row q has a path below the tree of the row t. */
static int
below_tree(const struct lc_endpoint *q, const struct lc_endpoint *t)
{
	size_t n;

	if (q == t || q->path == NULL || t->path == NULL ||
	    !(t->flags & LC_EP_TREE))
		return 0;
	n = strlen(t->path);
	return strncmp(q->path, t->path, n) == 0 && q->path[n] == '/';
}

static void
test_table(void)
{
	const struct lc_endpoint *ep, *q;
	char probe[NAMESZ + 2];
	int n, nopath, same;
	size_t len;

	for (n = 0; lc_endpoints[n].name != NULL; n++)
		;
	ok(n >= 2, "table: has endpoints and the notfound row (%d rows)", n);
	if (n < 2)
		return;
	/* The row with no path answers every other path: the catch-all
	 * rules below send it there, so it must be the one called so. */
	ok(strcmp(lc_endpoints[n - 1].name, NOTFOUND) == 0 &&
	    lc_endpoints[n - 1].path == NULL,
	    "table: the last row is " NOTFOUND ", with no path");
	for (nopath = 0, ep = lc_endpoints; ep->name != NULL; ep++)
		if (ep->path == NULL)
			nopath++;
	is_int(nopath, 1, "table: only " NOTFOUND " has no path");

	for (ep = lc_endpoints; ep->name != NULL; ep++) {
		ok(name_usable(ep->name),
		    "table: %s is a name of [a-z0-9_] only", ep->name);
		ok(methods_usable(ep->method),
		    "table: %s has distinct HTTP methods in capitals, one "
		    "space apart (%s)", ep->name,
		    ep->method != NULL ? ep->method : "(null)");
		ok((ep->flags & ~EP_FLAGS) == 0 &&
		    (ep->path != NULL || !(ep->flags & LC_EP_TREE)),
		    "table: %s has known flags only, and no tree without a "
		    "path (0x%x)", ep->name, (unsigned)ep->flags);
		if (methods_usable(ep->method)) {
			/* A body-taking method on a row without LC_EP_JSON
			 * would reach its handler with the body unchecked;
			 * LC_EP_JSON on a row of GET alone says nothing. */
			ok(!takes_body(ep->method) ==
			    !(ep->flags & LC_EP_JSON),
			    "table: %s has LC_EP_JSON exactly when a method "
			    "takes a body (%s)", ep->name, ep->method);
			ok(allow_fits(ep->method), "table: %s's methods fit "
			    "a 405's Allow header (%s)", ep->name, ep->method);
		}
		for (same = 0, q = lc_endpoints; q->name != NULL; q++)
			if (strcmp(q->name, ep->name) == 0)
				same++;
		is_int(same, 1, "table: the name %s is used once", ep->name);
		ok(lc_endpoint_named(ep->name) == ep,
		    "table: lc_endpoint_named(\"%s\") finds its row", ep->name);
		if (ep->path == NULL)
			continue;
		ok(strncmp(ep->path, V1, strlen(V1)) == 0,
		    "table: %s is under " V1 " (%s)", ep->name, ep->path);
		ok(path_usable(rel_path(ep)),
		    "table: %s's path is segments of [a-z0-9_-] one slash "
		    "apart after " V1 " (%s)", ep->name, ep->path);
		for (same = 0, q = lc_endpoints; q->name != NULL; q++)
			if (q->path != NULL && strcmp(q->path, ep->path) == 0)
				same++;
		is_int(same, 1, "table: the path %s is used once", ep->path);
		if (!(ep->flags & LC_EP_TREE))
			continue;
		/* The rewrite rules take the first match: another path in
		 * the tree would go to whichever rule comes first. */
		for (same = 0, q = lc_endpoints; q->name != NULL; q++)
			if (below_tree(q, ep)) {
				diag("table: %s is below %s", q->path,
				    ep->path);
				same++;
			}
		is_int(same, 0, "table: no other row's path is below the "
		    "tree %s", ep->path);
	}

	ok(lc_endpoint_named("no_such_endpoint") == NULL,
	    "table: lc_endpoint_named of an unknown name is NULL");
	ok(lc_endpoint_named("") == NULL,
	    "table: lc_endpoint_named(\"\") is NULL");
	/* A prefix or an extension of a real name is no match either. */
	len = strlen(lc_endpoints[0].name);
	if (len == 0 || len >= NAMESZ)
		bail("table: name %s too long", lc_endpoints[0].name);
	memcpy(probe, lc_endpoints[0].name, len);
	probe[len - 1] = '\0';
	ok(lc_endpoint_named(probe) == NULL,
	    "table: lc_endpoint_named(\"%s\"), a prefix, is NULL", probe);
	memcpy(probe, lc_endpoints[0].name, len);
	probe[len] = 'x';
	probe[len + 1] = '\0';
	ok(lc_endpoint_named(probe) == NULL,
	    "table: lc_endpoint_named(\"%s\"), an extension, is NULL", probe);
}

/* ---- what tools/gen-endpoints writes ---- */

/* Runs tools/gen-endpoints with arg, its output to read. */
static FILE *
gen_open(const char *arg)
{
	char cmd[128];
	FILE *p;

	/* LC_GEN_TOP: the tree, set by main, quoted by the shell. */
	if ((size_t)snprintf(cmd, sizeof(cmd),
	    "sh \"$LC_GEN_TOP/tools/gen-endpoints\" %s", arg) >= sizeof(cmd))
		bail("command too long");
	if ((p = popen(cmd, "r")) == NULL)
		bail("popen %s: %s", cmd, strerror(errno));
	return p;
}

/*
 * The generator reads endpoints.def with awk, the compiler through the
 * LC_EP macro: "NAME PATH TREE" lines from gen-endpoints -l must be the
 * table's rows, in order, up to notfound (its own row, no line); and
 * the files it writes must be as it would write them now.
 */
static void
test_generated(void)
{
	const struct lc_endpoint *ep = lc_endpoints;
	const char *rel;
	char *buf = NULL, *w[4];
	size_t bufsz = 0;
	FILE *p;
	int lines = 0, differ = 0, n, tree, rc;

	p = gen_open("-l");
	while (next_line(p, &buf, &bufsz, "gen-endpoints -l") == 0) {
		lines++;
		n = split(buf, w, 4);
		if (ep->name == NULL || ep->path == NULL) {
			diag("gen-endpoints -l: line %d beyond the table's "
			    "rows", lines);
			differ++;
			continue;
		}
		rel = rel_path(ep);
		tree = (ep->flags & LC_EP_TREE) != 0;
		if (n != 3 || rel == NULL || strcmp(w[0], ep->name) != 0 ||
		    strcmp(w[1], rel) != 0 ||
		    strcmp(w[2], tree ? "1" : "0") != 0) {
			diag("gen-endpoints -l: line %d is not \"%s %s %d\"",
			    lines, ep->name, rel != NULL ? rel : "?", tree);
			differ++;
		}
		ep++;
	}
	free(buf);
	rc = pclose(p);
	ok(rc == 0 && differ == 0 && ep->name != NULL &&
	    strcmp(ep->name, NOTFOUND) == 0 && ep[1].name == NULL,
	    "gen-endpoints: reads endpoints.def's rows as the compiler does "
	    "(%d rows, then " NOTFOUND ")", lines);

	/* Its diff, if any, goes to the test's log. */
	rc = system("sh \"$LC_GEN_TOP/tools/gen-endpoints\" -c");
	ok(rc == 0, "gen-endpoints -c: cgi-bin/endpoints.am, htdocs/.htaccess's "
	    "rules and tools/lib.sh's LC_ENDPOINTS are current");
}

/* ---- conf/apache-fcgid.conf, conf/lighttpd.conf.in ---- */

static void
test_conf(void)
{
	char *buf = NULL;
	const char *s;
	size_t bufsz = 0;
	FILE *f;
	int lineno, includes = 0, own = 0, rw = 0, fc = 0, rwline = 0;
	int hand = 0, catchall = 0, after = 1;

	/* Apache on one's own server takes its rules from .htaccess, so
	 * it has no endpoint list of its own to fall behind. */
	f = src_open("conf/apache-fcgid.conf");
	for (lineno = 1; next_line(f, &buf, &bufsz, "apache-fcgid.conf") == 0;
	    lineno++) {
		s = skip_blanks(buf);
		if (*s == '#')
			continue;
		if (strncmp(s, "Include ", 8) == 0 &&
		    strstr(s, "/.htaccess\"") != NULL)
			includes++;
		if (strstr(s, "RewriteRule") != NULL ||
		    strstr(s, ".fcgi") != NULL || strstr(s, "api/") != NULL) {
			diag("apache-fcgid.conf:%d: %s", lineno, s);
			own++;
		}
	}
	src_close(f, "conf/apache-fcgid.conf");
	is_int(includes, 1, "apache-fcgid.conf: includes the .htaccess once");
	is_int(own, 0, "apache-fcgid.conf: has no rule or responder of its own");

	/*
	 * lc_render_lighttpd replaces a line that is exactly @REWRITE_RULES@
	 * or @FASTCGI_SERVERS@ with what LC_ENDPOINTS gives; a line with
	 * anything else beside them would be copied as it stands, and the
	 * endpoints would silently go to notfound.
	 */
	f = src_open("conf/lighttpd.conf.in");
	for (lineno = 1; next_line(f, &buf, &bufsz, "lighttpd.conf.in") == 0;
	    lineno++) {
		if (strcmp(buf, "@REWRITE_RULES@") == 0) {
			rw++;
			rwline = lineno;
		}
		if (strcmp(buf, "@FASTCGI_SERVERS@") == 0)
			fc++;
		s = skip_blanks(buf);
		if (*s == '#')
			continue;
		if (strstr(s, "/api/v1") != NULL) {
			diag("lighttpd.conf.in:%d: %s", lineno, s);
			hand++;
		}
		if (strcmp(s, "\"^/api(/.*)?(\\?.*)?$\" => "
		    "\"/@RESPONDERS@/" NOTFOUND ".fcgi\",") == 0) {
			catchall++;
			/* rewrite-once takes the first match too. */
			after = rwline != 0 && lineno > rwline;
		}
	}
	src_close(f, "conf/lighttpd.conf.in");
	free(buf);
	ok(rw == 1 && fc == 1, "lighttpd.conf.in: @REWRITE_RULES@ and "
	    "@FASTCGI_SERVERS@ each alone on one line");
	is_int(hand, 0, "lighttpd.conf.in: has no /api/v1 rule of its own");
	ok(catchall == 1 && after, "lighttpd.conf.in: one catch-all to "
	    NOTFOUND ".fcgi, after the rendered rules");
}

int
main(void)
{
	if ((top = getenv("top_srcdir")) == NULL || top[0] == '\0')
		top = ".";
	diag("source tree: %s", top);
	/* For the commands below, however the path is spelled. */
	if (setenv("LC_GEN_TOP", top, 1) == -1)
		bail("setenv: %s", strerror(errno));
	test_table();
	test_generated();
	test_conf();
	return done_testing();
}
