/* rma_shared_locks_are_held_together: while rank 1 holds a shared lock on rank 0 (a get
 * flushed inside it, so that it is surely held), every other rank takes a shared lock on
 * rank 0 too, puts into its slot there, unlocks and tells rank 1; rank 1 gets all those
 * messages before it unlocks (polled with MPI_Testall, for up to CHECK_POLL_S). Then rank 1
 * takes an exclusive lock and reads every slot. */
/* ranks: 3 4 8 */
#include "check.h"

#define TAG 5

int main(int argc, char **argv)
{
	int rank, size, *mem;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? size * sizeof(int) : 0, sizeof(int),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		for (int i = 0; i < size; i++)
			mem[i] = -1;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	if (rank == 1) {
		int v = 0, flag = 0, tokens[size];
		MPI_Request reqs[size];
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		CHECK_INT(v, -1);
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));   /* held: the others may start */
		int n = 0;
		for (int p = 0; p < size; p++) {
			if (p == 1)
				continue;
			CHECK_MPI(MPI_Irecv(&tokens[n], 1, MPI_INT, p, TAG, MPI_COMM_WORLD,
					    &reqs[n]));
			n++;
		}
		double end = MPI_Wtime() + CHECK_POLL_S;
		while (!flag && MPI_Wtime() < end)
			CHECK_MPI(MPI_Testall(n, reqs, &flag, MPI_STATUSES_IGNORE));
		CHECK_INT(flag, 1);   /* all got their shared lock while we held ours */
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		int slots[size];
		CHECK_MPI(MPI_Get(slots, size, MPI_INT, 0, 0, size, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		for (int p = 0; p < size; p++)
			CHECK_INT(slots[p], p == 1 ? -1 : 100 + p);
	} else {
		int v = 100 + rank;
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, rank, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
