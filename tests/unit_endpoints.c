/*
 * The endpoint list agrees everywhere. lib/endpoints.c holds the one
 * table; the responders in cgi-bin/, the build lists of Makefile.am, the
 * rewrite rules of htdocs/.htaccess (which conf/apache-fcgid.conf
 * includes) and LC_ENDPOINTS of tools/lib.sh (from which the lighttpd
 * rules of conf/lighttpd.conf.in are rendered) must say the same. A row
 * added without its responder, build line or rewrite rule fails here
 * instead of answering 404 on a live till.
 *
 * A row's methods are one or more distinct HTTP methods, one space apart
 * ("GET POST PATCH"), which the first line of its responder repeats
 * verbatim. A row flagged LC_EP_TREE takes its path and every path below
 * it: its .htaccess rule is then ^api/v1/PATH(/.*)?$ and its LC_ENDPOINTS
 * line has SH_TREE, a slash and a star, after PATH; any other row has
 * ^api/v1/PATH$ and "PATH NAME".
 *
 * Reads the source tree at $top_srcdir (make check sets it), else ".".
 * The parsers accept only the one form each file uses today: anything
 * else that looks like an entry fails a "well formed" test point rather
 * than being skipped. One fact per test point, named after the file.
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
#define MAXITEMS	64		/* entries kept from any one list */
#define MAXWORDS	128		/* words on one line */
#define NAMESZ		64
#define PATHSZ		128
#define LOGSZ		4096		/* a Makefile.am line, joined */
#define HT_TREE		"(/.*)?"	/* .htaccess: and every path below */
#define SH_TREE		"/*"		/* LC_ENDPOINTS: and every path below */
#define EP_FLAGS	(LC_EP_BARE | LC_EP_AUTH | LC_EP_NOSTORE | \
			LC_EP_JSON | LC_EP_TREE | LC_EP_OWNER | LC_EP_NOINDEX)

/* One entry read from a file. */
struct item {
	char path[PATHSZ];	/* path below /api/v1/, or a SOURCES value */
	char name[NAMESZ];	/* responder name */
	int tree;		/* written as the path and all below it */
	int line;		/* where it was, for the diagnostics */
};

struct list {
	struct item it[MAXITEMS];
	int n;
	int bad;		/* entries that did not parse or did not fit */
};

static const char *top;		/* the source tree */
static char resp_dir[NAMESZ + 1] = "?/";	/* LC_RESPONDER_DIR, and a slash */

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

/*
 * When s is pre, then at least one character, then suf: the start of the
 * middle, with its length in *len. Else NULL.
 */
static const char *
middle(const char *s, const char *pre, const char *suf, size_t *len)
{
	size_t sl = strlen(s), pl = strlen(pre), xl = strlen(suf);

	if (sl <= pl + xl || strncmp(s, pre, pl) != 0 ||
	    strcmp(s + sl - xl, suf) != 0)
		return NULL;
	*len = sl - pl - xl;
	return s + pl;
}

/*
 * Appends an entry to l. One that does not fit is counted bad rather
 * than cut short, so it cannot pass for a shorter name or path.
 */
static void
add(struct list *l, const char *path, size_t pathlen, const char *name,
    size_t namelen, int tree, int line)
{
	struct item *it;

	if (l->n == MAXITEMS || pathlen >= PATHSZ || namelen >= NAMESZ) {
		diag("line %d: entry too long, or too many entries", line);
		l->bad++;
		return;
	}
	it = &l->it[l->n++];
	memcpy(it->path, path, pathlen);
	it->path[pathlen] = '\0';
	memcpy(it->name, name, namelen);
	it->name[namelen] = '\0';
	it->tree = tree;
	it->line = line;
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

/* The table row named name, found without lc_endpoint_named (which is
 * under test here too). */
static const struct lc_endpoint *
row_named(const char *name)
{
	const struct lc_endpoint *ep;

	for (ep = lc_endpoints; ep->name != NULL; ep++)
		if (strcmp(ep->name, name) == 0)
			return ep;
	return NULL;
}

/* The table row whose path below /api/v1/ is rel. */
static const struct lc_endpoint *
row_at(const char *rel)
{
	const struct lc_endpoint *ep;
	const char *r;

	for (ep = lc_endpoints; ep->name != NULL; ep++)
		if ((r = rel_path(ep)) != NULL && strcmp(r, rel) == 0)
			return ep;
	return NULL;
}

/* How many entries of l are named name; *last gets the last of them. */
static int
count_named(const struct list *l, const char *name, const struct item **last)
{
	int i, n = 0;

	*last = NULL;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->it[i].name, name) == 0) {
			*last = &l->it[i];
			n++;
		}
	return n;
}

/* How many entries of l are at path rel; *last gets the last of them. */
static int
count_at(const struct list *l, const char *rel, const struct item **last)
{
	int i, n = 0;

	*last = NULL;
	for (i = 0; i < l->n; i++)
		if (strcmp(l->it[i].path, rel) == 0) {
			*last = &l->it[i];
			n++;
		}
	return n;
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
 * none empty, so that PATH HT_TREE and PATH SH_TREE name what they seem
 * to. The first len characters of s are looked at.
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

/* ---- cgi-bin/ ---- */

/*
 * Reads cgi-bin/NAME.c: its first line into first, and whether its one
 * and only lc_serve call is the line "return lc_serve("NAME");".
 * -1 when the file cannot be read.
 */
static int
read_responder(const char *name, char *first, size_t firstsz, int *serves)
{
	char rel[NAMESZ + 16], want[NAMESZ + 32], path[1024];
	char *buf = NULL;
	size_t bufsz = 0;
	FILE *f = NULL;
	int lineno = 0, exact = 0, calls = 0, rc = -1;

	*serves = 0;
	first[0] = '\0';
	if ((size_t)snprintf(rel, sizeof(rel), "cgi-bin/%s.c", name) >=
	    sizeof(rel) || (size_t)snprintf(want, sizeof(want),
	    "return lc_serve(\"%s\");", name) >= sizeof(want))
		goto out;
	src_path(path, sizeof(path), rel);
	if ((f = fopen(path, "r")) == NULL) {
		diag("%s: %s", path, strerror(errno));
		goto out;
	}
	while (next_line(f, &buf, &bufsz, rel) == 0) {
		if (++lineno == 1) {
			if (strlen(buf) >= firstsz) {
				diag("%s: first line too long", rel);
				goto out;
			}
			strcpy(first, buf);
		}
		if (strstr(buf, "lc_serve(") != NULL)
			calls++;
		if (strcmp(skip_blanks(buf), want) == 0)
			exact++;
	}
	*serves = exact == 1 && calls == 1;
	rc = 0;
out:
	if (f != NULL)
		src_close(f, rel);
	free(buf);
	return rc;
}

/* The first line opens a comment with METHOD PATH, then a colon or
 * blank (so /auth/me does not pass for /auth/merge). */
static int
names_route(const char *first, const struct lc_endpoint *ep)
{
	char want[PATHSZ + 32];
	size_t n;

	if (ep->method == NULL)
		return 0;
	n = (size_t)snprintf(want, sizeof(want), "/* %s %s", ep->method,
	    ep->path);
	if (n >= sizeof(want) || strncmp(first, want, n) != 0)
		return 0;
	return first[n] == ':' || first[n] == ' ';
}

static void
test_responders(void)
{
	const struct lc_endpoint *ep;
	char first[512], dir[1024], stem[NAMESZ];
	struct dirent *e;
	DIR *d;
	size_t len;
	int serves, rc, stray = 0, seen = 0;

	for (ep = lc_endpoints; ep->name != NULL; ep++) {
		rc = read_responder(ep->name, first, sizeof(first), &serves);
		ok(rc == 0 && serves,
		    "cgi-bin: %s.c exists and only returns lc_serve(\"%s\")",
		    ep->name, ep->name);
		if (ep->path == NULL)
			continue;
		ok(rc == 0 && names_route(first, ep),
		    "cgi-bin: %s.c's first line names %s %s", ep->name,
		    ep->method, ep->path);
		if (rc == 0 && !names_route(first, ep))
			diag("first line: %s", first);
	}

	/* A responder left over from a removed row would still be built
	 * and installed by hand-kept lists; none may exist. */
	src_path(dir, sizeof(dir), "cgi-bin");
	if ((d = opendir(dir)) == NULL)
		bail("%s: %s", dir, strerror(errno));
	for (;;) {
		/* readdir tells the end from an error only by errno. */
		errno = 0;
		if ((e = readdir(d)) == NULL)
			break;
		len = strlen(e->d_name);
		if (len < 2 || strcmp(e->d_name + len - 2, ".c") != 0)
			continue;
		seen++;
		if (len - 2 >= sizeof(stem)) {
			diag("cgi-bin/%s: not a table row", e->d_name);
			stray++;
			continue;
		}
		memcpy(stem, e->d_name, len - 2);
		stem[len - 2] = '\0';
		if (row_named(stem) == NULL) {
			diag("cgi-bin/%s: not a table row", e->d_name);
			stray++;
		}
	}
	if (errno != 0)
		bail("reading %s: %s", dir, strerror(errno));
	if (closedir(d) == -1)
		bail("closing %s: %s", dir, strerror(errno));
	ok(seen > 0 && stray == 0,
	    "cgi-bin: no *.c outside the table (%d files)", seen);
}

/* ---- Makefile.am ---- */

/*
 * The cgi_PROGRAMS entries (cgi-bin/NAME.fcgi) into progs, and each
 * cgi_bin_NAME_fcgi_SOURCES line into srcs (path: its value). *defs
 * counts the definitions of cgi_PROGRAMS. Lines ending in a backslash
 * are joined first, as make does.
 */
static void
read_makefile(struct list *progs, struct list *srcs, int *defs)
{
	static char joined[LOGSZ];
	char *buf = NULL, *w[MAXWORDS];
	const char *m, *why = NULL;
	size_t bufsz = 0, len, loglen = 0, mlen;
	FILE *f;
	int lineno = 0, start = 1, n, i;

	*defs = 0;
	f = src_open("Makefile.am");
	while (next_line(f, &buf, &bufsz, "Makefile.am") == 0) {
		lineno++;
		if (loglen == 0)
			start = lineno;
		len = strlen(buf);
		if (loglen + len + 1 >= sizeof(joined)) {
			why = "a joined line is too long";
			goto out;
		}
		memcpy(joined + loglen, buf, len + 1);
		loglen += len;
		if (len > 0 && buf[len - 1] == '\\') {
			joined[loglen - 1] = ' ';
			continue;
		}
		loglen = 0;
		if (*skip_blanks(joined) == '#')
			continue;
		n = split(joined, w, MAXWORDS);
		if (n == 0)
			continue;
		if (strcmp(w[0], "cgi_PROGRAMS") == 0) {
			(*defs)++;
			if (n < 2 || strcmp(w[1], "=") != 0) {
				diag("Makefile.am:%d: not cgi_PROGRAMS = ...",
				    start);
				progs->bad++;
				continue;
			}
			for (i = 2; i < (n == -1 ? MAXWORDS : n); i++) {
				if (strcmp(w[i], "$(NULL)") == 0)
					continue;
				if ((m = middle(w[i], "cgi-bin/", ".fcgi",
				    &mlen)) == NULL) {
					diag("Makefile.am:%d: %s is not "
					    "cgi-bin/NAME.fcgi", start, w[i]);
					progs->bad++;
					continue;
				}
				add(progs, "", 0, m, mlen, 0, start);
			}
			if (n == -1) {
				diag("Makefile.am:%d: too many words", start);
				progs->bad++;
			}
			continue;
		}
		if ((m = middle(w[0], "cgi_bin_", "_fcgi_SOURCES",
		    &mlen)) == NULL)
			continue;
		if (n != 3 || strcmp(w[1], "=") != 0) {
			diag("Makefile.am:%d: not %s = cgi-bin/NAME.c", start,
			    w[0]);
			srcs->bad++;
			continue;
		}
		add(srcs, w[2], strlen(w[2]), m, mlen, 0, start);
	}
	if (loglen != 0)
		why = "the last line ends in a backslash";
out:
	src_close(f, "Makefile.am");
	free(buf);
	if (why != NULL)
		bail("Makefile.am:%d: %s", lineno, why);
}

static void
test_makefile(void)
{
	static struct list progs, srcs;
	const struct lc_endpoint *ep;
	const struct item *it;
	char want[NAMESZ + 16];
	int defs, i, stray;

	read_makefile(&progs, &srcs, &defs);
	ok(defs == 1 && progs.bad == 0,
	    "Makefile.am: one cgi_PROGRAMS = list of cgi-bin/NAME.fcgi");
	is_int(srcs.bad, 0,
	    "Makefile.am: every cgi_bin_NAME_fcgi_SOURCES line is well formed");

	for (ep = lc_endpoints; ep->name != NULL; ep++) {
		is_int(count_named(&progs, ep->name, &it), 1,
		    "Makefile.am: cgi_PROGRAMS lists cgi-bin/%s.fcgi once",
		    ep->name);
		if ((size_t)snprintf(want, sizeof(want), "cgi-bin/%s.c",
		    ep->name) >= sizeof(want))
			bail("name %s too long", ep->name);
		ok(count_named(&srcs, ep->name, &it) == 1 &&
		    strcmp(it->path, want) == 0,
		    "Makefile.am: cgi_bin_%s_fcgi_SOURCES = %s", ep->name,
		    want);
	}

	for (stray = 0, i = 0; i < progs.n; i++)
		if (row_named(progs.it[i].name) == NULL) {
			diag("Makefile.am:%d: cgi-bin/%s.fcgi is not a "
			    "table row", progs.it[i].line, progs.it[i].name);
			stray++;
		}
	is_int(stray, 0, "Makefile.am: cgi_PROGRAMS lists no responder "
	    "outside the table");
	for (stray = 0, i = 0; i < srcs.n; i++)
		if (row_named(srcs.it[i].name) == NULL) {
			diag("Makefile.am:%d: cgi_bin_%s_fcgi_SOURCES is not "
			    "a table row", srcs.it[i].line, srcs.it[i].name);
			stray++;
		}
	is_int(stray, 0,
	    "Makefile.am: no cgi_bin_NAME_fcgi_SOURCES outside the table");
}

/* ---- the responders' folder ---- */

/*
 * LC_RESPONDER_DIR=NAME of tools/lib.sh, the one place the folder the
 * rewrite rules send requests to is named: into resp_dir with a slash.
 * A plain folder name, and not cgi-bin, which hosts map elsewhere.
 */
static void
test_responder_dir(void)
{
	char *buf = NULL;
	const char *v;
	size_t bufsz = 0, i, n;
	FILE *f;
	int defs = 0, good = 0;

	f = src_open("tools/lib.sh");
	while (next_line(f, &buf, &bufsz, "tools/lib.sh") == 0) {
		if (strncmp(buf, "LC_RESPONDER_DIR=", 17) != 0)
			continue;
		defs++;
		v = buf + 17;
		n = strlen(v);
		for (i = 0; i < n; i++)
			if (!((v[i] >= 'a' && v[i] <= 'z') ||
			    (v[i] >= '0' && v[i] <= '9') || v[i] == '-' ||
			    v[i] == '_'))
				break;
		good = n > 0 && i == n && n + 1 < sizeof(resp_dir) &&
		    strcmp(v, "cgi-bin") != 0;
		if (good)
			snprintf(resp_dir, sizeof(resp_dir), "%s/", v);
		else
			diag("lib.sh: LC_RESPONDER_DIR=%s", v);
	}
	src_close(f, "tools/lib.sh");
	free(buf);
	ok(defs == 1 && good, "lib.sh: one LC_RESPONDER_DIR, a plain folder "
	    "name other than cgi-bin (%s)", resp_dir);
}

/* ---- htdocs/.htaccess ---- */

/*
 * When the n characters at s end in suffix and something comes before
 * it: 1, with n cut to that something. Else 0, n as it was.
 */
static int
cut_suffix(const char *s, size_t *n, const char *suffix)
{
	size_t sl = strlen(suffix);

	if (*n <= sl || strncmp(s + *n - sl, suffix, sl) != 0)
		return 0;
	*n -= sl;
	return 1;
}

/*
 * Every uncommented RewriteRule whose pattern starts with ^api: those of
 * the form "^api/v1/PATH$ DIR/NAME.fcgi [L]" or, for a tree,
 * "^api/v1/PATH(/.*)?$ DIR/NAME.fcgi [L]" into rules (DIR: resp_dir), those with the
 * catch-all pattern into catchall; any other counts bad.
 */
static void
read_htaccess(struct list *rules, struct list *catchall, int *bad)
{
	char *buf = NULL, *w[8];
	const char *p, *t;
	size_t bufsz = 0, plen, tlen;
	FILE *f;
	int lineno = 0, n, tree;

	*bad = 0;
	f = src_open("htdocs/.htaccess");
	while (next_line(f, &buf, &bufsz, "htdocs/.htaccess") == 0) {
		lineno++;
		if (*skip_blanks(buf) == '#')
			continue;
		n = split(buf, w, 8);
		/* Other rules (the Authorization header, the database
		 * guard, api-bin/'s refusal) are no endpoint's business. */
		if ((n >= 0 && n < 2) ||
		    strcmp(w[0], "RewriteRule") != 0 ||
		    strncmp(w[1], "^api", 4) != 0 ||
		    (w[1][4] != '/' && w[1][4] != '('))
			continue;
		if (n != 4 || strcmp(w[3], "[L]") != 0 ||
		    (t = middle(w[2], resp_dir, ".fcgi", &tlen)) == NULL) {
			diag(".htaccess:%d: not PATTERN %sNAME.fcgi [L]",
			    lineno, resp_dir);
			(*bad)++;
			continue;
		}
		if (strcmp(w[1], "^api(/.*)?$") == 0) {
			add(catchall, "", 0, t, tlen, 0, lineno);
			continue;
		}
		/* What is left once the tree's tail is cut must be a
		 * plain path: no other regular expression passes. */
		p = middle(w[1], "^api/v1/", "$", &plen);
		tree = p != NULL && cut_suffix(p, &plen, HT_TREE);
		if (p == NULL || !span_usable(p, plen)) {
			diag(".htaccess:%d: pattern %s is neither ^api/v1/PATH$, "
			    "^api/v1/PATH" HT_TREE "$ nor the catch-all", lineno,
			    w[1]);
			(*bad)++;
			continue;
		}
		add(rules, p, plen, t, tlen, tree, lineno);
	}
	src_close(f, "htdocs/.htaccess");
	free(buf);
}

static void
test_htaccess(void)
{
	static struct list rules, catchall;
	const struct lc_endpoint *ep;
	const struct item *it;
	const char *rel;
	int bad, i, n, stray, last, tree;

	read_htaccess(&rules, &catchall, &bad);
	ok(bad == 0 && rules.bad == 0 && catchall.bad == 0,
	    ".htaccess: every api rule is ^api/v1/PATH$ or ^api/v1/PATH"
	    HT_TREE "$, then %sNAME.fcgi [L], or the catch-all", resp_dir);

	for (ep = lc_endpoints; ep->name != NULL; ep++) {
		if ((rel = rel_path(ep)) == NULL)
			continue;
		tree = (ep->flags & LC_EP_TREE) != 0;
		ok((n = count_at(&rules, rel, &it)) == 1 &&
		    strcmp(it->name, ep->name) == 0 && it->tree == tree,
		    ".htaccess: one rule, ^api/v1/%s%s$ to %s%s.fcgi",
		    rel, tree ? HT_TREE : "", resp_dir, ep->name);
		if (n != 1)
			diag(".htaccess: %d rules for api/v1/%s", n, rel);
		if (it == NULL)
			continue;
		if (strcmp(it->name, ep->name) != 0)
			diag(".htaccess:%d: goes to %s.fcgi", it->line,
			    it->name);
		if (it->tree != tree)
			diag(".htaccess:%d: %s", it->line, it->tree ?
			    "a tree rule for a row that is no tree" :
			    "a plain rule for a tree row");
	}
	for (stray = 0, last = 0, i = 0; i < rules.n; i++) {
		if (rules.it[i].line > last)
			last = rules.it[i].line;
		if (row_at(rules.it[i].path) == NULL) {
			diag(".htaccess:%d: api/v1/%s%s is not a table path",
			    rules.it[i].line, rules.it[i].path,
			    rules.it[i].tree ? HT_TREE : "");
			stray++;
		}
	}
	is_int(stray, 0, ".htaccess: no rule for a path outside the table");

	ok(catchall.n == 1 && strcmp(catchall.it[0].name, NOTFOUND) == 0,
	    ".htaccess: one catch-all, ^api(/.*)?$ to %s" NOTFOUND ".fcgi",
	    resp_dir);
	/* [L] stops at the first match: a catch-all above an endpoint's
	 * rule would send that endpoint to notfound. */
	ok(catchall.n == 1 && catchall.it[0].line > last,
	    ".htaccess: the catch-all comes after every endpoint rule");
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

/* ---- tools/lib.sh ---- */

/*
 * The lines "PATH NAME", or for a tree PATH SH_TREE NAME, between
 * LC_ENDPOINTS=" and a line holding just the closing quote. *defs counts
 * the assignments of LC_ENDPOINTS.
 */
static void
read_libsh(struct list *eps, int *defs)
{
	char *buf = NULL, *w[4];
	size_t bufsz = 0, plen;
	FILE *f;
	int lineno = 0, in = 0, n, tree;

	*defs = 0;
	f = src_open("tools/lib.sh");
	while (next_line(f, &buf, &bufsz, "tools/lib.sh") == 0) {
		lineno++;
		if (in) {
			if (strcmp(buf, "\"") == 0) {
				in = 0;
				continue;
			}
			n = split(buf, w, 4);
			if (n == 0)
				continue;
			plen = n == 2 ? strlen(w[0]) : 0;
			tree = cut_suffix(w[0], &plen, SH_TREE);
			/* lc_render_lighttpd pastes PATH into a regular
			 * expression and NAME into file names. */
			if (n != 2 || !span_usable(w[0], plen) ||
			    !name_usable(w[1])) {
				diag("lib.sh:%d: not \"PATH NAME\" or \"PATH"
				    SH_TREE " NAME\"", lineno);
				eps->bad++;
				continue;
			}
			add(eps, w[0], plen, w[1], strlen(w[1]), tree,
			    lineno);
			continue;
		}
		if (strncmp(buf, "LC_ENDPOINTS=", 13) != 0)
			continue;
		(*defs)++;
		if (strcmp(buf, "LC_ENDPOINTS=\"") == 0)
			in = 1;
		else {
			diag("lib.sh:%d: not LC_ENDPOINTS=\" alone", lineno);
			eps->bad++;
		}
	}
	if (in) {
		diag("lib.sh: LC_ENDPOINTS never closed");
		eps->bad++;
	}
	src_close(f, "tools/lib.sh");
	free(buf);
}

static void
test_libsh(void)
{
	static struct list eps;
	const struct lc_endpoint *ep;
	const struct item *it;
	const char *rel;
	int defs, i, n, stray, tree;

	read_libsh(&eps, &defs);
	ok(defs == 1 && eps.bad == 0, "lib.sh: one LC_ENDPOINTS of "
	    "\"PATH NAME\" and \"PATH" SH_TREE " NAME\" lines");
	for (ep = lc_endpoints; ep->name != NULL; ep++) {
		if ((rel = rel_path(ep)) == NULL)
			continue;
		tree = (ep->flags & LC_EP_TREE) != 0;
		ok((n = count_at(&eps, rel, &it)) == 1 &&
		    strcmp(it->name, ep->name) == 0 && it->tree == tree,
		    "lib.sh: LC_ENDPOINTS has \"%s%s %s\" once", rel,
		    tree ? SH_TREE : "", ep->name);
		if (n != 1)
			diag("lib.sh: %d lines for %s", n, rel);
		if (it == NULL)
			continue;
		if (strcmp(it->name, ep->name) != 0)
			diag("lib.sh:%d: names %s", it->line, it->name);
		if (it->tree != tree)
			diag("lib.sh:%d: %s", it->line, it->tree ?
			    "a tree line for a row that is no tree" :
			    "a plain line for a tree row");
	}
	/* notfound has no line: lc_render_lighttpd adds its catch-all. */
	for (stray = 0, i = 0; i < eps.n; i++)
		if ((ep = row_at(eps.it[i].path)) == NULL ||
		    strcmp(ep->name, eps.it[i].name) != 0) {
			diag("lib.sh:%d: \"%s%s %s\" is not a table row",
			    eps.it[i].line, eps.it[i].path,
			    eps.it[i].tree ? SH_TREE : "", eps.it[i].name);
			stray++;
		}
	is_int(stray, 0, "lib.sh: LC_ENDPOINTS lists nothing outside the table");
}

int
main(void)
{
	if ((top = getenv("top_srcdir")) == NULL || top[0] == '\0')
		top = ".";
	diag("source tree: %s", top);
	test_table();
	test_responders();
	test_makefile();
	test_responder_dir();
	test_htaccess();
	test_conf();
	test_libsh();
	return done_testing();
}
