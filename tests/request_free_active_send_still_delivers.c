/* request_free_active_send_still_delivers: MPI_Request_free on an active send sets the handle
 * to MPI_REQUEST_NULL and the message still arrives intact (small and large). */
/* ranks: 2 4 64 */
#include <time.h>
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
	const int n = 300000;
	if (rank < partner) {
		int small = 31;
		char *big = malloc(n);
		memset(big, 'q', n);
		MPI_Request r;
		CHECK_MPI(MPI_Isend(&small, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, &r));
		CHECK_MPI(MPI_Request_free(&r));
		CHECK(r == MPI_REQUEST_NULL);
		CHECK_MPI(MPI_Isend(big, n, MPI_CHAR, partner, 2, MPI_COMM_WORLD, &r));
		CHECK_MPI(MPI_Request_free(&r));
		CHECK(r == MPI_REQUEST_NULL);
		/* The buffer must stay valid until we know it was received: wait for an ack. */
		int ack = 0;
		CHECK_MPI(MPI_Recv(&ack, 1, MPI_INT, partner, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(ack, 1);
		free(big);
	} else {
		struct timespec ts = { 0, 50 * 1000 * 1000 };
		nanosleep(&ts, NULL); /* let the sender free its requests first */
		int small = 0, ack = 1;
		char *big = calloc(n, 1);
		CHECK_MPI(MPI_Recv(&small, 1, MPI_INT, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(small, 31);
		CHECK_MPI(MPI_Recv(big, n, MPI_CHAR, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(big[0], 'q');
		CHECK_INT(big[n - 1], 'q');
		CHECK_MPI(MPI_Send(&ack, 1, MPI_INT, partner, 3, MPI_COMM_WORLD));
		free(big);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
