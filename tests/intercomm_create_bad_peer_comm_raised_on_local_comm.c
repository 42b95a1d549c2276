/* intercomm_create_bad_peer_comm_raised_on_local_comm: MPI_Intercomm_create whose leader
 * passes an invalid peer_comm (MPI_COMM_NULL, zeroed memory) fails with MPI_ERR_COMM raised
 * on local_comm, the call's communicator: its handler runs (MPI_ERRORS_RETURN, or a user
 * handler given local_comm) while MPI_COMM_SELF keeps MPI_ERRORS_ARE_FATAL, and the job goes
 * on. Every rank leads its own one-member local_comm (a dup of MPI_COMM_SELF); in a
 * one-rank job MPI_COMM_WORLD is tried as local_comm as well. */
/* ranks: 1 2 */
#include "check.h"

/* Zeroed, readable memory that is not a communicator. */
static _Alignas(64) unsigned char not_a_comm[4096];

int main(int argc, char **argv)
{
	MPI_Comm local, ic;
	MPI_Errhandler eh;
	int size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &local));

	CHECK_MPI(MPI_Comm_set_errhandler(local, MPI_ERRORS_RETURN));
	ic = MPI_COMM_SELF;
	CHECK_CLASS(MPI_Intercomm_create(local, 0, MPI_COMM_NULL, 0, 3, &ic), MPI_ERR_COMM);
	CHECK(ic == MPI_COMM_SELF || ic == MPI_COMM_NULL);
	CHECK_CLASS(MPI_Intercomm_create(local, 0, (MPI_Comm)(void *)not_a_comm, 0, 3, &ic),
		    MPI_ERR_COMM);

	CHECK_MPI(MPI_Comm_create_errhandler(check_recording_handler, &eh));
	CHECK_MPI(MPI_Comm_set_errhandler(local, eh));
	CHECK_CLASS(MPI_Intercomm_create(local, 0, MPI_COMM_NULL, 0, 3, &ic), MPI_ERR_COMM);
	CHECK_INT(check_handler_calls, 1);
	CHECK_INT(check_handler_class, MPI_ERR_COMM);
	CHECK(check_handler_comm == local);

	if (size == 1) {
		CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
		CHECK_CLASS(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_NULL, 0, 3, &ic),
			    MPI_ERR_COMM);
		CHECK_INT(check_handler_calls, 2);
		CHECK_INT(check_handler_class, MPI_ERR_COMM);
		CHECK(check_handler_comm == MPI_COMM_WORLD);
		CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
		CHECK_CLASS(MPI_Intercomm_create(MPI_COMM_WORLD, 0, MPI_COMM_NULL, 0, 3, &ic),
			    MPI_ERR_COMM);
		CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	}

	CHECK_MPI(MPI_Errhandler_free(&eh));
	CHECK_MPI(MPI_Comm_free(&local));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
