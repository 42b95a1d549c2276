/* buffer_attached_to_comm_is_detached_by_comm_free: MPI_Comm_free of a communicator with a
 * buffer still attached (MPI_Comm_attach_buffer) detaches it once its buffered messages
 * have been received, so the user may then reuse the memory: each even rank buffers a
 * message to the next odd rank, frees the communicator and overwrites the buffer; the odd
 * rank, which receives only once the sender has joined an MPI_Ibarrier it calls before
 * the free, still gets the message intact. */
/* ranks: 2 4 16 64 */
#include <string.h>

#include "check.h"

#define N 256

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Comm dup;
	MPI_Request bar;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
	int peer = rank ^ 1;
	if (peer < size && rank % 2 == 0) {
		static char buf[N * sizeof(int) + MPI_BSEND_OVERHEAD];
		int data[N];

		for (int i = 0; i < N; i++)
			data[i] = rank * 1000 + i;
		CHECK_MPI(MPI_Comm_attach_buffer(dup, buf, sizeof buf));
		CHECK_MPI(MPI_Bsend(data, N, MPI_INT, peer, 7, dup));
		/* The receiver waits in this barrier until the sender has joined it. */
		CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &bar));
		CHECK_MPI(MPI_Comm_free(&dup));
		memset(buf, 0xff, sizeof buf);
		CHECK_MPI(MPI_Wait(&bar, MPI_STATUS_IGNORE));
	} else if (peer < size) {
		int got[N];

		CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &bar));
		CHECK_MPI(MPI_Wait(&bar, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Recv(got, N, MPI_INT, peer, 7, dup, MPI_STATUS_IGNORE));
		for (int i = 0; i < N; i++)
			CHECK_INT(got[i], peer * 1000 + i);
		CHECK_MPI(MPI_Comm_free(&dup));
	} else {
		CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &bar));
		CHECK_MPI(MPI_Wait(&bar, MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Comm_free(&dup));
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
