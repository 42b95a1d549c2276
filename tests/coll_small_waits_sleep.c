/* coll_small_waits_sleep: ranks blocked ~1 s in a small Bcast, Allreduce, Reduce (at the root) or Barrier use under 5% of a core, and complete once the late rank arrives */
/* ranks: 2 4 64 */
/* tsan: measures the waiting threads' CPU time, which TSan's checks multiply */
/* Rank 0 arrives 1 s late at each collective: it waits until every other rank has told it
 * (a message, TAG_WAITING + the collective's number) that it is about to call it, then
 * sleeps LATE_S. The others measure their own thread's CPU time while they wait (the
 * design target is under 1% after the first millisecond), each for at least LATE_S
 * whatever the load. */
#include <time.h>
#include "check.h"

#define LATE_S 1
#define MAX_CPU_FRACTION 0.05
#define TAG_WAITING 77

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	for (int which = 0; which < 4; which++) {
		int v = rank + 1, w = -1;
		double w0 = MPI_Wtime(), c0 = thread_cpu();
		if (rank == 0) {
			struct timespec ts = { LATE_S, 0 };
			for (int p = 1; p < size; p++)
				CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE,
						   TAG_WAITING + which, MPI_COMM_WORLD,
						   MPI_STATUS_IGNORE));
			nanosleep(&ts, NULL);
		} else {
			CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, TAG_WAITING + which,
					   MPI_COMM_WORLD));
		}
		switch (which) {
		case 0:
			w = v;
			CHECK_MPI(MPI_Bcast(&w, 1, MPI_INT, 0, MPI_COMM_WORLD));
			CHECK_INT(w, 1);
			break;
		case 1:
			CHECK_MPI(MPI_Allreduce(&v, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
			CHECK_INT(w, size * (size + 1) / 2);
			break;
		case 2:
			CHECK_MPI(MPI_Reduce(&v, &w, 1, MPI_INT, MPI_SUM, size - 1, MPI_COMM_WORLD));
			if (rank == size - 1)
				CHECK_INT(w, size * (size + 1) / 2);
			break;
		default:
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		}
		double wall = MPI_Wtime() - w0, cpu = thread_cpu() - c0;
		/* A Reduce's non-roots do not wait for rank 0. */
		if (rank == 0 || (which == 2 && rank != size - 1))
			continue;
		CHECK_DBL_CMP(wall, >=, LATE_S);  /* rank 0 slept LATE_S after our message */
		if (cpu > MAX_CPU_FRACTION * wall)
			fprintf(stderr, "collective %d, rank %d: %.3f s CPU while blocked %.3f s\n",
				which, rank, cpu, wall);
		CHECK_DBL_CMP(cpu, <, MAX_CPU_FRACTION * wall);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
