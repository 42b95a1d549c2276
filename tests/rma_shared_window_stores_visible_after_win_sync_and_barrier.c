/* rma_shared_window_stores_visible_after_win_sync_and_barrier: in a window of
 * MPI_Win_allocate_shared, plain stores of a rank to its segment are seen by plain loads of
 * its neighbours through MPI_Win_shared_query's pointers after the standard's pattern
 * (store; MPI_Win_sync; MPI_Barrier; MPI_Win_sync; load, in a lock_all epoch), round after
 * round with new values, and the neighbours' stores to the rank's segment reach it too. */
/* ranks: 2 4 8 64 */
#include "check.h"

#define ROUNDS 50
#define NEL 16   /* longs per segment: [0, NEL/2) written by the owner, the rest by its
		  * next rank */

int main(int argc, char **argv)
{
	int rank, size, unit;
	long *mine, *next_seg, *prev_seg;
	MPI_Aint segsize;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	CHECK_MPI(MPI_Win_allocate_shared(NEL * sizeof(long), sizeof(long), MPI_INFO_NULL,
					  MPI_COMM_WORLD, &mine, &win));
	CHECK_MPI(MPI_Win_shared_query(win, next, &segsize, &unit, &next_seg));
	CHECK_INT(segsize, NEL * sizeof(long));
	CHECK_MPI(MPI_Win_shared_query(win, prev, &segsize, &unit, &prev_seg));

	CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	for (int round = 0; round < ROUNDS; round++) {
		for (int i = 0; i < NEL / 2; i++) {
			mine[i] = (long)round * 1000000 + rank * 100 + i;
			prev_seg[NEL / 2 + i] = -((long)round * 1000000 + rank * 100 + i);
		}
		CHECK_MPI(MPI_Win_sync(win));
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
		CHECK_MPI(MPI_Win_sync(win));
		for (int i = 0; i < NEL / 2; i++) {
			CHECK_INT(next_seg[i], (long)round * 1000000 + next * 100 + i);
			CHECK_INT(mine[NEL / 2 + i], -((long)round * 1000000 + next * 100 + i));
		}
		/* Everyone has read before anyone stores the next round. */
		CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
