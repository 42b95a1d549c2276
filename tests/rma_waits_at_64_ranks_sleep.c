/* rma_waits_at_64_ranks_sleep: ranks looping through fence epochs (a put to the next rank
 * each) complete every epoch with the values in place, at up to 64 ranks on 2 cores; and
 * ranks blocked ~1 s for a late rank 0 use under 5% of a core each (their own thread's CPU
 * time, over at least LATE_S) in MPI_Win_fence, MPI_Win_lock (rank 0 holds an exclusive
 * lock on itself) and MPI_Win_wait (rank 0 starts its access epoch late). */
/* ranks: 2 8 64 */
/* serial: measures CPU time with ranks outnumbering the cores */
/* timeout: 300 */
/* asan: measures the waiting threads' CPU time, which ASan's checks multiply */
/* tsan: measures the waiting threads' CPU time, which TSan's checks multiply */
#include <time.h>
#include "check.h"

#define ROUNDS 200
#define LATE_S 1
#define MAX_CPU_FRACTION 0.05
#define TAG_WAITING 77

enum wait_kind { FENCE, LOCK, WAIT, NKINDS };
static const char *const kind_names[NKINDS] = { "MPI_Win_fence", "MPI_Win_lock",
						 "MPI_Win_wait" };

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Rank 0 learns every other rank is about to wait (`kind`), then sleeps LATE_S. */
static void rank0_late(int rank, int size, enum wait_kind kind)
{
	if (rank == 0) {
		struct timespec ts = { LATE_S, 0 };
		for (int p = 1; p < size; p++)
			CHECK_MPI(MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, TAG_WAITING + kind,
					   MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		nanosleep(&ts, NULL);
	} else {
		CHECK_MPI(MPI_Send(NULL, 0, MPI_INT, 0, TAG_WAITING + kind, MPI_COMM_WORLD));
	}
}

static void check_slept(int rank, enum wait_kind kind, double w0, double c0)
{
	double wall = MPI_Wtime() - w0, cpu = thread_cpu() - c0;

	if (wall < LATE_S || cpu > MAX_CPU_FRACTION * wall)
		fprintf(stderr, "%s, rank %d: %.3f s CPU while blocked %.3f s\n",
			kind_names[kind], rank, cpu, wall);
	CHECK_DBL_CMP(wall, >=, LATE_S);   /* rank 0 slept LATE_S after our message */
	CHECK_DBL_CMP(cpu, <, MAX_CPU_FRACTION * wall);
}

int main(int argc, char **argv)
{
	int rank, size, *mem;
	MPI_Win win;
	MPI_Group all, g;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	CHECK_MPI(MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				   &mem, &win));
	CHECK_MPI(MPI_Win_get_group(win, &all));
	int *ranks = malloc(size * sizeof(int));   /* rank 0's origin buffers: p at p */
	for (int p = 0; p < size; p++)
		ranks[p] = p;

	/* The loop of fence epochs. */
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	for (int round = 0; round < ROUNDS; round++) {
		int v = round * 1000 + rank;
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, next, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_fence(0, win));
		CHECK_INT(*mem, round * 1000 + prev);
		CHECK_MPI(MPI_Win_fence(0, win));   /* everyone read before the next put */
	}
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

	/* Waiting in a fence for rank 0, whose puts to every rank the fence completes. */
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	double w0 = MPI_Wtime(), c0 = thread_cpu();
	rank0_late(rank, size, FENCE);
	if (rank == 0)
		for (int p = 0; p < size; p++)
			CHECK_MPI(MPI_Put(&ranks[p], 1, MPI_INT, p, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	CHECK_INT(*mem, rank);
	if (rank > 0)
		check_slept(rank, FENCE, w0, c0);

	/* Waiting for rank 0's exclusive lock on itself. */
	if (rank == 0)
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	w0 = MPI_Wtime();
	c0 = thread_cpu();
	rank0_late(rank, size, LOCK);
	if (rank == 0) {
		CHECK_MPI(MPI_Win_unlock(0, win));
	} else {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		check_slept(rank, LOCK, w0, c0);
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* Waiting in MPI_Win_wait for rank 0's access epoch: the others expose to it. */
	w0 = MPI_Wtime();
	c0 = thread_cpu();
	if (rank == 0) {
		int zero = 0;
		CHECK_MPI(MPI_Group_excl(all, 1, &zero, &g));
		rank0_late(rank, size, WAIT);
		if (size > 1) {
			CHECK_MPI(MPI_Win_start(g, 0, win));
			for (int p = 1; p < size; p++)
				CHECK_MPI(MPI_Put(&ranks[p], 1, MPI_INT, p, 0, 1, MPI_INT, win));
			CHECK_MPI(MPI_Win_complete(win));
		}
	} else {
		int zero = 0;
		CHECK_MPI(MPI_Group_incl(all, 1, &zero, &g));
		CHECK_MPI(MPI_Win_post(g, 0, win));
		rank0_late(rank, size, WAIT);
		CHECK_MPI(MPI_Win_wait(win));
		check_slept(rank, WAIT, w0, c0);
		CHECK_INT(*mem, rank);
	}
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_free(&all));
	free(ranks);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
