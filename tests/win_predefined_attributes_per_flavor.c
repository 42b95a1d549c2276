/* win_predefined_attributes_per_flavor: MPI_WIN_BASE is the window's base address itself,
 * MPI_WIN_SIZE points to its size in bytes, MPI_WIN_DISP_UNIT to its displacement unit,
 * MPI_WIN_CREATE_FLAVOR to the flavor of the call that made it and MPI_WIN_MODEL to
 * MPI_WIN_UNIFIED, for windows of all four flavors (a dynamic window: MPI_BOTTOM and 0). */
/* ranks: 1 2 4 64 */
#include "check.h"

static void check_attrs(MPI_Win win, void *base, MPI_Aint size, int disp_unit, int flavor)
{
	void *v;
	int flag = 0;

	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK(v == base);
	flag = 0;
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*(MPI_Aint *)v, size);
	flag = 0;
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*(int *)v, disp_unit);
	flag = 0;
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*(int *)v, flavor);
	flag = 0;
	CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &v, &flag));
	CHECK_INT(flag, 1);
	CHECK_INT(*(int *)v, MPI_WIN_UNIFIED);
}

int main(int argc, char **argv)
{
	MPI_Win win;
	MPI_Comm node;
	int rank;
	double buf[8];
	char *base;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));

	/* Sizes differ by rank, so that a value of another rank would show. */
	CHECK_MPI(MPI_Win_create(buf, (rank + 1) * (MPI_Aint)sizeof(double), sizeof(double),
				 MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	check_attrs(win, buf, (rank + 1) * (MPI_Aint)sizeof(double), sizeof(double),
		    MPI_WIN_FLAVOR_CREATE);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Win_allocate(100 + rank, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
	check_attrs(win, base, 100 + rank, 1, MPI_WIN_FLAVOR_ALLOCATE);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
				      &node));
	CHECK_MPI(MPI_Win_allocate_shared(16 * (rank + 1), 4, MPI_INFO_NULL, node, &base,
					  &win));
	check_attrs(win, base, 16 * (rank + 1), 4, MPI_WIN_FLAVOR_SHARED);
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&node));

	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	check_attrs(win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Finalize());
	return 0;
}
