/* The node's standard streams as ranks see them: stdout and stderr line by line per rank,
 * labelled or not (mpiexec --tag-output, -l), and stdin read by rank 0 alone (the others
 * read end-of-file).
 * Entered by the node's main thread (setup, before ranks start), any thread writing stdout
 * or stderr or reading stdin, and the exit paths (flush, possibly from a crash handler).
 * Must not mix two ranks' bytes in one line nor lose a line a rank completed. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "loader/loader.h"
#include "loader/loader_internal.h"
#include "runtime/job.h"

/* A line longer than this goes out in pieces (labelled ones each ended by a newline): the
 * proxy's own piece size (SHL_PROXY_LINE_MAX), so across hosts a piece travels whole. */
#define SHL_STDIO_LINE_MAX (64 * 1024)
/* Bytes of stdin rank 0 reads ahead (the shared FILE is unbuffered, see below): a Linux
 * pipe's default capacity, so one read(2) empties a full pipe. */
#define SHL_STDIO_IN_BUF (64 * 1024)

/* The unfinished line of one rank on one stream. */
struct line {
	char *buf;
	size_t len, cap;
};

/* stdout or stderr as the ranks see it: an unbuffered FILE whose every write comes to
 * `write_out` in the writing thread, so the rank is known; each rank's whole lines go to
 * `fd` in one write, with the rank's label if asked for. The ranks share glibc's FILEs, so
 * without this their pieces of lines (C++'s `cout << a << b`, two printfs) would mix. */
struct out {
	int fd;
	const char *name;      /* "stdout", "stderr" */
	pthread_mutex_t lock;  /* one write(2) at a time on fd, and the line buffers */
	struct line *lines;    /* one per local rank, index of shl_loader.copies */
};

static struct out outs[2] = {
	{ .fd = STDOUT_FILENO, .name = "stdout", .lock = PTHREAD_MUTEX_INITIALIZER },
	{ .fd = STDERR_FILENO, .name = "stderr", .lock = PTHREAD_MUTEX_INITIALIZER },
};
static bool labelled;   /* lines start with their rank's label */
static bool tag_style;  /* the label is Open MPI's [1,R]<stdout>: rather than MPICH's [R] */
static bool per_rank;   /* `outs` are stdout and stderr */
/* The FILEs made here, which must stay unbuffered: a buffer would be shared by every rank
 * (lines would mix, and be labelled with the rank that happens to flush). Written by the
 * main thread before ranks start. */
static FILE *ours[3];

/* Rank 0's read-ahead of stdin. Only rank 0's threads touch it, under the FILE's lock. */
static char in_buf[SHL_STDIO_IN_BUF];
static size_t in_pos, in_len;

static void write_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);

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

/* One line (or piece) of `rank` in one write. A labelled piece that does not end a line
 * gets a newline, for the next piece's label; unlabelled bytes go out as written. */
static void emit(struct out *o, int rank, const char *p, size_t n)
{
	char label[48];
	int k = 0;

	if (labelled)
		k = tag_style ? snprintf(label, sizeof(label), "[1,%d]<%s>:", rank, o->name)
			      : snprintf(label, sizeof(label), "[%d] ", rank);
	struct iovec iov[3] = { { label, (size_t)k }, { (void *)p, n }, { "\n", 1 } };

	write_all(o->fd, iov, labelled && p[n - 1] != '\n' ? 3 : 2);
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

static ssize_t write_out(void *cookie, const char *p, size_t n)
{
	struct out *o = cookie;
	int rank = shl_job_my_rank(), k = rank >= 0 ? local_index(rank) : -1;
	size_t done = n;

	pthread_mutex_lock(&o->lock);
	if (k < 0) {  /* the node's own threads: Shoal's messages, unlabelled */
		struct iovec iov = { (void *)p, n };

		write_all(o->fd, &iov, 1);
		pthread_mutex_unlock(&o->lock);
		return (ssize_t)done;
	}
	struct line *l = &o->lines[k];

	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl ? (size_t)(nl - p) + 1 : n;

		if (l->len == 0 && nl) {  /* a whole line: no copy */
			emit(o, rank, p, take);
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
				emit(o, rank, l->buf, l->len);
				l->len = 0;
			}
		}
		p += take;
		n -= take;
	}
	pthread_mutex_unlock(&o->lock);
	return (ssize_t)done;
}

/* Write out a rank's unfinished lines. `k` is its index; `wait`: take the lock, else (a
 * crash handler) only try it. */
static void finish_rank(int k, bool wait)
{
	for (int i = 0; i < 2 && per_rank; i++) {
		struct out *o = &outs[i];

		if (wait ? pthread_mutex_lock(&o->lock) : pthread_mutex_trylock(&o->lock))
			continue;
		if (o->lines[k].len) {
			emit(o, shl_loader.copies[k].rank, o->lines[k].buf, o->lines[k].len);
			o->lines[k].len = 0;
		}
		pthread_mutex_unlock(&o->lock);
	}
}

void shl_loader_stdio_rank_done(struct shl_copy *c)
{
	fflush(NULL);
	finish_rank((int)(c - shl_loader.copies), true);
}

void shl_loader_stdio_flush_all(bool wait)
{
	for (int k = 0; k < shl_loader.nranks; k++)
		finish_rank(k, wait);
}

/* stdin shared by the ranks of rank 0's node: rank 0 (and threads it made) read fd 0, every
 * other rank reads end-of-file, as if its stdin were /dev/null. The FILE is unbuffered so
 * no rank takes bytes another one's read brought in; rank 0 reads ahead in in_buf. */
static ssize_t read_in(void *cookie, char *p, size_t n)
{
	ssize_t r;

	(void)cookie;
	if (shl_job_my_rank() != 0)
		return 0;
	if (in_pos == in_len) {
		do
			r = read(STDIN_FILENO, in_buf, sizeof(in_buf));
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

int shl_loader_stdio_setup(void)
{
	const char *label = getenv("SHOAL_OUTPUT_LABEL");
	bool has_rank0 = false;

	for (int k = 0; k < shl_loader.nranks; k++) {
		has_rank0 |= shl_loader.copies[k].rank == 0;
		if (k && shl_loader.copies[k].rank <= shl_loader.copies[k - 1].rank)
			return -EINVAL;  /* local_index needs rank order */
	}
	fflush(NULL);
	if (shl_loader.nranks > 1 && has_rank0) {
		FILE *in = fopencookie(NULL, "r", (cookie_io_functions_t){ .read = read_in });

		if (!in || setvbuf(in, NULL, _IONBF, 0))
			return -ENOMEM;
		stdin = ours[2] = in;
	}
	/* Line by line also means output shows as it is printed (under `| tee`, in a batch
	 * job's log) and a job killed with SIGKILL keeps what it printed, as Open MPI gives
	 * with its ranks' pty; glibc would buffer a pipe or file fully. */
	labelled = label && *label;
	tag_style = labelled && !strcmp(label, "tag");
	for (int i = 0; i < 2; i++) {
		FILE *f;

		outs[i].lines = calloc((size_t)shl_loader.nranks, sizeof(struct line));
		f = fopencookie(&outs[i], "w", (cookie_io_functions_t){ .write = write_out });
		if (!outs[i].lines || !f || setvbuf(f, NULL, _IONBF, 0))
			return -ENOMEM;
		if (i == 0)
			stdout = f;
		else
			stderr = f;
		ours[i] = f;
	}
	per_rank = true;
	return 0;
}

/* A program's setvbuf(stdout, NULL, _IOLBF, 0) (common in MPI programs, for timely output)
 * must not give the FILEs made here a buffer: for those the buffering calls do
 * nothing (the FILEs already pass every byte on at once). Other streams are glibc's. */
static bool keep_unbuffered(FILE *f)
{
	return f != NULL && (f == ours[0] || f == ours[1] || f == ours[2]);
}

SHL_LOADER_EXPORT int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	static int (*real)(FILE *, char *, int, size_t);  /* libc's, found once; a race
							      * stores the same value */
	if (keep_unbuffered(f))
		return 0;
	if (!real)
		real = (int (*)(FILE *, char *, int, size_t))dlsym(RTLD_NEXT, "setvbuf");
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
