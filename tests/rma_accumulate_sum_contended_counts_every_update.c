/* rma_accumulate_sum_contended_counts_every_update: every rank adds its vector of NEL long
 * longs (rank+1 times 1..NEL) to the same NEL elements of rank 0 M times with MPI_Accumulate
 * (MPI_SUM), each in a shared lock epoch of its own, all ranks at once: each element ends at
 * exactly M * (k+1) * N(N+1)/2 (accumulates are element-wise atomic to each other). */
/* ranks: 2 8 64 */
/* timeout: 300 */
#include "check.h"

#define M 100
#define NEL 8

int main(int argc, char **argv)
{
	int rank, size;
	long long *sums, add[NEL];
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Win_allocate(rank == 0 ? NEL * sizeof(long long) : 0, sizeof(long long),
				   MPI_INFO_NULL, MPI_COMM_WORLD, &sums, &win));
	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
		for (int k = 0; k < NEL; k++)
			sums[k] = 0;
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	for (int k = 0; k < NEL; k++)
		add[k] = (long long)(rank + 1) * (k + 1);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	for (int i = 0; i < M; i++) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		CHECK_MPI(MPI_Accumulate(add, NEL, MPI_LONG_LONG, 0, 0, NEL, MPI_LONG_LONG,
					 MPI_SUM, win));
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	if (rank == 0) {
		CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
		for (int k = 0; k < NEL; k++)
			CHECK_INT(sums[k], (long long)M * (k + 1) * size * (size + 1) / 2);
		CHECK_MPI(MPI_Win_unlock(0, win));
	}
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
