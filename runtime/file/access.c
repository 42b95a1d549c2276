/* Independent file access (MPI 4.1, 14.4.1-14.4.3, 14.5): explicit offsets and the
 * individual file pointer (read_at, write_at, read, write and their _c twins), seek,
 * position, byte offset, type extent; and the engine every access of any kind goes through
 * (shl_file_rw): the view's pieces, data sieving, atomic-mode locks, conversion to and from
 * non-native representations.
 * Entered by rank threads (the MPI calls) and, for the engine, by any thread that accesses a
 * file: rank threads, the node's I/O workers (async.c), collective I/O threads. The engine
 * touches only the caller's buffer, the descriptor and what it allocates itself; it reads
 * the view and the file object's hints and atomicity, never writes them. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core/check.h"
#include "runtime/file/file.h"

/* Data sieving buffers when the hints leave them unset: a read window large enough that
 * one pread covers many small pieces, a write window small enough that the exclusive lock
 * of its read-modify-write holds other writers back only briefly. */
#define SHL_FILE_RD_WINDOW (4u << 20)
#define SHL_FILE_WR_WINDOW (512u << 10)
/* The largest hole a read's window spans (plan). */
#define SHL_FILE_SIEVE_GAP 4096

/* ---- system calls ---- */

/* Lock (F_RDLCK, F_WRLCK) or unlock (F_UNLCK) bytes [off, off + len) of the file for this
 * descriptor (an open file description lock: it excludes the other ranks' descriptors,
 * threads of this process included). Waits. Returns 0 or -errno. */
static int lock(int fd, short type, MPI_Offset off, MPI_Offset len)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = off, .l_len = len };

	if (len <= 0)
		return 0;
	while (fcntl(fd, F_OFD_SETLKW, &fl) != 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* Read up to `len` bytes at `off`: fewer only at the end of the file. Returns the bytes
 * read or -errno. */
static MPI_Offset read_full(int fd, char *buf, size_t len, MPI_Offset off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, off + (MPI_Offset)got);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (MPI_Offset)got;
}

/* Write all `len` bytes at `off`, retrying short writes. A full disk is -ENOSPC (the
 * short write before it is followed by a failing one), never a silent truncation. */
static int write_full(int fd, const char *buf, size_t len, MPI_Offset off)
{
	size_t put = 0;

	while (put < len) {
		ssize_t n = pwrite(fd, buf + put, len - put, off + (MPI_Offset)put);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ENOSPC;
		put += (size_t)n;
	}
	return 0;
}

/* ---- the engine: one access in native representation ---- */

/* One access's state: the memory side (`mem` laid out by `mt`, NULL or contiguous: dense),
 * the stream side (from `pos`), the window being planned (stream bytes [ws, ws + wdata)
 * in file bytes [wa, wb)), and the buffers it allocated. */
struct eng {
	struct shl_file *f;
	const struct shl_file_view *v;
	enum shl_file_dir dir;
	char *mem;
	const struct shl_datatype *mt;   /* NULL: dense */
	MPI_Offset pos;         /* stream position of the access's first byte */
	size_t planned;         /* stream bytes given to windows so far */
	size_t done;            /* stream bytes moved */
	size_t ws, wdata;       /* the window: its first stream byte (from pos), data bytes */
	MPI_Offset wa, wb;      /* ... and the file bytes it spans */
	int npieces;            /* pieces in the window (1: no hole) */
	size_t cap;             /* window limit in file bytes */
	bool sieve;             /* windows may span holes */
	bool lock_plain;        /* plain writes take a shared lock (another rank may sieve) */
	bool lock_sieve;        /* sieved writes take an exclusive lock (not atomic mode) */
	char *buf;              /* window buffer */
	size_t bufcap;
	char *stage;            /* the window's stream bytes, when memory is not dense */
	size_t stagecap;
	size_t cursor;          /* scatter/gather: stream bytes of the window handled */
	MPI_Offset valid;       /* sieved read: file bytes of the window that exist */
	int err;                /* -errno */
	bool eof;
};

static bool dense_mem(const struct eng *e)
{
	return e->mt == NULL || e->mt->contig;
}

static char *room(char **p, size_t *cap, size_t need)
{
	if (*cap < need) {
		char *n = realloc(*p, need);
		if (n == NULL)
			return NULL;
		*p = n;
		*cap = need;
	}
	return *p;
}

/* Memory <-> dense bytes for stream bytes [from, from + n) of the access (native: stream
 * bytes are the memory signature's bytes). */
static void mem_out(struct eng *e, char *dst, size_t from, size_t n)
{
	if (dense_mem(e))
		memcpy(dst, e->mem + from, n);
	else
		shl_dt_copy_range(dst - from, NULL, e->mem, e->mt, from, n);
}

static void mem_in(struct eng *e, const char *src, size_t from, size_t n)
{
	if (dense_mem(e))
		memcpy(e->mem + from, src, n);
	else
		shl_dt_copy_range(e->mem, e->mt, src - from, NULL, from, n);
}

/* A piece without holes: stream bytes [s, s + n) of the access at file byte `off`, straight
 * between the descriptor and dense memory, or through the stage in windows. */
static bool direct(struct eng *e, size_t s, MPI_Offset off, size_t n)
{
	int fd = e->f->fd;

	if (dense_mem(e)) {
		if (e->dir == SHL_FILE_READ) {
			MPI_Offset r = read_full(fd, e->mem + s, n, off);
			if (r < 0) {
				e->err = (int)r;
				return false;
			}
			e->done += (size_t)r;
			e->eof = (size_t)r < n;
			return !e->eof;
		}
		if (e->lock_plain && (e->err = lock(fd, F_RDLCK, off, (MPI_Offset)n)) != 0)
			return false;
		e->err = write_full(fd, e->mem + s, n, off);
		if (e->lock_plain)
			lock(fd, F_UNLCK, off, (MPI_Offset)n);
		if (e->err != 0)
			return false;
		e->done += n;
		return true;
	}
	while (n > 0) {
		size_t k = n < e->cap ? n : e->cap;

		if (room(&e->stage, &e->stagecap, k) == NULL) {
			e->err = -ENOMEM;
			return false;
		}
		if (e->dir == SHL_FILE_READ) {
			MPI_Offset r = read_full(fd, e->stage, k, off);
			if (r < 0) {
				e->err = (int)r;
				return false;
			}
			mem_in(e, e->stage, s, (size_t)r);
			e->done += (size_t)r;
			if ((size_t)r < k) {
				e->eof = true;
				return false;
			}
		} else {
			mem_out(e, e->stage, s, k);
			if (e->lock_plain &&
			    (e->err = lock(fd, F_RDLCK, off, (MPI_Offset)k)) != 0)
				return false;
			e->err = write_full(fd, e->stage, k, off);
			if (e->lock_plain)
				lock(fd, F_UNLCK, off, (MPI_Offset)k);
			if (e->err != 0)
				return false;
			e->done += k;
		}
		s += k;
		off += (MPI_Offset)k;
		n -= k;
	}
	return true;
}

/* Sieved read, per piece of the window: copy what exists of it out of the window buffer
 * into the stage (memory not dense) or memory. */
static bool scatter(void *ctx, MPI_Offset off, size_t len)
{
	struct eng *e = ctx;
	MPI_Offset have = e->wa + e->valid - off;
	size_t n = have <= 0 ? 0 : (MPI_Offset)len < have ? len : (size_t)have;
	const char *src = e->buf + (off - e->wa);

	if (dense_mem(e))
		memcpy(e->mem + e->ws + e->cursor, src, n);
	else
		memcpy(e->stage + e->cursor, src, n);
	e->cursor += n;
	if (n < len) {
		e->eof = true;
		return false;
	}
	return true;
}

/* Sieved write, per piece of the window: the piece's bytes into the window buffer. */
static bool gather(void *ctx, MPI_Offset off, size_t len)
{
	struct eng *e = ctx;
	char *dst = e->buf + (off - e->wa);

	if (dense_mem(e))
		memcpy(dst, e->mem + e->ws + e->cursor, len);
	else
		memcpy(dst, e->stage + e->cursor, len);
	e->cursor += len;
	return true;
}

/* A window with holes: one read of the span, the pieces copied out; or, writing, the span
 * locked, read, the pieces copied in and the span written back. */
static bool sieved(struct eng *e)
{
	int fd = e->f->fd;
	size_t span = (size_t)(e->wb - e->wa);
	MPI_Offset r;

	if (room(&e->buf, &e->bufcap, span) == NULL ||
	    (!dense_mem(e) && room(&e->stage, &e->stagecap, e->wdata) == NULL)) {
		e->err = -ENOMEM;
		return false;
	}
	e->cursor = 0;
	if (e->dir == SHL_FILE_READ) {
		r = read_full(fd, e->buf, span, e->wa);
		if (r < 0) {
			e->err = (int)r;
			return false;
		}
		e->valid = r;
		shl_file_view_pieces(e->v, e->pos + (MPI_Offset)e->ws, (MPI_Offset)e->wdata,
				     scatter, e);
		if (!dense_mem(e))
			mem_in(e, e->stage, e->ws, e->cursor);
		e->done += e->cursor;
		return !e->eof;
	}
	if (!dense_mem(e))
		mem_out(e, e->stage, e->ws, e->wdata);
	if (e->lock_sieve && (e->err = lock(fd, F_WRLCK, e->wa, (MPI_Offset)span)) != 0)
		return false;
	r = read_full(fd, e->buf, span, e->wa);
	if (r < 0) {
		e->err = (int)r;
	} else {
		/* Holes past the end of the file are written as zeros, as a write beyond the
		 * end leaves them; the window ends at a piece's last byte, so it never writes
		 * past what the access writes. */
		memset(e->buf + r, 0, span - (size_t)r);
		shl_file_view_pieces(e->v, e->pos + (MPI_Offset)e->ws, (MPI_Offset)e->wdata,
				     gather, e);
		e->err = write_full(fd, e->buf, span, e->wa);
	}
	if (e->lock_sieve)
		lock(fd, F_UNLCK, e->wa, (MPI_Offset)span);
	if (e->err != 0)
		return false;
	e->done += e->wdata;
	return true;
}

static bool flush(struct eng *e)
{
	bool ok;

	if (e->wdata == 0)
		return true;
	ok = e->npieces == 1 ? direct(e, e->ws, e->wa, e->wdata) : sieved(e);
	e->wdata = 0;
	e->npieces = 0;
	return ok;
}

/* Planning, per piece in stream order: extend the window, or move what it holds and start
 * a new one. A window holds pieces that ascend in the file and span at most `cap` bytes;
 * a piece larger than that is a window of its own. A read's piece after a hole larger than
 * SHL_FILE_SIEVE_GAP starts a new window: one more pread costs less than copying the hole
 * (bench/io_strided, docs/io.md). A write keeps sieving: a piece written on its own takes a
 * lock and a pwrite, more than the window's share of one read-modify-write. */
static bool plan(void *ctx, MPI_Offset off, size_t len)
{
	struct eng *e = ctx;

	if (e->wdata > 0) {
		if (e->sieve && off >= e->wb && off + (MPI_Offset)len <= e->wa + (MPI_Offset)e->cap &&
		    (e->dir == SHL_FILE_WRITE || off - e->wb <= SHL_FILE_SIEVE_GAP)) {
			e->wb = off + (MPI_Offset)len;
			e->wdata += len;
			e->npieces++;
			e->planned += len;
			return true;
		}
		if (!flush(e))
			return false;
	}
	e->ws = e->planned;
	e->wa = off;
	e->wb = off + (MPI_Offset)len;
	e->wdata = len;
	e->npieces = 1;
	e->planned += len;
	return true;
}

/* Stream bytes [pos, pos + len) of v <-> dense memory at `mem` or typed memory (mem, mt),
 * native representation. Returns the bytes moved or -errno. */
static MPI_Offset rw_native(struct shl_file *f, const struct shl_file_view *v,
			    enum shl_file_dir dir, MPI_Offset pos, size_t len, char *mem,
			    const struct shl_datatype *mt)
{
	bool rd = dir == SHL_FILE_READ;
	/* A write reads its window back (sieving) or takes a shared lock (plain) only through
	 * a descriptor open for reading too: MPI_MODE_RDWR, or MPI_MODE_WRONLY opened for
	 * both where the permissions allowed it (file.c). */
	bool rdwr = !rd && !v->dense &&
		    ((f->amode & MPI_MODE_RDWR) || (fcntl(f->fd, F_GETFL) & O_ACCMODE) == O_RDWR);
	enum shl_file_cb ds = rd ? f->hints.ds_read : f->hints.ds_write;
	size_t cap = rd ? f->hints.ind_rd_buffer_size : f->hints.ind_wr_buffer_size;
	struct eng e = {
		.f = f, .v = v, .dir = dir, .mem = mem, .mt = mt, .pos = pos,
		.cap = cap > 0 ? cap : rd ? SHL_FILE_RD_WINDOW : SHL_FILE_WR_WINDOW,
		.sieve = ds != SHL_FILE_CB_DISABLE && (rd || rdwr),
		.lock_sieve = !f->atomic,
		.lock_plain = !rd && !f->atomic && v->holes_somewhere &&
			      ((f->amode & MPI_MODE_RDWR) ||
			       (fcntl(f->fd, F_GETFL) & O_ACCMODE) == O_RDWR),
	};
	MPI_Offset lo = 0, hi = 0;
	int err = 0;

	if (len == 0)
		return 0;
	if (v->tile_bytes == 0)
		return -EINVAL;   /* a view without data holds no stream byte */
	if (f->atomic) {
		/* Sequential consistency (MPI 4.1, 14.6.1): the whole range the access touches,
		 * exclusive for a write, shared for a read. */
		lo = shl_file_view_byte(v, pos);
		hi = shl_file_view_byte(v, pos + (MPI_Offset)len - 1) + 1;
		if ((err = lock(f->fd, rd ? F_RDLCK : F_WRLCK, lo, hi - lo)) != 0)
			return err;
	}
	if (shl_file_view_pieces(v, pos, (MPI_Offset)len, plan, &e))
		flush(&e);
	if (f->atomic)
		lock(f->fd, F_UNLCK, lo, hi - lo);
	free(e.buf);
	free(e.stage);
	if (e.err != 0)
		return e.err;
	return (MPI_Offset)e.done;
}

/* ---- the engine: representations ---- */

/* File bytes of one element of `type` in `rep` (0 if the representation cannot say). */
static size_t rep_size(const struct shl_datarep *rep, struct shl_datatype *type)
{
	MPI_Offset n = 0;

	if (shl_file_rep_native(rep))
		return type->size;
	if (shl_file_rep_size(rep, type, 1, &n) != MPI_SUCCESS || n < 0)
		return 0;
	return (size_t)n;
}

/* File bytes converted at a time: elements of the memory type whose file bytes fit this
 * go through one stream buffer. */
#define SHL_FILE_CONVERT_CHUNK (1u << 20)

/* A non-native representation: whole elements converted between memory and a stream
 * buffer, which the native engine moves. A read that ends inside an element (the
 * end of the file) converts the elements before it. */
static MPI_Offset rw_convert(struct shl_file *f, const struct shl_file_view *v,
			     enum shl_file_dir dir, MPI_Offset pos, char *buf, MPI_Count count,
			     struct shl_datatype *type)
{
	size_t fsize = rep_size(v->rep, type), per, moved = 0;
	char *tmp;
	MPI_Count at = 0;
	int err = 0;

	if (fsize == 0)
		return type->size == 0 ? 0 : -EILSEQ;
	per = SHL_FILE_CONVERT_CHUNK / fsize;
	if (per == 0)
		per = 1;
	if ((MPI_Count)per > count)
		per = (size_t)count;
	tmp = malloc(per * fsize);
	if (tmp == NULL)
		return -ENOMEM;
	while (at < count) {
		size_t n = count - at < (MPI_Count)per ? (size_t)(count - at) : per, want = n * fsize;
		MPI_Offset r, spos = pos + at * (MPI_Offset)fsize;

		if (dir == SHL_FILE_WRITE) {
			if (shl_file_rep_convert(v->rep, true, buf, (MPI_Count)n, type, tmp, at) !=
			    MPI_SUCCESS) {
				err = -EILSEQ;
				break;
			}
			if ((r = rw_native(f, v, dir, spos, want, tmp, NULL)) < 0) {
				err = (int)r;
				break;
			}
		} else {
			if ((r = rw_native(f, v, dir, spos, want, tmp, NULL)) < 0) {
				err = (int)r;
				break;
			}
			n = (size_t)r / fsize;
			if (n > 0 && shl_file_rep_convert(v->rep, false, buf, (MPI_Count)n, type, tmp,
							  at) != MPI_SUCCESS) {
				err = -EILSEQ;
				break;
			}
			if ((size_t)r < want) {
				moved += n * type->size;
				break;
			}
		}
		moved += n * type->size;
		at += (MPI_Count)n;
	}
	free(tmp);
	return err != 0 ? err : (MPI_Offset)moved;
}

MPI_Offset shl_file_rw(struct shl_file *f, const struct shl_file_view *v, enum shl_file_dir dir,
		       MPI_Offset pos, void *buf, MPI_Count count, struct shl_datatype *type)
{
	if (count <= 0 || type->size == 0)
		return 0;
	if (!shl_file_rep_native(v->rep))
		return rw_convert(f, v, dir, pos, buf, count, type);
	return rw_native(f, v, dir, pos, (size_t)count * type->size, buf,
			 type->contig ? NULL : type);
}

void shl_file_status(MPI_Status *st, MPI_Offset bytes)
{
	if (st == MPI_STATUS_IGNORE)
		return;
	st->MPI_SOURCE = MPI_ANY_SOURCE;
	st->MPI_TAG = MPI_ANY_TAG;
	st->shl_cancelled = 0;
	st->shl_bytes = bytes;
	st->shl_sent_bytes = 0;
}

/* ---- argument checks ---- */

int shl_file_check_buf(struct shl_file *f, const char *fn, enum shl_file_dir dir,
		       const void *buf, MPI_Count count, MPI_Datatype type)
{
	const char *bad;
	size_t bytes;

	if (dir == SHL_FILE_WRITE && (f->amode & MPI_MODE_RDONLY))
		return shl_file_err(f, MPI_ERR_READ_ONLY, fn, "the file was opened with "
				    "MPI_MODE_RDONLY");
	if (dir == SHL_FILE_READ && (f->amode & MPI_MODE_WRONLY))
		return shl_file_err(f, MPI_ERR_ACCESS, fn, "the file was opened with "
				    "MPI_MODE_WRONLY");
	if (count < 0)
		return shl_file_err(f, MPI_ERR_COUNT, fn, "count is %lld: it must be at least 0",
				    (long long)count);
	if (!shl_type_ok(type))
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype is not a valid datatype%s",
				    type == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if ((bad = shl_dt_unusable(type)) != NULL)
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype %s", bad);
	if (__builtin_mul_overflow((size_t)count, type->size, &bytes) || bytes > PTRDIFF_MAX)
		return shl_file_err(f, MPI_ERR_COUNT, fn, "count %lld of a datatype of %zu bytes "
				    "is more than a buffer can hold", (long long)count, type->size);
	if (shl_buf_missing(buf, count, type))
		return shl_file_err(f, MPI_ERR_BUFFER, fn, "buf is NULL but count is %lld",
				    (long long)count);
	if (dir == SHL_FILE_READ && shl_dt_recv_overlaps(type, (size_t)count))
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype writes some bytes of buf twice "
				    "(MPI 4.1, 5.1)");
	if (bytes > 0 && f->view.tile_bytes == 0)
		return shl_file_err(f, MPI_ERR_ARG, fn, "the view's filetype holds no data: no "
				    "element can be accessed through it");
	if (bytes > 0 && rep_size(f->view.rep, type) * (size_t)count % f->view.esize != 0)
		return shl_file_err(f, MPI_ERR_TYPE, fn, "%lld elements of datatype are not a whole "
				    "number of the view's etypes (%zu bytes each in the file)",
				    (long long)count, f->view.esize);
	return MPI_SUCCESS;
}

/* ---- explicit offsets and the individual pointer ---- */

/* Stream bytes of an access that moved `bytes` of the memory signature of `type`. */
static MPI_Offset stream_bytes(const struct shl_file_view *v, struct shl_datatype *type,
			       MPI_Offset bytes)
{
	if (shl_file_rep_native(v->rep) || type->size == 0)
		return bytes;
	return bytes / (MPI_Offset)type->size * (MPI_Offset)rep_size(v->rep, type);
}

/* Every read and write of this file: explicit offset `offset` (at) or the individual
 * pointer. */
static int rw_call(const char *fn, MPI_File fh, bool at, MPI_Offset offset, void *buf,
		   MPI_Count count, MPI_Datatype type, MPI_Status *status, enum shl_file_dir dir)
{
	struct shl_file *f;
	MPI_Offset r;
	int err;

	if ((err = shl_file_check_access(fn, fh, &f, dir, at, offset, buf, count, type)) !=
	    MPI_SUCCESS)
		return err;
	if (!at)
		offset = f->fp;
	r = shl_file_rw(f, &f->view, dir, offset * (MPI_Offset)f->view.esize, buf, count, type);
	if (r == -EILSEQ)
		return shl_file_err(f, MPI_ERR_CONVERSION, fn, "a value of %s does not convert "
				    "to or from the %s representation", type->name ? type->name
				    : "a derived datatype", shl_file_rep_name(f->view.rep));
	if (r < 0)
		return shl_file_errno(f, (int)-r, fn, "%s %lld elements of %s at etype %lld "
				      "(file byte %lld)", dir == SHL_FILE_READ ? "reading"
				      : "writing", (long long)count, type->name ? type->name
				      : "a derived datatype", (long long)offset,
				      (long long)shl_file_view_byte(&f->view, offset *
						(MPI_Offset)f->view.esize));
	if (!at)
		f->fp += stream_bytes(&f->view, type, r) / (MPI_Offset)f->view.esize;
	shl_file_status(status, r);
	return MPI_SUCCESS;
}

int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void *buf, int count,
		      MPI_Datatype datatype, MPI_Status *status)
{
	return rw_call("MPI_File_read_at", fh, true, offset, buf, count, datatype, status,
		       SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_at);

int PMPI_File_read_at_c(MPI_File fh, MPI_Offset offset, void *buf, MPI_Count count,
			MPI_Datatype datatype, MPI_Status *status)
{
	return rw_call("MPI_File_read_at_c", fh, true, offset, buf, count, datatype, status,
		       SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_at_c);

int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void *buf, int count,
		       MPI_Datatype datatype, MPI_Status *status)
{
	return rw_call("MPI_File_write_at", fh, true, offset, (void *)buf, count, datatype,
		       status, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_at);

int PMPI_File_write_at_c(MPI_File fh, MPI_Offset offset, const void *buf, MPI_Count count,
			 MPI_Datatype datatype, MPI_Status *status)
{
	return rw_call("MPI_File_write_at_c", fh, true, offset, (void *)buf, count, datatype,
		       status, SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_at_c);

int PMPI_File_read(MPI_File fh, void *buf, int count, MPI_Datatype datatype, MPI_Status *status)
{
	return rw_call("MPI_File_read", fh, false, 0, buf, count, datatype, status,
		       SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read);

int PMPI_File_read_c(MPI_File fh, void *buf, MPI_Count count, MPI_Datatype datatype,
		     MPI_Status *status)
{
	return rw_call("MPI_File_read_c", fh, false, 0, buf, count, datatype, status,
		       SHL_FILE_READ);
}
SHL_WEAK_ALIAS(File_read_c);

int PMPI_File_write(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
		    MPI_Status *status)
{
	return rw_call("MPI_File_write", fh, false, 0, (void *)buf, count, datatype, status,
		       SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write);

int PMPI_File_write_c(MPI_File fh, const void *buf, MPI_Count count, MPI_Datatype datatype,
		      MPI_Status *status)
{
	return rw_call("MPI_File_write_c", fh, false, 0, (void *)buf, count, datatype, status,
		       SHL_FILE_WRITE);
}
SHL_WEAK_ALIAS(File_write_c);

/* ---- positions ---- */

/* The individual pointer may be used: not MPI_MODE_SEQUENTIAL. */
static int individual_ok(struct shl_file *f, const char *fn)
{
	if (f->amode & MPI_MODE_SEQUENTIAL)
		return shl_file_err(f, MPI_ERR_UNSUPPORTED_OPERATION, fn, "the file was opened "
				    "with MPI_MODE_SEQUENTIAL: it has no individual file pointer");
	return MPI_SUCCESS;
}

int shl_file_eof(struct shl_file *f, MPI_Offset *etypes)
{
	struct stat sb;
	MPI_Offset s;

	if (fstat(f->fd, &sb) != 0)
		return -errno;
	s = shl_file_view_stream(&f->view, sb.st_size);
	*etypes = (s + (MPI_Offset)f->view.esize - 1) / (MPI_Offset)f->view.esize;
	return 0;
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence)
{
	static const char fn[] = "MPI_File_seek";
	struct shl_file *f;
	MPI_Offset base;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS ||
	    (err = individual_ok(f, fn)) != MPI_SUCCESS)
		return err;
	switch (whence) {
	case MPI_SEEK_SET:
		base = 0;
		break;
	case MPI_SEEK_CUR:
		base = f->fp;
		break;
	case MPI_SEEK_END:
		if ((err = shl_file_eof(f, &base)) != 0)
			return shl_file_errno(f, -err, fn, "the size of the file is unknown");
		break;
	default:
		return shl_file_err(f, MPI_ERR_ARG, fn, "whence is %d: it must be MPI_SEEK_SET, "
				    "MPI_SEEK_CUR or MPI_SEEK_END", whence);
	}
	if (__builtin_add_overflow(base, offset, &base) || base < 0)
		return shl_file_err(f, MPI_ERR_ARG, fn, "offset %lld from %s moves the pointer "
				    "before the start of the view", (long long)offset,
				    whence == MPI_SEEK_SET ? "MPI_SEEK_SET" : whence == MPI_SEEK_CUR
				    ? "MPI_SEEK_CUR" : "MPI_SEEK_END");
	f->fp = base;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_seek);

int PMPI_File_get_position(MPI_File fh, MPI_Offset *offset)
{
	static const char fn[] = "MPI_File_get_position";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS ||
	    (err = individual_ok(f, fn)) != MPI_SUCCESS)
		return err;
	if (offset == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "offset is NULL");
	*offset = f->fp;
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_position);

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp)
{
	static const char fn[] = "MPI_File_get_byte_offset";
	struct shl_file *f;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (disp == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "disp is NULL");
	if (offset < 0)
		return shl_file_err(f, MPI_ERR_ARG, fn, "offset is %lld: it must be at least 0",
				    (long long)offset);
	*disp = shl_file_view_byte(&f->view, offset * (MPI_Offset)f->view.esize);
	return MPI_SUCCESS;
}
SHL_WEAK_ALIAS(File_get_byte_offset);

static int type_extent(const char *fn, MPI_File fh, MPI_Datatype type, MPI_Count *extent)
{
	struct shl_file *f;
	MPI_Aint x;
	int err;

	shl_rank_or_die(fn);
	if ((err = shl_file_check(fn, fh, &f)) != MPI_SUCCESS)
		return err;
	if (!shl_type_ok(type))
		return shl_file_err(f, MPI_ERR_TYPE, fn, "datatype is not a valid datatype%s",
				    type == MPI_DATATYPE_NULL ? " (MPI_DATATYPE_NULL)" : "");
	if (extent == NULL)
		return shl_file_err(f, MPI_ERR_ARG, fn, "extent is NULL");
	if ((err = shl_file_rep_extent(f->view.rep, type, &x)) != MPI_SUCCESS)
		return shl_file_err(f, err, fn, "the extent of datatype in the %s representation "
				    "is unknown", shl_file_rep_name(f->view.rep));
	*extent = x;
	return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint *extent)
{
	MPI_Count e = 0;
	int err = type_extent("MPI_File_get_type_extent", fh, datatype, extent ? &e : NULL);

	if (err == MPI_SUCCESS)
		*extent = (MPI_Aint)e;
	return err;
}
SHL_WEAK_ALIAS(File_get_type_extent);

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count *extent)
{
	return type_extent("MPI_File_get_type_extent_c", fh, datatype, extent);
}
SHL_WEAK_ALIAS(File_get_type_extent_c);
