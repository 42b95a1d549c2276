/* invalid_request_returns_err_request: an invalid request handle (garbage, or MPI_Start on
 * a null or non-persistent request) fails with MPI_ERR_REQUEST; errors not tied to a
 * communicator are raised on MPI_COMM_SELF's handler. */
/* ranks: 1 2 */
#include "check.h"

/* Zeroed memory that is not a request: readable, so a library checking a magic number in
 * the object can tell. */
static _Alignas(64) unsigned char not_a_request[4096];

int main(int argc, char **argv)
{
	int rank, flag, idx, v = 0;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Only MPI_COMM_SELF returns errors; WORLD stays fatal. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	MPI_Request bogus = (MPI_Request)(void *)not_a_request;
	CHECK_CLASS(MPI_Wait(&bogus, &st), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Test(&bogus, &flag, &st), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Request_free(&bogus), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Cancel(&bogus), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Waitany(1, &bogus, &idx, &st), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Request_get_status(bogus, &flag, &st), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Start(&bogus), MPI_ERR_REQUEST);

	MPI_Request null = MPI_REQUEST_NULL;
	CHECK_CLASS(MPI_Start(&null), MPI_ERR_REQUEST);
	CHECK_CLASS(MPI_Startall(1, &null), MPI_ERR_REQUEST);

	/* Starting a non-persistent (active) request is also an invalid request. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	MPI_Request r;
	CHECK_MPI(MPI_Irecv(&v, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &r));
	CHECK_CLASS(MPI_Start(&r), MPI_ERR_REQUEST);
	/* The request is still usable. */
	int one = 1;
	CHECK_MPI(MPI_Send(&one, 1, MPI_INT, rank, 0, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK_INT(v, 1);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
