/*
 * Unit tests of lib/conf.c (loyalty.conf, and why a database path cannot
 * serve) and of lc_db_open_ex's verdict on a database that is set up
 * wrong. The checks of permissions a root process ignores run only when
 * not root (tests/hosting.sh drives them as another user).
 * One behaviour per test point.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_http.h"
#include "lc_conf.h"
#include "tap.h"

static char dir[256];

static void
path_in(char *out, size_t sz, const char *name)
{
	if ((size_t)snprintf(out, sz, "%s/%s", dir, name) >= sz)
		bail("path too long");
}

/* Writes text to DIR/loyalty.conf and reads it. */
static int
conf_of(struct lc_conf *c, const char *text)
{
	char p[512];
	FILE *f;

	path_in(p, sizeof(p), LC_CONF_NAME);
	if ((f = fopen(p, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) == EOF)
		bail("write %s: %s", p, strerror(errno));
	return lc_conf_read(c, p);
}

/* A bad file: -1, an error naming the file and line that holds want, and
 * no setting kept. */
static void
bad(const char *text, int line, const char *want, const char *desc)
{
	struct lc_conf c;
	char where[LC_CONF_PATH_MAX + 16];
	int rc = conf_of(&c, text);

	snprintf(where, sizeof(where), "%s:%d: ", c.file, line);
	ok(rc == -1 && strncmp(c.err, where, strlen(where)) == 0 &&
	    strstr(c.err, want) != NULL && c.db[0] == '\0' && c.umask == -1,
	    "loyalty.conf: %s", desc);
	if (rc != -1 || strstr(c.err, want) == NULL)
		diag("rc %d, err '%s'", rc, c.err);
}

static void
test_conf(void)
{
	struct lc_conf c;
	char p[512], want[512];

	path_in(p, sizeof(p), "none.conf");
	ok(lc_conf_read(&c, p) == 0 && c.db[0] == '\0' && c.umask == -1 &&
	    c.err[0] == '\0' && c.file[0] == '\0',
	    "loyalty.conf: a missing file is no error and sets nothing");

	ok(conf_of(&c, "") == 0 && c.db[0] == '\0' && c.umask == -1,
	    "loyalty.conf: an empty file sets nothing");
	path_in(p, sizeof(p), LC_CONF_NAME);
	is_string(c.file, p, "loyalty.conf: the file read is named");

	ok(conf_of(&c, "# a comment\n\n  database = /srv/x/loyalty.db  \n"
	    "umask = 027\n") == 0, "loyalty.conf: comments, blanks, two settings");
	is_string(c.db, "/srv/x/loyalty.db", "loyalty.conf: an absolute "
	    "database path, blanks trimmed");
	is_int(c.umask, 027, "loyalty.conf: umask 027 is octal");

	ok(conf_of(&c, "database = ../data/loyalty.db\n") == 0,
	    "loyalty.conf: a relative database path");
	path_in(want, sizeof(want), "../data/loyalty.db");
	is_string(c.db, want, "loyalty.conf: a relative path is taken from "
	    "the file's folder");

	ok(conf_of(&c, "\xef\xbb\xbf" "database=/a/b.db\r\numask=0022\r\n") == 0 &&
	    strcmp(c.db, "/a/b.db") == 0 && c.umask == 022,
	    "loyalty.conf: a Windows editor's file (BOM, CRLF, no blanks)");
	ok(conf_of(&c, "database = /a/b.db") == 0 && strcmp(c.db, "/a/b.db") == 0,
	    "loyalty.conf: no newline at the end");

	bad("database = /a.db\nport = 80\n", 2, "unknown setting \"port\"",
	    "an unknown setting is an error naming it and its line");
	bad("# x\njust words\n", 2, "not \"setting = value\"",
	    "a line without = is an error");
	bad("database = /a.db\ndatabase = /b.db\n", 2, "set twice",
	    "a setting given twice is an error");
	bad("database =\n", 1, "no path", "an empty database is an error");
	bad("database = ~/loyalty.db\n", 1, "whole path",
	    "~ is refused, not taken as a folder named ~");
	bad("database = /srv/data/\n", 1, "name the file",
	    "a database path ending in / is an error");
	bad("database = /a\tb.db\n", 1, "control character",
	    "a control character in the path is an error");
	bad("umask = 22\n", 1, "octal digits", "umask wants three or four digits");
	bad("umask = 089\n", 1, "octal digits", "umask wants octal digits");
	bad("umask = 0277\n", 1, "first digit after 0",
	    "umask may not take the owner's own access");
	bad("umask = 027\numask = 022\n", 2, "set twice", "umask given twice");
	bad("umask = 000\n", 1, "every user of the server",
	    "umask may not let others write the database");
	ok(conf_of(&c, "umask = 002\n") == 0 && c.umask == 002,
	    "loyalty.conf: umask 002 (a group of its own) is taken");
	bad("database = /a.db\n= /b.db\n", 2, "unknown setting",
	    "a value without a name is an error");
}

static void
touch(const char *p, const char *text)
{
	FILE *f;

	if ((f = fopen(p, "w")) == NULL || fputs(text, f) == EOF ||
	    fclose(f) == EOF)
		bail("write %s: %s", p, strerror(errno));
}

static void
test_problem(void)
{
	char p[512], sub[512];
	const char *why;

	path_in(p, sizeof(p), "no-folder/loyalty.db");
	is_string(lc_conf_db_problem(p, 1), "its folder does not exist",
	    "db path: a folder that does not exist");
	path_in(p, sizeof(p), "new.db");
	ok(lc_conf_db_problem(p, 1) == NULL,
	    "db path: a new file in a writable folder, to be created, is fine");
	is_string(lc_conf_db_problem(p, 0), "the file does not exist",
	    "db path: a missing file, not to be created");
	is_string(lc_conf_db_problem(dir, 1), "the path names a folder, not a file",
	    "db path: a folder");
	path_in(sub, sizeof(sub), "plain");
	touch(sub, "x");
	path_in(p, sizeof(p), "plain/loyalty.db");
	is_string(lc_conf_db_problem(p, 1), "its folder does not exist",
	    "db path: a file where its folder should be");
	is_string(lc_conf_db_problem("", 1), "no database path is set",
	    "db path: empty");

	if (geteuid() == 0) {
		diag("root: the permission checks are tests/hosting.sh's");
		return;
	}
	path_in(p, sizeof(p), "ro.db");
	touch(p, "");
	if (chmod(p, 0444) == -1)
		bail("chmod: %s", strerror(errno));
	is_string(lc_conf_db_problem(p, 0), "the file is read-only for this user",
	    "db path: a read-only file");
	if (chmod(p, 0) == -1)
		bail("chmod: %s", strerror(errno));
	is_string(lc_conf_db_problem(p, 0), "the file is not readable by this user",
	    "db path: an unreadable file");
	path_in(sub, sizeof(sub), "rodir");
	path_in(p, sizeof(p), "rodir/loyalty.db");
	if (mkdir(sub, 0755) == -1)
		bail("mkdir: %s", strerror(errno));
	touch(p, "");
	if (chmod(sub, 0555) == -1)
		bail("chmod: %s", strerror(errno));
	why = lc_conf_db_problem(p, 0);
	ok(why != NULL && strstr(why, "its folder is not writable") != NULL,
	    "db path: a writable file in a read-only folder");
	path_in(p, sizeof(p), "rodir/new.db");
	why = lc_conf_db_problem(p, 1);
	ok(why != NULL && strstr(why, "folder is not writable") != NULL,
	    "db path: a new file in a read-only folder");
	(void)chmod(sub, 0755);
}

static void
test_open(void)
{
	char p[512];
	const char *why = NULL;
	struct lc_db *db;
	int mis = -1;

	path_in(p, sizeof(p), "text.db");
	touch(p, "this is not a database, but long enough to look at: "
	    "0123456789012345678901234567890123456789012345678901234567890");
	db = lc_db_open_ex(p, 0, &why, &mis);
	ok(db == NULL && mis == 1 && why != NULL &&
	    strstr(why, "not a SQLite database") != NULL,
	    "lc_db_open_ex: a file that is not a database is set up wrong");
	lc_db_close(db);

	path_in(p, sizeof(p), "no-folder/x.db");
	mis = -1;
	db = lc_db_open_ex(p, 1, &why, &mis);
	ok(db == NULL && mis == 1, "lc_db_open_ex: a folder that does not "
	    "exist is set up wrong (%s)", why ? why : "?");
	lc_db_close(db);

	path_in(p, sizeof(p), "good.db");
	mis = -1;
	db = lc_db_open_ex(p, 1, &why, &mis);
	ok(db != NULL && mis == 0, "lc_db_open_ex: a new database opens");
	lc_db_close(db);
}

/* Database names: which backend, which are refused, and never a password
 * shown. */
static void
test_names(void)
{
	static const char *const refused[] = { "postgre:host=x dbname=y",
	    "PostgreSQL://u@h/d", "POSTGRES:dbname=y", "http://x/y",
	    "pgsql://u@h/d" };
	static const struct { const char *in, *out; } shown[] = {
		{ "/var/lib/x.db", "/var/lib/x.db" },
		{ "postgresql://u:pw@h:5/db?sslpassword=x&password=y&a=b",
		    "postgresql://u:***@h:5/db?sslpassword=***&password=***&a=b" },
		{ "postgres:dbname=password_db password=sec user=u",
		    "postgres:dbname=password_db password=*** user=u" },
		{ "postgres:password = 'a b\\' c' host=x",
		    "postgres:password = *** host=x" },
		{ "postgres:postgresql://u:pw@h/d", "postgres:postgresql://u:***@h/d" },
		{ "postgre:host=x password=p", "postgre:host=x password=***" },
		{ "postgresql://u@h/d?passfile=/etc/p",
		    "postgresql://u@h/d?passfile=/etc/p" },
	};
	char out[256];
	const char *why = NULL;
	struct lc_db *db;
	size_t i;
	int mis;

	ok(lc_db_name_is_pg("postgresql://u@h/d") &&
	    lc_db_name_is_pg("postgres://u@h/d") &&
	    lc_db_name_is_pg("postgres:dbname=d") &&
	    lc_db_name_is_pg("postgresql:dbname=d") &&
	    !lc_db_name_is_pg("/a/postgres:x.db") && !lc_db_name_is_pg("x.db"),
	    "lc_db_name_is_pg: the URI and conninfo forms, and files");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		mis = -1;
		db = lc_db_open_ex(refused[i], 1, &why, &mis);
		ok(db == NULL && mis == 1 && lc_db_name_problem(refused[i]) !=
		    NULL && lc_conf_db_problem(refused[i], 1) != NULL &&
		    access(refused[i], F_OK) == -1,
		    "%s is refused, set up wrong, and makes no file",
		    refused[i]);
		lc_db_close(db);
	}
	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		is_string(lc_db_name_shown(shown[i].in, out, sizeof(out)),
		    shown[i].out, "lc_db_name_shown: %s", shown[i].out);
	ok(strcmp(lc_db_name_shown("postgresql://u:pw@h/d", out, 12),
	    "postgresql:") == 0, "lc_db_name_shown: cut to fit");
}

/* mkdir DIR/name with mode (chmod: the umask spares nothing). */
static void
dir_of(char *out, size_t sz, const char *name, mode_t mode)
{
	path_in(out, sz, name);
	if ((mkdir(out, 0700) == -1 && errno != EEXIST) || chmod(out, mode) == -1)
		bail("mkdir %s: %s", out, strerror(errno));
}

static void
file_of(const char *path, mode_t mode)
{
	FILE *f;

	if ((f = fopen(path, "w")) == NULL || fclose(f) == EOF ||
	    chmod(path, mode) == -1)
		bail("write %s: %s", path, strerror(errno));
}

/* The programs' folder a setup proof may rest on, and what a layout
 * lets others reach (lc_conf_prog_trust, lc_conf_hosting). */
static void
test_hosting(void)
{
	char d[512], db[600], wal[620];

	dir_of(d, sizeof(d), "bin755", 0755);
	ok(lc_conf_prog_trust(d) == LC_PROG_PRIVATE,
	    "hosting: a 755 folder of this user's is private");
	dir_of(d, sizeof(d), "bin775", 0775);
	ok(lc_conf_prog_trust(d) == LC_PROG_OPEN, "hosting: a group-writable folder is not");
	dir_of(d, sizeof(d), "bin757", 0757);
	ok(lc_conf_prog_trust(d) == LC_PROG_OPEN, "hosting: a folder every user may write is not");
	ok(lc_conf_prog_trust("") == LC_PROG_UNKNOWN &&
	    lc_conf_prog_trust("/nonexistent/x") == LC_PROG_UNKNOWN,
	    "hosting: an unknown or missing folder is not");
	/* A folder above that others may write: they could swap it. */
	dir_of(d, sizeof(d), "open", 0777);
	dir_of(d, sizeof(d), "open/bin", 0755);
	ok(lc_conf_prog_trust(d) == LC_PROG_OPEN,
	    "hosting: a 755 folder in a folder others may write is not private");
	dir_of(d, sizeof(d), "open", 01777);
	dir_of(d, sizeof(d), "open/bin", 0755);
	ok(lc_conf_prog_trust(d) == LC_PROG_PRIVATE,
	    "hosting: ... unless that one is sticky (no renaming others' folders)");
	dir_of(d, sizeof(d), "bin755", 0755);
	ok(lc_conf_hosting(d, NULL) == (geteuid() == 0 || geteuid() >= 1000 ?
	    0 : LC_HOST_SHARED_USER), "hosting: programs owned by this user: "
	    "no warning, unless it is a system account's (the web server's)");
	dir_of(d, sizeof(d), "data700", 0700);
	snprintf(db, sizeof(db), "%s/loyalty.db", d);
	file_of(db, 0640);
	ok(lc_conf_hosting("", db) == 0, "hosting: a 700 folder, a 640 database: no warning");
	file_of(db, 0644);
	ok(lc_conf_hosting("", db) == LC_HOST_DATA_READABLE,
	    "hosting: a database every user may read is said");
	file_of(db, 0600);
	snprintf(wal, sizeof(wal), "%s-wal", db);
	file_of(wal, 0604);
	ok(lc_conf_hosting("", db) == LC_HOST_DATA_READABLE,
	    "hosting: so is its -wal, which holds the latest writes");
	(void)unlink(wal);
	if (chmod(d, 0777) == -1)
		bail("chmod: %s", strerror(errno));
	ok(lc_conf_hosting("", db) == LC_HOST_DATA_WRITABLE,
	    "hosting: a 777 folder of the database is said (its files can be swapped)");
	if (chmod(d, 01777) == -1)
		bail("chmod: %s", strerror(errno));
	ok(lc_conf_hosting("", db) == 0,
	    "hosting: not with the sticky bit, which keeps others' hands off");
	ok(lc_conf_hosting("", "postgresql://h/db") == 0,
	    "hosting: a PostgreSQL database has no files to say of");
	/* A database deleted but half (an FTP program deleting one file
	 * after another): no new one beside the old one's log. */
	snprintf(db, sizeof(db), "%s/half.db", d);
	snprintf(wal, sizeof(wal), "%s-shm", db);
	file_of(wal, 0600);
	ok(lc_conf_db_problem(db, 1) != NULL &&
	    strstr(lc_conf_db_problem(db, 1), "-wal or -shm") != NULL,
	    "a missing database whose -shm is still there is not made anew");
	(void)unlink(wal);
	ok(lc_conf_db_problem(db, 1) == NULL, "... and is once it is gone");
	/* Programs of another user: the shared web user's layout. */
	dir_of(d, sizeof(d), "binother", 0755);
	if (geteuid() != 0) {
		ok(1, "# SKIP not root: cannot give a folder to another user");
		ok(1, "# SKIP not root: cannot give a folder to another user");
		return;
	}
	if (chown(d, 65534, 65534) == -1)
		bail("chown: %s", strerror(errno));
	ok(lc_conf_hosting(d, NULL) == LC_HOST_SHARED_USER,
	    "hosting: programs of another user than the process's: a shared web user");
	/* Root may write it all the same: what counts is that the
	 * process's user could, as every site's could. */
	ok(lc_conf_prog_trust(d) == LC_PROG_SHARED,
	    "hosting: another user's folder this process may write is no proof's");
}

int
main(void)
{
	char cmd[300];

	snprintf(dir, sizeof(dir), "%s/unit_conf.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		bail("mkdtemp: %s", strerror(errno));
	test_conf();
	test_problem();
	test_open();
	test_names();
	test_hosting();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		diag("could not remove %s", dir);
	return done_testing();
}
