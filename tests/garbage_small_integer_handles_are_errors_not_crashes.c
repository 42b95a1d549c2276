/* garbage_small_integer_handles_are_errors_not_crashes: small integers passed as handles (as
 * a program mixing up Fortran and C handles does) are error classes, not crashes:
 * communicators 1 and 42 in MPI_Send and MPI_Comm_rank are MPI_ERR_COMM, datatype 1 in
 * MPI_Send is MPI_ERR_TYPE, requests 1 and 3 in MPI_Wait, MPI_Test and MPI_Request_free are
 * MPI_ERR_REQUEST. */
/* ranks: 1 2 */
#include <stdint.h>
#include "check.h"

int main(int argc, char **argv)
{
	int rank, x = 5, flag;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	const intptr_t small[] = { 1, 42 };
	for (int i = 0; i < 2; i++) {
		MPI_Comm comm = (MPI_Comm)small[i];
		int got = -5;
		CHECK_CLASS(MPI_Send(&x, 1, MPI_INT, rank, 1, comm), MPI_ERR_COMM);
		CHECK_CLASS(MPI_Comm_rank(comm, &got), MPI_ERR_COMM);
		CHECK_INT(got, -5);
	}

	CHECK_CLASS(MPI_Send(&x, 1, (MPI_Datatype)1, rank, 1, MPI_COMM_WORLD), MPI_ERR_TYPE);

	const intptr_t small_requests[] = { 1, 3 };
	for (int i = 0; i < 2; i++) {
		MPI_Request r = (MPI_Request)small_requests[i];
		CHECK_CLASS(MPI_Wait(&r, &st), MPI_ERR_REQUEST);
		r = (MPI_Request)small_requests[i];
		CHECK_CLASS(MPI_Test(&r, &flag, &st), MPI_ERR_REQUEST);
		r = (MPI_Request)small_requests[i];
		CHECK_CLASS(MPI_Request_free(&r), MPI_ERR_REQUEST);
	}

	/* Nothing was sent by the failed calls: the next message to ourselves is this one. */
	int got = -1;
	x = 6;
	CHECK_MPI(MPI_Sendrecv(&x, 1, MPI_INT, rank, 1, &got, 1, MPI_INT, rank, 1, MPI_COMM_WORLD,
			       &st));
	CHECK_INT(got, 6);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
