/* rma_dynamic_window_attach_detach_by_address: in a window of MPI_Win_create_dynamic (flavour
 * MPI_WIN_FLAVOR_DYNAMIC) each rank attaches two regions of malloc'ed memory, ints and
 * doubles, and shares their addresses (MPI_Get_address, MPI_Allgather); the previous rank
 * puts into both at target_disp = address (+ an offset by MPI_Aint_add) and gets from them
 * in a lock_all epoch, then each rank detaches the first region and attaches a third, whose
 * new address receives the next round's put. Elements outside the accessed ones keep their
 * values. */
/* ranks: 2 4 8 */
#include "check.h"

#define NI 32
#define ND 8

static void exchange(MPI_Aint mine, MPI_Aint *all)
{
	CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD));
}

static MPI_Aint address_of(const void *p)
{
	MPI_Aint a;
	CHECK_MPI(MPI_Get_address(p, &a));
	return a;
}

/* Make `buf` of n ints hold -1 - i at i, in a lock epoch on the rank itself. */
static void reset_ints(MPI_Win win, int rank, int *buf, int n)
{
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	for (int i = 0; i < n; i++)
		buf[i] = -1 - i;
	CHECK_MPI(MPI_Win_unlock(rank, win));
}

/* The previous rank's 4 ints at [5, 9) of `buf`, the rest as reset_ints left it. */
static void check_ints(MPI_Win win, int rank, int prev, const int *buf, int n, int salt)
{
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (int i = 0; i < n; i++)
		CHECK_INT(buf[i], i >= 5 && i < 9 ? salt + prev * 10 + i - 5 : -1 - i);
	CHECK_MPI(MPI_Win_unlock(rank, win));
}

int main(int argc, char **argv)
{
	int rank, size, *flavor, flag = 0;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int next = (rank + 1) % size, prev = (rank + size - 1) % size;
	MPI_Aint ints_at[size], dbls_at[size], third_at[size];
	int *ints = malloc(NI * sizeof(int)), *third = malloc(NI * sizeof(int));
	double *dbls = malloc(ND * sizeof(double));

	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*flavor, MPI_WIN_FLAVOR_DYNAMIC);
	CHECK_MPI(MPI_Win_attach(win, ints, NI * sizeof(int)));
	CHECK_MPI(MPI_Win_attach(win, dbls, ND * sizeof(double)));
	reset_ints(win, rank, ints, NI);
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
	for (int i = 0; i < ND; i++)
		dbls[i] = rank + i / 4.0;
	CHECK_MPI(MPI_Win_unlock(rank, win));
	exchange(address_of(ints), ints_at);
	exchange(address_of(dbls), dbls_at);   /* a collective: everyone has reset */

	int put[4], salt = 100000;
	double got[2] = { -1, -1 };
	for (int i = 0; i < 4; i++)
		put[i] = salt + rank * 10 + i;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Put(put, 4, MPI_INT, next, MPI_Aint_add(ints_at[next], 5 * sizeof(int)), 4,
			  MPI_INT, win));
	CHECK_MPI(MPI_Get(got, 2, MPI_DOUBLE, next, MPI_Aint_add(dbls_at[next],
								 3 * sizeof(double)),
			  2, MPI_DOUBLE, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_INT(got[0] * 4, next * 4 + 3);
	CHECK_INT(got[1] * 4, next * 4 + 4);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_ints(win, rank, prev, ints, NI, salt);

	/* Detach the ints, attach the third region: its address is the one to use now. */
	CHECK_MPI(MPI_Win_detach(win, ints));
	CHECK_MPI(MPI_Win_attach(win, third, NI * sizeof(int)));
	reset_ints(win, rank, third, NI);
	exchange(address_of(third), third_at);
	salt = 200000;
	for (int i = 0; i < 4; i++)
		put[i] = salt + rank * 10 + i;
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, next, 0, win));
	CHECK_MPI(MPI_Put(put, 4, MPI_INT, next, MPI_Aint_add(third_at[next], 5 * sizeof(int)),
			  4, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(next, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	check_ints(win, rank, prev, third, NI, salt);

	CHECK_MPI(MPI_Win_detach(win, third));
	CHECK_MPI(MPI_Win_detach(win, dbls));
	CHECK_MPI(MPI_Win_free(&win));
	free(ints);
	free(third);
	free(dbls);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
