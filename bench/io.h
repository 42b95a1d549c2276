/* io.h: the driver of the MPI-IO benchmarks io_contig.c, io_strided.c and io_small.c, IOR's
 * kind of measurement written for this project: every rank writes its part of one shared
 * file, then reads it back, independently (MPI_File_write_at, MPI_File_write, ...) and
 * collectively (the _all forms), on tmpfs (/dev/shm) and on the disk (BENCH_IO_DIR, which
 * bench/run sets to a directory of its output tree; else TMPDIR, else /tmp). Entered by
 * each rank's main thread only; standard MPI and POSIX only.
 *
 * A program describes its pattern by its rank's pieces (file offset, length, in the order
 * they sit in the rank's buffer: the buffer is contiguous) and by the calls that move the
 * buffer (an io_access_fn). Every 8-byte word of the file holds a value that
 * depends on its offset and on the iteration (io_word), so what a rank wrote is checked
 * after each write with plain pread of its pieces, and what it read is checked against
 * what it wrote: a case whose data is wrong on any rank prints no figure, says so on
 * stderr, and makes the program exit 1.
 *
 * Timing (IOR's access time): from a barrier after MPI_File_open to a barrier after the
 * access, the view (MPI_File_set_view) included; a write's time includes
 * MPI_File_sync, so the disk's write figure includes the flush to the device. Open and
 * close are not timed: they cost a few collectives whatever the size, and would decide
 * the figure of files of a few MB on 2 oversubscribed cores. Reads come from the page
 * cache (drop_caches is not possible in a container), on the disk as on tmpfs. Each case
 * first writes and reads its file once untimed; the timed iterations then overwrite it in
 * place (the disk's blocks are allocated). Value: the file's bytes over that time, MB/s
 * (10^6 B/s), the best of -i iterations.
 *
 * Output: RESULT <bench> <case> <MB/s> MB/s, where <case> is OP.MODE.FS: OP write or read,
 * MODE ind or coll, FS tmpfs or disk. Options (bench.h): -s file bytes, -i timed
 * iterations a case (default 1); io_contig: -M block bytes; io_small: -m record bytes. */
#ifndef SHOAL_BENCH_IO_H
#define SHOAL_BENCH_IO_H

#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/statfs.h>

/* statfs's f_type of tmpfs (linux/magic.h's TMPFS_MAGIC). */
#define IO_TMPFS_MAGIC 0x01021994

struct io_piece {
	MPI_Offset off;  /* bytes from the start of the file; a multiple of 8 */
	long len;        /* bytes; a multiple of 8 */
};

struct io_layout {
	struct io_piece *pieces;  /* this rank's, in buffer order */
	long npieces;
	long bytes;               /* this rank's: the sum of the pieces' lengths */
	MPI_Offset file_bytes;    /* every rank's */
	void *state;              /* the program's own */
};

/* Moves the rank's buffer to (write) or from the file `fh` open on MPI_COMM_WORLD, with
 * the collective calls if `coll`. Returns MPI_SUCCESS or the first error code. */
typedef int io_access_fn(MPI_File fh, const struct io_layout *l, bool write, bool coll,
			 void *buf);

/* The value of the 8-byte word at file offset `off` in iteration `iter`: distinct words,
 * exact as doubles (io_strided moves them as MPI_DOUBLE). */
static inline double io_word(MPI_Offset off, long iter)
{
	return (double)(off / 8) + (double)(iter + 1) * 4294967296.0;
}

static inline void io_fill(const struct io_layout *l, char *buf, long iter)
{
	for (long p = 0; p < l->npieces; p++) {
		const struct io_piece *pc = &l->pieces[p];
		for (long w = 0; w < pc->len / 8; w++) {
			double v = io_word(pc->off + 8 * w, iter);
			memcpy(buf + 8 * w, &v, 8);
		}
		buf += pc->len;
	}
}

/* Complains on stderr (any rank) about case `what`. */
__attribute__((format(printf, 3, 4)))
static inline void io_complain(const char *bench, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: rank %d: %s: ", bench, bench_rank(), what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

static inline int io_mpi_failed(const char *bench, const char *what, const char *call, int rc)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (rc == MPI_SUCCESS)
		return 0;
	MPI_Error_string(rc, msg, &len);
	io_complain(bench, what, "%s failed: %s", call, msg);
	return 1;
}

/* Bad words of the rank's pieces in the file at `path`, read with pread (0: all right). */
static inline long io_check_file(const char *bench, const char *what, const char *path,
				 const struct io_layout *l, long iter, char *scratch)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long bad = 0;

	if (fd < 0) {
		io_complain(bench, what, "cannot open %s to check it: %s", path, strerror(errno));
		return 1;
	}
	for (long p = 0; p < l->npieces && bad == 0; p++) {
		const struct io_piece *pc = &l->pieces[p];
		long got = 0;
		while (got < pc->len) {
			ssize_t r = pread(fd, scratch + got, (size_t)(pc->len - got), pc->off + got);
			if (r <= 0)
				break;
			got += r;
		}
		if (got < pc->len) {
			io_complain(bench, what, "the file ends before offset %lld",
				    (long long)(pc->off + pc->len));
			bad = 1;
			break;
		}
		for (long w = 0; w < pc->len / 8; w++) {
			double v = io_word(pc->off + 8 * w, iter);
			if (memcmp(scratch + 8 * w, &v, 8) != 0) {
				if (bad == 0)
					io_complain(bench, what, "file word at offset %lld is wrong",
						    (long long)(pc->off + 8 * w));
				bad++;
			}
		}
	}
	close(fd);
	return bad;
}

/* Bad words of `got` against `want` (l->bytes each). */
static inline long io_check_buffer(const char *bench, const char *what, const char *got,
				   const char *want, const struct io_layout *l)
{
	long bad = 0;

	if (memcmp(got, want, (size_t)l->bytes) == 0)
		return 0;
	for (long w = 0; w < l->bytes / 8; w++)
		if (memcmp(got + 8 * w, want + 8 * w, 8) != 0) {
			if (bad == 0)
				io_complain(bench, what, "word %ld of the buffer read back is wrong", w);
			bad++;
		}
	return bad;
}

static inline bool io_is_tmpfs(const char *dir)
{
	struct statfs s;

	return statfs(dir, &s) == 0 && (unsigned long)s.f_type == IO_TMPFS_MAGIC;
}

/* Opens `path`, times the access (from a barrier to a barrier after every rank's end of
 * it, its MPI_File_sync included for a write), closes; returns the seconds (the largest
 * rank's), or -1 when a call failed on some rank. */
static inline double io_timed(const char *bench, const char *what, const char *path,
			      io_access_fn *access, const struct io_layout *l, bool write,
			      bool coll, void *buf)
{
	int amode = write ? MPI_MODE_CREATE | MPI_MODE_WRONLY : MPI_MODE_RDONLY;
	MPI_File fh;
	int failed = 0;

	double t = 0;
	int rc = MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh);
	failed = io_mpi_failed(bench, what, "MPI_File_open", rc);
	if (bench_max_all(failed))
		return -1;
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime();
	failed = io_mpi_failed(bench, what, write ? "writing" : "reading",
			       access(fh, l, write, coll, buf));
	if (write && !failed)
		failed = io_mpi_failed(bench, what, "MPI_File_sync", MPI_File_sync(fh));
	/* The slowest rank's end, on every rank: with more ranks than cores, ranks run one
	 * after another, and each one's own span is not the whole. */
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime() - t;
	failed |= io_mpi_failed(bench, what, "MPI_File_close", MPI_File_close(&fh));
	if (bench_max_all(failed))
		return -1;
	return bench_max_all(t);
}

/* The whole program: cases in the order tmpfs, disk; ind, coll; write, read. */
static inline int io_main(int argc, char **argv, const char *bench, struct bench_opts *o,
			  void (*setup)(const struct bench_opts *o, struct io_layout *l),
			  io_access_fn *access)
{
	char dirs[2][512] = { "", "" };
	const char *fsname[2] = { "tmpfs", "disk" };
	char base[64];
	struct io_layout l = { 0 };
	int failed = 0;

	MPI_Init(&argc, &argv);
	if (bench_parse(argc, argv, o) != 0) {
		MPI_Finalize();
		return 2;
	}
	if (o->iters < 1)
		o->iters = 1;
	setup(o, &l);

	if (bench_rank() == 0) {
		const char *d = getenv("BENCH_IO_DIR");
		if (!d || !*d)
			d = getenv("TMPDIR");
		if (!d || !*d)
			d = "/tmp";
		if (io_is_tmpfs("/dev/shm"))
			snprintf(dirs[0], sizeof dirs[0], "/dev/shm");
		else
			fprintf(stderr, "%s: /dev/shm is no tmpfs: no tmpfs cases\n", bench);
		if (!io_is_tmpfs(d))
			snprintf(dirs[1], sizeof dirs[1], "%s", d);
		else
			fprintf(stderr, "%s: %s is tmpfs, not a disk: no disk cases\n", bench, d);
		snprintf(base, sizeof base, "%s.%ld", bench, (long)getpid());
	}
	MPI_Bcast(dirs, sizeof dirs, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Bcast(base, sizeof base, MPI_CHAR, 0, MPI_COMM_WORLD);

	char *buf = bench_alloc(l.bytes), *rbuf = bench_alloc(l.bytes);
	char *scratch = bench_alloc(l.bytes);

	for (int fs = 0; fs < 2; fs++) {
		if (!dirs[fs][0])
			continue;
		for (int coll = 0; coll < 2; coll++) {
			char path[1200], wcase[32], rcase[32];
			double best_w = 0, best_r = 0;
			long bad = 0;

			snprintf(path, sizeof path, "%s/%s.%s.dat", dirs[fs], base,
				 coll ? "coll" : "ind");
			snprintf(wcase, sizeof wcase, "write.%s.%s", coll ? "coll" : "ind", fsname[fs]);
			snprintf(rcase, sizeof rcase, "read.%s.%s", coll ? "coll" : "ind", fsname[fs]);
			/* Iteration -1 warms up, untimed (but checked): this VM's first touch of
			 * memory new to the guest (a new file's page cache or tmpfs pages) costs
			 * a fault in the host, which took the first write and read of a file
			 * to 100-200 MB/s for every implementation alike. */
			for (long it = -1; it < o->iters && !bad; it++) {
				io_fill(&l, buf, it);
				double tw = io_timed(bench, wcase, path, access, &l, true, coll, buf);
				bad = tw < 0;
				if (!bad)
					bad = bench_max_all((double)io_check_file(bench, wcase, path, &l,
										 it, scratch)) > 0;
				memset(rbuf, 0, (size_t)l.bytes);
				double tr = bad ? -1 : io_timed(bench, rcase, path, access, &l, false,
								coll, rbuf);
				bad = bad || tr < 0;
				if (!bad)
					bad = bench_max_all((double)io_check_buffer(bench, rcase, rbuf, buf,
										   &l)) > 0;
				if (!bad && it >= 0) {
					double w = (double)l.file_bytes / tw / 1e6;
					double r = (double)l.file_bytes / tr / 1e6;
					best_w = w > best_w ? w : best_w;
					best_r = r > best_r ? r : best_r;
				}
			}
			MPI_Barrier(MPI_COMM_WORLD);
			if (bench_rank() == 0) {
				MPI_File_delete(path, MPI_INFO_NULL);
				unlink(path);  /* in case the MPI_File_delete failed */
				if (bad) {
					fprintf(stderr, "%s: %s and %s: wrong data or a failed call: no "
						"figure\n", bench, wcase, rcase);
					failed = 1;
				} else {
					printf("RESULT %s %s %.6g MB/s\n", bench, wcase, best_w);
					printf("RESULT %s %s %.6g MB/s\n", bench, rcase, best_r);
					fflush(stdout);
				}
			}
		}
	}
	free(buf);
	free(rbuf);
	free(scratch);
	MPI_Finalize();
	return failed;
}

/* The interleaved pattern of io_contig and io_small (IOR's segmented one): pieces of
 * `piece` bytes (rounded down to whole words, at least one word), as many a rank as -s file
 * bytes hold for n ranks, else `total` / n (at least 1); rank r's piece k at
 * (k * n + r) * piece. */
static inline void io_interleaved_setup(const struct bench_opts *o, struct io_layout *l,
					long piece, long total)
{
	int n = bench_size(), r = bench_rank();

	piece = piece / 8 * 8;
	if (piece < 8)
		piece = 8;
	long count = o->size > 0 ? o->size / ((long)n * piece) : total / n;
	if (count < 1)
		count = 1;
	l->npieces = count;
	l->pieces = calloc((size_t)count, sizeof *l->pieces);
	for (long k = 0; k < count; k++)
		l->pieces[k] = (struct io_piece){ (MPI_Offset)(k * n + r) * piece, piece };
	l->bytes = count * piece;
	l->file_bytes = (MPI_Offset)count * n * piece;
}

/* One call a piece, explicit offsets on the default view: MPI_File_write_at / read_at, or
 * their _all forms (one collective call a piece, as IOR's collective mode makes them). */
static inline int io_each_piece_at(MPI_File fh, const struct io_layout *l, bool write,
				   bool coll, void *buf)
{
	char *p = buf;

	for (long k = 0; k < l->npieces; k++) {
		MPI_Offset off = l->pieces[k].off;
		int len = (int)l->pieces[k].len;
		int rc;
		if (write)
			rc = coll ? MPI_File_write_at_all(fh, off, p, len, MPI_BYTE, MPI_STATUS_IGNORE)
				  : MPI_File_write_at(fh, off, p, len, MPI_BYTE, MPI_STATUS_IGNORE);
		else
			rc = coll ? MPI_File_read_at_all(fh, off, p, len, MPI_BYTE, MPI_STATUS_IGNORE)
				  : MPI_File_read_at(fh, off, p, len, MPI_BYTE, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return rc;
		p += len;
	}
	return MPI_SUCCESS;
}

#endif /* SHOAL_BENCH_IO_H */
