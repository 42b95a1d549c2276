/* probe_and_test_argument_errors_go_to_the_communicator: a NULL flag or message pointer in
 * MPI_Iprobe, MPI_Mprobe, MPI_Improbe, or a NULL flag in MPI_Test of a receive on
 * MPI_COMM_WORLD, is MPI_ERR_ARG raised on MPI_COMM_WORLD's handler (here MPI_ERRORS_RETURN),
 * not on MPI_COMM_SELF's (left fatal); nothing is matched, and the job goes on. */
/* ranks: 1 2 */
#include "check.h"

#define TAG 3

int main(int argc, char **argv)
{
	int rank, flag, x;
	MPI_Status st;
	MPI_Message msg;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Only WORLD returns errors: one raised on MPI_COMM_SELF would end the job. */
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

	/* A message waiting to be matched: a failed call must leave it there. */
	x = 11;
	CHECK_MPI(MPI_Send(&x, 1, MPI_INT, rank, TAG, MPI_COMM_WORLD));

	CHECK_CLASS(MPI_Iprobe(rank, TAG, MPI_COMM_WORLD, NULL, &st), MPI_ERR_ARG);
	CHECK_CLASS(MPI_Mprobe(rank, TAG, MPI_COMM_WORLD, NULL, &st), MPI_ERR_ARG);
	msg = MPI_MESSAGE_NULL;
	CHECK_CLASS(MPI_Improbe(rank, TAG, MPI_COMM_WORLD, NULL, &msg, &st), MPI_ERR_ARG);
	CHECK(msg == MPI_MESSAGE_NULL);
	flag = -1;
	CHECK_CLASS(MPI_Improbe(rank, TAG, MPI_COMM_WORLD, &flag, NULL, &st), MPI_ERR_ARG);

	/* A NULL flag in MPI_Test of a pending receive: an error, and the receive stays posted. */
	int got = -1;
	MPI_Request r;
	CHECK_MPI(MPI_Irecv(&got, 1, MPI_INT, rank, TAG + 1, MPI_COMM_WORLD, &r));
	CHECK_CLASS(MPI_Test(&r, NULL, &st), MPI_ERR_ARG);
	CHECK(r != MPI_REQUEST_NULL);

	/* The job goes on: the waiting message is still there, the receive still completes. */
	flag = 0;
	CHECK_MPI(MPI_Iprobe(rank, TAG, MPI_COMM_WORLD, &flag, &st));
	CHECK_INT(flag, 1);
	x = -1;
	CHECK_MPI(MPI_Recv(&x, 1, MPI_INT, rank, TAG, MPI_COMM_WORLD, &st));
	CHECK_INT(x, 11);
	x = 12;
	CHECK_MPI(MPI_Send(&x, 1, MPI_INT, rank, TAG + 1, MPI_COMM_WORLD));
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_INT(got, 12);
	CHECK_INT(st.MPI_TAG, TAG + 1);

	CHECK_MPI(MPI_Finalize());
	return 0;
}
