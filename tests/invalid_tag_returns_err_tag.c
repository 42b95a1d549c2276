/* invalid_tag_returns_err_tag: with MPI_ERRORS_RETURN, a send tag that is negative (including
 * MPI_ANY_TAG) or above MPI_TAG_UB fails with MPI_ERR_TAG, as does a negative receive tag
 * other than MPI_ANY_TAG; the largest valid tag works. */
/* ranks: 1 2 4 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, v = 1, flag;
	MPI_Request r;
	MPI_Status st;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

	const int bad_send[] = { -1 /* MPI_ANY_TAG */, -2, -1000, MPI_TAG_UB_VALUE + 1 };
	for (unsigned i = 0; i < sizeof bad_send / sizeof bad_send[0]; i++) {
		int t = bad_send[i];
		CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Ssend(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Bsend(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Isend(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Send_init(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
	}
	CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);

	const int bad_recv[] = { -2, -1000, MPI_TAG_UB_VALUE + 1 };
	for (unsigned i = 0; i < sizeof bad_recv / sizeof bad_recv[0]; i++) {
		int t = bad_recv[i];
		CHECK_CLASS(MPI_Recv(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, &st), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Irecv(&v, 1, MPI_INT, rank, t, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
		CHECK_CLASS(MPI_Iprobe(rank, t, MPI_COMM_WORLD, &flag, &st), MPI_ERR_TAG);
	}

	/* Nothing was sent; the largest tag is valid. */
	flag = 1;
	CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 0);
	v = 42;
	CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, rank, MPI_TAG_UB_VALUE, MPI_COMM_WORLD, &r));
	int w = 0;
	CHECK_MPI(MPI_Recv(&w, 1, MPI_INT, rank, MPI_TAG_UB_VALUE, MPI_COMM_WORLD, &st));
	CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
	CHECK_INT(w, 42);
	CHECK_INT(st.MPI_TAG, MPI_TAG_UB_VALUE);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
