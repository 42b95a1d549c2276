/* rma_put_bw: one-sided bandwidth from rank 0 to rank 1: rank 0 holds a shared lock on
 * rank 1 and per iteration puts a window of -W messages of one size (all at displacement
 * 0, as OSU's osu_put_bw does), then calls MPI_Win_flush(1). Sizes -m .. -M bytes; MB/s
 * with MB = 10^6 bytes. Runs on rank threads of any MPI; ranks above 1 only join the
 * barriers. Prints: RESULT rma_put_bw <bytes> <MB/s> MB/s */
#include "rma.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .min_size = 1, .max_size = 4L << 20,
				.iters = 100, .iters_large = 20, .window = BENCH_WINDOW };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2 || o.window < 1) {
		MPI_Finalize();
		return 2;
	}
	char *base, *buf = rma_origin(o.max_size);
	MPI_Win win = rma_window(o.max_size, &base);

	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);

		bench_sync();
		if (rank != 0)
			continue;
		double t0 = 0;
		MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
		for (long k = -warm; k < iters; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			for (long w = 0; w < o.window; w++)
				rma_access(RMA_PUT, buf, size, 1, win);
			MPI_Win_flush(1, win);
		}
		double t = MPI_Wtime() - t0;
		MPI_Win_unlock(1, win);
		bench_result("rma_put_bw", size, (double)size * o.window * iters / t / 1e6, "MB/s");
	}
	bench_sync();
	MPI_Win_free(&win);
	free(buf);
	MPI_Finalize();
	return 0;
}
