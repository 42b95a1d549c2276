/* coll.h: the OSU collective latency loop shared by the collective benchmarks: for each
 * power-of-two size, untimed warm-up, then timed iterations of one collective; the
 * latency printed is the average over ranks of each rank's mean time per call (osu_util's
 * avg_time), in µs. Entered by each rank's main thread; standard MPI only. */
#ifndef SHOAL_BENCH_COLL_H
#define SHOAL_BENCH_COLL_H

#include "bench.h"

/* One call of the measured collective on `size` bytes (buffers large enough for it). */
typedef void coll_fn(long size, char *sbuf, char *rbuf);

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
		double t0 = 0;

		bench_sync();
		for (long k = -warm; k < iters; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			fn(size, sbuf, rbuf);
		}
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
