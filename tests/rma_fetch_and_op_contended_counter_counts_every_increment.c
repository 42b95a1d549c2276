/* rma_fetch_and_op_contended_counter_counts_every_increment: every rank adds 1 to one
 * counter of rank 0 M times with MPI_Fetch_and_op (MPI_SUM) in one lock_all epoch, flushing
 * each to read its result: the counter ends at exactly N*M and the fetched values are
 * 0..N*M-1, each fetched once (no increment lost or seen twice). */
/* ranks: 2 8 64 */
/* timeout: 300 */
#include "check.h"

#define M 200

int main(int argc, char **argv)
{
	int rank, size;
	long long *counter, one = 1, got[M];
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? sizeof(long long) : 0, sizeof(long long),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		*counter = 0;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock_all(0, win));
	for (int i = 0; i < M; i++) {
		CHECK_MPI(MPI_Fetch_and_op(&one, &got[i], MPI_LONG_LONG, 0, 0, MPI_SUM, win));
		CHECK_MPI(MPI_Win_flush(0, win));
		if (i > 0)
			CHECK_CMP(got[i], >, got[i - 1]);  /* one origin's increments in order */
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	long long *all = rank == 0 ? malloc(sizeof(long long) * M * size) : NULL;
	CHECK_MPI(MPI_Gather(got, M, MPI_LONG_LONG, all, M, MPI_LONG_LONG, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		char *seen = calloc((size_t)M * size, 1);
		for (int i = 0; i < M * size; i++) {
			CHECK_CMP(all[i], >=, 0);
			CHECK_CMP(all[i], <, (long long)M * size);
			CHECK_INT(seen[all[i]], 0);   /* fetched twice: an increment lost */
			seen[all[i]] = 1;
		}
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_INT(*counter, (long long)M * size);
		CHECK_MPI(MPI_Win_unlock(0, win));
		free(seen);
		free(all);
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
