/*
 * What a host sets up for the service where environment variables do not
 * reach it: loyalty.conf in the folder of the responders, read once when
 * a process starts (suEXEC hands a CGI program none of the site's SetEnv,
 * and a shared host may allow no server configuration at all). And why a
 * database path cannot serve, in words that say what to fix: a service
 * run as another user than the one who uploaded its files is the common
 * mistake of shared hosting.
 *
 *   # a comment
 *   database = ../data/loyalty.db    (relative: to this file's folder)
 *   umask = 027                      (of the files the service makes)
 *
 * Anything else is an error naming the file and line; nothing of a bad
 * file is used.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_conf.h"
#include "lc_store.h"

#define LINE_MAX_LEN	(LC_CONF_PATH_MAX + 64)
#define BOM		"\xef\xbb\xbf"	/* Windows editors begin files so */

static void
conf_reset(struct lc_conf *c)
{
	c->file[0] = '\0';
	c->db[0] = '\0';
	c->umask = -1;
	c->err[0] = '\0';
	c->dir[0] = '\0';
}

/* Sets c->err, drops every setting read; returns -1. */
static int
conf_fail(struct lc_conf *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	c->db[0] = '\0';
	c->umask = -1;
	return -1;
}

static char *
trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
	return s;
}

/* The database path: a relative one is taken from the file's folder, so
 * the set-up moves with the folder. */
static int
set_db(struct lc_conf *c, int line, const char *v)
{
	const char *slash = strrchr(c->file, '/');
	size_t i;
	int n;

	for (i = 0; v[i] != '\0'; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return conf_fail(c, "%s:%d: database: a control "
			    "character in the path", c->file, line);
	if (v[0] == '~')
		return conf_fail(c, "%s:%d: database: write the whole path; "
		    "~ means nothing here", c->file, line);
	/* A PostgreSQL database's name is no path. */
	if (v[0] == '/' || slash == NULL || lc_db_name_is_pg(v))
		n = snprintf(c->db, sizeof(c->db), "%s", v);
	else
		n = snprintf(c->db, sizeof(c->db), "%.*s/%s",
		    (int)(slash - c->file), c->file, v);
	if (n < 0 || (size_t)n >= sizeof(c->db))
		return conf_fail(c, "%s:%d: database: the path is too long",
		    c->file, line);
	if (c->db[strlen(c->db) - 1] == '/')
		return conf_fail(c, "%s:%d: database: name the file, not a "
		    "folder", c->file, line);
	return 0;
}

/* Three or four octal digits; the owner keeps reading and writing what
 * the service makes, and others never write it. */
static int
set_umask(struct lc_conf *c, int line, const char *v)
{
	size_t n = strlen(v);
	long m;

	if (n < 3 || n > 4 || strspn(v, "01234567") != n ||
	    (m = strtol(v, NULL, 8)) > 0777)
		return conf_fail(c, "%s:%d: umask: want octal digits such as "
		    "027, not %s", c->file, line, v);
	if (m & 0700)
		return conf_fail(c, "%s:%d: umask %s takes the service's own "
		    "files from it: the first digit after 0 must be 0",
		    c->file, line, v);
	if (!(m & 0002))
		return conf_fail(c, "%s:%d: umask %s lets every user of the "
		    "server write the shop's database (take 022 or 027)",
		    c->file, line, v);
	c->umask = (int)m;
	return 0;
}

int
lc_conf_read(struct lc_conf *c, const char *file)
{
	char buf[LINE_MAX_LEN], *s, *eq, *k, *v;
	int line = 0, have_db = 0, have_umask = 0, rc = 0;
	size_t n;
	FILE *f;

	conf_reset(c);
	if (strlen(file) >= sizeof(c->file))
		return conf_fail(c, "%.64s...: the path is too long", file);
	if ((f = fopen(file, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(c->file, sizeof(c->file), "%s", file);
		return conf_fail(c, "%s: cannot read it: %s", file,
		    strerror(errno));
	}
	snprintf(c->file, sizeof(c->file), "%s", file);
	while (rc == 0 && fgets(buf, sizeof(buf), f) != NULL) {
		line++;
		n = strlen(buf);
		if (n == sizeof(buf) - 1 && buf[n - 1] != '\n') {
			rc = conf_fail(c, "%s:%d: the line is too long",
			    c->file, line);
			break;
		}
		s = buf;
		if (line == 1 && strncmp(s, BOM, 3) == 0)
			s += 3;
		s = trim(s);
		if (*s == '\0' || *s == '#')
			continue;
		if ((eq = strchr(s, '=')) == NULL) {
			rc = conf_fail(c, "%s:%d: not \"setting = value\": %.80s",
			    c->file, line, s);
			break;
		}
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
		if (strcmp(k, "database") == 0) {
			if (have_db++)
				rc = conf_fail(c, "%s:%d: database is set twice",
				    c->file, line);
			else if (*v == '\0')
				rc = conf_fail(c, "%s:%d: database: no path",
				    c->file, line);
			else
				rc = set_db(c, line, v);
		} else if (strcmp(k, "umask") == 0) {
			if (have_umask++)
				rc = conf_fail(c, "%s:%d: umask is set twice",
				    c->file, line);
			else
				rc = set_umask(c, line, v);
		} else
			rc = conf_fail(c, "%s:%d: unknown setting \"%.40s\" "
			    "(there are database and umask)", c->file, line, k);
	}
	if (rc == 0 && ferror(f))
		rc = conf_fail(c, "%s: cannot read it: %s", c->file,
		    strerror(errno));
	if (fclose(f) == EOF && rc == 0)
		rc = conf_fail(c, "%s: cannot read it: %s", c->file,
		    strerror(errno));
	return rc;
}

int
lc_conf_load(struct lc_conf *c)
{
	char exe[LC_CONF_PATH_MAX], file[LC_CONF_PATH_MAX];
	const char *from = exe, *slash;
	ssize_t n;
	int len, rc;

	/* The program's own file; where /proc is not there, the script the
	 * web server started (CGI, and mod_fcgid's first request). */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0 && (size_t)n < sizeof(exe) - 1)
		exe[n] = '\0';
	else if ((from = getenv("SCRIPT_FILENAME")) == NULL || *from != '/') {
		conf_reset(c);
		return 0;
	}
	slash = strrchr(from, '/');
	len = snprintf(file, sizeof(file), "%.*s/" LC_CONF_NAME,
	    (int)(slash - from), from);
	if (len < 0 || (size_t)len >= sizeof(file)) {
		conf_reset(c);
		return conf_fail(c, "%s: the folder's path is too long", from);
	}
	rc = lc_conf_read(c, file);
	/* Fits: file is the folder and more. */
	snprintf(c->dir, sizeof(c->dir), "%.*s", (int)(slash - from), from);
	return rc;
}

/* A system account (the web server's www-data, apache, nobody), not a
 * person's: Debian's and most hosts' accounts start at 1000. */
static int
system_user(uid_t u)
{
	return u != 0 && (u < 1000 || u >= 65534);
}

/*
 * The folders above dir, up to /: each owned by root or by dir's owner,
 * and none that another user may write, unless sticky (/tmp's bit: no
 * renaming what is not one's own). Else someone else could put another
 * folder in dir's place. 1 when so, 0 when not.
 */
static int
parents_safe(const char *dir, uid_t owner)
{
	char p[LC_CONF_PATH_MAX];
	struct stat st;
	char *slash;

	if (snprintf(p, sizeof(p), "%s", dir) >= (int)sizeof(p))
		return 0;
	while ((slash = strrchr(p, '/')) != NULL) {
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
		if (stat(p, &st) == -1 || !S_ISDIR(st.st_mode) ||
		    (st.st_uid != 0 && st.st_uid != owner) ||
		    ((st.st_mode & (S_IWGRP | S_IWOTH)) &&
		    !(st.st_mode & S_ISVTX)))
			return 0;
		if (slash == p)
			break;
	}
	return 1;
}

enum lc_prog_trust
lc_conf_prog_trust(const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (*dir == '\0' || realpath(dir, real) == NULL ||
	    stat(real, &st) == -1 || !S_ISDIR(st.st_mode))
		return LC_PROG_UNKNOWN;
	/* suEXEC refuses programs in such a folder for the same reason. */
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) || !parents_safe(real, st.st_uid))
		return LC_PROG_OPEN;
	/* Whoever runs as a user who may write the folder (every site of a
	 * shared web user) could put a proof there. */
	if (st.st_uid == geteuid() ? system_user(st.st_uid) :
	    faccessat(AT_FDCWD, real, W_OK, AT_EACCESS) == 0)
		return LC_PROG_SHARED;
	return LC_PROG_PRIVATE;
}

int
lc_conf_hosting(const char *dir, const char *db_path)
{
	char p[LC_CONF_PATH_MAX + 8];
	const char *slash;
	struct stat st;
	int flags = 0;

	/* Programs root installed (a package, a machine of one's own) are
	 * the machine owner's choice of user, not a host's shared one;
	 * programs the web server's own user owns are every site's. */
	if (*dir != '\0' && stat(dir, &st) == 0 && st.st_uid != 0 &&
	    (st.st_uid != geteuid() || system_user(st.st_uid)))
		flags |= LC_HOST_SHARED_USER;
	if (db_path == NULL || lc_db_name_is_pg(db_path) ||
	    (slash = strrchr(db_path, '/')) == NULL)
		return flags;
	/* The folder: the sticky bit (/tmp's) keeps others from deleting
	 * or renaming what is not theirs. */
	if (snprintf(p, sizeof(p), "%.*s", (int)(slash == db_path ? 1 :
	    slash - db_path), db_path) < (int)sizeof(p) && stat(p, &st) == 0 &&
	    (st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX))
		flags |= LC_HOST_DATA_WRITABLE;
	if (stat(db_path, &st) == 0 && (st.st_mode & S_IROTH))
		flags |= LC_HOST_DATA_READABLE;
	if (snprintf(p, sizeof(p), "%s-wal", db_path) < (int)sizeof(p) &&
	    stat(p, &st) == 0 && (st.st_mode & S_IROTH))
		flags |= LC_HOST_DATA_READABLE;
	return flags;
}

/* 1 when the file exists and this user may not both read and write it. */
static int
shut_out(const char *path, const char *suffix)
{
	char p[LC_CONF_PATH_MAX + 8];

	if ((size_t)snprintf(p, sizeof(p), "%s%s", path, suffix) >= sizeof(p))
		return 0;
	return access(p, F_OK) == 0 && access(p, R_OK | W_OK) == -1;
}

const char lc_conf_half_deleted[] = "the file is gone but its -wal or "
    "-shm file is still there: delete those too (every file whose name "
    "begins with the database's), or put the database back, then reload";

/* 1 when the file path+suffix exists. */
static int
left_behind(const char *path, const char *suffix)
{
	char p[LC_CONF_PATH_MAX + 8];

	return (size_t)snprintf(p, sizeof(p), "%s%s", path, suffix) < sizeof(p) &&
	    access(p, F_OK) == 0;
}

const char *
lc_conf_db_problem(const char *path, int create)
{
	char dir[LC_CONF_PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;
	size_t n;

	if (*path == '\0')
		return "no database path is set";
	/* PostgreSQL's server says what is wrong when it is asked. */
	if (lc_db_name_is_pg(path))
		return NULL;
	if (lc_db_name_problem(path) != NULL)
		return lc_db_name_problem(path);
	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if ((n = (size_t)(slash - path)) < sizeof(dir)) {
		memcpy(dir, path, n);
		dir[n] = '\0';
	} else
		return "the path is too long";
	if (stat(dir, &st) == -1)
		return errno == ENOENT || errno == ENOTDIR ?
		    "its folder does not exist" :
		    "its folder cannot be reached by this user";
	if (!S_ISDIR(st.st_mode))
		return "its folder does not exist";
	if (access(dir, X_OK) == -1)
		return "its folder cannot be entered by this user";
	if (stat(path, &st) == -1) {
		if (errno != ENOENT)
			return "the file cannot be reached by this user";
		if (!create)
			return "the file does not exist";
		/* SQLite would take a log left behind for the new file's
		 * (and processes still at the old one use it): a database
		 * deleted but half. */
		if (left_behind(path, "-wal") || left_behind(path, "-shm"))
			return lc_conf_half_deleted;
		if (access(dir, W_OK) == -1)
			return "the file does not exist, and its folder is not "
			    "writable by this user, who would create it";
		return NULL;
	}
	if (S_ISDIR(st.st_mode))
		return "the path names a folder, not a file";
	/* A host that ran the shop as the web server's user, and now as
	 * the account (suEXEC): the files are still the other user's. */
	if (access(path, R_OK) == -1)
		return st.st_uid != geteuid() ? "the file belongs to another "
		    "user (the one the shop ran as when it made it) and is not "
		    "readable by this one" : "the file is not readable by this "
		    "user";
	if (access(path, W_OK) == -1)
		return "the file is read-only for this user";
	if (access(dir, W_OK) == -1)
		return "its folder is not writable by this user (SQLite "
		    "makes its -wal and -shm files beside the file)";
	if (shut_out(path, "-wal") || shut_out(path, "-shm") ||
	    shut_out(path, "-journal"))
		return "its -wal, -shm or -journal file beside it is not "
		    "readable and writable by this user";
	return NULL;
}
