/* reduce_scatter_counts_differing_between_members_are_err_count: MPI_Reduce_scatter_block
 * with a recvcount that differs between members (rank 0 passes 1 and the others 2, or the
 * other way round), and MPI_Reduce_scatter with recvcounts arrays that differ, fail with
 * MPI_ERR_COUNT on every member (MPI_ERRORS_RETURN) and touch no buffer, whatever member's
 * counts are larger: nobody's send buffer, sized by its own counts, is read past its end.
 * Correct calls afterwards give the right sums. */
/* ranks: 2 3 8 */
#include "check.h"

/* Exactly n doubles, each rank + 1, so that a read past the end meets other memory. */
static double *filled(int n, int rank)
{
	double *b = malloc(sizeof *b * n);

	CHECK(b != NULL);
	for (int i = 0; i < n; i++)
		b[i] = rank + 1;
	return b;
}

static void check_untouched(const double *r, int n)
{
	for (int i = 0; i < n; i++)
		CHECK_DBL_CMP(r[i], ==, -7);
}

/* Reduce_scatter_block where rank 0 passes `zero` and the others `other`. */
static void block_mismatch(int rank, int size, int zero, int other)
{
	int mine = rank == 0 ? zero : other;
	double *s = filled(mine * size, rank), *r = malloc(sizeof *r * mine);

	CHECK(r != NULL);
	for (int i = 0; i < mine; i++)
		r[i] = -7;
	CHECK_CLASS(MPI_Reduce_scatter_block(s, r, mine, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
		    MPI_ERR_COUNT);
	check_untouched(r, mine);
	free(s);
	free(r);
}

/* Reduce_scatter where rank 0's recvcounts give member `who` `zero` elements and the
 * others' give it `other`; every other member gets 1 in both. */
static void vector_mismatch(int rank, int size, int who, int zero, int other)
{
	int *counts = malloc(sizeof *counts * size), total = 0;

	CHECK(counts != NULL);
	for (int k = 0; k < size; k++) {
		counts[k] = k != who ? 1 : rank == 0 ? zero : other;
		total += counts[k];
	}
	double *s = filled(total, rank), *r = malloc(sizeof *r * counts[rank]);
	CHECK(r != NULL);
	for (int i = 0; i < counts[rank]; i++)
		r[i] = -7;
	CHECK_CLASS(MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
		    MPI_ERR_COUNT);
	check_untouched(r, counts[rank]);
	free(s);
	free(r);
	free(counts);
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_CMP(size, >=, 2);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

	block_mismatch(rank, size, 1, 2);
	block_mismatch(rank, size, 2, 1);
	/* Large enough that a read past a smaller member's buffer leaves its allocation. */
	block_mismatch(rank, size, 4096, 1);
	vector_mismatch(rank, size, 1, 2, 1);
	vector_mismatch(rank, size, 0, 1, 3);
	vector_mismatch(rank, size, size - 1, 4096, 1);

	/* Matching counts: member k gets 2 + k elements, each the sum of every rank + 1. */
	int *counts = malloc(sizeof *counts * size), total = 0;
	CHECK(counts != NULL);
	for (int k = 0; k < size; k++)
		total += counts[k] = 2 + k;
	double *s = filled(total, rank), *r = malloc(sizeof *r * (2 + size));
	CHECK(r != NULL);
	const double sum = (double)size * (size + 1) / 2;
	CHECK_MPI(MPI_Reduce_scatter(s, r, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	for (int i = 0; i < counts[rank]; i++)
		CHECK_DBL_CMP(r[i], ==, sum);
	CHECK_MPI(MPI_Reduce_scatter_block(s, r, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	CHECK_DBL_CMP(r[0], ==, sum);
	CHECK_DBL_CMP(r[1], ==, sum);
	free(s);
	free(r);
	free(counts);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
