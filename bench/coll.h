/* coll.h: the OSU collective latency loop shared by the collective benchmarks: for each
 * power-of-two size, untimed warm-up, then timed iterations of one collective; the
 * latency printed is the average over ranks of each rank's mean time per call (osu_util's
 * avg_time), in µs. Entered by each rank's main thread; standard MPI only. */
#ifndef SHOAL_BENCH_COLL_H
#define SHOAL_BENCH_COLL_H

#include "bench.h"

/* One call of the measured collective on `size` bytes (buffers large enough for it). */
typedef void coll_fn(long size, char *sbuf, char *rbuf);

/* A size's timed loop lasts at least this long: the configured iterations (-i, -I) are a
 * floor, raised to what fills it at the pace of the second half of the warm-up on the
 * slowest rank. 500 calls of 0.03 µs are a 15 µs window, which one interrupt or VM exit
 * doubles: the first size of a sweep read 2-3x the next (the full run at 1450fc5). */
#define COLL_MIN_TIMED_US 2000.0
#define COLL_MAX_ITERS 1000000L

/* Run the sweep from -m to -M bytes with `fn`, printing RESULT <name> <bytes> <us> us.
 * `scale` multiplies the buffer size (alltoall needs size * ranks). Returns 0 or 2. */
static inline int coll_sweep(int argc, char **argv, const char *name, coll_fn *fn, long scale)
{
	struct bench_opts o = { .min_size = 4, .max_size = 1L << 20,
				.iters = 1000, .iters_large = 100 };

	if (bench_parse(argc, argv, &o) != 0)
		return 2;
	int n = bench_size();
	char *sbuf = bench_alloc(o.max_size * scale), *rbuf = bench_alloc(o.max_size * scale);
	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double tw = 0;

		bench_sync();
		for (long k = -warm; k < 0; k++) {
			if (k == -warm / 2)
				tw = MPI_Wtime();
			fn(size, sbuf, rbuf);
		}
		double pace = bench_max_all((MPI_Wtime() - tw) * 1e6 / (double)(warm / 2));
		iters = bench_iters_to_fill(iters, pace, COLL_MIN_TIMED_US, COLL_MAX_ITERS);
		bench_sync();
		double t0 = MPI_Wtime();
		for (long k = 0; k < iters; k++)
			fn(size, sbuf, rbuf);
		double mine = (MPI_Wtime() - t0) * 1e6 / (double)iters;
		double sum = bench_sum_to_root(mine);
		if (bench_rank() == 0)
			bench_result(name, size, sum / n, "us");
	}
	free(sbuf);
	free(rbuf);
	return 0;
}

#endif /* SHOAL_BENCH_COLL_H */
