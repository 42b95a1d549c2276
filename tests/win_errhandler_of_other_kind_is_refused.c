/* win_errhandler_of_other_kind_is_refused: a handler made by MPI_Comm_create_errhandler
 * set on a window, or one made by MPI_Win_create_errhandler set on a communicator, is
 * MPI_ERR_ARG and leaves the handler in place; the predefined handlers fit both. */
/* ranks: 1 2 */
#include "check.h"

static int comm_calls, win_calls;

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
	comm_calls++;
}

static void win_handler(MPI_Win *win, int *code, ...)
{
	win_calls++;
}

int main(int argc, char **argv)
{
	MPI_Errhandler ceh, weh, got;
	MPI_Comm dup;
	MPI_Win win;
	int buf[4];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	CHECK_MPI(MPI_Comm_create_errhandler(comm_handler, &ceh));
	CHECK_MPI(MPI_Win_create_errhandler(win_handler, &weh));
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));

	CHECK_CLASS(MPI_Win_set_errhandler(win, ceh), MPI_ERR_ARG);
	CHECK_MPI(MPI_Win_get_errhandler(win, &got));
	CHECK(got == MPI_ERRORS_RETURN);
	CHECK_CLASS(MPI_Comm_set_errhandler(dup, weh), MPI_ERR_ARG);
	CHECK_MPI(MPI_Comm_get_errhandler(dup, &got));
	CHECK(got == MPI_ERRORS_RETURN);
	CHECK_INT(comm_calls, 0);
	CHECK_INT(win_calls, 0);

	/* Each kind where it belongs. */
	CHECK_MPI(MPI_Win_set_errhandler(win, weh));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, ceh));
	CHECK_MPI(MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
	CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
	CHECK_INT(win_calls, 1);
	CHECK_INT(comm_calls, 1);
	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT));

	CHECK_MPI(MPI_Errhandler_free(&ceh));
	CHECK_MPI(MPI_Errhandler_free(&weh));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
