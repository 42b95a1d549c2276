/* latency: OSU-style ping-pong between ranks 0 and 1; prints the one-way latency in µs
 * (half the round trip) for each power-of-two size from -m to -M bytes.
 * Runs on rank threads of any MPI; ranks above 1 only join the barriers.
 * Prints: RESULT latency <bytes> <us> us */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .min_size = 0, .max_size = 4L << 20,
				.iters = 10000, .iters_large = 1000 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2) {
		if (rank == 0 && bench_size() < 2)
			fprintf(stderr, "latency: needs 2 ranks\n");
		MPI_Finalize();
		return 2;
	}
	char *sbuf = bench_alloc(o.max_size), *rbuf = bench_alloc(o.max_size);

	for (long size = o.min_size; size <= o.max_size; size = bench_next_size(size)) {
		long iters = bench_iters_for(&o, size), warm = bench_warmup_for(iters);
		double t0 = 0;

		bench_sync();
		for (long k = -warm; k < iters && rank < 2; k++) {
			if (k == 0)
				t0 = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(sbuf, (int)size, MPI_BYTE, 1, BENCH_TAG_DATA, MPI_COMM_WORLD);
				MPI_Recv(rbuf, (int)size, MPI_BYTE, 1, BENCH_TAG_DATA, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(rbuf, (int)size, MPI_BYTE, 0, BENCH_TAG_DATA, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(sbuf, (int)size, MPI_BYTE, 0, BENCH_TAG_DATA, MPI_COMM_WORLD);
			}
		}
		if (rank == 0)
			bench_result("latency", size, (MPI_Wtime() - t0) * 1e6 / (2.0 * iters), "us");
	}
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
