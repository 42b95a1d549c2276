/* invalid_rank_returns_err_rank: with MPI_ERRORS_RETURN, a destination or source outside the
 * communicator (>= size, or negative other than MPI_PROC_NULL / MPI_ANY_SOURCE) fails with
 * MPI_ERR_RANK in every send and receive flavour, and nothing is sent. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, v = 1, flag;
	MPI_Request r;
	MPI_Status st;
	MPI_Message m;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	const int bad_dest[] = { size, size + 5, -5, MPI_ANY_SOURCE, 1 << 30 };
	for (unsigned i = 0; i < sizeof bad_dest / sizeof bad_dest[0]; i++) {
		int d = bad_dest[i];
		CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Ssend(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Rsend(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Isend(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Issend(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Send_init(&v, 1, MPI_INT, d, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Sendrecv(&v, 1, MPI_INT, d, 0, &v, 1, MPI_INT, MPI_PROC_NULL, 0,
					 MPI_COMM_WORLD, &st), MPI_ERR_RANK);
	}
	const int bad_src[] = { size, size + 5, -5, -100, 1 << 30 };
	for (unsigned i = 0; i < sizeof bad_src / sizeof bad_src[0]; i++) {
		int s = bad_src[i];
		CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, s, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Irecv(&v, 1, MPI_INT, s, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Recv_init(&v, 1, MPI_INT, s, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Probe(s, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Iprobe(s, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Mprobe(s, 0, MPI_COMM_WORLD, &m, &st), MPI_ERR_RANK);
		CHECK_CLASS(MPI_Improbe(s, 0, MPI_COMM_WORLD, &flag, &m, &st), MPI_ERR_RANK);
	}
	/* On MPI_COMM_SELF only rank 0 exists. */
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK);

	/* Nothing was sent by the failed calls: nothing is waiting for us. */
	check_barrier(MPI_COMM_WORLD, 5);
	flag = 1;
	CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 0);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
