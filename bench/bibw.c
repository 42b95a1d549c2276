/* bibw: OSU-style bidirectional bandwidth between ranks 0 and 1: per iteration each posts a
 * window of -W receives and a window of -W sends, waits for all of them; rank 1 then sends
 * a 4-byte ack. Counts the bytes of both directions; MB/s with MB = 10^6 bytes.
 * Runs on rank threads of any MPI; ranks above 1 only join the barriers.
 * Prints: RESULT bibw <bytes> <MB/s> MB/s */
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
	char *sbuf = bench_alloc(o.max_size), *rbuf = bench_alloc(o.max_size), ack[4] = { 0 };
	MPI_Request *req = malloc(sizeof *req * 2 * (size_t)o.window);
	int peer = 1 - rank;

	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0;

		bench_sync();
		for (long k = -warm; k < iters && rank < 2; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			for (long w = 0; w < o.window; w++)
				MPI_Irecv(rbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
					  &req[w]);
			for (long w = 0; w < o.window; w++)
				MPI_Isend(sbuf, (int)size, MPI_BYTE, peer, BENCH_TAG_DATA, MPI_COMM_WORLD,
					  &req[o.window + w]);
			MPI_Waitall((int)(2 * o.window), req, MPI_STATUSES_IGNORE);
			if (rank == 0)
				MPI_Recv(ack, 4, MPI_BYTE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			else
				MPI_Send(ack, 4, MPI_BYTE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
		}
		if (rank == 0) {
			double t = MPI_Wtime() - t0;
			bench_result("bibw", size, 2.0 * size * o.window * iters / t / 1e6, "MB/s");
		}
	}
	free(req);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
