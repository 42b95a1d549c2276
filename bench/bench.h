/* bench.h: what every benchmark program shares: option parsing, a barrier built from
 * point-to-point messages, page-aligned buffers and the RESULT line that bench/run collects.
 * Entered by each rank's main thread only. Standard MPI only (the same source is built with
 * Shoal, Open MPI and MPICH); must never assert or judge a time, only print it.
 *
 * Output contract (one line per measured point, on rank 0, flushed at once):
 *     RESULT <bench> <x> <value> <unit>
 * <x> is the message size in bytes or the rank count, as the program documents. */
#ifndef SHOAL_BENCH_H
#define SHOAL_BENCH_H

/* posix_memalign, clock_gettime and nanosleep under -std=c17; must precede every include,
 * so each program includes this header first. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mpi.h>

/* Tags: benchmarks use BENCH_TAG_DATA and BENCH_TAG_ACK; the harness's own messages
 * (barrier, gathering times) use tags no benchmark uses. 32767 is the smallest MPI_TAG_UB
 * the standard allows (MPI 4.1 section 9.1.2). */
enum {
	BENCH_TAG_DATA = 1,
	BENCH_TAG_ACK = 2,
	BENCH_TAG_GATHER = 32766,
	BENCH_TAG_SYNC = 32767,
};

/* OSU's definitions: messages above 8 KiB are "large" and get fewer iterations; the
 * bandwidth window is 64 messages (osu_util.h: LARGE_MESSAGE_SIZE, WINDOW_SIZE_LARGE). */
#define BENCH_LARGE_MESSAGE 8192L
#define BENCH_WINDOW 64L

/* Options every program accepts; each reads the ones it needs. -1 means "not given". */
struct bench_opts {
	long min_size;    /* -m: smallest message size, bytes */
	long max_size;    /* -M: largest message size, bytes (sizes are powers of two) */
	long iters;       /* -i: timed iterations for sizes <= BENCH_LARGE_MESSAGE */
	long iters_large; /* -I: timed iterations for larger sizes */
	long count;       /* -n: laps (ring) or rounds (exchange) */
	long size;        /* -s: the one message size of a fixed-size benchmark */
	long window;      /* -W: messages in flight per window */
	double seconds;   /* -t: how long the partner keeps a rank blocked (idle) */
};

static inline int bench_rank(void)
{
	int r;

	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}

static inline int bench_size(void)
{
	int n;

	MPI_Comm_size(MPI_COMM_WORLD, &n);
	return n;
}

/* Parses "-X value" pairs into *o (fields keep their defaults unless given). Returns 0, or
 * -1 after printing (on rank 0) what was wrong. No getopt: the programs must behave the same
 * whatever the MPI library does to argv and to getopt's state. */
static inline int bench_parse(int argc, char **argv, struct bench_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (a[0] != '-' || a[1] == '\0' || a[2] != '\0' || i + 1 >= argc)
			goto bad;
		const char *v = argv[++i];
		double d = strtod(v, &end);
		if (*end != '\0' || d < 0)
			goto bad;
		switch (a[1]) {
		case 'm': o->min_size = (long)d; break;
		case 'M': o->max_size = (long)d; break;
		case 'i': o->iters = (long)d; break;
		case 'I': o->iters_large = (long)d; break;
		case 'n': o->count = (long)d; break;
		case 's': o->size = (long)d; break;
		case 'W': o->window = (long)d; break;
		case 't': o->seconds = d; break;
		default: goto bad;
		}
	}
	return 0;
bad:
	if (bench_rank() == 0)
		fprintf(stderr, "%s: usage: [-m min] [-M max] [-i iters] [-I iters_large] [-n count] "
			"[-s size] [-W window] [-t seconds]\n", argv[0]);
	return -1;
}

/* Next size of the power-of-two sweep min, ..., max (0 is followed by 1). */
static inline long bench_next_size(long s)
{
	return s == 0 ? 1 : s * 2;
}

static inline long bench_iters_for(const struct bench_opts *o, long size)
{
	return size > BENCH_LARGE_MESSAGE ? o->iters_large : o->iters;
}

/* Untimed warm-up rounds before each timed loop: a tenth of the timed ones, at least 2.
 * OSU skips 1 % (100 of 10000); our runs are shorter, so warm up proportionally more. */
static inline long bench_warmup_for(long iters)
{
	return iters / 10 > 2 ? iters / 10 : 2;
}

/* `iters` raised to what fills `min_us` at `pace` µs an iteration, at most `max`. */
static inline long bench_iters_to_fill(long iters, double pace, double min_us, long max)
{
	if (pace > 0 && min_us / pace > (double)iters)
		iters = min_us / pace < (double)max ? (long)(min_us / pace) : max;
	return iters;
}

/* A buffer of n bytes (at least 1), page-aligned as OSU's are, every page touched so that
 * first-touch faults do not land in a timed loop. Exits the rank if memory runs out. */
static inline char *bench_alloc(long n)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, n > 0 ? (size_t)n : 1) != 0) {
		fprintf(stderr, "bench: cannot allocate %ld bytes\n", n);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	memset(p, 'a', n > 0 ? (size_t)n : 1);
	return p;
}

/* A dissemination barrier made of zero-byte Sendrecv calls (log2(n) rounds), so the
 * programs need no collective. Messages of one round come from one fixed peer, and MPI
 * keeps each sender's messages in order, so back-to-back barriers cannot mix. */
static inline void bench_sync(void)
{
	int rank = bench_rank(), n = bench_size();
	char s = 0, r;

	for (int d = 1; d < n; d <<= 1)
		MPI_Sendrecv(&s, 0, MPI_BYTE, (rank + d) % n, BENCH_TAG_SYNC,
			     &r, 0, MPI_BYTE, (rank - d + n) % n, BENCH_TAG_SYNC,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* Rank 0 gets every rank's v combined (the sum, or with `max` the largest); others get
 * their own v. Point-to-point through rank 0: the harness does not time itself with the
 * collectives it measures. */
static inline double bench_fold_to_root(double v, bool max)
{
	int rank = bench_rank(), n = bench_size();
	double acc = v, x;

	if (rank != 0) {
		MPI_Send(&v, 1, MPI_DOUBLE, 0, BENCH_TAG_GATHER, MPI_COMM_WORLD);
		return v;
	}
	for (int r = 1; r < n; r++) {
		MPI_Recv(&x, 1, MPI_DOUBLE, r, BENCH_TAG_GATHER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		acc = max ? (x > acc ? x : acc) : acc + x;
	}
	return acc;
}

/* Rank 0 gets the sum of every rank's v; others get 0. */
static inline double bench_sum_to_root(double v)
{
	double sum = bench_fold_to_root(v, false);

	return bench_rank() == 0 ? sum : 0;
}

/* Every rank gets the largest of the ranks' v. */
static inline double bench_max_all(double v)
{
	double max = bench_fold_to_root(v, true);

	if (bench_rank() != 0) {
		MPI_Recv(&max, 1, MPI_DOUBLE, 0, BENCH_TAG_GATHER, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		return max;
	}
	for (int r = 1; r < bench_size(); r++)
		MPI_Send(&max, 1, MPI_DOUBLE, r, BENCH_TAG_GATHER, MPI_COMM_WORLD);
	return max;
}

/* bench_settle's untimed steps last at least this long on the slowest rank, and the timed
 * steps it sizes at least this long at the warm-up's last pace. */
#define BENCH_SETTLE_US 20000.0
#define BENCH_SETTLE_MAX_STEPS 10000000L

/* For ring and exchange: untimed steps (`step(arg)`: one lap, one round) in batches sized
 * from the last batch's pace, the first one step, until they have lasted BENCH_SETTLE_US on
 * the slowest rank; returns how many steps to time: at least `min_steps`, and at least
 * BENCH_SETTLE_US at the last batch's pace (the same count on every rank). A peer that sets
 * up each pair of ranks at its first message is then timed settled, as OSU's skipped
 * iterations intend, and one preemption does not decide a short run's figure. */
static inline long bench_settle(void (*step)(const void *arg), const void *arg, long min_steps)
{
	double spent = 0, pace = 0;

	for (long batch = 1; spent < BENCH_SETTLE_US;) {
		double t = MPI_Wtime();
		for (long k = 0; k < batch; k++)
			step(arg);
		double took = bench_max_all((MPI_Wtime() - t) * 1e6);
		spent += took;
		pace = took / (double)batch;
		batch = bench_iters_to_fill(1, pace, BENCH_SETTLE_US - spent, BENCH_SETTLE_MAX_STEPS);
	}
	return bench_iters_to_fill(min_steps, pace, BENCH_SETTLE_US, BENCH_SETTLE_MAX_STEPS);
}

static inline void bench_result(const char *bench, long x, double value, const char *unit)
{
	printf("RESULT %s %ld %.6g %s\n", bench, x, value, unit);
	fflush(stdout);
}

/* CPU time the calling thread has used, in seconds. */
static inline double bench_thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif /* SHOAL_BENCH_H */
