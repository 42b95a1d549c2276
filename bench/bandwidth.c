/* bandwidth: OSU-style unidirectional bandwidth from rank 0 to rank 1: per iteration rank 0
 * posts a window of -W nonblocking sends, waits for all, then waits for a 4-byte ack that
 * rank 1 sends after its window of receives completes. MB/s with MB = 10^6 bytes.
 * Runs on rank threads of any MPI; ranks above 1 only join the barriers.
 * Prints: RESULT bandwidth <bytes> <MB/s> MB/s */
#include "bench.h"

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
	/* OSU sends every message of a window from one buffer into one buffer. */
	char *sbuf = bench_alloc(o.max_size), *rbuf = bench_alloc(o.max_size), ack[4] = { 0 };
	MPI_Request *req = malloc(sizeof *req * (size_t)o.window);

	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0;

		bench_sync();
		for (long k = -warm; k < iters && rank < 2; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			if (rank == 0) {
				for (long w = 0; w < o.window; w++)
					MPI_Isend(sbuf, (int)size, MPI_BYTE, 1, BENCH_TAG_DATA,
						  MPI_COMM_WORLD, &req[w]);
				MPI_Waitall((int)o.window, req, MPI_STATUSES_IGNORE);
				MPI_Recv(ack, 4, MPI_BYTE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else {
				for (long w = 0; w < o.window; w++)
					MPI_Irecv(rbuf, (int)size, MPI_BYTE, 0, BENCH_TAG_DATA,
						  MPI_COMM_WORLD, &req[w]);
				MPI_Waitall((int)o.window, req, MPI_STATUSES_IGNORE);
				MPI_Send(ack, 4, MPI_BYTE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
			}
		}
		if (rank == 0) {
			double t = MPI_Wtime() - t0;
			bench_result("bandwidth", size, (double)size * o.window * iters / t / 1e6, "MB/s");
		}
	}
	free(req);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
