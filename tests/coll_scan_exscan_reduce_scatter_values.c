/* coll_scan_exscan_reduce_scatter_values: Scan and Exscan give rank-order prefixes (also in
 * place); Reduce_scatter and Reduce_scatter_block hand rank k its block of the reduction
 * (also in place), with uneven counts including zero. */
/* ranks: 1 2 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int v[2] = { rank + 1, 2 }, r[2] = { -1, -1 };
	CHECK_MPI(MPI_Scan(v, r, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK_INT(r[0], (rank + 1) * (rank + 2) / 2);
	CHECK_INT(r[1], 2 * (rank + 1));
	r[0] = rank + 1;
	r[1] = 2;
	CHECK_MPI(MPI_Scan(MPI_IN_PLACE, r, 2, MPI_INT, MPI_PROD, MPI_COMM_WORLD));
	if (rank < 30)
		CHECK_INT(r[1], 1 << (rank + 1));
	r[0] = r[1] = 77;
	CHECK_MPI(MPI_Exscan(v, r, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_INT(r[0], 77);
	} else {
		CHECK_INT(r[0], rank * (rank + 1) / 2);
		CHECK_INT(r[1], 2 * rank);
	}
	r[0] = rank + 1;
	r[1] = 2;
	CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, r, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
	if (rank > 0)
		CHECK_INT(r[0], rank);

	/* Reduce_scatter: rank k gets k % 3 elements; element e of everyone's vector is
	 * e + rank, so the sum of element e is size * e + size(size-1)/2. */
	int *counts = malloc(sizeof(int) * size), total = 0;
	for (int k = 0; k < size; k++) {
		counts[k] = k % 3;
		total += counts[k];
	}
	int *in = malloc(sizeof(int) * (total + 1)), out[3] = { -1, -1, -1 }, first = 0;
	for (int k = 0; k < rank; k++)
		first += counts[k];
	for (int e = 0; e < total; e++)
		in[e] = e + rank;
	CHECK_MPI(MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	for (int j = 0; j < 3; j++)
		CHECK_INT(out[j], j < counts[rank] ? size * (first + j) + size * (size - 1) / 2 : -1);
	CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, in, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	for (int j = 0; j < counts[rank]; j++)
		CHECK_INT(in[j], size * (first + j) + size * (size - 1) / 2);
	/* Reduce_scatter_block with 2 per rank, in place. */
	int *blk = malloc(sizeof(int) * 2 * size);
	for (int e = 0; e < 2 * size; e++)
		blk[e] = e * rank;
	CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, blk, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
	CHECK_INT(blk[0], 2 * rank * size * (size - 1) / 2);
	CHECK_INT(blk[1], (2 * rank + 1) * size * (size - 1) / 2);
	free(blk);
	free(in);
	free(counts);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
