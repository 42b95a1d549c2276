/* rma_wrong_flavor_for_call_is_err_rma_flavor: with MPI_ERRORS_RETURN on the windows,
 * MPI_Win_attach on windows that are not dynamic (of MPI_Win_create and
 * MPI_Win_allocate), and MPI_Win_shared_query on windows that are not shared (the same two
 * and a dynamic one), fail with MPI_ERR_RMA_FLAVOR; each window still works after. */
/* ranks: 1 2 4 */
#include "lib/rma_errors.h"

static void check_not_dynamic(MPI_Win win)
{
	static char region[64];
	CHECK_CLASS(MPI_Win_attach(win, region, sizeof region), MPI_ERR_RMA_FLAVOR);
}

static void check_not_shared(MPI_Win win)
{
	MPI_Aint size;
	int unit;
	void *base;
	CHECK_CLASS(MPI_Win_shared_query(win, 0, &size, &unit, &base), MPI_ERR_RMA_FLAVOR);
}

/* A put to the rank itself and a get back, in a fence epoch. */
static void check_works(MPI_Win win, int rank)
{
	int v = 41 + rank, got = -1;
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, rank, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(0, win));
	CHECK_MPI(MPI_Get(&got, 1, MPI_INT, rank, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	CHECK_INT(got, v);
}

int main(int argc, char **argv)
{
	int rank, mem[4];
	char *amem;
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);

	win = rma_returning_window(64, &amem);
	check_not_dynamic(win);
	check_not_shared(win);
	check_works(win, rank);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Win_create(mem, sizeof mem, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	check_not_dynamic(win);
	check_not_shared(win);
	check_works(win, rank);
	CHECK_MPI(MPI_Win_free(&win));

	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	check_not_shared(win);
	CHECK_MPI(MPI_Win_attach(win, mem, sizeof mem));
	CHECK_MPI(MPI_Win_detach(win, mem));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
