/* rma_win_free_with_open_epoch_is_err_rma_sync: with MPI_ERRORS_RETURN on the window,
 * MPI_Win_free called while the rank holds a lock epoch (MPI_Win_lock on the next rank,
 * or MPI_Win_lock_all), or an access epoch of MPI_Win_start, returns MPI_ERR_RMA_SYNC
 * at once rather than waiting, and leaves the window usable: the epoch then ends and a put
 * made in it lands, and MPI_Win_free succeeds. */
/* ranks: 2 4 */
#include "lib/rma_errors.h"

/* The put of `v` into the next rank in the epoch landed: each rank reads what the previous
 * one put. */
static void check_landed(MPI_Win win, const int *mem, int rank, int size, int v)
{
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	CHECK_INT(mem[0], v * 100 + (rank + size - 1) % size);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
	int rank, size, *mem, v;
	MPI_Group g, all;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win win = rma_returning_window(sizeof(int), &mem);
	MPI_Win same = win;
	int t = (rank + 1) % size, prev = (rank + size - 1) % size;

	v = 100 + rank;
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_CLASS(MPI_Win_free(&same), MPI_ERR_RMA_SYNC);
	CHECK(same == win);
	CHECK_MPI(MPI_Win_unlock(t, win));
	check_landed(win, mem, rank, size, 1);

	v = 200 + rank;
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_CLASS(MPI_Win_free(&same), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_unlock_all(win));
	check_landed(win, mem, rank, size, 2);

	v = 300 + rank;
	CHECK_MPI(MPI_Win_get_group(win, &all));
	CHECK_MPI(MPI_Group_incl(all, 1, &prev, &g));
	CHECK_MPI(MPI_Win_post(g, 0, win));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_incl(all, 1, &t, &g));
	CHECK_MPI(MPI_Win_start(g, 0, win));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Group_free(&all));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_CLASS(MPI_Win_free(&same), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_complete(win));
	CHECK_MPI(MPI_Win_wait(win));
	check_landed(win, mem, rank, size, 3);

	CHECK_MPI(MPI_Win_free(&win));
	CHECK(win == MPI_WIN_NULL);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
