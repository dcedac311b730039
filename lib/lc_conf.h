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
};

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

#endif
