/*
 * Inside the PostgreSQL backend (built with --with-postgresql): the
 * helpers its files share. db_pg.c has the connection, migrations and
 * transactions; db_pg_people.c, db_pg_cards.c and db_pg_lists.c the rest
 * of lc_store.h, each with its own statements. The rest of the library
 * sees storage through lc_store.h alone.
 *
 * Statements are static text with $n parameters, prepared once per
 * connection on their first use and kept. Parameters go as text (bytes as
 * binary), results come back as text and are read with the lc_pg_col
 * helpers below.
 */
#ifndef LC_PG_H
#define LC_PG_H

#include <libpq-fe.h>

#include "lc_backend.h"
#include "lc_core.h"

/* lc_schema_pg.c, generated from the migrations in schema/pg/ */
extern const struct lc_migration lc_pg_migrations[];

/*
 * Statement slots: a statement is prepared under the name "s<slot>", and
 * each file has its range. A file lists its statements as
 *	#define SQL(X) X(NAME, "SELECT ...") ...
 *	enum { SQL(LC_PG_Q_ENUM) Q__N };
 *	static const char *const q_sql[Q__N] = { SQL(LC_PG_Q_TEXT) };
 *	#define RUN(db, name, ...) lc_pg_run((db), LC_PG_<FILE> + Q_##name, \
 *	    q_sql[Q_##name], __VA_ARGS__)
 * and checks Q__N against its range with a _Static_assert.
 */
enum {
	LC_PG_CORE = 0,
	LC_PG_PEOPLE = 16,
	LC_PG_CARDS = 80,
	LC_PG_LISTS = 176,
	LC_PG__MAX = 256
};
#define LC_PG_Q_ENUM(name, sql) Q_##name,
#define LC_PG_Q_TEXT(name, sql) [Q_##name] = sql,

/*
 * Runs statement slot (its text sql) with parameters from fmt, as
 * lc_sq_prep's: 's' const char * (NULL: NULL), 'i' int64_t, 'o' int64_t
 * sent as NULL when below 0, 'n' int64_t sent as NULL when LC_TXN_NONE,
 * 'b' const void * then int length (bytea), 'N' NULL (no argument). The
 * result (rows or a command's), which the caller PQclear()s; NULL on
 * failure (logged; inside a transaction, the transaction has failed and
 * can only be rolled back).
 */
PGresult *lc_pg_run(struct lc_db *, int slot, const char *sql,
    const char *fmt, ...);
/* A write of no rows: 0 or -1. Clears r. */
int lc_pg_put(PGresult *r);
/* An INSERT ... ON CONFLICT DO NOTHING: 0 inserted, LC_DB_CONFLICT when a
 * unique value was taken (no row went in), -1. Clears r. */
int lc_pg_put_unique(PGresult *r);
/* A change of rows: 1 changed, 0 none, -1 failure. Clears r. */
int lc_pg_change(PGresult *r);
/* A statement expected to give one row: 1 (r left for the caller to read
 * and clear), 0 none or -1 failure (r cleared). */
int lc_pg_row(PGresult *r);
/* Column col of row as text into out (truncating); "" for NULL. */
void lc_pg_col(const PGresult *r, int row, int col, char *out, size_t outsz);
#define LC_PG_COL(r, row, col, field) \
	lc_pg_col((r), (row), (col), (field), sizeof(field))
/* Column col of row as an integer; none when NULL. */
int64_t lc_pg_int(const PGresult *r, int row, int col, int64_t none);
/* Column col of row as text, NULL for NULL (valid until r is cleared). */
const char *lc_pg_text(const PGresult *r, int row, int col);

/* The key of the advisory lock that is a database's write turn (db_pg.c
 * says why): "LoyalPOS" in ASCII. Advisory locks belong to one
 * database. */
#define LC_PG_WRITE_LOCK "5507754328633397075"
/* The connection, for loyalty-admin migrate-to (admin_migrate.c). */
PGconn *lc_pg_handle(struct lc_db *);

/* Shared by the backend's files, defined in db_pg_cards.c: a card with
 * its program, from row of a result whose columns are LC_CARD_COLS'
 * (lc_sqlite.h's order), tiers not loaded; and a program's tiers, by
 * increasing min_spend. */
void lc_pg_card_row(const PGresult *r, int row, struct lc_card *c);
int lc_pg_tiers_get(struct lc_db *db, struct lc_program *p);

/* The backend's functions, each defined in one of its files. */
#define LC_PG_DECL(ret, name, params) ret lc_pg_##name params;
LC_DB_OPS(LC_PG_DECL)
#undef LC_PG_DECL

#endif /* LC_PG_H */
