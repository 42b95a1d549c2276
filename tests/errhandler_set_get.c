/* errhandler_set_get: communicators start with MPI_ERRORS_ARE_FATAL; Comm_set_errhandler
 * changes only the given communicator and Comm_get_errhandler reports it. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	MPI_Errhandler eh = MPI_ERRHANDLER_NULL;

	CHECK_MPI(MPI_Init(&argc, &argv));
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);

	/* Now errors on WORLD come back as codes. */
	int v = 0;
	CHECK_CLASS(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);

	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ABORT));
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_SELF, &eh));
	CHECK(eh == MPI_ERRORS_ABORT);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
	CHECK(eh == MPI_ERRORS_ARE_FATAL);

	/* Setting MPI_ERRHANDLER_NULL is an error (MPI_ERR_ARG), reported on WORLD: return it. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	int rc = MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL);
	CHECK(rc != MPI_SUCCESS);
	CHECK_MPI(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh));
	CHECK(eh == MPI_ERRORS_RETURN);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
