/* idle: CPU cost of a blocked receive. Rank 1 blocks in MPI_Recv while rank 0 sleeps -t
 * seconds and then sends; rank 1 measures its own thread's CPU time (CLOCK_THREAD_CPUTIME_ID)
 * across the receive and reports it to rank 0. An MPI that sleeps reports ~0; one that
 * polls reports ~t. Ranks above 1 only join the barriers.
 * Runs on rank threads of any MPI. Prints: RESULT idle <ms_blocked> <cpu_s> cpu_s */
#include "bench.h"

int main(int argc, char **argv)
{
	struct bench_opts o = { .seconds = 5 };

	MPI_Init(&argc, &argv);
	int rank = bench_rank();
	if (bench_parse(argc, argv, &o) != 0 || bench_size() < 2) {
		MPI_Finalize();
		return 2;
	}
	int token = 0;
	double cpu = 0;

	bench_sync();
	if (rank == 0) {
		struct timespec ts = { .tv_sec = (time_t)o.seconds,
				       .tv_nsec = (long)((o.seconds - (double)(time_t)o.seconds) * 1e9) };
		while (nanosleep(&ts, &ts) != 0)
			;
		MPI_Send(&token, 1, MPI_INT, 1, BENCH_TAG_DATA, MPI_COMM_WORLD);
		MPI_Recv(&cpu, 1, MPI_DOUBLE, 1, BENCH_TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		/* %g of the blocked seconds would not be an integer x; report milliseconds. */
		bench_result("idle", (long)(o.seconds * 1000 + 0.5), cpu, "cpu_s");
	} else if (rank == 1) {
		double c0 = bench_thread_cpu();
		MPI_Recv(&token, 1, MPI_INT, 0, BENCH_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		cpu = bench_thread_cpu() - c0;
		MPI_Send(&cpu, 1, MPI_DOUBLE, 0, BENCH_TAG_ACK, MPI_COMM_WORLD);
	}
	bench_sync();
	MPI_Finalize();
	return 0;
}
