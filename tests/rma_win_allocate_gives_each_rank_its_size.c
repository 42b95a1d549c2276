/* rma_win_allocate_gives_each_rank_its_size: MPI_Win_allocate gives each rank memory of the
 * size it asked (some ask 0) that it can fill to the last byte and that the previous rank
 * fills to the last byte with one put, the window's base, size and unit attributes are what
 * the rank asked and its flavour is MPI_WIN_FLAVOR_ALLOCATE. */
/* ranks: 1 2 4 8 64 */
#include "check.h"

static MPI_Aint size_of(int r)
{
	return r % 4 == 3 ? 0 : 1 + 37 * r;
}

int main(int argc, char **argv)
{
	int rank, size, flag = 0, *flavor;
	unsigned char *mem, *base;
	MPI_Aint *asize;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Aint mysize = size_of(rank);
	CHECK_MPI(MPI_Win_allocate(mysize, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*flavor, MPI_WIN_FLAVOR_ALLOCATE);
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &asize, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*asize, mysize);
	if (mysize > 0) {
		CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
		CHECK_INT(flag, 1);
		CHECK(base == mem);
	}
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	memset(mem, 0xee, mysize);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Aint nsize = size_of(next);
	unsigned char *fill = malloc(nsize + 1);
	for (MPI_Aint b = 0; b < nsize; b++)
		fill[b] = (unsigned char)(rank + b);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
	if (nsize > 0)
		CHECK_MPI(MPI_Put(fill, (int)nsize, MPI_BYTE, next, 0, (int)nsize, MPI_BYTE, win));
	CHECK_MPI(MPI_Win_unlock(next, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (MPI_Aint b = 0; b < mysize; b++)
		CHECK_INT(mem[b], (unsigned char)(prev + b));
	CHECK_MPI(MPI_Win_unlock(rank, win));
	free(fill);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
