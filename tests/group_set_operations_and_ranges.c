/* group_set_operations_and_ranges: every MPI_Group_* function on groups of MPI_COMM_WORLD:
 * sizes, ranks, translation, comparison, union/intersection/difference order, incl/excl and
 * their range forms, and MPI_GROUP_EMPTY as the empty result. */
/* ranks: 1 2 4 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, res, r;
	MPI_Group world, evens, odds, low, u, x, d, g;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
	CHECK_MPI(MPI_Group_rank(world, &r));
	CHECK_INT(r, rank);

	int e[64], o[64], ne = 0, no = 0, all[64];
	for (int i = 0; i < size; i++) {
		all[i] = i;
		if (i % 2)
			o[no++] = i;
		else
			e[ne++] = i;
	}
	/* range_incl with stride 2: evens; range_excl of the same: odds. */
	int range[1][3] = { { 0, size - 1, 2 } };
	CHECK_MPI(MPI_Group_range_incl(world, 1, range, &evens));
	check_group_members(evens, world, ne, e);
	CHECK_MPI(MPI_Group_range_excl(world, 1, range, &odds));
	if (no == 0)
		CHECK(odds == MPI_GROUP_EMPTY);
	check_group_members(odds, world, no, o);
	CHECK_MPI(MPI_Group_rank(evens, &r));
	CHECK_INT(r, rank % 2 ? MPI_UNDEFINED : rank / 2);

	/* Union keeps group1's order, then group2's others. */
	CHECK_MPI(MPI_Group_union(odds, evens, &u));
	int ou[64], n = 0;
	for (int i = 0; i < no; i++)
		ou[n++] = o[i];
	for (int i = 0; i < ne; i++)
		ou[n++] = e[i];
	check_group_members(u, world, size, ou);
	CHECK_MPI(MPI_Group_compare(u, world, &res));
	CHECK_INT(res, size > 1 ? MPI_SIMILAR : MPI_IDENT);
	CHECK_MPI(MPI_Group_compare(world, world, &res));
	CHECK_INT(res, MPI_IDENT);

	/* low: ranks 0..size/2 (incl, reversed order). */
	int lown = size / 2 + 1 > size ? size : size / 2 + 1, lr[64];
	for (int i = 0; i < lown; i++)
		lr[i] = lown - 1 - i;
	CHECK_MPI(MPI_Group_incl(world, lown, lr, &low));
	check_group_members(low, world, lown, lr);
	CHECK_MPI(MPI_Group_compare(low, evens, &res));
	CHECK_INT(res, size == 1 ? MPI_IDENT : MPI_UNEQUAL);

	/* Intersection and difference in group1's order. */
	CHECK_MPI(MPI_Group_intersection(low, evens, &x));
	int xe[64], nx = 0, de[64], nd = 0;
	for (int i = 0; i < lown; i++) {
		if (lr[i] % 2 == 0)
			xe[nx++] = lr[i];
		else
			de[nd++] = lr[i];
	}
	check_group_members(x, world, nx, xe);
	CHECK_MPI(MPI_Group_difference(low, evens, &d));
	check_group_members(d, world, nd, de);

	/* excl of everyone is empty; translate to a group without the rank is UNDEFINED. */
	CHECK_MPI(MPI_Group_excl(world, size, all, &g));
	CHECK(g == MPI_GROUP_EMPTY);
	CHECK_MPI(MPI_Group_free(&g));
	int q = 0, t = -5, pn = MPI_PROC_NULL;
	if (no > 0) {
		CHECK_MPI(MPI_Group_translate_ranks(evens, 1, &q, odds, &t));
		CHECK_INT(t, MPI_UNDEFINED);
	}
	CHECK_MPI(MPI_Group_translate_ranks(evens, 1, &pn, world, &t));
	CHECK_INT(t, MPI_PROC_NULL);
	CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
	CHECK_INT(n, 0);
	CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
	CHECK_INT(r, MPI_UNDEFINED);

	/* Bad arguments: duplicate or out-of-range ranks. */
	MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	int dupr[2] = { 0, 0 }, bad = size;
	if (size >= 1)
		CHECK_CLASS(MPI_Group_incl(world, 2 <= size ? 2 : 1, dupr, &g),
			    2 <= size ? MPI_ERR_RANK : MPI_SUCCESS);
	if (size == 1)
		MPI_Group_free(&g);
	CHECK_CLASS(MPI_Group_incl(world, 1, &bad, &g), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);

	MPI_Group *all_groups[] = { &world, &evens, &odds, &low, &u, &x, &d };
	for (unsigned i = 0; i < sizeof(all_groups) / sizeof(all_groups[0]); i++) {
		CHECK_MPI(MPI_Group_free(all_groups[i]));
		CHECK(*all_groups[i] == MPI_GROUP_NULL);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
