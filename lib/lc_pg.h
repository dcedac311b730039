/*
 * Inside the PostgreSQL backend (built with --with-postgresql): db_pg.c
 * has the connection, migrations, transactions and the statement runner
 * and column reader of lc_backend.h; the storage functions themselves are
 * the topic files', shared with SQLite (db_people.c, db_cards.c,
 * db_lists.c). The rest of the library sees storage through lc_store.h
 * alone.
 *
 * Statements are the topic files' text with ?NNN as $NNN, prepared once
 * per connection on their first use and kept. Parameters go as text
 * (bytes as binary), results come back as text.
 */
#ifndef LC_PG_H
#define LC_PG_H

#include <libpq-fe.h>

#include "lc_backend.h"
#include "lc_core.h"

/* lc_schema_pg.c, generated from the migrations in schema/pg/ */
extern const struct lc_migration lc_pg_migrations[];

/* The key of the advisory lock that is a database's write turn (db_pg.c
 * says why): "LoyalPOS" in ASCII. Advisory locks belong to one
 * database. */
#define LC_PG_WRITE_LOCK "5507754328633397075"
/* The connection, for loyalty-admin migrate-to (admin_migrate.c). */
PGconn *lc_pg_handle(struct lc_db *);

#endif /* LC_PG_H */
