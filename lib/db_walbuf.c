/*
 * The log's frames of one commit written in one system call.
 *
 * SQLite writes a transaction into the log (the -wal file) frame by
 * frame, each with two pwrite calls, its 24-byte header then its page: 45
 * calls for a purchase, every one inside the write turn. This VFS hands
 * every call to the system's own (SQLite's "unix"), but holds the writes
 * to a log that continue one another and writes them in one call:
 *
 *  - when the page of the commit frame (the one whose header carries the
 *    database's size) has joined them: the last write of a commit;
 *  - when a write does not continue them, or would overflow the buffer;
 *  - before any other use of the log (read, sync, truncate, size, file
 *    control, lock).
 *
 * Why no one can tell: other connections (and checkpoints) learn of
 * frames only from the log's index in the -shm file, which SQLite
 * updates once the last frame's write has returned; that write is the
 * commit frame's page, and it returns only when everything held is in
 * the file, with the system's error if it is not, so SQLite fails the
 * commit as it fails one whose own write failed. What was held is then
 * dropped, never written later, where a crash's recovery would find a
 * commit that was refused. A rewrite of a frame's header (checksums
 * recomputed at a commit) never continues the held run, so it goes
 * straight through: nothing is held once a commit has returned. Frames
 * of no commit (SQLite spilling a large transaction's pages) are in no
 * one's view: reading them back writes them first, and those of a
 * transaction rolled back are dropped when the write lock is given back,
 * before anyone else may write where they would go. On a device without
 * "powersafe overwrite" SQLite pads a commit and writes its last frame's
 * tail after a sync: nothing is held there. A crash loses only what no
 * one could see yet, as a crash in the middle of SQLite's own writes.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lc_sqlite.h"

/* A purchase writes about 26 frames (107 KB): two calls. */
#define BUF_SIZE (64 * 1024)
#define FRAME_HDR 24

struct wb_file {
	sqlite3_file base;
	sqlite3_file *real;	/* the system VFS's file, right after this */
	int log;		/* a -wal file: its writes are held */
	unsigned char *buf;
	size_t held;		/* bytes held, for offset at .. */
	sqlite3_int64 at;
	sqlite3_int64 next;	/* where the last write ended (-1 none) */
	int commit_next;	/* the last write was a commit frame's header */
	struct wb_file *log_of;	/* on a database: its open log, if ours */
	struct wb_file *db_of;	/* on a log: its database, if ours */
};

static int
flush(struct wb_file *f)
{
	int rc;

	if (f->held == 0)
		return SQLITE_OK;
	/* Kept when the write fails: the next flush tries again (the
	 * commit cannot succeed without them), or they are dropped with
	 * the write lock or a failed write (wb_write). */
	if ((rc = f->real->pMethods->xWrite(f->real, f->buf, (int)f->held,
	    f->at)) != SQLITE_OK) {
		f->next = -1;
		return rc;
	}
	f->held = 0;
	return SQLITE_OK;
}

/*
 * Writes what is held before any other call on the log. A failure is
 * given as SQLITE_IOERR_WRITE, never SQLITE_FULL: after a failed read
 * SQLite rolls back only the statement on FULL, and would go on with a
 * transaction whose frames are not in the file; an I/O error makes it
 * roll back the whole transaction.
 */
static int
flushed(struct wb_file *f)
{
	int rc = f->log ? flush(f) : SQLITE_OK;

	return (rc & 0xff) == SQLITE_FULL ? SQLITE_IOERR_WRITE : rc;
}

#define REAL(p) (((struct wb_file *)(p))->real)

/* Nothing can be held here but frames of no commit (see wb_shm_lock):
 * dropped, never written once the write lock may be another's. A
 * database closed before its log (SQLite closes the log first) leaves
 * it holding nothing more. */
static int
wb_close(sqlite3_file *p)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc;

	if (f->db_of != NULL)
		f->db_of->log_of = NULL;
	if (f->log_of != NULL) {
		f->log_of->db_of = NULL;
		f->log_of->held = 0;
		f->log_of->log = 0;
	}
	rc = f->real->pMethods != NULL ?
	    f->real->pMethods->xClose(f->real) : SQLITE_OK;
	free(f->buf);
	f->buf = NULL;
	f->held = 0;
	return rc;
}

static int
wb_read(sqlite3_file *p, void *out, int n, sqlite3_int64 off)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xRead(f->real, out, n, off);
}

static int
wb_write(sqlite3_file *p, const void *data, int n, sqlite3_int64 off)
{
	struct wb_file *f = (struct wb_file *)p;
	int commit_page, rc;

	if (!f->log)
		return f->real->pMethods->xWrite(f->real, data, n, off);
	commit_page = f->commit_next;
	/* Bytes 4-7 of a frame's header: the database's size in pages
	 * after a commit, 0 in a frame of no commit. */
	f->commit_next = n == FRAME_HDR &&
	    memcmp((const unsigned char *)data + 4, "\0\0\0\0", 4) != 0;
	if (off != f->next || n > BUF_SIZE ||
	    (f->buf == NULL && (f->buf = malloc(BUF_SIZE)) == NULL)) {
		/* Not the continuation of the last write: straight through,
		 * after what is held. */
		if ((rc = flush(f)) != SQLITE_OK ||
		    (rc = f->real->pMethods->xWrite(f->real, data, n,
		    off)) != SQLITE_OK)
			goto fail;
		f->next = off + n;
		return SQLITE_OK;
	}
	if (f->held + (size_t)n > BUF_SIZE && (rc = flush(f)) != SQLITE_OK)
		goto fail;
	if (f->held == 0)
		f->at = off;
	memcpy(f->buf + f->held, data, (size_t)n);
	f->held += (size_t)n;
	f->next = off + n;
	if (commit_page && (rc = flush(f)) != SQLITE_OK)
		goto fail;
	return SQLITE_OK;
fail:
	/* The write of the log failed: SQLite fails this transaction
	 * whole (a spill puts its pager in its error state, a commit
	 * fails) and never reads its frames again. Written later, a
	 * failed commit's frames would come back with a crash's
	 * recovery: dropped. */
	f->held = 0;
	f->next = -1;
	return rc;
}

static int
wb_truncate(sqlite3_file *p, sqlite3_int64 size)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	f->next = -1;
	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xTruncate(f->real, size);
}

static int
wb_sync(sqlite3_file *p, int flags)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc : f->real->pMethods->xSync(f->real, flags);
}

static int
wb_size(sqlite3_file *p, sqlite3_int64 *size)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xFileSize(f->real, size);
}

static int
wb_lock(sqlite3_file *p, int lock)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	/* The database's exclusive lock: locking_mode=EXCLUSIVE (never
	 * the service's) or the log's close. SQLite takes no shared locks
	 * after it, so wb_shm_lock would not hear the write lock given
	 * back: hold nothing from here on. It is taken before any frame
	 * is written. */
	if (lock == SQLITE_LOCK_EXCLUSIVE && f->log_of != NULL) {
		f->log_of->held = 0;
		f->log_of->next = -1;
		f->log_of->log = 0;
	}
	return rc != SQLITE_OK ? rc : f->real->pMethods->xLock(f->real, lock);
}

static int
wb_unlock(sqlite3_file *p, int lock)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xUnlock(f->real, lock);
}

static int
wb_reserved(sqlite3_file *p, int *out)
{
	return REAL(p)->pMethods->xCheckReservedLock(REAL(p), out);
}

static int
wb_fcntl(sqlite3_file *p, int op, void *arg)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xFileControl(f->real, op, arg);
}

static int
wb_sector(sqlite3_file *p)
{
	return REAL(p)->pMethods->xSectorSize(REAL(p));
}

static int
wb_device(sqlite3_file *p)
{
	return REAL(p)->pMethods->xDeviceCharacteristics(REAL(p));
}

static int
wb_shm_map(sqlite3_file *p, int pg, int pgsz, int extend, void volatile **pp)
{
	return REAL(p)->pMethods->xShmMap(REAL(p), pg, pgsz, extend, pp);
}

/*
 * The write lock (slot 0 of the shared locks) given back: nothing of this
 * writer may stay held, once another may write at the log's end. What
 * is still held then belongs to no commit (a rolled-back transaction
 * that spilled pages into the log): dropped.
 */
static int
wb_shm_lock(sqlite3_file *p, int off, int n, int flags)
{
	struct wb_file *f = (struct wb_file *)p, *log = f->log_of;

	if ((flags & SQLITE_SHM_UNLOCK) && off == 0 && log != NULL) {
		if (log->held > 0) {
			log->held = 0;
			log->next = -1;
		}
		log->commit_next = 0;
	}
	return f->real->pMethods->xShmLock(f->real, off, n, flags);
}

static void
wb_shm_barrier(sqlite3_file *p)
{
	REAL(p)->pMethods->xShmBarrier(REAL(p));
}

static int
wb_shm_unmap(sqlite3_file *p, int delete)
{
	return REAL(p)->pMethods->xShmUnmap(REAL(p), delete);
}

static int
wb_fetch(sqlite3_file *p, sqlite3_int64 off, int n, void **pp)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = flushed(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xFetch(f->real, off, n, pp);
}

static int
wb_unfetch(sqlite3_file *p, sqlite3_int64 off, void *page)
{
	return REAL(p)->pMethods->xUnfetch(REAL(p), off, page);
}

static const sqlite3_io_methods wb_methods = {
	3, wb_close, wb_read, wb_write, wb_truncate, wb_sync, wb_size,
	wb_lock, wb_unlock, wb_reserved, wb_fcntl, wb_sector, wb_device,
	wb_shm_map, wb_shm_lock, wb_shm_barrier, wb_shm_unmap, wb_fetch,
	wb_unfetch
};

/* The system VFS's file sits after ours, aligned for anything. */
#define REAL_AT ((sizeof(struct wb_file) + 15) & ~(size_t)15)

static int
wb_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *p, int flags,
    int *out)
{
	sqlite3_vfs *sys = vfs->pAppData;
	struct wb_file *f = (struct wb_file *)p;
	sqlite3_file *d;
	int rc;

	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)((char *)p + REAL_AT);
	f->log = (flags & SQLITE_OPEN_WAL) != 0;
	f->next = -1;
	rc = sys->xOpen(sys, name, f->real, flags, out);
	if (rc == SQLITE_OK && f->real->pMethods->iVersion < 3) {
		/* Not the "unix" VFS this was written for: never happens on
		 * the systems this runs on, refused rather than guessed. */
		f->real->pMethods->xClose(f->real);
		f->real->pMethods = NULL;
		rc = SQLITE_CANTOPEN;
	}
	/* SQLite closes a file whose methods are set, even when its open
	 * failed: ours then close the system's. */
	f->base.pMethods = f->real->pMethods != NULL ? &wb_methods : NULL;
	if (rc != SQLITE_OK || !f->log)
		return rc;
	/* The log's database, to hear when the write lock is given back
	 * (wb_shm_lock). Without it, or when the database's device may not
	 * overwrite a sector's bytes alone (then SQLite pads a commit and
	 * writes its last frame's tail after a sync, no header after it),
	 * nothing is held. */
	if ((d = sqlite3_database_file_object(name)) != NULL &&
	    d->pMethods == &wb_methods &&
	    (d->pMethods->xDeviceCharacteristics(d) &
	    SQLITE_IOCAP_POWERSAFE_OVERWRITE)) {
		f->db_of = (struct wb_file *)d;
		f->db_of->log_of = f;
	} else
		f->log = 0;
	return rc;
}

/* The rest of the VFS is the system's. */
#define SYS(v) ((sqlite3_vfs *)(v)->pAppData)

static int
wb_delete(sqlite3_vfs *v, const char *name, int sync)
{
	return SYS(v)->xDelete(SYS(v), name, sync);
}

static int
wb_access(sqlite3_vfs *v, const char *name, int flags, int *out)
{
	return SYS(v)->xAccess(SYS(v), name, flags, out);
}

static int
wb_fullname(sqlite3_vfs *v, const char *name, int n, char *out)
{
	return SYS(v)->xFullPathname(SYS(v), name, n, out);
}

static void *
wb_dlopen(sqlite3_vfs *v, const char *name)
{
	return SYS(v)->xDlOpen(SYS(v), name);
}

static void
wb_dlerror(sqlite3_vfs *v, int n, char *out)
{
	SYS(v)->xDlError(SYS(v), n, out);
}

static void (*wb_dlsym(sqlite3_vfs *v, void *h, const char *name))(void)
{
	return SYS(v)->xDlSym(SYS(v), h, name);
}

static void
wb_dlclose(sqlite3_vfs *v, void *h)
{
	SYS(v)->xDlClose(SYS(v), h);
}

static int
wb_random(sqlite3_vfs *v, int n, char *out)
{
	return SYS(v)->xRandomness(SYS(v), n, out);
}

static int
wb_sleep(sqlite3_vfs *v, int us)
{
	return SYS(v)->xSleep(SYS(v), us);
}

static int
wb_time(sqlite3_vfs *v, double *out)
{
	return SYS(v)->xCurrentTime(SYS(v), out);
}

static int
wb_lasterror(sqlite3_vfs *v, int n, char *out)
{
	return SYS(v)->xGetLastError(SYS(v), n, out);
}

static int
wb_time64(sqlite3_vfs *v, sqlite3_int64 *out)
{
	return SYS(v)->xCurrentTimeInt64(SYS(v), out);
}

const char *
lc_walbuf_vfs(void)
{
	/* Filled once a process, then only read: SQLite keeps a pointer. */
	static sqlite3_vfs vfs;
	sqlite3_vfs *sys;

	if (vfs.pAppData != NULL)
		return vfs.zName;
	if ((sys = sqlite3_vfs_find(NULL)) == NULL || sys->iVersion < 2 ||
	    sys->xCurrentTimeInt64 == NULL)
		return NULL;
	vfs.iVersion = 2;
	vfs.szOsFile = (int)(REAL_AT + (size_t)sys->szOsFile);
	vfs.mxPathname = sys->mxPathname;
	vfs.xOpen = wb_open;
	vfs.xDelete = wb_delete;
	vfs.xAccess = wb_access;
	vfs.xFullPathname = wb_fullname;
	vfs.xDlOpen = wb_dlopen;
	vfs.xDlError = wb_dlerror;
	vfs.xDlSym = wb_dlsym;
	vfs.xDlClose = wb_dlclose;
	vfs.xRandomness = wb_random;
	vfs.xSleep = wb_sleep;
	vfs.xCurrentTime = wb_time;
	vfs.xGetLastError = wb_lasterror;
	vfs.xCurrentTimeInt64 = wb_time64;
	vfs.zName = "lc-walbuf";
	vfs.pAppData = sys;
	if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK) {
		vfs.pAppData = NULL;
		return NULL;
	}
	return vfs.zName;
}
