/*
 * The queue of writers: processes about to write wait their turn asleep
 * in the kernel, in front of SQLite's write lock, instead of polling it.
 *
 * SQLite never sleeps on a lock: a writer that finds the write lock taken
 * retries from its busy handler. At rush hour the lock then goes to
 * whoever happens to try just after it is released, and a process that
 * writes again and again (a till syncing a hundred offline purchases,
 * one write each) is always the one trying just then: the till selling
 * beside it waited 700 ms for one purchase. Here a writer first takes
 * the turnstile (byte 0 of the file DB-queue), then the write turn
 * (byte 1), then lets the turnstile go, and lets the write turn go once
 * its transaction has ended. Whoever holds the turnstile is the only one
 * waiting for the write turn, and gets it the moment it is released: the
 * writer that released it must queue for the turnstile again behind the
 * ones already there, so a repeated writer gets at most every other turn
 * while others wait, and a waiter is woken when the turn is free, not up
 * to a millisecond later.
 *
 * A write no one waits for at the counter (an item of an offline sync
 * batch) also lets the counter's writes go first: those hold a shared
 * lock on byte 2 while they wait and write, and such a write waits for
 * byte 2 to be free, for LC_YIELD_MS at most, before it queues; so three
 * tills flushing their queues take a turn now and then, not three turns
 * of every four, from the tills selling beside them.
 *
 * The locks are open file description locks (fcntl F_OFD_SETLKW): the
 * kernel drops them when their process dies, so a writer killed in its
 * turn holds no one up; and each connection opens the file itself, so
 * two connections of one process queue as two processes do. The queue
 * only orders writers: SQLite's write lock is still what excludes them
 * (BEGIN IMMEDIATE after the turn), so a writer that does not queue (an
 * older binary, the sqlite3 shell) is still safe, only not ordered. When
 * the file cannot be opened, or the kernel is older than these locks
 * (3.15), writers fall back to SQLite's waiting alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "lc_core.h"
#include "lc_queue.h"

#ifndef F_OFD_SETLKW
#error "the writers' queue needs open file description locks (Linux 3.15)"
#endif

enum { QUEUE_UNOPENED, QUEUE_OPEN, QUEUE_NONE };
#define TURNSTILE 0
#define TURN 1
#define COUNTER 2
/* How long a later write lets the counter's writes go first: under a
 * rush that never pauses, a sync item still gets a turn this often (a
 * batch of 100 in 10 s at worst, inside LC_SYNC_DEADLINE_MS). */
#define LC_YIELD_MS 100

/* Only interrupts a wait for a lock (no SA_RESTART). */
static void
on_alarm(int sig)
{
	(void)sig;
}

static int
setlk(int fd, int cmd, short type, off_t byte)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = type;
	fl.l_whence = SEEK_SET;
	fl.l_start = byte;
	fl.l_len = 1;
	return fcntl(fd, cmd, &fl);
}

/*
 * Waits for a lock of type on byte of the queue, for at most ms
 * milliseconds: 0 taken, -1 timed out (EINTR) or failed. An interval
 * timer's SIGALRM breaks the wait (the kernel's lock waits have no
 * timeout of their own).
 */
static int
wait_lock(int fd, off_t byte, short type, int ms)
{
	struct itimerval it, off;
	struct sigaction sa;
	int rc, saved;

	if (setlk(fd, F_OFD_SETLK, type, byte) == 0)
		return 0;
	if (errno != EAGAIN && errno != EACCES)
		return -1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) == -1)
		return -1;
	memset(&it, 0, sizeof(it));
	memset(&off, 0, sizeof(off));
	it.it_value.tv_sec = ms / 1000;
	it.it_value.tv_usec = (ms % 1000) * 1000;
	if (setitimer(ITIMER_REAL, &it, NULL) == -1)
		return -1;
	rc = setlk(fd, F_OFD_SETLKW, type, byte);
	saved = errno;
	(void)setitimer(ITIMER_REAL, &off, NULL);
	errno = saved;
	return rc;
}

/*
 * The queue's file beside the database, made on first use. Made by root
 * (loyalty-admin), it is given the database's owner, as SQLite does with
 * the -wal and -shm files, so the web server's user can still queue.
 */
static int
open_queue(const char *db_path)
{
	char path[4096];
	struct stat st;
	int fd;

	if (db_path == NULL || *db_path == '\0' ||
	    (size_t)snprintf(path, sizeof(path), "%s-queue", db_path) >=
	    sizeof(path))
		return -1;
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
	    0660)) == -1) {
		lc_log("writers' queue %s: %s (writers poll instead)", path,
		    strerror(errno));
		return -1;
	}
	if (geteuid() == 0 && stat(db_path, &st) == 0 &&
	    fchown(fd, st.st_uid, st.st_gid) == -1)
		lc_log("writers' queue %s: cannot give it the database's "
		    "owner: %s", path, strerror(errno));
	return fd;
}

int
lc_queue_enter(struct lc_queue *q, const char *db_path, int later, int ms)
{
	int rc;

	if (q->state == QUEUE_UNOPENED) {
		q->fd = open_queue(db_path);
		q->state = q->fd == -1 ? QUEUE_NONE : QUEUE_OPEN;
	}
	if (q->state != QUEUE_OPEN || q->held)
		return 0;
	if (later) {
		/* Past LC_YIELD_MS it queues anyway. */
		if (wait_lock(q->fd, COUNTER, F_WRLCK, LC_YIELD_MS) == 0)
			(void)setlk(q->fd, F_OFD_SETLK, F_UNLCK, COUNTER);
	} else if (wait_lock(q->fd, COUNTER, F_RDLCK, ms) == -1)
		goto busy;
	if (wait_lock(q->fd, TURNSTILE, F_WRLCK, ms) == -1) {
		/* A kernel before 3.15 knows no such locks: no queue. */
		if (errno == EINVAL) {
			lc_log("writers' queue: no open file description "
			    "locks here (writers poll instead)");
			(void)close(q->fd);
			q->state = QUEUE_NONE;
			return 0;
		}
		goto busy;
	}
	rc = wait_lock(q->fd, TURN, F_WRLCK, ms);
	(void)setlk(q->fd, F_OFD_SETLK, F_UNLCK, TURNSTILE);
	if (rc == -1)
		goto busy;
	q->held = 1;
	return 0;
busy:
	(void)setlk(q->fd, F_OFD_SETLK, F_UNLCK, COUNTER);
	if (errno == EINTR)
		lc_log("writers' queue: no turn after %d ms", ms);
	else
		lc_log("writers' queue: %s", strerror(errno));
	return -1;
}

void
lc_queue_leave(struct lc_queue *q)
{
	if (!q->held)
		return;
	q->held = 0;
	if (setlk(q->fd, F_OFD_SETLK, F_UNLCK, TURN) == -1 ||
	    setlk(q->fd, F_OFD_SETLK, F_UNLCK, COUNTER) == -1)
		lc_log("writers' queue: cannot give the turn back: %s",
		    strerror(errno));
}

void
lc_queue_close(struct lc_queue *q)
{
	if (q->state == QUEUE_OPEN)
		(void)close(q->fd);
	q->state = QUEUE_UNOPENED;
	q->held = 0;
}
