/* user_errhandler_called_with_handle: a handler from MPI_Comm_create_errhandler runs on an
 * error with the handle the user passed (MPI_COMM_WORLD itself, or a dup) and the error
 * code; MPI_Comm_call_errhandler invokes it; it outlives MPI_Errhandler_free while set. */
/* ranks: 1 2 4 */
#include "check.h"

static int calls, last_code;
static MPI_Comm last_comm;

static void handler(MPI_Comm *comm, int *code, ...)
{
	calls++;
	last_comm = *comm;
	last_code = *code;
}

int main(int argc, char **argv)
{
	MPI_Errhandler eh, got;
	MPI_Comm dup;
	int v = 0, rc;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));

	rc = MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
	CHECK_CLASS(rc, MPI_ERR_TAG);
	CHECK_INT(calls, 1);
	CHECK(last_comm == MPI_COMM_WORLD);
	CHECK_INT(last_code, rc);

	/* New communicators inherit the handler; freeing the handle keeps it alive. */
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK(eh == MPI_ERRHANDLER_NULL);
	rc = MPI_Recv(&v, -1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_COUNT);
	CHECK_INT(calls, 2);
	CHECK(last_comm == dup);

	/* MPI_Comm_call_errhandler with a user code. */
	int cls, code;
	CHECK_MPI(MPI_Add_error_class(&cls));
	CHECK_MPI(MPI_Add_error_code(cls, &code));
	CHECK_MPI(MPI_Comm_call_errhandler(dup, code));
	CHECK_INT(calls, 3);
	CHECK_INT(last_code, code);
	CHECK(last_comm == dup);

	/* Other communicators keep their own handler (SELF is still fatal: use RETURN). */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 5, 0, MPI_COMM_SELF), MPI_ERR_RANK);
	CHECK_INT(calls, 3);
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
