/* coll_gather_scatter_place_blocks_by_rank: Gather, Gatherv, Scatter and Scatterv put rank
 * k's block at block k (or displs[k]) of the root's buffer, with and without MPI_IN_PLACE. */
/* ranks: 1 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int *all = malloc(sizeof(int) * 4 * size * 3), *counts = malloc(sizeof(int) * size),
	    *displs = malloc(sizeof(int) * size);
	for (int root = 0; root < size; root += size > 4 ? size / 3 : 1) {
		int mine[2] = { rank * 2, rank * 2 + 1 };
		memset(all, 0xff, sizeof(int) * 4 * size);
		CHECK_MPI(MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD));
		if (rank == root)
			for (int i = 0; i < 2 * size; i++)
				CHECK_INT(all[i], i);
		/* In place at the root: its block is already there. */
		if (rank == root) {
			memset(all, 0xff, sizeof(int) * 4 * size);
			all[2 * root] = 2 * root;
			all[2 * root + 1] = 2 * root + 1;
			CHECK_MPI(MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, all, 2, MPI_INT, root,
					     MPI_COMM_WORLD));
			for (int i = 0; i < 2 * size; i++)
				CHECK_INT(all[i], i);
		} else {
			CHECK_MPI(MPI_Gather(mine, 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root,
					     MPI_COMM_WORLD));
		}
		/* Gatherv: rank k sends k % 3 + 1 ints to displacement 3k, reversed order. */
		int n = rank % 3 + 1, v[3] = { rank, rank + 100, rank + 200 };
		for (int k = 0; k < size; k++) {
			counts[k] = k % 3 + 1;
			displs[k] = 3 * (size - 1 - k);
		}
		memset(all, 0xff, sizeof(int) * 3 * size);
		CHECK_MPI(MPI_Gatherv(v, n, MPI_INT, all, counts, displs, MPI_INT, root,
				      MPI_COMM_WORLD));
		if (rank == root)
			for (int k = 0; k < size; k++)
				for (int j = 0; j < 3; j++)
					CHECK_INT(all[3 * (size - 1 - k) + j],
						  j < k % 3 + 1 ? k + 100 * j : -1);
		/* Scatter: block k goes to rank k. */
		if (rank == root)
			for (int i = 0; i < 2 * size; i++)
				all[i] = 7 * i;
		mine[0] = mine[1] = -5;
		CHECK_MPI(MPI_Scatter(all, 2, MPI_INT, mine, 2, MPI_INT, root, MPI_COMM_WORLD));
		CHECK_INT(mine[0], 14 * rank);
		CHECK_INT(mine[1], 14 * rank + 7);
		if (rank == root)
			CHECK_MPI(MPI_Scatter(all, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, root,
					      MPI_COMM_WORLD));
		else
			CHECK_MPI(MPI_Scatter(NULL, 0, MPI_INT, mine, 2, MPI_INT, root,
					      MPI_COMM_WORLD));
		/* Scatterv with the Gatherv layout. */
		if (rank == root)
			for (int i = 0; i < 3 * size; i++)
				all[i] = i;
		v[0] = v[1] = v[2] = -1;
		CHECK_MPI(MPI_Scatterv(all, counts, displs, MPI_INT, v, n, MPI_INT, root,
				       MPI_COMM_WORLD));
		for (int j = 0; j < 3; j++)
			CHECK_INT(v[j], j < n ? 3 * (size - 1 - rank) + j : -1);
	}
	free(all);
	free(counts);
	free(displs);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
