/* rma_passive_target_completes_while_target_computes: while rank 0 computes in a loop that
 * makes no MPI call, watching its own window memory, every other rank takes an exclusive
 * lock on it, adds 1 to a counter there with MPI_Fetch_and_op, puts its rank into a slot of
 * its own and unlocks; rank 0 sees the counter reach N-1 and every slot filled, with no MPI
 * call of its own until then (on a node the origins apply their accesses themselves; ranks
 * outnumbering the cores still get their turn). The loop gives up after CHECK_POLL_S. */
/* ranks: 2 8 64 */
/* timeout: 120 */
#include <sched.h>
#include <time.h>
#include "check.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	int rank, size, *mem;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Rank 0's window: the counter, then one slot per rank. */
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? (size + 1) * sizeof(int) : 0, sizeof(int),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		for (int i = 0; i <= size; i++)
			mem[i] = -1;
		mem[0] = 0;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	if (rank == 0) {
		/* No MPI call in here: the window is unified, the updates show in memory. */
		double end = now() + CHECK_POLL_S;
		int count = 0, filled = 0;
		unsigned long spins = 0;
		while ((count < size - 1 || filled < size - 1) && now() < end) {
			count = __atomic_load_n(&mem[0], __ATOMIC_ACQUIRE);
			filled = 0;
			for (int p = 1; p < size; p++)
				filled += __atomic_load_n(&mem[1 + p], __ATOMIC_ACQUIRE) == p;
			if (++spins % 1024 == 0)
				sched_yield();
		}
		CHECK_INT(count, size - 1);
		CHECK_INT(filled, size - 1);
	} else {
		int one = 1, old = -1;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Put(&rank, 1, MPI_INT, 0, 1 + rank, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK_CMP(old, >=, 0);
		CHECK_CMP(old, <, size - 1);
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
