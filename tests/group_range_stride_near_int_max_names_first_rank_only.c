/* group_range_stride_near_int_max_names_first_rank_only: a triplet of MPI_Group_range_incl
 * and MPI_Group_range_excl whose stride is near INT_MAX or INT_MIN ({size-1, size-1,
 * INT_MAX}, {0, size-1, INT_MAX}, {size-1, 0, -INT_MAX}, {size-1, 0, INT_MIN}) names its
 * first rank only (MPI 4.1, 7.3.2: first + i*stride for 0 <= i <= (last-first)/stride):
 * incl gives that rank alone, excl every other rank in order; stepping to the next rank
 * must not overflow int and run past the end of the range. */
/* ranks: 1 2 4 8 */
#include <limits.h>
#include "check.h"

/* The triplets `ranges` name exactly the world ranks `named` (n of them, in order). */
static void check_ranges(MPI_Group world, int size, int nr, int ranges[][3], int n,
			 const int *named)
{
	int others[64], no = 0;
	MPI_Group g;

	for (int w = 0; w < size; w++) {
		int in = 0;
		for (int i = 0; i < n; i++)
			in |= named[i] == w;
		if (!in)
			others[no++] = w;
	}
	CHECK_MPI(MPI_Group_range_incl(world, nr, ranges, &g));
	check_group_members(g, world, n, named);
	if (g != MPI_GROUP_EMPTY)
		CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_range_excl(world, nr, ranges, &g));
	check_group_members(g, world, no, others);
	if (g != MPI_GROUP_EMPTY)
		CHECK_MPI(MPI_Group_free(&g));
}

int main(int argc, char **argv)
{
	int size;
	MPI_Group world;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_CMP(size, <=, 64);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	const int last = size - 1, first = 0;

	/* Repeated, so that a write past the rank array meets the allocator's own data. */
	for (int round = 0; round < 50; round++) {
		int last_only[1][3] = { { last, last, INT_MAX } };
		check_ranges(world, size, 1, last_only, 1, &last);
		int up[1][3] = { { 0, last, INT_MAX } };
		check_ranges(world, size, 1, up, 1, &first);
		int down[1][3] = { { last, 0, -INT_MAX } };
		check_ranges(world, size, 1, down, 1, &last);
		int down_min[1][3] = { { last, 0, INT_MIN } };
		check_ranges(world, size, 1, down_min, 1, &last);
		if (size > 1) {
			/* Two such triplets side by side: both ends, in the triplets' order. */
			int ends[2][3] = { { last, last, INT_MAX }, { 0, 0, -INT_MAX } };
			int named[2] = { last, 0 };
			check_ranges(world, size, 2, ends, 2, named);
		}
	}

	CHECK_MPI(MPI_Group_free(&world));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
