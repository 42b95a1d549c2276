/* errhandler_free_refuses_a_handle_freed_already: each handle to a user error handler (from
 * MPI_Comm_create_errhandler and from each MPI_Comm_get_errhandler) is freed once; freeing a
 * stale copy once more, or setting one, fails with MPI_ERR_ERRHANDLER and leaves the handler
 * in place on the communicators that use it, which still call it with the error's class.
 * MPI_Comm_set_errhandler with MPI_ERRHANDLER_NULL is MPI_ERR_ERRHANDLER too. */
/* ranks: 1 2 */
#include "check.h"

/* Give freed memory back out, as a program would, so that a handler freed too early is
 * overwritten before its next use. */
static void churn(void)
{
	void *p[16];

	for (int i = 0; i < 16; i++) {
		p[i] = malloc(8 + 8 * i);
		memset(p[i], 0x5a, 8 + 8 * i);
	}
	for (int i = 0; i < 16; i++)
		free(p[i]);
}

int main(int argc, char **argv)
{
	MPI_Errhandler eh, stale, got, got_stale;
	MPI_Comm dup;
	int rank, v = 0, rc;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Errors of MPI_Errhandler_free are raised on MPI_COMM_SELF. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	CHECK_MPI(MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN));

	/* Created, set on WORLD, freed; the copy is stale. */
	CHECK_MPI(MPI_Comm_create_errhandler(check_recording_handler, &eh));
	stale = eh;
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK(eh == MPI_ERRHANDLER_NULL);
	eh = stale;
	CHECK_CLASS(MPI_Errhandler_free(&eh), MPI_ERR_ERRHANDLER);
	CHECK_CLASS(MPI_Comm_set_errhandler(dup, stale), MPI_ERR_ERRHANDLER);
	churn();

	/* WORLD still check_handler_calls it. */
	rc = MPI_Send(&v, -1, MPI_INT, rank, 0, MPI_COMM_WORLD);
	CHECK_CLASS(rc, MPI_ERR_COUNT);
	CHECK_INT(check_handler_calls, 1);
	CHECK_INT(check_handler_class, MPI_ERR_COUNT);
	CHECK(check_handler_comm == MPI_COMM_WORLD);

	/* MPI_Comm_get_errhandler gives a new handle, freed once more; then no more. */
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
	got_stale = got;
	CHECK_MPI(MPI_Errhandler_free(&got));
	got = got_stale;
	CHECK_CLASS(MPI_Errhandler_free(&got), MPI_ERR_ERRHANDLER);
	churn();
	rc = MPI_Recv(&v, 1, MPI_INT, rank, -5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	CHECK_CLASS(rc, MPI_ERR_TAG);
	CHECK_INT(check_handler_calls, 2);
	CHECK_INT(check_handler_class, MPI_ERR_TAG);

	/* Create, set, get: two handles, both freed, a third free refused; the handler stays
	 * set on the communicator and runs. */
	CHECK_MPI(MPI_Comm_create_errhandler(check_recording_handler, &eh));
	stale = eh;
	CHECK_MPI(MPI_Comm_set_errhandler(dup, eh));
	CHECK_MPI(MPI_Comm_get_errhandler(dup, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Errhandler_free(&got));
	eh = stale;
	CHECK_CLASS(MPI_Errhandler_free(&eh), MPI_ERR_ERRHANDLER);
	churn();
	CHECK_MPI(MPI_Comm_call_errhandler(dup, MPI_ERR_OTHER));
	CHECK_INT(check_handler_calls, 3);
	CHECK_INT(check_handler_class, MPI_ERR_OTHER);
	CHECK(check_handler_comm == dup);

	/* MPI_ERRHANDLER_NULL is no error handler: raised on WORLD, whose handler runs. */
	rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
	CHECK_CLASS(rc, MPI_ERR_ERRHANDLER);
	CHECK_INT(check_handler_calls, 4);
	CHECK_INT(check_handler_class, MPI_ERR_ERRHANDLER);

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Comm_free(&dup));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
