/* invalid_comm_returns_err_comm: MPI_COMM_NULL passed to point-to-point and communicator
 * queries fails with MPI_ERR_COMM (raised on MPI_COMM_SELF's handler, here ERRORS_RETURN). */
/* ranks: 1 2 */
#include "check.h"

int main(int argc, char **argv)
{
	int v = 1, x, flag;
	MPI_Request r;
	MPI_Status st;
	MPI_Errhandler eh;

	CHECK_MPI(MPI_Init(&argc, &argv));
	/* Only MPI_COMM_SELF returns errors: an error on MPI_COMM_NULL must go there, and
	 * WORLD keeps the fatal default (an error raised on WORLD would abort the test). */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Ssend(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Irecv(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Probe(0, 0, MPI_COMM_NULL, &st), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Iprobe(0, 0, MPI_COMM_NULL, &flag, &st), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &x, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &st),
		    MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_rank(MPI_COMM_NULL, &x), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_size(MPI_COMM_NULL, &x), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_set_errhandler(MPI_COMM_NULL, MPI_ERRORS_RETURN), MPI_ERR_COMM);
	CHECK_CLASS(MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh), MPI_ERR_COMM);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
