/* exchange: all-pairs exchange: in each of -n rounds every rank posts a receive from and a
 * send to every other rank (-s bytes each, Irecv/Isend then one Waitall). Made for far more
 * ranks than cores. Reports the mean time of one round in ms, from a barrier before the
 * first round to a barrier after the last.
 * Runs on rank threads of any MPI. Prints: RESULT exchange <ranks> <ms/round> ms/round */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 8, .count = 10 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0 || o.count < 1) {
		MPI_Finalize();
		return 2;
	}
	long sz = o.size > 0 ? o.size : 1;
	char *sbuf = bench_alloc(sz * n), *rbuf = bench_alloc(sz * n);
	MPI_Request *req = malloc(sizeof *req * 2 * (size_t)n);

	bench_sync();
	double t0 = MPI_Wtime();
	for (long round = 0; round < o.count; round++) {
		int nreq = 0;
		/* Start with the next rank up, so not everyone sends to rank 0 first. */
		for (int d = 1; d < n; d++) {
			int from = (rank - d + n) % n;
			MPI_Irecv(rbuf + sz * from, (int)o.size, MPI_BYTE, from, BENCH_TAG_DATA,
				  MPI_COMM_WORLD, &req[nreq++]);
		}
		for (int d = 1; d < n; d++) {
			int to = (rank + d) % n;
			MPI_Isend(sbuf + sz * to, (int)o.size, MPI_BYTE, to, BENCH_TAG_DATA,
				  MPI_COMM_WORLD, &req[nreq++]);
		}
		MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
	}
	bench_sync();
	if (rank == 0)
		bench_result("exchange", n, (MPI_Wtime() - t0) * 1e3 / (double)o.count, "ms/round");
	free(req);
	free(sbuf);
	free(rbuf);
	MPI_Finalize();
	return 0;
}
