/* ring: a token of -s bytes goes around all n ranks -n times (n laps when -n is 0, the
 * default: N ranks, token around N times, N*N hops). Made for far more ranks than cores:
 * each hop needs the one rank holding the token to run. Reports µs per hop.
 * Runs on rank threads of any MPI. Prints: RESULT ring <ranks> <us/hop> us/hop */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .size = 4, .count = 0 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank(), n = bench_size();
	if (bench_parse(argc, argv, &o) != 0) {
		MPI_Finalize();
		return 2;
	}
	long laps = o.count > 0 ? o.count : n;
	int next = (rank + 1) % n, prev = (rank - 1 + n) % n;
	char *buf = bench_alloc(o.size);

	/* One untimed lap wakes every rank once. */
	bench_sync();
	double t0 = 0;
	for (long lap = -1; lap < laps; lap++) {
		if (lap == 0)
			t0 = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(buf, (int)o.size, MPI_BYTE, next, BENCH_TAG_DATA, MPI_COMM_WORLD);
			MPI_Recv(buf, (int)o.size, MPI_BYTE, prev, BENCH_TAG_DATA, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, (int)o.size, MPI_BYTE, prev, BENCH_TAG_DATA, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)o.size, MPI_BYTE, next, BENCH_TAG_DATA, MPI_COMM_WORLD);
		}
	}
	if (rank == 0)
		bench_result("ring", n, (MPI_Wtime() - t0) * 1e6 / ((double)laps * n), "us/hop");
	free(buf);
	MPI_Finalize();
	return 0;
}
