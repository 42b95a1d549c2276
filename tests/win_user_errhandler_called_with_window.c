/* win_user_errhandler_called_with_window: a handler from MPI_Win_create_errhandler, set on
 * a window, runs on an error of a call on that window with the window's handle and the
 * error code, and MPI_Win_call_errhandler invokes it with the code given; it outlives
 * MPI_Errhandler_free while set. */
/* ranks: 1 2 4 */
#include "check.h"

static int calls, last_code;
static MPI_Win last_win;

static void handler(MPI_Win *win, int *code, ...)
{
	calls++;
	last_win = *win;
	last_code = *code;
}

int main(int argc, char **argv)
{
	MPI_Errhandler eh, got;
	MPI_Win win;
	int buf[4], rc, cls, code;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Win_create(buf, sizeof(buf), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
				 &win));
	CHECK_MPI(MPI_Win_create_errhandler(handler, &eh));
	CHECK_MPI(MPI_Win_set_errhandler(win, eh));
	CHECK_MPI(MPI_Win_get_errhandler(win, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));
	CHECK_MPI(MPI_Errhandler_free(&eh));

	rc = MPI_Win_set_attr(win, MPI_WIN_DISP_UNIT, buf);
	CHECK_CLASS(rc, MPI_ERR_KEYVAL);
	CHECK_INT(calls, 1);
	CHECK(last_win == win);
	CHECK_INT(last_code, rc);

	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_MPI(MPI_Win_call_errhandler(win, code));
	CHECK_INT(calls, 2);
	CHECK_INT(last_code, code);
	CHECK(last_win == win);

	CHECK_MPI(MPI_Win_free(&win));
	CHECK_INT(calls, 2);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
