/* cancel_posted_receive: cancelling a posted receive succeeds (Test_cancelled true, the
 * message goes to a later receive); cancelling a send that was already received does not
 * (Test_cancelled false, data delivered once). */
/* ranks: 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	partner = rank ^ 1;
	if (partner >= size) {
		MPI_Finalize();
		return 0;
	}
	MPI_Status st;
	MPI_Request r;
	int flag = -1;

	/* Everyone: a receive nobody will ever match can be cancelled. */
	int never = 0;
	CHECK_MPI(MPI_Irecv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 777, MPI_COMM_WORLD, &r));
	CHECK_MPI(MPI_Cancel(&r));
	CHECK(r != MPI_REQUEST_NULL); /* Cancel does not free; Wait does */
	CHECK_MPI(MPI_Wait(&r, &st));
	CHECK(r == MPI_REQUEST_NULL);
	CHECK_MPI(MPI_Test_cancelled(&st, &flag));
	CHECK_INT(flag, 1);

	if (rank < partner) {
		int v = 5, ack = 0;
		/* 1. The partner cancels its first receive; this message goes to its second. */
		CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, partner, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, 1, MPI_COMM_WORLD));

		/* 2. A send the partner receives before we try to cancel it. */
		v = 6;
		CHECK_MPI(MPI_Isend(&v, 1, MPI_INT, partner, 2, MPI_COMM_WORLD, &r));
		CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, partner, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Cancel(&r));
		CHECK_MPI(MPI_Wait(&r, &st));
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 0);
		/* Also for a large (rendezvous-sized) send that was received. */
		int n = 200000;
		char *big = malloc(n);
		memset(big, 'z', n);
		CHECK_MPI(MPI_Isend(big, n, MPI_CHAR, partner, 3, MPI_COMM_WORLD, &r));
		CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, partner, 92, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Cancel(&r));
		CHECK_MPI(MPI_Wait(&r, &st));
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 0);
		free(big);
	} else {
		int first = -1, second = -1, ack = 1;
		MPI_Request r1;
		CHECK_MPI(MPI_Irecv(&first, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &r1));
		CHECK_MPI(MPI_Cancel(&r1));
		CHECK_MPI(MPI_Wait(&r1, &st));
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 1);
		CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, partner, 90, MPI_COMM_WORLD));
		CHECK_MPI(MPI_Recv(&second, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &st));
		CHECK_INT(second, 5);
		CHECK_INT(first, -1);
		CHECK_MPI(MPI_Test_cancelled(&st, &flag));
		CHECK_INT(flag, 0);

		int v = 0;
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, 2, MPI_COMM_WORLD, &st));
		CHECK_INT(v, 6);
		CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, partner, 91, MPI_COMM_WORLD));
		int n = 200000;
		char *big = calloc(n, 1);
		CHECK_MPI(MPI_Recv(big, n, MPI_CHAR, partner, 3, MPI_COMM_WORLD, &st));
		CHECK_INT(big[n - 1], 'z');
		CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, partner, 92, MPI_COMM_WORLD));
		free(big);
		/* Nothing more arrives: the cancelled-too-late sends were delivered once. */
		CHECK_MPI(MPI_Iprobe(partner, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st));
		CHECK_INT(flag, 0);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
