/* oversubscribed_ring_and_all_pairs: with many more ranks than cores, a token ring and an
 * all-pairs exchange complete (a lost wake-up would hang them) with every value right. */
/* ranks: 64 128 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* Ring: 10 laps, each rank adds one. */
	int token = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
	for (int lap = 0; lap < 10; lap++) {
		if (rank == 0) {
			token++;
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		} else {
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
			token++;
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD));
		}
	}
	if (rank == 0)
		CHECK_INT(token, 10 * size);

	/* All pairs: every rank sends a distinct 1 KiB message to every other rank. */
	const int n = 256;
	int *out = malloc((size_t)size * n * sizeof(int)), *in = malloc((size_t)size * n * sizeof(int));
	MPI_Request *reqs = malloc(2 * size * sizeof(MPI_Request));
	for (int round = 0; round < 3; round++) {
		int nr = 0;
		for (int p = 0; p < size; p++) {
			if (p == rank)
				continue;
			CHECK_MPI(MPI_Irecv(in + (size_t)p * n, n, MPI_INT, p, round, MPI_COMM_WORLD,
					    &reqs[nr++]));
		}
		for (int p = 0; p < size; p++) {
			if (p == rank)
				continue;
			for (int j = 0; j < n; j++)
				out[(size_t)p * n + j] = rank * 1000000 + p * 1000 + round * 10 + j % 10;
			CHECK_MPI(MPI_Isend(out + (size_t)p * n, n, MPI_INT, p, round, MPI_COMM_WORLD,
					    &reqs[nr++]));
		}
		CHECK_MPI(MPI_Waitall(nr, reqs, MPI_STATUSES_IGNORE));
		for (int p = 0; p < size; p++) {
			if (p == rank)
				continue;
			for (int j = 0; j < n; j++)
				CHECK_INT(in[(size_t)p * n + j], p * 1000000 + rank * 1000 + round * 10 + j % 10);
		}
	}
	free(out); free(in); free(reqs);

	check_barrier(MPI_COMM_WORLD, 99);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
