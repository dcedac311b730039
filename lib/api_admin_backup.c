/*
 * GET /api/v1/admin/backup: a consistent copy of the owner's shop out of
 * the live database, made while the tills keep selling, as a download. It replaces "download the
 * file, edit it, upload it back", which breaks a live database.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lc_http.h"

/* A backup changes nothing; its write is its row of the audit trail. */
static int
taken_rule(struct lc_dom *dom, void *arg)
{
	(void)dom;
	(void)arg;
	return 0;
}

int
lc_h_admin_backup(struct lc_ctx *ctx)
{
	char path[4200], day[32];
	struct lc_write w = { NULL, NULL, taken_rule, NULL, NULL,
	    "backup.download", "backup", NULL };
	FILE *f = NULL;
	int fd;

	/* A copy of one shop as a file is SQLite's; a PostgreSQL server is
	 * backed up, replicated and restored by its own tools. */
	if (strcmp(lc_db_backend(ctx->dom.db), "sqlite") != 0)
		return lc_fail(ctx, LC_E_CONFLICT, NULL, "This shop's data is "
		    "kept on a PostgreSQL server, which is backed up with its "
		    "own tools (pg_dump, or the host's backups), not from this "
		    "page.");
	/* Beside the database: a folder the service may write in, on the
	 * same disk, where a shared host's small /tmp is no limit. */
	if (snprintf(path, sizeof(path), "%s.backup-XXXXXX", ctx->db_path) >=
	    (int)sizeof(path) || (fd = mkstemp(path)) == -1) {
		lc_log("backup: cannot make a file beside the database");
		return lc_fail(ctx, LC_E_INTERNAL, NULL,
		    "The backup cannot be written beside the database.");
	}
	if (close(fd) == -1 || lc_db_backup(ctx->dom.db, path,
	    ctx->dom.caller.merchant_id) == -1 ||
	    (f = fopen(path, "rb")) == NULL) {
		(void)unlink(path);
		return lc_fail(ctx, LC_E_DATABASE, NULL, NULL);
	}
	/* Open, it streams; unlinked, nothing stays behind. */
	if (unlink(path) == -1)
		lc_log("backup: cannot remove %s", path);
	/* A copy of the shop goes out only with its row in the trail. */
	if (lc_write(&ctx->dom, &w, NULL) == -1) {
		(void)fclose(f);
		return -1;
	}
	ctx->raw = f;
	ctx->raw_type = "application/vnd.sqlite3";
	lc_time_fmt(ctx->dom.now_ms, day);
	day[10] = '\0';
	snprintf(ctx->raw_name, sizeof(ctx->raw_name),
	    "loyalty-backup-%s.db", day);
	return 0;
}
