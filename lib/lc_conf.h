/*
 * The host's set-up of the service: loyalty.conf beside the program, and
 * why a database path cannot serve (conf.c).
 */
#ifndef LC_CONF_H
#define LC_CONF_H

#define LC_CONF_NAME	"loyalty.conf"
#define LC_CONF_PATH_MAX 4096	/* a path in it, or of it */

struct lc_conf {
	char file[LC_CONF_PATH_MAX];	/* the file read; "" when none */
	char db[LC_CONF_PATH_MAX];	/* database, absolute; "" unset */
	int umask;			/* umask; -1 unset */
	char err[LC_CONF_PATH_MAX + 256]; /* what is wrong, and where; ""
					 * when the file is good or none */
	char dir[LC_CONF_PATH_MAX];	/* the program's folder (lc_conf_load);
					 * "" when unknown */
};

/*
 * What the host's layout lets others do (lc_conf_hosting), each a flag:
 * on a shared web user, every site of the host runs as the user the
 * service runs as and reaches what it reaches.
 */
#define LC_HOST_SHARED_USER	0x01	/* the service runs as a user who
					 * does not own its programs (nor
					 * does root: a package's), or as
					 * the web server's own user */
#define LC_HOST_DATA_WRITABLE	0x02	/* every user may delete or swap
					 * files in the database's folder */
#define LC_HOST_DATA_READABLE	0x04	/* every user may read the
					 * database or its log */

/*
 * Reads loyalty.conf from the folder of the running program (a missing
 * file is no error: every setting then keeps its default). 0, or -1 with
 * c->err saying what to fix (and c holding no setting).
 */
int lc_conf_load(struct lc_conf *c);
/* The same for the file named file. */
int lc_conf_read(struct lc_conf *c, const char *file);

/*
 * Why path cannot serve as the database of this process's user, as far
 * as the file system tells (a missing file is fine when create is set
 * and its folder is writable): static words without the path, fit for
 * a client, or NULL when nothing is wrong that shows.
 */
const char *lc_conf_db_problem(const char *path, int create);
/* Its words for a database deleted but half (its -wal or -shm left):
 * whole, with what to do, not a matter of permissions. */
extern const char lc_conf_half_deleted[];

/* The LC_HOST_* flags of this process, its programs' folder dir ("" for
 * unknown) and the database path (a PostgreSQL name has no files). */
int lc_conf_hosting(const char *dir, const char *db_path);

/*
 * Whether only the account that owns the programs may put files into
 * their folder dir, what the setup's proof file rests on (rule_setup.c):
 * not other users (the folder or one above it open to them), nor this
 * process where every site of a shared web user runs as its user.
 */
enum lc_prog_trust {
	LC_PROG_PRIVATE = 0,	/* the account's alone */
	LC_PROG_UNKNOWN,	/* no folder known, or none there */
	LC_PROG_OPEN,		/* it, or a folder above it, others may write */
	LC_PROG_SHARED		/* the service's user may write it, and every
				 * site runs as that user */
};
enum lc_prog_trust lc_conf_prog_trust(const char *dir);

#endif
