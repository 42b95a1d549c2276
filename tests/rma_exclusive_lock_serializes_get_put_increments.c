/* rma_exclusive_lock_serializes_get_put_increments: every rank M times takes an exclusive
 * lock on rank 0, reads a counter there with MPI_Get, flushes, writes it back plus one with
 * MPI_Put and unlocks (an increment that is not atomic on its own): the counter ends at
 * exactly N*M, as no two exclusive epochs on one target overlap. */
/* ranks: 2 8 64 */
/* timeout: 300 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, *counter;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int m = size > 8 ? 20 : 100;
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL,
				   MPI_COMM_WORLD, &counter, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		*counter = 0;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	for (int i = 0; i < m; i++) {
		int v = -1;
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		CHECK_MPI(MPI_Get(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		v++;
		CHECK_MPI(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_INT(*counter, size * m);
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
