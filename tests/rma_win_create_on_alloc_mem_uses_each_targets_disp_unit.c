/* rma_win_create_on_alloc_mem_uses_each_targets_disp_unit: MPI_Win_create over memory from
 * MPI_Alloc_mem, each rank with a size and a disp_unit of its own (1, 4 or 8 bytes; the last
 * rank exposes nothing, size 0): a put to the next rank lands at target_disp times that
 * rank's unit, a get reads from there, nothing else of the window changes, the window's
 * flavour is MPI_WIN_FLAVOR_CREATE; MPI_Free_mem frees the memory after MPI_Win_free. */
/* ranks: 2 3 4 8 */
#include "check.h"

static int unit_of(int r)
{
	static const int units[3] = { 1, 4, 8 };
	return units[r % 3];
}

static MPI_Aint size_of(int r, int size)
{
	return r == size - 1 ? 0 : 64 + 8 * r;
}

int main(int argc, char **argv)
{
	int rank, size, *flavor, flag = 0;
	char *mem;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Aint mysize = size_of(rank, size);
	CHECK_MPI(MPI_Alloc_mem(mysize + 1, MPI_INFO_NULL, &mem));
	memset(mem, 0x11, mysize);
	CHECK_MPI(MPI_Win_create(mysize ? mem : NULL, mysize, unit_of(rank), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*flavor, MPI_WIN_FLAVOR_CREATE);

	/* Every rank puts two ints at disp 8 of the next one, if that has memory (all but
	 * the last), and gets two ints at disp 0 from it: bytes 8..15, 32..39 or 64..71 of
	 * the target, then bytes 0..7, apart whatever the unit. */
	int next = rank + 1, put[2] = { 1000 + rank, 2000 + rank }, got[2] = { -1, -1 };
	int target_has = next < size - 1;
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	if (target_has) {
		CHECK_MPI(MPI_Put(put, 2, MPI_INT, next, 8, 2, MPI_INT, win));
		CHECK_MPI(MPI_Get(got, 2, MPI_INT, next, 0, 2, MPI_INT, win));
	}
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	if (target_has) {
		CHECK_INT(got[0], 0x11111111);
		CHECK_INT(got[1], 0x11111111);
	}

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	if (rank > 0 && mysize > 0) {
		MPI_Aint at = 8 * (MPI_Aint)unit_of(rank);
		int v[2];
		memcpy(v, mem + at, sizeof v);
		CHECK_INT(v[0], 1000 + rank - 1);
		CHECK_INT(v[1], 2000 + rank - 1);
		for (MPI_Aint b = 0; b < mysize; b++)
			if (b < at || b >= at + (MPI_Aint)sizeof v)
				CHECK_INT((unsigned char)mem[b], 0x11);
	}
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Free_mem(mem));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
