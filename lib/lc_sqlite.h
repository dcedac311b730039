/*
 * Inside the SQLite backend: db_sqlite.c has the connection, migrations,
 * transactions and the statement runner and column reader of
 * lc_backend.h; the storage functions themselves are the topic files',
 * shared with PostgreSQL (db_people.c, db_cards.c, db_lists.c). Only
 * db_sqlite.c, loyalty-admin migrate-to, the tools and the unit tests
 * include this; the rest of the library sees storage through lc_store.h
 * alone.
 *
 * Statements are the topic files' text as it is, prepared once per
 * connection on their first use (SQLITE_PREPARE_PERSISTENT) and kept.
 */
#ifndef LC_SQLITE_H
#define LC_SQLITE_H

#include <sqlite3.h>

#include "lc_backend.h"

/* The connection, for the tests' own queries and migrate-to. */
sqlite3 *lc_sq_handle(struct lc_db *);
/* The VFS that writes a commit's log frames in one call (db_walbuf.c),
 * registered on first use; NULL: SQLite's own (it could not be). */
const char *lc_walbuf_vfs(void);

#endif /* LC_SQLITE_H */
