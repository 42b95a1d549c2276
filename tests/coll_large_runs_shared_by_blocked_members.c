/* coll_large_runs_shared_by_blocked_members: large Bcast, Allgather, Alltoall (dense and
 * strided), Allreduce and Reduce (doubles, also in place at every root), whose copies and
 * folds the blocked members share in chunks, deliver every byte and give bitwise the
 * rank-order sequential sum on every rank; a large Scan gives each rank its own prefix. */
/* ranks: 2 3 4 8 */
#include <math.h>
#include "check.h"

/* Vector lengths in doubles: the 32 KiB share threshold (one chunk), two chunks with a
 * short last one, and 160 KiB (not a chunk multiple). */
static const int lengths[] = { 32 * 1024 / 8, 48 * 1024 / 8 + 3, 160 * 1024 / 8 };

static double val(int rank, int i)
{
	/* Sums of these depend on the order of the additions. */
	return sin(rank * 7.1 + i * 0.37) * pow(10.0, (i + rank) % 9 - 4);
}

/* `f` (MPI_Allreduce or MPI_Scan) of this rank's values into b, then in place in a: both
 * give `expect` bitwise. Leaves a holding this rank's values. */
static void both_ways(int (*f)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm),
		      double *a, double *b, int N, int rank, const double *expect)
{
	for (int i = 0; i < N; i++)
		a[i] = val(rank, i);
	CHECK_MPI(f(a, b, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	CHECK(memcmp(b, expect, N * sizeof(double)) == 0);
	CHECK_MPI(f(MPI_IN_PLACE, a, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
	CHECK(memcmp(a, expect, N * sizeof(double)) == 0);
	for (int i = 0; i < N; i++)
		a[i] = val(rank, i);
}

static void run(int rank, int size, int N)
{
	double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
	double *want = malloc(N * sizeof(double)), *prefix = malloc(N * sizeof(double));
	/* The sums in rank order: of every rank, and of ranks up to this one. */
	for (int i = 0; i < N; i++) {
		want[i] = prefix[i] = val(0, i);
		for (int r = 1; r < size; r++) {
			want[i] += val(r, i);
			prefix[i] = r <= rank ? want[i] : prefix[i];
		}
	}

	for (int round = 0; round < 3; round++) {
		/* Allreduce, then in place; Reduce to a rotating root. */
		both_ways(MPI_Allreduce, a, b, N, rank, want);
		int root = round % size;
		memset(b, 0, N * sizeof(double));
		CHECK_MPI(MPI_Reduce(a, b, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
		if (rank == root)
			CHECK(memcmp(b, want, N * sizeof(double)) == 0);
		/* In place at the root: its input is also the output the fold may not
		 * accumulate in before it has read it. */
		if (rank == root)
			CHECK_MPI(MPI_Reduce(MPI_IN_PLACE, a, N, MPI_DOUBLE, MPI_SUM, root,
					     MPI_COMM_WORLD));
		else
			CHECK_MPI(MPI_Reduce(a, NULL, N, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
		if (rank == root)
			CHECK(memcmp(a, want, N * sizeof(double)) == 0);
		for (int i = 0; i < N; i++)
			CHECK(rank == root || a[i] == val(rank, i));

		/* Scan, then in place: each rank's prefix, not the whole fold. */
		both_ways(MPI_Scan, a, b, N, rank, prefix);

		/* Bcast from the root into a strided layout (every other double). */
		MPI_Datatype every_other;
		CHECK_MPI(MPI_Type_vector(N / 2, 1, 2, MPI_DOUBLE, &every_other));
		CHECK_MPI(MPI_Type_commit(&every_other));
		if (rank == root)
			for (int i = 0; i < N / 2; i++)
				a[i] = val(root, i);
		for (int i = 0; i < N; i++)
			b[i] = -1;
		if (rank == root)
			CHECK_MPI(MPI_Bcast(a, N / 2, MPI_DOUBLE, root, MPI_COMM_WORLD));
		else
			CHECK_MPI(MPI_Bcast(b, 1, every_other, root, MPI_COMM_WORLD));
		if (rank != root)
			for (int i = 0; i < N; i++)
				CHECK(b[i] == (i % 2 || i / 2 >= N / 2 ? -1 : val(root, i / 2)));
		CHECK_MPI(MPI_Type_free(&every_other));

		/* Allgather and Alltoall of 160 KiB blocks. */
		int per = N;
		double *g = malloc((size_t)per * size * sizeof(double));
		double *s = malloc((size_t)per * size * sizeof(double));
		for (int i = 0; i < per; i++)
			s[i] = val(rank, i);
		CHECK_MPI(MPI_Allgather(s, per, MPI_DOUBLE, g, per, MPI_DOUBLE, MPI_COMM_WORLD));
		for (int r = 0; r < size; r++)
			for (int i = 0; i < per; i += 97)
				CHECK(g[(size_t)r * per + i] == val(r, i));
		for (int r = 0; r < size; r++)
			for (int i = 0; i < per; i++)
				s[(size_t)r * per + i] = val(rank * 100 + r, i);
		CHECK_MPI(MPI_Alltoall(s, per, MPI_DOUBLE, g, per, MPI_DOUBLE, MPI_COMM_WORLD));
		for (int r = 0; r < size; r++)
			for (int i = 0; i < per; i += 89)
				CHECK(g[(size_t)r * per + i] == val(r * 100 + rank, i));
		free(g);
		free(s);
	}
	free(a);
	free(b);
	free(want);
	free(prefix);
}

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++)
		run(rank, size, lengths[i]);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
