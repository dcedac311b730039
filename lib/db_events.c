/*
 * Storage: the outbox's rows. One statement, the same text on both
 * backends: seq is the table's own (SQLite's AUTOINCREMENT, PostgreSQL's
 * identity), handed out in the write's turn, so in the order of commits.
 */
#include "lc_backend.h"

#define SQL(X) \
	X(EVENT_ADD, "INSERT INTO events(merchant_id, type, created_at, " \
	    "data) VALUES (?, ?, ?, ?)")

#define SQL_PG(X)

enum { SQL(LC_Q_ENUM) Q__N };
_Static_assert(LC_Q_EVENTS + Q__N <= LC_Q_FEED,
    "db_events.c has more statements than its slots");
static const char *const q_sql[Q__N] = { SQL(LC_Q_TEXT) };
static const char *const q_pg[Q__N] = { SQL_PG(LC_Q_TEXT) };

#define RUN(r, db, name, ...) lc_st_run((r), (db), LC_Q_EVENTS + Q_##name, \
	q_sql[Q_##name], q_pg[Q_##name], __VA_ARGS__)

int
lc_db_event_add(struct lc_db *db, const char *merchant_id, const char *type,
    int64_t created_at, const char *data)
{
	struct lc_row r;

	return lc_st_put(RUN(&r, db, EVENT_ADD, "ssis", merchant_id, type,
	    created_at, data));
}
