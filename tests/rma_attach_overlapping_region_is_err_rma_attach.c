/* rma_attach_overlapping_region_is_err_rma_attach: with MPI_ERRORS_RETURN on a dynamic
 * window, attaching memory that overlaps a region attached already (the same region, one
 * inside it, one straddling its start or its end, one around it) fails with
 * MPI_ERR_RMA_ATTACH; a region just beside it attaches, and after the first region's detach
 * the overlapping one attaches too. Puts from the previous rank reach the regions attached. */
/* ranks: 1 2 4 */
#include "lib/rma_errors.h"

int main(int argc, char **argv)
{
	int rank, size;
	static int mem[64];
	MPI_Win win;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

	int *a = mem + 16;   /* [16, 32) */
	MPI_Aint n = 16 * sizeof(int);
	CHECK_MPI(MPI_Win_attach(win, a, n));
	CHECK_CLASS(MPI_Win_attach(win, a, n), MPI_ERR_RMA_ATTACH);
	CHECK_CLASS(MPI_Win_attach(win, a + 4, 4 * sizeof(int)), MPI_ERR_RMA_ATTACH);
	CHECK_CLASS(MPI_Win_attach(win, a - 4, 8 * sizeof(int)), MPI_ERR_RMA_ATTACH);
	CHECK_CLASS(MPI_Win_attach(win, a + 12, 8 * sizeof(int)), MPI_ERR_RMA_ATTACH);
	CHECK_CLASS(MPI_Win_attach(win, mem, sizeof mem), MPI_ERR_RMA_ATTACH);
	CHECK_MPI(MPI_Win_attach(win, a + 16, 8 * sizeof(int)));   /* [32, 40): beside */

	/* The previous rank writes its rank into mem[16] and mem[32] of this one. */
	MPI_Aint mine[2], all[2 * size];
	CHECK_MPI(MPI_Get_address(&mem[16], &mine[0]));
	CHECK_MPI(MPI_Get_address(&mem[32], &mine[1]));
	CHECK_MPI(MPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, MPI_COMM_WORLD));
	int t = (rank + 1) % size, v = 100 + rank;
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, all[2 * t], 1, MPI_INT, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, all[2 * t + 1], 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK_INT(mem[16], 100 + (rank + size - 1) % size);
	CHECK_INT(mem[32], 100 + (rank + size - 1) % size);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_detach(win, a));
	CHECK_MPI(MPI_Win_attach(win, a - 4, 8 * sizeof(int)));
	CHECK_MPI(MPI_Win_detach(win, a - 4));
	CHECK_MPI(MPI_Win_detach(win, a + 16));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
