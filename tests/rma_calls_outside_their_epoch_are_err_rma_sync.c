/* rma_calls_outside_their_epoch_are_err_rma_sync: with MPI_ERRORS_RETURN on the window, an
 * access with no epoch open on its target (before any, after the unlock, to a rank not
 * locked, a request-based call in a fence epoch) and a synchronization call with no epoch
 * to end or inside one it cannot nest in (unlock without lock or of another rank,
 * unlock_all without lock_all, flushes outside a passive epoch, complete without start,
 * wait and test without post, a second lock of the same target, lock while lock_all holds,
 * fence inside a lock_all epoch) fail with MPI_ERR_RMA_SYNC; the window works after. */
/* ranks: 2 3 4 */
#include "lib/rma_errors.h"

int main(int argc, char **argv)
{
	int rank, size, v = 7, res = -1, flag = 0;
	char *mem;
	MPI_Request req;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win win = rma_returning_window(64, &mem);
	int t = (rank + 1) % size;

	/* Accesses with no epoch. */
	CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Get(&res, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_SUM, win),
		    MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Fetch_and_op(&v, &res, MPI_INT, t, 0, MPI_SUM, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Compare_and_swap(&v, &v, &res, MPI_INT, t, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Rput(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
	/* Synchronization calls with nothing to end. */
	CHECK_CLASS(MPI_Win_unlock(t, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_unlock_all(win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_flush(t, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_flush_all(win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_flush_local(t, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_flush_local_all(win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_complete(win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_wait(win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_test(win, &flag), MPI_ERR_RMA_SYNC);

	/* A lock epoch on t: not on the others, not twice, and over after the unlock. */
	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win), MPI_ERR_RMA_SYNC);
	if (size > 2) {
		int other = (rank + 2) % size;
		CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, other, 0, 1, MPI_INT, win),
			    MPI_ERR_RMA_SYNC);
		CHECK_CLASS(MPI_Win_unlock(other, win), MPI_ERR_RMA_SYNC);
	}
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, win), MPI_ERR_RMA_SYNC);

	/* lock_all: no lock inside it, no fence inside it (every rank errs alike). */
	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win), MPI_ERR_RMA_SYNC);
	CHECK_CLASS(MPI_Win_fence(0, win), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* A fence epoch: request-based calls are for passive epochs only. */
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	CHECK_CLASS(MPI_Rget(&res, 1, MPI_INT, t, 0, 1, MPI_INT, win, &req), MPI_ERR_RMA_SYNC);
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 4, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	int got[2];
	memcpy(got, mem, sizeof got);
	CHECK_INT(got[0], 7);
	CHECK_INT(got[1], 7);
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
