/* The node's standard streams as ranks see them: stdout and stderr line by line per rank,
 * labelled or not (mpiexec --tag-output, -l), copied to a file per rank and stream
 * (mpiexec --output-filename), stdin read by rank 0 alone (the others read end-of-file),
 * and a rank's freopen or fclose of one of them its own, as in a process. A rank's own
 * write(2) and writev(2) on descriptors 1 and 2 (libgfortran writes units 6 and 0 so, and
 * a program may) join the same line buffers, and its read(2) on descriptor 0 reads as its
 * stdin does; libmpi's own calls do not.
 * Ranks that are processes (loader/node_exec.c) write into pipes whose bytes the node's main
 * thread passes to shl_loader_stdio_put: their lines are cut and labelled the same way.
 * Entered by the node's main thread (setup, before ranks start; the pipes of process ranks),
 * any thread writing stdout or stderr or reading stdin, and the exit paths (flush, possibly
 * from a crash handler).
 * Must not mix two ranks' bytes in one line nor lose a line a rank completed. */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/exit.h"
#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "runtime/job.h"

/* A line longer than this goes out in pieces (labelled ones each ended by a newline): the
 * proxy's own piece size (SHL_PROXY_LINE_MAX), so across hosts a piece travels whole. */
#define SHL_STDIO_LINE_MAX (64 * 1024)
/* Bytes of stdin rank 0 reads ahead (the shared FILE is unbuffered, see below): a Linux
 * pipe's default capacity, so one read(2) empties a full pipe. */
#define SHL_STDIO_IN_BUF (64 * 1024)

/* One rank's side of one stream: its unfinished output line, and what its own freopen or
 * fclose made of the stream. Touched by the rank's threads; `buf` and `copy_fd` also by
 * the exit paths, under the stream's lock. */
struct line {
	char *buf;
	size_t len, cap;
	int copy_fd;     /* its file under mpiexec --output-filename, -1 if it cannot be made */
	bool copy_tried; /* copy_fd was opened (or failed to) */
	FILE *file;   /* the rank's freopen: its bytes go to (or come from) there */
	bool closed;  /* the rank's fclose: its bytes go nowhere, it reads end-of-file */
};

/* A stream as the ranks see it: an unbuffered FILE whose every write (or read) comes here
 * in the calling thread, so the rank is known. Each rank's whole lines go to `fd` in one
 * write, with the rank's label if asked for. The ranks share glibc's FILEs, so without
 * this their pieces of lines (C++'s `cout << a << b`, two printfs) would mix, and a buffer
 * would be labelled with the rank that happens to flush it. */
struct stream {
	int fd;
	const char *name;      /* "stdout", "stderr", "stdin" */
	pthread_mutex_t lock;  /* one write(2) at a time on fd, and the line buffers */
	struct line *lines;    /* one per local rank, index of shl_loader.copies */
	FILE *f;               /* the FILE made here; the fields are written by the main
				* thread before ranks start */
};

enum { OUT, ERR, IN };
static struct stream streams[3] = {
	[OUT] = { .fd = STDOUT_FILENO, .name = "stdout", .lock = PTHREAD_MUTEX_INITIALIZER },
	[ERR] = { .fd = STDERR_FILENO, .name = "stderr", .lock = PTHREAD_MUTEX_INITIALIZER },
	[IN] = { .fd = STDIN_FILENO, .name = "stdin", .lock = PTHREAD_MUTEX_INITIALIZER },
};
static bool labelled;   /* lines start with their rank's label */
static const char *copy_dir;  /* SHOAL_OUTPUT_DIR (mpiexec --output-filename), or NULL */
static bool tag_style;  /* the label is Open MPI's [1,R]<stdout>: rather than MPICH's [R] */

/* Rank 0's read-ahead of stdin. Only rank 0's threads touch it, under the FILE's lock. */
static char in_buf[SHL_STDIO_IN_BUF];
static size_t in_pos, in_len;

/* Writes the pieces whole to `fd` with the system call itself: the writev symbol is the
 * ranks' (below), which a sanitizer's interceptor of writev would call back into. */
static void write_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = syscall(SYS_writev, fd, iov, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return;
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
}

/* mpiexec --output-filename DIR: local rank `k`'s copy of stream `o`, the file
 * DIR/1/rank.R/stdout (or stderr) as Open MPI 4.1 names it, made at the rank's first line
 * with its directories. -1 where it cannot be made (said once, on the node's stderr). */
static int copy_file(struct stream *o, struct line *l, int rank)
{
	char path[PATH_MAX];
	int n;

	if (l->copy_tried)
		return l->copy_fd;
	l->copy_tried = true;
	l->copy_fd = -1;
	n = snprintf(path, sizeof(path), "%s/1/rank.%d/%s", copy_dir, rank, o->name);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			break;
		*slash = '/';
	}
	l->copy_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (l->copy_fd < 0) {
		char msg[PATH_MAX + 96];
		struct iovec iov = { msg, 0 };

		n = snprintf(msg, sizeof(msg), "shoal: rank %d: cannot write %s: %s\n", rank, path,
			     strerror(errno));
		iov.iov_len = n > 0 ? (size_t)n : 0;
		write_all(streams[ERR].fd, &iov, 1);
	}
	return l->copy_fd;
}

/* One line (or piece) of local rank `k` in one write. A labelled piece that does not end a
 * line gets a newline, for the next piece's label; unlabelled bytes go out as written.
 * Caller holds o->lock. */
static void emit(struct stream *o, int k, const char *p, size_t n)
{
	char label[48];
	int rank = shl_loader.copies[k].rank, w = 0;

	if (labelled)
		w = tag_style ? snprintf(label, sizeof(label), "[1,%d]<%s>:", rank, o->name)
			      : snprintf(label, sizeof(label), "[%d] ", rank);
	struct iovec iov[3] = { { label, (size_t)w }, { (void *)p, n }, { "\n", 1 } };

	write_all(o->fd, iov, labelled && p[n - 1] != '\n' ? 3 : 2);
	if (copy_dir != NULL && copy_file(o, &o->lines[k], rank) >= 0) {
		struct iovec raw = { (void *)p, n };

		write_all(o->lines[k].copy_fd, &raw, 1);
	}
}

/* Index in shl_loader.copies of world rank `rank`, or -1 (copies are in rank order). */
static int local_index(int rank)
{
	int lo = 0, hi = shl_loader.nranks - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, r = shl_loader.copies[mid].rank;

		if (r == rank)
			return mid;
		if (r < rank)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The calling rank's side of `s`, or NULL for the node's own threads. */
static struct line *rank_side(struct stream *s)
{
	int rank = shl_job_my_rank(), k = rank >= 0 ? local_index(rank) : -1;

	return k >= 0 ? &s->lines[k] : NULL;
}

/* Under o->lock: `n` bytes of local rank `k`; each whole line goes out in one write. */
static void put_locked(struct stream *o, int k, const char *p, size_t n)
{
	struct line *l = &o->lines[k];

	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) + 1 : n;

		if (l->len == 0 && nl) {  /* a whole line: no copy */
			emit(o, k, p, take);
		} else {
			if (l->len + take > l->cap) {
				size_t cap = l->cap ? l->cap : 256;
				char *b;

				while (cap < l->len + take)
					cap *= 2;
				b = realloc(l->buf, cap);
				if (!b)
					break;
				l->buf = b;
				l->cap = cap;
			}
			memcpy(l->buf + l->len, p, take);
			l->len += take;
			if (nl || l->len >= SHL_STDIO_LINE_MAX) {
				emit(o, k, l->buf, l->len);
				l->len = 0;
			}
		}
		p += take;
		n -= take;
	}
}

/* Whether the calling thread is inside put_pieces (initial-exec: libmpi.so is loaded at
 * start-up, as for shl_loader_self). */
static __thread bool in_put __attribute__((tls_model("initial-exec")));

/* `n` pieces of output of the calling thread on `o`, as one write: a rank's go into its
 * line buffer (or its own freopen'ed file); the node's own threads' (Shoal's messages) out
 * unlabelled. */
static void put_pieces(struct stream *o, struct line *l, const struct iovec *iov, int n)
{
	if (l != NULL && (l->closed || l->file != NULL)) {  /* the rank's own fclose, freopen */
		for (int i = 0; i < n && !l->closed; i++)
			fwrite(iov[i].iov_base, 1, iov[i].iov_len, l->file);
		return;
	}
	if (in_put) {
		/* A signal handler's write(1, ...) that interrupted this thread inside this
		 * function (it may hold the lock): out as it is, unlabelled, rather than wait
		 * for ever. */
		for (int i = 0; i < n; i++) {
			struct iovec one = iov[i];

			write_all(o->fd, &one, 1);
		}
		return;
	}
	in_put = true;
	pthread_mutex_lock(&o->lock);
	for (int i = 0; i < n; i++) {
		if (l == NULL) {
			struct iovec one = iov[i];

			write_all(o->fd, &one, 1);
		} else if (iov[i].iov_len > 0) {
			put_locked(o, (int)(l - o->lines), iov[i].iov_base, iov[i].iov_len);
		}
	}
	pthread_mutex_unlock(&o->lock);
	in_put = false;
}

static ssize_t write_out(void *cookie, const char *p, size_t n)
{
	struct stream *o = cookie;
	struct iovec iov = { (void *)p, n };

	put_pieces(o, rank_side(o), &iov, 1);
	return (ssize_t)n;
}

void shl_loader_stdio_put(int k, bool err, const char *p, size_t n)
{
	struct stream *o = &streams[err ? ERR : OUT];

	pthread_mutex_lock(&o->lock);
	put_locked(o, k, p, n);
	pthread_mutex_unlock(&o->lock);
}

/* Write out the unfinished line of local rank `k` on output stream `o`. `wait`: take the
 * lock, else (a crash handler) only try it. */
static void finish_line(struct stream *o, int k, bool wait)
{
	if (wait ? pthread_mutex_lock(&o->lock) : pthread_mutex_trylock(&o->lock))
		return;
	if (o->lines[k].len) {
		emit(o, k, o->lines[k].buf, o->lines[k].len);
		o->lines[k].len = 0;
	}
	pthread_mutex_unlock(&o->lock);
}

/* End the rank's use of what its side `l` of `s` holds: write out its unfinished line
 * (stdin has none) and close the file its freopen opened. Returns fclose's result. */
static int end_side(struct stream *s, struct line *l)
{
	int err = 0;

	finish_line(s, (int)(l - s->lines), true);
	if (l->file != NULL)
		err = fclose(l->file);
	l->file = NULL;
	return err;
}

void shl_loader_stdio_rank_done(struct shl_copy *c)
{
	fflush(NULL);
	for (int i = 0; i < 3 && streams[i].lines; i++)  /* as a process's files are closed */
		end_side(&streams[i], &streams[i].lines[c - shl_loader.copies]);
}

void shl_loader_stdio_flush_all(bool wait)
{
	for (int i = OUT; i <= ERR && streams[i].lines; i++)
		for (int k = 0; k < shl_loader.nranks; k++)
			finish_line(&streams[i], k, wait);
}

/* stdin shared by the ranks of a node: rank 0 (and threads it made) read fd 0, every other
 * rank reads end-of-file, as if its stdin were /dev/null; a rank that reopened stdin reads
 * its file. The FILE is unbuffered so no rank takes bytes another one's read brought in;
 * rank 0 reads ahead in in_buf. */
static ssize_t read_in(void *cookie, char *p, size_t n)
{
	struct line *l = rank_side(cookie);
	ssize_t r;

	if (l != NULL && l->file != NULL) {
		size_t got = fread(p, 1, n, l->file);

		return got > 0 || !ferror(l->file) ? (ssize_t)got : -1;
	}
	if (shl_job_my_rank() != 0 || (l != NULL && l->closed))
		return 0;
	if (in_pos == in_len) {
		do  /* the system call: the read symbol is the ranks' (below) */
			r = syscall(SYS_read, STDIN_FILENO, in_buf, sizeof(in_buf));
		while (r < 0 && errno == EINTR);
		if (r <= 0)
			return r;
		in_pos = 0;
		in_len = (size_t)r;
	}
	if (n > in_len - in_pos)
		n = in_len - in_pos;
	memcpy(p, in_buf + in_pos, n);
	in_pos += n;
	return (ssize_t)n;
}

/* The addresses of libmpi.so's own segments: a write(2) called from there is Shoal's (the
 * line buffers' own writes, messages, crash reports) and goes to the descriptor as is.
 * Set by the main thread before the streams are made, read by any thread after. */
static uintptr_t own_lo, own_hi;

static int find_own(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, here = (uintptr_t)arg;

	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (info->dlpi_addr + ph->p_vaddr < lo)
			lo = info->dlpi_addr + ph->p_vaddr;
		if (info->dlpi_addr + ph->p_vaddr + ph->p_memsz > hi)
			hi = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
	}
	if (here < lo || here >= hi)
		return 0;
	own_lo = lo;
	own_hi = hi;
	return 1;
}

/* gfortran's run-time library buffers its preconnected units (WRITE(*,*) to unit 6, unit
 * 0) when they are not a terminal, and writes them at its buffer's end or the rank's: each
 * rank's lines would show late and out of step with its C output. Unbuffered, every WRITE
 * statement reaches the rank's line buffer as it ends, as C's lines do. Read by each
 * rank's copy of libgfortran as it loads, after this; a user's own setting stays. */
static void fortran_unbuffered(void)
{
	setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
}

int shl_loader_stdio_setup(void)
{
	const char *label = getenv("SHOAL_OUTPUT_LABEL");

	for (int k = 1; k < shl_loader.nranks; k++)
		if (shl_loader.copies[k].rank <= shl_loader.copies[k - 1].rank)
			return -EINVAL;  /* local_index needs rank order */
	fflush(NULL);
	dl_iterate_phdr(find_own, (void *)(uintptr_t)shl_loader_stdio_setup);
	fortran_unbuffered();
	/* Line by line also means output shows as it is printed (under `| tee`, in a batch
	 * job's log) and a job killed with SIGKILL keeps what it printed, as Open MPI gives
	 * with its ranks' pty; glibc would buffer a pipe or file fully. */
	labelled = label && *label;
	copy_dir = getenv("SHOAL_OUTPUT_DIR");
	if (copy_dir != NULL && *copy_dir == '\0')
		copy_dir = NULL;
	tag_style = labelled && !strcmp(label, "tag");
	for (int i = 0; i < 3; i++) {
		struct stream *s = &streams[i];
		FILE *f;

		if (i == IN && shl_loader.nranks == 1)
			break;  /* one rank: libc's stdin is its own */
		s->lines = calloc((size_t)shl_loader.nranks, sizeof(struct line));
		f = i == IN ? fopencookie(s, "r", (cookie_io_functions_t){ .read = read_in })
			    : fopencookie(s, "w", (cookie_io_functions_t){ .write = write_out });
		if (!s->lines || !f || setvbuf(f, NULL, _IONBF, 0))
			return -ENOMEM;
		/* fileno(stdout) is still 1 (isatty, fsync, write): glibc reads and writes a
		 * cookie FILE through its functions whatever its descriptor says. */
		f->_fileno = s->fd;
		s->f = f;
	}
	stdout = streams[OUT].f;
	stderr = streams[ERR].f;
	if (streams[IN].f)
		stdin = streams[IN].f;
	shl_exit_set_flush(shl_loader_stdio_flush_all);  /* however the node ends */
	return 0;
}

/* The stream of `f` if it is one made here, else NULL. */
static struct stream *ours(FILE *f)
{
	for (int i = 0; i < 3 && f != NULL; i++)
		if (f == streams[i].f)
			return &streams[i];
	return NULL;
}

/* Point `fn` at libc's function `name`, once (a race stores the same value). */
#define FIND(fn, name)                                                  \
	do {                                                            \
		if (fn == NULL)                                         \
			fn = (__typeof__(fn))dlsym(RTLD_NEXT, name);   \
	} while (0)

/* libc's read, write and writev behind the ones below, found by libmpi's constructor
 * before any program runs (a crash report writes from a signal handler, where dlsym could
 * deadlock), or at the first call if that comes earlier (a constructor of a library
 * loaded before libmpi.so). */
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);

__attribute__((constructor)) static void find_real_io(void)
{
	FIND(real_read, "read");
	FIND(real_write, "write");
	FIND(real_writev, "writev");
}

/* The stream whose line buffers take a write(2) on `fd` called from `caller`, with the
 * calling rank's side in *l: descriptors 1 and 2, written by a rank's code (its program,
 * its libraries: libgfortran's units 6 and 0), once the streams are made. NULL for other
 * descriptors, for Shoal's own writes (from libmpi.so, so the line buffers' own writes and
 * crash reports never come back here) and for the node's own threads. */
static struct stream *rank_fd(int fd, const void *caller, struct line **l)
{
	struct stream *s;
	uintptr_t at = (uintptr_t)caller;

	if (fd == STDOUT_FILENO)
		s = &streams[OUT];
	else if (fd == STDERR_FILENO)
		s = &streams[ERR];
	else
		return NULL;
	if (s->lines == NULL || (at >= own_lo && at < own_hi))
		return NULL;
	*l = rank_side(s);
	return *l != NULL ? s : NULL;
}

/* A rank's read(0, ...) (libgfortran's unit 5 reads so) reads what its stdin FILE would:
 * rank 0 the node's descriptor 0, through the same read-ahead, the others end-of-file, a
 * rank that reopened stdin its file. With one rank, and for Shoal's own reads, it is
 * libc's read. */
SHL_LOADER_EXPORT ssize_t read(int fd, void *p, size_t n)
{
	struct stream *s = &streams[IN];
	uintptr_t at = (uintptr_t)__builtin_return_address(0);

	if (fd == STDIN_FILENO && s->f != NULL && (at < own_lo || at >= own_hi) &&
	    rank_side(s) != NULL) {
		ssize_t r;

		flockfile(s->f);  /* in_buf's guard, as for the FILE's own reads */
		r = read_in(s, p, n);
		funlockfile(s->f);
		return r;
	}
	FIND(real_read, "read");
	return real_read(fd, p, n);
}

/* A rank's write(1, ...) or write(2, ...) is one of its lines (or a piece), labelled and
 * copied as its printf's are; it counts as written whole. */
SHL_LOADER_EXPORT ssize_t write(int fd, const void *p, size_t n)
{
	struct line *l;
	struct stream *s = rank_fd(fd, __builtin_return_address(0), &l);

	if (s == NULL) {
		FIND(real_write, "write");
		return real_write(fd, p, n);
	}
	struct iovec iov = { (void *)p, n };

	put_pieces(s, l, &iov, 1);
	return (ssize_t)n;
}

SHL_LOADER_EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
	struct line *l;
	struct stream *s = rank_fd(fd, __builtin_return_address(0), &l);
	size_t total = 0;

	if (s == NULL || n < 0 || n > IOV_MAX) {
		FIND(real_writev, "writev");
		return real_writev(fd, iov, n);
	}
	for (int i = 0; i < n; i++)
		total += iov[i].iov_len;
	put_pieces(s, l, iov, n);
	return (ssize_t)total;
}

/* A program's setvbuf(stdout, NULL, _IOLBF, 0) (common in MPI programs, for timely output)
 * must not give the FILEs made here a buffer: for those the buffering calls do nothing
 * (the FILEs already pass every byte on at once). Other streams are glibc's. */
SHL_LOADER_EXPORT int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	static int (*real)(FILE *, char *, int, size_t);

	if (ours(f))
		return 0;
	FIND(real, "setvbuf");
	return real(f, buf, mode, size);
}

SHL_LOADER_EXPORT void setbuf(FILE *f, char *buf)
{
	setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

SHL_LOADER_EXPORT void setbuffer(FILE *f, char *buf, size_t size)
{
	setvbuf(f, buf, buf ? _IOFBF : _IONBF, size);
}

SHL_LOADER_EXPORT void setlinebuf(FILE *f)
{
	setvbuf(f, NULL, _IOLBF, 0);
}

/* freopen(path, mode, stdout) in a rank sends that rank's output to `path`, and only its
 * own, as a process per rank would (the others keep the shared stream); the same for
 * stderr and stdin. The stream keeps its FILE, which glibc cannot reopen (a cookie). */
static FILE *reopen(const char *path, const char *mode, FILE *f)
{
	static FILE *(*real)(const char *, const char *, FILE *);
	struct stream *s = ours(f);
	struct line *l = s ? rank_side(s) : NULL;
	FILE *to;

	if (s == NULL) {
		FIND(real, "freopen");
		return real(path, mode, f);
	}
	if (l == NULL) {  /* the node's own threads */
		errno = EINVAL;
		return NULL;
	}
	if (path == NULL)  /* a change of mode only: the stream stays as it is */
		return f;
	to = fopen(path, mode);
	if (to == NULL)
		return NULL;
	end_side(s, l);
	l->file = to;
	l->closed = false;
	return f;
}

SHL_LOADER_EXPORT FILE *freopen(const char *path, const char *mode, FILE *f)
{
	return reopen(path, mode, f);
}

SHL_LOADER_EXPORT FILE *freopen64(const char *path, const char *mode, FILE *f)
{
	return reopen(path, mode, f);
}

/* fclose(stdout) in a rank closes the rank's side only (its reopened file, if any): the
 * stream stays for the other ranks and the node. */
SHL_LOADER_EXPORT int fclose(FILE *f)
{
	static int (*real)(FILE *);
	struct stream *s = ours(f);
	struct line *l = s ? rank_side(s) : NULL;
	int err;

	if (s == NULL) {
		FIND(real, "fclose");
		return real(f);
	}
	if (l == NULL)
		return 0;
	err = end_side(s, l);
	l->closed = true;
	return err;
}

/* fflush(stdout) after the rank's freopen flushes the rank's file. */
SHL_LOADER_EXPORT int fflush(FILE *f)
{
	static int (*real)(FILE *);
	struct stream *s = ours(f);
	struct line *l = s ? rank_side(s) : NULL;

	FIND(real, "fflush");
	return real(l != NULL && l->file != NULL ? l->file : f);
}
