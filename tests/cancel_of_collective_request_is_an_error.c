/* cancel_of_collective_request_is_an_error: MPI_Cancel of a nonblocking collective's request
 * (and of a started persistent one) is MPI_ERR_REQUEST, raised on its communicator; the
 * operation still completes with its values, and MPI_Request_free of an active nonblocking
 * collective lets it complete on its own. */
/* ranks: 1 2 3 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, sum = -1, in;
	MPI_Request req;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	in = rank + 1;

	CHECK_MPI(MPI_Iallreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
	CHECK_CLASS(MPI_Cancel(&req), MPI_ERR_REQUEST);
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_INT(sum, size * (size + 1) / 2);

	CHECK_MPI(MPI_Allreduce_init(&in, &sum, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
				     MPI_INFO_NULL, &req));
	sum = -1;
	CHECK_MPI(MPI_Start(&req));
	CHECK_CLASS(MPI_Cancel(&req), MPI_ERR_REQUEST);
	CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
	CHECK_INT(sum, size);
	CHECK_MPI(MPI_Request_free(&req));

	CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
	CHECK_MPI(MPI_Request_free(&req));
	CHECK(req == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	CHECK_MPI(MPI_Finalize());
	return 0;
}
