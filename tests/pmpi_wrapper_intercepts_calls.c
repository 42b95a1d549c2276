/* pmpi_wrapper_intercepts_calls: a program (or tool) that defines MPI_Send and MPI_Recv
 * itself and forwards to PMPI_Send and PMPI_Recv (the profiling interface) sees every call,
 * and the messages still arrive. */
/* ranks: 1 2 4 */
#include "check.h"

static int sends, recvs;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
	sends++;
	return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
	     MPI_Status *status)
{
	recvs++;
	return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int main(int argc, char **argv)
{
	int rank, size, token = -1;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > 1) {
		if (rank == 0) {
			token = 42;
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD));
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		} else {
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			token++;
			CHECK_MPI(MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0,
					   MPI_COMM_WORLD));
		}
		if (rank == 0)
			CHECK_INT(token, 42 + size - 1);
		CHECK_INT(sends, 1);
		CHECK_INT(recvs, 1);
	}
	/* The PMPI names are the library's own entry points too. */
	int flag = 0;
	CHECK_MPI(PMPI_Initialized(&flag));
	CHECK_INT(flag, 1);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
