/*
 * The queue of writers in front of SQLite's write lock (db_queue.c).
 * Only db_sqlite.c uses it.
 */
#ifndef LC_QUEUE_H
#define LC_QUEUE_H

struct lc_queue {
	int state;	/* zeroed: not opened yet */
	int fd;
	int held;	/* this connection has the write turn */
};

/* Waits, at most ms milliseconds, for the write turn of the database at
 * db_path, a later write (later: 1) letting the counter's go first for a
 * while: 0 (the turn, or no queue to wait in: the file beside the
 * database could not be made), -1 timed out or failed (logged). */
int lc_queue_enter(struct lc_queue *, const char *db_path, int later,
    int ms);
/* Gives the turn back, when held. */
void lc_queue_leave(struct lc_queue *);
void lc_queue_close(struct lc_queue *);

#endif
