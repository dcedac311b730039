/*
 * Inside storage. The storage functions of lc_store.h are written once,
 * in topic files (db_people.c, db_cards.c, db_lists.c), each with its
 * statements: one text for both backends, in the subset both read (?NNN
 * parameters, CAST where PostgreSQL needs a type, 0/1 for booleans); a
 * statement whose text must differ has a PostgreSQL override beside it
 * saying why. They run statements and read rows through the few
 * functions below, which each backend (db_sqlite.c, db_pg.c) implements
 * in one table, struct lc_bk. db.c chooses the backend by the database's
 * name and holds the one statement runner.
 */
#ifndef LC_BACKEND_H
#define LC_BACKEND_H

#include <stdarg.h>

#include "lc_store.h"

/*
 * A statement being read: filled by lc_st_run, read with lc_st_next and
 * the column readers, given back with lc_st_done. Lives on the caller's
 * stack; st is the backend's (SQLite's statement kept by the connection,
 * or the PostgreSQL result the reader owns).
 */
struct lc_row {
	const struct lc_bk *bk;
	struct lc_db *db;
	void *st;
	int i, n;		/* PostgreSQL: the row read, the rows */
};

/*
 * Statement slots: each topic file has a range, checked with a
 * _Static_assert; a backend keeps what it prepared per slot. A topic
 * file lists its statements as
 *	#define SQL(X) X(NAME, "SELECT ... ?1 ...") ...
 *	#define SQL_PG(X) X(NAME, "...")	(each with why it differs)
 *	enum { SQL(LC_Q_ENUM) Q__N };
 *	static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
 *	static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };
 *	#define RUN(r, db, name, ...) lc_st_run((r), (db), \
 *	    LC_Q_<TOPIC> + Q_##name, q_sql[Q_##name], q_pg[Q_##name], \
 *	    __VA_ARGS__)
 */
enum {
	LC_Q_PEOPLE = 0,
	LC_Q_CARDS = 64,
	LC_Q_LISTS = 144,
	LC_Q_TESTS = 208,	/* tests/unit_db.c's own */
	LC_Q_EVENTS = 224,	/* db_events.c: the outbox */
	LC_Q_FEED = 240,	/* db_feed.c: the feed, integration tokens */
	LC_Q_HOOKS = 272,	/* db_hooks.c: webhook endpoints */
	LC_Q_DELIVER = 320,	/* db_deliver.c: the deliverer */
	LC_Q__MAX = 368
};
#define LC_Q_ENUM(name, sql) Q_##name,
#define LC_Q_TEXT(name, sql) [Q_##name] = sql,

/*
 * Runs statement slot, text sql (pg: PostgreSQL's own text, NULL: sql's),
 * with parameters from fmt: 's' const char * (NULL binds NULL), 'i'
 * int64_t, 'o' int64_t bound as NULL when below 0, 'n' int64_t bound as
 * NULL when LC_TXN_NONE (a signed amount), 'l' int64_t, a LIMIT or
 * OFFSET, below 0 none (bound as each backend reads "none"), 'b' const
 * void * then int length, 'N' NULL (no argument). r on success (read it, then lc_st_done),
 * NULL on failure (logged; inside a PostgreSQL transaction, the
 * transaction has failed and can only be rolled back).
 *
 * Test builds (configure --enable-test-clock): LC_TEST_DB_FAIL=N in the
 * environment (read once per process) makes the process's Nth run fail,
 * as a database error would.
 */
struct lc_row *lc_st_run(struct lc_row *r, struct lc_db *, int slot,
    const char *sql, const char *pg, const char *fmt, ...);
/* The next row: 1, 0 none left, -1 failure (logged). */
int lc_st_next(struct lc_row *);
/* Gives the statement back (after any number of rows read). */
void lc_st_done(struct lc_row *);
/* Column col of the row read: text (NULL for NULL, valid until the next
 * row or lc_st_done), an integer (0 for NULL), NULL or not; copied into
 * out, cut to fit ("" for NULL). */
const char *lc_st_text(struct lc_row *, int col);
int64_t lc_st_int(struct lc_row *, int col);
int lc_st_null(struct lc_row *, int col);
void lc_st_col(struct lc_row *, int col, char *out, size_t outsz);
#define LC_ST_COL(r, col, field) lc_st_col((r), (col), (field), sizeof(field))
/* Column col as an integer, none when NULL. */
int64_t lc_st_int_or(struct lc_row *, int col, int64_t none);

/* Each of these takes the r of lc_st_run (NULL: it failed) and gives the
 * statement back unless said otherwise. A write of no rows: 0 or -1. */
int lc_st_put(struct lc_row *);
/* An insert that may meet a unique value, its text saying ON CONFLICT DO
 * NOTHING (on PostgreSQL an error would end the transaction): 0,
 * LC_DB_CONFLICT (nothing went in) or -1. */
int lc_st_put_unique(struct lc_row *);
/* An insert whose row's id goes into *id (PostgreSQL's text says
 * RETURNING rowid): 0 or -1. */
int lc_st_put_id(struct lc_row *, int64_t *id);
/* A change of rows: 1 changed, 0 none, -1 failure. */
int lc_st_change(struct lc_row *);
/* A change of rows: how many, or -1. */
int64_t lc_st_count(struct lc_row *);
/* A statement expected to give one row: 1 (left to read, then
 * lc_st_done), 0 none or -1 failure. */
int lc_st_row(struct lc_row *);
/* A statement that gives one integer: 1 (in *v; none when NULL), 0 no
 * row, -1. */
int lc_st_int1(struct lc_row *, int64_t none, int64_t *v);

/* A backend, one table of functions (db_sqlite.c, db_pg.c). */
struct lc_bk {
	const char *name;	/* "sqlite", "postgresql": for messages */
	void (*close)(struct lc_db *);
	int (*replaced)(struct lc_db *);
	int (*version)(struct lc_db *);
	int (*begin)(struct lc_db *, int write);
	int (*idle)(struct lc_db *);	/* 1: a write was left open */
	int (*commit)(struct lc_db *);
	void (*tidy)(struct lc_db *);
	void (*shrink)(struct lc_db *);
	void (*rollback)(struct lc_db *);
	int (*backup)(struct lc_db *, const char *path,
	    const char *merchant_id);
	/* Statements, as lc_st_run etc. say: run fills r (bk, db set). */
	int (*run)(struct lc_row *, int slot, const char *sql,
	    const char *pg, const char *fmt, va_list);
	int (*next)(struct lc_row *);
	void (*done)(struct lc_row *);
	const char *(*text)(struct lc_row *, int col, size_t *len);
	int64_t (*int64)(struct lc_row *, int col);
	int (*null)(struct lc_row *, int col);
	/* After the statement's end: rows it changed. */
	int64_t (*changes)(struct lc_row *);
	/* A run insert stepped, its rowid in *id: 0 or -1; not given back. */
	int (*insert_id)(struct lc_row *, int64_t *id);
};

/* The head every backend's connection struct begins with. */
struct lc_db_head {
	const struct lc_bk *bk;
	/* A run, a step, a begin or a commit failed since the request
	 * began (db.c): lc_db_failed. */
	int failed;
	/* Test builds: the runs so far, and LC_TEST_DB_FAIL's N (0 none). */
	long runs, fail_at;
};

/* A card with its program from a row of LC_CARD_COLS, tiers not loaded
 * (db_cards.c; the card search reads its pages with it too); and a
 * program's tiers, by increasing min_spend: 0 or -1. */
void lc_st_card_row(struct lc_row *, struct lc_card *);
int lc_st_tiers_get(struct lc_db *, struct lc_program *);

/* The text of db_lists.c's statement of that name (SQLite's words), NULL
 * none: for tools/bench_reports.c's query plans. */
const char *lc_st_lists_sql(const char *name);

/* The LIKE patterns of a card search for q (db.c), both backends': its
 * text escaped with \, then "%" after it (start of the name) or "% "
 * before too (start of a later word). 0, or -1 when sz is too small. */
int lc_db_like_patterns(const char *q, char *start, char *word, size_t sz);

/* The columns of a card with its program, in the order its one decoder
 * reads them (lc_st_card_row). */
#define LC_PROGRAM_COLS "p.id, p.merchant_id, p.type, p.title, " \
	"coalesce(p.punch_requirement, 0), p.reward_amount, " \
	"p.cooldown_seconds, coalesce(p.reward_title, ''), " \
	"p.reward_description, coalesce(p.max_punches, 0), " \
	"coalesce(p.expiry_days, 0)"
#define LC_PROGRAM_NCOLS 11
#define LC_CARD_COLS "SELECT " LC_PROGRAM_COLS ", c.id, c.merchant_id, " \
	"m.name, c.customer_name, c.barcode, c.qr_code, c.status, " \
	"c.current_punches, c.pending_rewards, c.lifetime_punches, " \
	"c.cashback_balance, c.lifetime_cashback, c.lifetime_spend, " \
	"c.created_at, coalesce(c.share_token, ''), " \
	"coalesce(c.code_secret, ''), c.code_step_used FROM cards c " \
	"JOIN programs p ON p.id = c.program_id " \
	"JOIN merchants m ON m.id = c.merchant_id "

/* Opening, as lc_db_open_ex; each backend's own (name: a path for SQLite,
 * the URI or conninfo for PostgreSQL, its "postgres:" prefix taken off). */
struct lc_db *lc_sq_open(const char *path, int create, const char **errmsg,
    int *misconfigured);
/* Built with --with-postgresql only; declared always, so no header
 * depends on config.h. */
struct lc_db *lc_pg_open(const char *conninfo, int create,
    const char **errmsg, int *misconfigured);

#endif /* LC_BACKEND_H */
