/* rma_win_allocate_shared_is_contiguous_unless_noncontig: MPI_Win_allocate_shared lays the
 * ranks' segments end to end by default (rank i+1's base is rank i's base plus its size;
 * rank 0 asks 0 bytes, all others some); MPI_Win_shared_query returns each rank's size,
 * disp_unit and base, and for MPI_PROC_NULL the lowest rank's segment with memory. With
 * alloc_shared_noncontig=true every segment is still queryable, none overlaps another,
 * and each rank's stores through its own pointer are read through the others' (after
 * MPI_Win_sync and a barrier). Both windows have the flavour MPI_WIN_FLAVOR_SHARED. */
/* ranks: 1 2 4 8 */
#include "check.h"

static MPI_Aint size_of(int r)
{
	return r == 0 ? 0 : 8 * r + 24;
}

static int unit_of(int r)
{
	return r % 2 ? 8 : 1;
}

/* Query every rank's segment of `win` into sizes/bases; check size and unit. A segment of
 * its own (`exact` 0) may be rounded up, to a page for instance. */
static void query_all(MPI_Win win, int size, int exact, MPI_Aint *sizes, char **bases)
{
	for (int r = 0; r < size; r++) {
		int unit = -1;
		CHECK_MPI(MPI_Win_shared_query(win, r, &sizes[r], &unit, &bases[r]));
		if (exact)
			CHECK_INT(sizes[r], size_of(r));
		else
			CHECK_CMP(sizes[r], >=, size_of(r));
		CHECK_INT(unit, unit_of(r));
	}
}

/* Each rank fills its segment with its rank, all read every segment. */
static void stores_reach_everyone(MPI_Win win, int rank, int size, char *mine,
				  const MPI_Aint *sizes, char *const *bases)
{
	CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	memset(mine, rank + 1, size_of(rank));
	CHECK_MPI(MPI_Win_sync(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_sync(win));
	for (int r = 0; r < size; r++)
		for (MPI_Aint b = 0; b < size_of(r); b++)
			CHECK_INT(bases[r][b], r + 1);
	CHECK_MPI(MPI_Win_unlock_all(win));
}

static void check_flavor(MPI_Win win)
{
	int *flavor, flag = 0;
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*flavor, MPI_WIN_FLAVOR_SHARED);
}

int main(int argc, char **argv)
{
	int rank, size, unit = -1;
	char *mine, *any;
	MPI_Aint anysize = -1;
	MPI_Win win;
	MPI_Info info;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Aint sizes[size];
	char *bases[size];

	CHECK_MPI(MPI_Win_allocate_shared(size_of(rank), unit_of(rank), MPI_INFO_NULL,
					  MPI_COMM_WORLD, &mine, &win));
	check_flavor(win);
	query_all(win, size, 1, sizes, bases);
	if (size_of(rank) > 0)
		CHECK(bases[rank] == mine);
	/* Contiguous: each segment ends where the next one with memory starts (the base of a
	 * segment of 0 bytes is not specified). */
	for (int r = 1; r + 1 < size; r++)
		CHECK(bases[r + 1] == bases[r] + sizes[r]);
	if (size > 1) {
		CHECK_MPI(MPI_Win_shared_query(win, MPI_PROC_NULL, &anysize, &unit, &any));
		CHECK_INT(anysize, size_of(1));
		CHECK_INT(unit, unit_of(1));
		CHECK(any == bases[1]);
	}
	stores_reach_everyone(win, rank, size, mine, sizes, bases);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Info_create(&info));
	CHECK_MPI(MPI_Info_set(info, "alloc_shared_noncontig", "true"));
	CHECK_MPI(MPI_Win_allocate_shared(size_of(rank), unit_of(rank), info, MPI_COMM_WORLD,
					  &mine, &win));
	CHECK_MPI(MPI_Info_free(&info));
	check_flavor(win);
	query_all(win, size, 0, sizes, bases);
	if (size_of(rank) > 0)
		CHECK(bases[rank] == mine);
	for (int r = 0; r < size; r++)
		for (int s = 0; s < size; s++)
			if (r != s && size_of(r) > 0 && size_of(s) > 0)
				CHECK(bases[r] + size_of(r) <= bases[s] ||
				      bases[s] + size_of(s) <= bases[r]);
	stores_reach_everyone(win, rank, size, mine, sizes, bases);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
