/* rma_bad_arguments_return_error_classes: with MPI_ERRORS_RETURN on the window (and on
 * MPI_COMM_SELF and MPI_COMM_WORLD for calls without one), RMA calls report an invalid lock
 * type (MPI_ERR_LOCKTYPE), assertion bits no mode has (MPI_ERR_ASSERT, in fence, post,
 * start, lock and lock_all), an invalid or uncommitted datatype and an accumulate mixing
 * basic types (MPI_ERR_TYPE), a user op, MPI_OP_NULL and an op not defined on the type in
 * accumulates (MPI_ERR_OP), a target rank outside the window's group (MPI_ERR_RANK), and
 * MPI_WIN_NULL as the window (MPI_ERR_WIN); an access to MPI_PROC_NULL succeeds and does
 * nothing; the window works after. */
/* ranks: 1 2 4 */
#include "lib/rma_errors.h"

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	for (int i = 0; i < *len; i++)
		((int *)inout)[i] += ((int *)in)[i];
}

int main(int argc, char **argv)
{
	int rank, size, v = 3, res = -1, flag;
	double d = 1.0, dres;
	char *mem;
	MPI_Op uop;
	MPI_Datatype unc;
	MPI_Group g;
	MPI_Request req;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win win = rma_returning_window(64, &mem);
	int t = (rank + 1) % size;
	int modes = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
		    MPI_MODE_NOSUCCEED, bad_assert = 1;
	while (bad_assert & modes)
		bad_assert <<= 1;
	CHECK_MPI(MPI_Op_create(user_sum, 1, &uop));
	CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &unc));
	CHECK_MPI(MPI_Win_get_group(win, &g));

	/* Lock types and assertions. */
	CHECK_CLASS(MPI_Win_lock(0, t, 0, win), MPI_ERR_LOCKTYPE);
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED + MPI_LOCK_EXCLUSIVE, t, 0, win),
		    MPI_ERR_LOCKTYPE);
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, t, bad_assert, win), MPI_ERR_ASSERT);
	CHECK_CLASS(MPI_Win_lock_all(bad_assert, win), MPI_ERR_ASSERT);
	CHECK_CLASS(MPI_Win_fence(bad_assert, win), MPI_ERR_ASSERT);
	CHECK_CLASS(MPI_Win_fence(MPI_MODE_NOPRECEDE | bad_assert, win), MPI_ERR_ASSERT);
	CHECK_CLASS(MPI_Win_post(g, bad_assert, win), MPI_ERR_ASSERT);
	CHECK_CLASS(MPI_Win_start(g, bad_assert, win), MPI_ERR_ASSERT);
	/* Ranks. */
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, -5, 0, win), MPI_ERR_RANK);

	CHECK_MPI(MPI_Win_lock_all(0, win));
	CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Get(&res, 1, MPI_INT, -5, 0, 1, MPI_INT, win), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Fetch_and_op(&v, &res, MPI_INT, size, 0, MPI_SUM, win), MPI_ERR_RANK);
	CHECK_CLASS(MPI_Win_flush(size, win), MPI_ERR_RANK);
	/* Datatypes. */
	CHECK_CLASS(MPI_Put(&v, 1, MPI_DATATYPE_NULL, t, 0, 1, MPI_INT, win), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_DATATYPE_NULL, win), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Get(&res, 1, unc, t, 0, 2, MPI_INT, win), MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Accumulate(&d, 1, MPI_DOUBLE, t, 0, 2, MPI_INT, MPI_SUM, win),
		    MPI_ERR_TYPE);
	CHECK_CLASS(MPI_Fetch_and_op(&v, &res, MPI_DATATYPE_NULL, t, 0, MPI_SUM, win),
		    MPI_ERR_TYPE);
	/* Ops. */
	CHECK_CLASS(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, uop, win), MPI_ERR_OP);
	CHECK_CLASS(MPI_Accumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_OP_NULL, win),
		    MPI_ERR_OP);
	CHECK_CLASS(MPI_Accumulate(&d, 1, MPI_DOUBLE, t, 0, 1, MPI_DOUBLE, MPI_BAND, win),
		    MPI_ERR_OP);
	CHECK_CLASS(MPI_Get_accumulate(&v, 1, MPI_INT, &res, 1, MPI_INT, t, 0, 1, MPI_INT, uop,
				       win), MPI_ERR_OP);
	CHECK_CLASS(MPI_Raccumulate(&v, 1, MPI_INT, t, 0, 1, MPI_INT, uop, win, &req),
		    MPI_ERR_OP);
	CHECK_CLASS(MPI_Fetch_and_op(&d, &dres, MPI_DOUBLE, t, 0, uop, win), MPI_ERR_OP);
	/* MPI_PROC_NULL: nothing to do, no error. */
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, MPI_PROC_NULL, 1000, 1, MPI_INT, win));
	res = -1;
	CHECK_MPI(MPI_Get(&res, 1, MPI_INT, MPI_PROC_NULL, 1000, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_INT(res, -1);
	/* No window. */
	MPI_Win none = MPI_WIN_NULL;
	CHECK_CLASS(MPI_Put(&v, 1, MPI_INT, t, 0, 1, MPI_INT, MPI_WIN_NULL), MPI_ERR_WIN);
	CHECK_CLASS(MPI_Win_fence(0, MPI_WIN_NULL), MPI_ERR_WIN);
	CHECK_CLASS(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, MPI_WIN_NULL), MPI_ERR_WIN);
	CHECK_CLASS(MPI_Win_get_group(MPI_WIN_NULL, &g), MPI_ERR_WIN);
	CHECK_CLASS(MPI_Win_test(MPI_WIN_NULL, &flag), MPI_ERR_WIN);
	CHECK_CLASS(MPI_Win_free(&none), MPI_ERR_WIN);

	/* Still a window: a put to the next rank lands. */
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
	CHECK_MPI(MPI_Put(&v, 1, MPI_INT, t, 8, 1, MPI_INT, win));
	CHECK_MPI(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
	int got;
	memcpy(&got, mem + 8, sizeof got);
	CHECK_INT(got, 3);

	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Type_free(&unc));
	CHECK_MPI(MPI_Op_free(&uop));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
