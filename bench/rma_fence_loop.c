/* rma_fence_loop: fence epochs in a loop: per epoch every rank puts -s bytes (8) into its
 * right neighbour's window (rank r into r + 1 mod n, at displacement 0) and calls
 * MPI_Win_fence(0). Made for more ranks than cores: each fence needs every rank to run.
 * Untimed epochs first until 20 ms have passed (bench_settle), then at least -n epochs (n
 * when -n is 0, the default) and at least 20 ms at the warm-up's pace. Runs on rank threads
 * of any MPI, any rank count. Prints: RESULT rma_fence_loop <ranks> <us/epoch> us/epoch */
#include "rma.h"

struct loop {
	MPI_Win win;
	char *buf;
	long size;
	int right;
};

static void one_epoch(const void *arg)
{
	const struct loop *g = arg;

	rma_access(RMA_PUT, g->buf, g->size, g->right, g->win);
	MPI_Win_fence(0, g->win);
}

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 8, .count = 0 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	char *base;
	struct loop g = { .buf = rma_origin(o.size), .size = o.size, .right = (rank + 1) % n };
	g.win = rma_window(o.size, &base);

	bench_sync();
	MPI_Win_fence(MPI_MODE_NOPRECEDE, g.win);
	long epochs = bench_settle(one_epoch, &g, o.count > 0 ? o.count : n);
	bench_sync();
	double t0 = MPI_Wtime();
	for (long e = 0; e < epochs; e++)
		one_epoch(&g);
	double t = bench_max_all(MPI_Wtime() - t0);
	MPI_Win_fence(MPI_MODE_NOSUCCEED, g.win);
	if (rank == 0)
		bench_result("rma_fence_loop", n, t * 1e6 / (double)epochs, "us/epoch");
	bench_sync();
	MPI_Win_free(&g.win);
	free(g.buf);
	MPI_Finalize();
	return 0;
}
