/* win_errors_return_is_honoured: a window's error handler is MPI_ERRORS_ARE_FATAL until
 * set; with MPI_ERRORS_RETURN set on it, a bad call on the window returns its error class
 * (here MPI_ERR_KEYVAL, from setting a predefined attribute) and the job goes on. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Errhandler eh;
	MPI_Win win;
	int buf[4];

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Errhandler_free(&eh));

	CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Win_get_errhandler(win, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_CLASS(MPI_Win_set_attr(win, MPI_WIN_SIZE, buf), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Win_delete_attr(win, MPI_WIN_BASE), MPI_ERR_KEYVAL);
	CHECK_CLASS(MPI_Win_set_name(win, NULL), MPI_ERR_ARG);
	/* The communicator the window was made from keeps its own (fatal) handler. */
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Errhandler_free(&eh));

	CHECK_MPI(MPI_Win_free(&win));
	CHECK(win == MPI_WIN_NULL);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
