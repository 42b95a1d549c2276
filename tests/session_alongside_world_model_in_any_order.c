/* session_alongside_world_model_in_any_order: sessions and the world model are independent
 * (MPI 4.1, 11.3): a session opened before MPI_Init (MPI_Initialized false) and finalized
 * while the world model runs; a session opened after MPI_Init whose communicator keeps
 * working after MPI_Finalize (MPI_Finalized true, MPI_Initialized still true); a session
 * opened after both ended, making a working communicator again. Each communicator gives
 * the values expected (Allreduce, a ring of messages). Several sessions are open at once,
 * each with its own handler: a user handler on one gets its session's handle and the code
 * of MPI_Session_call_errhandler, its kind fits only sessions. */
/* ranks: 1 2 4 16 64 */
#include "check.h"

static int calls;
static MPI_Session expected;

static void on_error(MPI_Session *s, int *code, ...)
{
	CHECK(*s == expected);
	CHECK_INT(*code, MPI_ERR_OTHER);
	calls++;
}

/* A communicator of mpi://WORLD from session `s`, tagged `tag`, checked and freed. */
static void exercise(MPI_Session s, const char *tag)
{
	MPI_Group g;
	MPI_Comm c;
	int rank, size, sum, got = -1;

	CHECK_MPI(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
	CHECK_MPI(MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
	CHECK_MPI(MPI_Group_free(&g));
	CHECK_MPI(MPI_Comm_rank(c, &rank));
	CHECK_MPI(MPI_Comm_size(c, &size));
	CHECK_MPI(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c));
	CHECK_INT(sum, size * (size - 1) / 2);
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 1, &got, 1, MPI_INT,
			       (rank + size - 1) % size, 1, c, MPI_STATUS_IGNORE));
	CHECK_INT(got, (rank + size - 1) % size);
	CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv)
{
	MPI_Session before, after, later;
	MPI_Errhandler eh, got;
	int flag, rank, size;

	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &before));
	exercise(before, "before init");
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 0);

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &after));
	exercise(before, "both, from the first");
	exercise(after, "both, from the second");

	/* A user handler on one session. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Session_create_errhandler(on_error, &eh));
	CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_SELF, eh), MPI_ERR_ARG);
	CHECK_MPI(MPI_Session_set_errhandler(after, eh));
	CHECK_MPI(MPI_Session_get_errhandler(after, &got));
	CHECK(got == eh);
	CHECK_MPI(MPI_Errhandler_free(&got));
	expected = after;
	CHECK_MPI(MPI_Session_call_errhandler(after, MPI_ERR_OTHER));
	CHECK_INT(calls, 1);
	CHECK_MPI(MPI_Session_call_errhandler(before, MPI_ERR_OTHER));   /* returns */
	CHECK_INT(calls, 1);
	CHECK_MPI(MPI_Errhandler_free(&eh));

	CHECK_MPI(MPI_Session_finalize(&before));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	CHECK_MPI(MPI_Finalize());
	CHECK_MPI(MPI_Finalized(&flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Initialized(&flag));
	CHECK_INT(flag, 1);

	/* The session opened after MPI_Init outlives the world model. */
	exercise(after, "after finalize");
	CHECK_MPI(MPI_Session_finalize(&after));

	/* A session after both ended. */
	CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &later));
	exercise(later, "later");
	CHECK_MPI(MPI_Session_finalize(&later));
	if (rank == 0)
		printf("ok\n");
	return 0;
}
