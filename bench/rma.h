/* rma.h: what the one-sided benchmarks (bench/rma_*.c) share on top of bench.h: their
 * window (MPI_Win_allocate over MPI_COMM_WORLD, pages touched), one access call of a kind,
 * and the whole program of the latency benchmarks (rma_put_latency, rma_get_latency,
 * rma_acc_latency, rma_put_fence, rma_get_fence), which differ only in the call and in the
 * synchronization. Entered by each rank's main thread only; standard MPI only, so the same
 * source builds with Shoal, Open MPI and MPICH. Never judges a time. */
#ifndef SHOAL_BENCH_RMA_H
#define SHOAL_BENCH_RMA_H

#include "bench.h"

/* The access call a benchmark times. RMA_ACC is MPI_Accumulate with MPI_SUM on doubles
 * (size / 8 of them), the element-wise atomic update; its sizes are multiples of 8. */
enum rma_op { RMA_PUT, RMA_GET, RMA_ACC };

/* How an access is completed: RMA_FLUSH, rank 0 holds a shared lock on rank 1 for the
 * whole loop and calls MPI_Win_flush(1) after each access (passive target: rank 1 makes
 * no RMA call); RMA_FENCE, every rank calls MPI_Win_fence(0) after rank 0's access. */
enum rma_sync { RMA_FLUSH, RMA_FENCE };

/* A window of `bytes` (at least 1) with disp_unit 1 over MPI_COMM_WORLD; *base gets its
 * memory, every page written so that first-touch faults do not land in a timed loop. */
static inline MPI_Win rma_window(long bytes, char **base)
{
	MPI_Win win;
	MPI_Aint n = bytes > 0 ? (MPI_Aint)bytes : 1;

	MPI_Win_allocate(n, 1, MPI_INFO_NULL, MPI_COMM_WORLD, base, &win);
	/* The window's memory is written only in an exposure epoch of its own rank. */
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, bench_rank(), 0, win);
	memset(*base, 0, (size_t)n);
	MPI_Win_unlock(bench_rank(), win);
	return win;
}

/* An origin buffer of `bytes` holding doubles of 1.0 (what RMA_ACC adds). */
static inline char *rma_origin(long bytes)
{
	char *buf = bench_alloc(bytes);

	for (long i = 0; i + 8 <= bytes; i += 8)
		memcpy(buf + i, &(double){ 1.0 }, 8);
	return buf;
}

/* One access of `size` bytes from or into `buf` at displacement 0 of `target`. */
static inline void rma_access(enum rma_op op, char *buf, long size, int target, MPI_Win win)
{
	int n = (int)size;

	switch (op) {
	case RMA_PUT:
		MPI_Put(buf, n, MPI_BYTE, target, 0, n, MPI_BYTE, win);
		break;
	case RMA_GET:
		MPI_Get(buf, n, MPI_BYTE, target, 0, n, MPI_BYTE, win);
		break;
	case RMA_ACC:
		MPI_Accumulate(buf, n / 8, MPI_DOUBLE, target, 0, n / 8, MPI_DOUBLE, MPI_SUM, win);
		break;
	}
}

/* The latency benchmarks: rank 0 accesses rank 1 (-m .. -M bytes, powers of two; -i / -I
 * timed iterations, a tenth more untimed before) and prints the time of one access plus
 * its completion, in µs. Ranks above 1 join the fences and the barriers only. */
static inline int rma_latency_main(int argc, char **argv, const char *name, enum rma_op op,
				   enum rma_sync sync)
{
	struct bench_opts o = { .min_size = op == RMA_ACC ? 8 : 1, .max_size = 4L << 20,
				.iters = 10000, .iters_large = 1000 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2 ||
	    (op == RMA_ACC && o.min_size < 8)) {
		if (rank == 0)
			fprintf(stderr, "%s: needs 2 ranks (and -m >= 8 for accumulate)\n", name);
		MPI_Finalize();
		return 2;
	}
	char *base, *buf = rma_origin(o.max_size);
	MPI_Win win = rma_window(o.max_size, &base);

	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0, t = 0;

		bench_sync();
		if (sync == RMA_FLUSH && rank == 0) {
			MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
			for (long k = -warm; k < iters; k++) {
				if (k == 0)
					t0 = MPI_Wtime();
				rma_access(op, buf, size, 1, win);
				MPI_Win_flush(1, win);
			}
			t = MPI_Wtime() - t0;
			MPI_Win_unlock(1, win);
		} else if (sync == RMA_FENCE) {
			MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
			for (long k = -warm; k < iters; k++) {
				if (k == 0)
					t0 = MPI_Wtime();
				if (rank == 0)
					rma_access(op, buf, size, 1, win);
				MPI_Win_fence(0, win);
			}
			t = MPI_Wtime() - t0;
			MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
		}
		if (rank == 0)
			bench_result(name, size, t * 1e6 / (double)iters, "us");
	}
	bench_sync();
	MPI_Win_free(&win);
	free(buf);
	MPI_Finalize();
	return 0;
}

#endif /* SHOAL_BENCH_RMA_H */
