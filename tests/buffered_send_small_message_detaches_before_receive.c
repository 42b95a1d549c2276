/* buffered_send_small_message_detaches_before_receive: after MPI_Bsend of small messages,
 * MPI_Buffer_detach returns before the receiver has posted its receives (they leave the
 * buffer eagerly, as in MPICH and Open MPI), and the receiver then gets them; with no buffer
 * attached a small MPI_Bsend still fails with MPI_ERR_BUFFER and sends nothing. */
/* ranks: 2 4 */
#include "check.h"

#define TAG 1
#define MESSAGES 3

int main(int argc, char **argv)
{
	int rank, size, partner;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
	partner = rank ^ 1;
	int sender = rank < partner;

	if (partner < size && sender) {
		int bufsize = MESSAGES * (sizeof(int) + MPI_BSEND_OVERHEAD);
		char *attach = malloc(bufsize);
		CHECK_MPI(MPI_Buffer_attach(attach, bufsize));
		for (int i = 0; i < MESSAGES; i++) {
			int v = 500 + i;
			CHECK_MPI(MPI_Bsend(&v, 1, MPI_INT, partner, TAG, MPI_COMM_WORLD));
		}
		CHECK_DETACH(attach, bufsize);
		free(attach);

		/* Nothing attached now: refused, and nothing goes out. */
		int v = 666;
		CHECK_CLASS(MPI_Bsend(&v, 1, MPI_INT, partner, TAG, MPI_COMM_WORLD), MPI_ERR_BUFFER);
		v = 999;
		CHECK_MPI(MPI_Send(&v, 1, MPI_INT, partner, TAG, MPI_COMM_WORLD));
	}

	/* The receivers post nothing until every sender is through MPI_Buffer_detach.  Waiting
	 * is bounded: a detach that waits for the receive never lets the barrier complete. */
	MPI_Request barrier;
	int done = 0;
	CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &barrier));
	double end = MPI_Wtime() + CHECK_POLL_S;
	do
		CHECK_MPI(MPI_Test(&barrier, &done, MPI_STATUS_IGNORE));
	while (!done && MPI_Wtime() < end);
	CHECK_INT(done, 1); /* else a sender is stuck in MPI_Buffer_detach */

	if (partner < size && !sender) {
		for (int i = 0; i < MESSAGES; i++) {
			int v = -1;
			CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, TAG, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
			CHECK_INT(v, 500 + i);
		}
		/* The refused Bsend sent nothing: next in order is the plain send. */
		int v = -1;
		CHECK_MPI(MPI_Recv(&v, 1, MPI_INT, partner, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(v, 999);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
