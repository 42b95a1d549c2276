/* rma_target_range_outside_window_is_err_rma_range: with MPI_ERRORS_RETURN on the window,
 * every access call whose target range reaches past the target's window (a count one too
 * many, a displacement at the end, a derived target type whose extent overruns, the
 * target's own disp_unit scaling the displacement) fails with MPI_ERR_RMA_RANGE, and writes
 * nothing: guard words around the window memory of MPI_Win_create keep their values, and so
 * does the window. In-range calls after the errors still work. */
/* ranks: 2 4 */
#include "check.h"

#define N 16        /* ints of each window */
#define GUARD 8     /* ints of guard on either side */
#define GUARD_V 0x6a6a6a6a

int main(int argc, char **argv)
{
	int rank, size, mem[GUARD + N + GUARD], src[2 * N], res[2 * N], one = 1, cmp = 0;
	MPI_Win win;
	MPI_Request req;
	MPI_Datatype overrun;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 0; i < GUARD + N + GUARD; i++)
		mem[i] = i < GUARD || i >= GUARD + N ? GUARD_V : -1 - i;
	for (int i = 0; i < 2 * N; i++)
		src[i] = 1000 + i;
	CHECK_MPI(MPI_Win_create(mem + GUARD, N * sizeof(int), sizeof(int), MPI_INFO_NULL,
				 MPI_COMM_WORLD, &win));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	/* 2 blocks of 1 int, N ints apart: reaches int N from disp 0. */
	CHECK_MPI(MPI_Type_vector(2, 1, N, MPI_INT, &overrun));
	CHECK_MPI(MPI_Type_commit(&overrun));
	int t = (rank + 1) % size;

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win));
	CHECK_CLASS(MPI_Put(src, N + 1, MPI_INT, t, 0, N + 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Put(src, 1, MPI_INT, t, N, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Put(src, 4, MPI_INT, t, N - 2, 4, MPI_INT, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Put(src, 2, MPI_INT, t, 0, 1, overrun, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Put(src, 4, MPI_BYTE, t, N, 4, MPI_BYTE, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Get(res, N + 1, MPI_INT, t, 0, N + 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Accumulate(src, 2, MPI_INT, t, N - 1, 2, MPI_INT, MPI_SUM, win),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Accumulate(src, 2, MPI_INT, t, 0, 1, overrun, MPI_REPLACE, win),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Get_accumulate(src, 2, MPI_INT, res, 2, MPI_INT, t, N - 1, 2, MPI_INT,
				       MPI_SUM, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Fetch_and_op(&one, res, MPI_INT, t, N, MPI_SUM, win), MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Compare_and_swap(&one, &cmp, res, MPI_INT, t, N, win),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Rput(src, N + 1, MPI_INT, t, 0, N + 1, MPI_INT, win, &req),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Rget(res, 2, MPI_INT, t, N - 1, 2, MPI_INT, win, &req),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Raccumulate(src, 2, MPI_INT, t, N - 1, 2, MPI_INT, MPI_SUM, win, &req),
		    MPI_ERR_RMA_RANGE);
	CHECK_CLASS(MPI_Rget_accumulate(src, 2, MPI_INT, res, 2, MPI_INT, t, N - 1, 2, MPI_INT,
					MPI_SUM, win, &req), MPI_ERR_RMA_RANGE);
	/* In range: the last int of the window, through the same epoch. */
	CHECK_MPI(MPI_Put(&src[3], 1, MPI_INT, t, N - 1, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock(t, win));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
	for (int i = 0; i < GUARD + N + GUARD; i++) {
		int expect = i < GUARD || i >= GUARD + N ? GUARD_V : -1 - i;
		if (i == GUARD + N - 1)
			expect = 1003;
		CHECK_INT(mem[i], expect);
	}
	CHECK_MPI(MPI_Win_unlock(rank, win));
	CHECK_MPI(MPI_Type_free(&overrun));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
