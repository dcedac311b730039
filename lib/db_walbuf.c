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
 *  - before any other use of the file (read, sync, truncate, size, file
 *    control, lock, close).
 *
 * Why no one can tell: other connections (and checkpoints) learn of
 * frames only from the log's index in the -shm file, which SQLite
 * updates once the last frame's write has returned; that write is the
 * commit frame's page, and it returns only when everything held is in
 * the file, with the system's error if it is not, so SQLite fails the
 * commit as it fails one whose own write failed. Frames held after a
 * write of no commit (SQLite spilling a large transaction's pages) are
 * in no one's view until their commit, and reading them back writes
 * them first. A rewrite of a frame's header (checksums recomputed at a
 * commit) never continues the held run, so it goes straight through: no
 * write is ever held once a commit has returned. A crash loses only what
 * no one could see yet, as a crash in the middle of SQLite's own writes.
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "lc_sqlite.h"

/* A purchase writes about 26 frames (107 KB): two calls at most. */
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
};

static int
flush(struct wb_file *f)
{
	size_t n = f->held;

	if (n == 0)
		return SQLITE_OK;
	f->held = 0;
	return f->real->pMethods->xWrite(f->real, f->buf, (int)n, f->at);
}

/* Writes what is held, then hands a call on: for every method but
 * xWrite, of the log as of any other file. */
#define FLUSHED(f) ((f)->log ? flush(f) : SQLITE_OK)
#define REAL(p) (((struct wb_file *)(p))->real)

static int
wb_close(sqlite3_file *p)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f), rc2;

	rc2 = f->real->pMethods != NULL ?
	    f->real->pMethods->xClose(f->real) : SQLITE_OK;
	free(f->buf);
	f->buf = NULL;
	return rc != SQLITE_OK ? rc : rc2;
}

static int
wb_read(sqlite3_file *p, void *out, int n, sqlite3_int64 off)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

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
		f->next = -1;
		if ((rc = flush(f)) == SQLITE_OK &&
		    (rc = f->real->pMethods->xWrite(f->real, data, n,
		    off)) == SQLITE_OK)
			f->next = off + n;
		return rc;
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
	f->next = -1;
	return rc;
}

static int
wb_truncate(sqlite3_file *p, sqlite3_int64 size)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

	f->next = -1;
	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xTruncate(f->real, size);
}

static int
wb_sync(sqlite3_file *p, int flags)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

	return rc != SQLITE_OK ? rc : f->real->pMethods->xSync(f->real, flags);
}

static int
wb_size(sqlite3_file *p, sqlite3_int64 *size)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

	return rc != SQLITE_OK ? rc :
	    f->real->pMethods->xFileSize(f->real, size);
}

static int
wb_lock(sqlite3_file *p, int lock)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

	return rc != SQLITE_OK ? rc : f->real->pMethods->xLock(f->real, lock);
}

static int
wb_unlock(sqlite3_file *p, int lock)
{
	struct wb_file *f = (struct wb_file *)p;
	int rc = FLUSHED(f);

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
	int rc = FLUSHED(f);

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

static int
wb_shm_lock(sqlite3_file *p, int off, int n, int flags)
{
	return REAL(p)->pMethods->xShmLock(REAL(p), off, n, flags);
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
	int rc = FLUSHED(f);

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
	int rc;

	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)((char *)p + REAL_AT);
	f->log = (flags & SQLITE_OPEN_WAL) != 0;
	f->next = -1;
	rc = sys->xOpen(sys, name, f->real, flags, out);
	/* SQLite closes a file whose methods are set, even when its open
	 * failed: ours then close the system's. */
	f->base.pMethods = f->real->pMethods != NULL ? &wb_methods : NULL;
	if (f->real->pMethods != NULL && f->real->pMethods->iVersion < 3)
		/* Not the "unix" VFS this was written for: never happens on
		 * the systems this runs on, refused rather than guessed. */
		return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
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
	if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK)
		return NULL;
	vfs.pAppData = sys;
	return vfs.zName;
}
