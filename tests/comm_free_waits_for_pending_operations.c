/* comm_free_waits_for_pending_operations: MPI_Comm_free with receives, sends, an Ibarrier, an Ibcast and persistent requests still pending on the communicator invalidates the handle at once, and every operation still completes with the right data; the object is freed after the last one */
/* ranks: 2 3 4 */
/* MPI 4.1, 7.4.3: MPI_Comm_free marks the object for deallocation; pending operations
 * complete normally. Between the free and the completions the test makes new
 * communicators, so a freed object whose memory is reused would change what the pending
 * receives match (they would hang) and ASan would see the use after free. */
#include <stdlib.h>

#include "check.h"

#define BIG (1 << 20)  /* a rendezvous: the send stays pending until the receive copies */

int main(int argc, char **argv)
{
	int rank, size, small_in = -1, small_out, pin = -1, pout, bval;
	MPI_Comm c, extra[8];
	MPI_Request q[8];
	char *big_in, *big_out;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	big_in = malloc(BIG);
	big_out = malloc(BIG);
	CHECK(big_in != NULL && big_out != NULL);
	for (int i = 0; i < BIG; i++)
		big_out[i] = (char)(rank + i);
	small_out = 100 + rank;
	pout = 200 + rank;
	bval = rank == 0 ? 77 : 0;

	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
	CHECK_MPI(MPI_Irecv(&small_in, 1, MPI_INT, left, 1, c, &q[0]));
	CHECK_MPI(MPI_Irecv(big_in, BIG, MPI_CHAR, left, 2, c, &q[1]));
	CHECK_MPI(MPI_Ibarrier(c, &q[2]));
	CHECK_MPI(MPI_Ibcast(&bval, 1, MPI_INT, 0, c, &q[3]));
	CHECK_MPI(MPI_Recv_init(&pin, 1, MPI_INT, left, 3, c, &q[4]));
	CHECK_MPI(MPI_Send_init(&pout, 1, MPI_INT, right, 3, c, &q[5]));
	CHECK_MPI(MPI_Start(&q[4]));
	CHECK_MPI(MPI_Isend(big_out, BIG, MPI_CHAR, right, 2, c, &q[6]));
	CHECK_MPI(MPI_Isend(&small_out, 1, MPI_INT, right, 1, c, &q[7]));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK(c == MPI_COMM_NULL);

	/* New communicators, likely in the freed object's memory if it were freed. */
	for (int i = 0; i < 8; i++)
		CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &extra[i]));
	CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));

	/* The persistent send starts after the free; then everything completes. */
	CHECK_MPI(MPI_Start(&q[5]));
	CHECK_MPI(MPI_Waitall(8, q, MPI_STATUSES_IGNORE));
	CHECK_INT(small_in, 100 + left);
	CHECK_INT(pin, 200 + left);
	CHECK_INT(bval, 77);
	for (int i = 0; i < BIG; i += 4093)
		CHECK_INT(big_in[i], (char)(left + i));

	/* The persistent requests still work on the freed communicator until freed. */
	pin = -1;
	pout = 300 + rank;
	CHECK_MPI(MPI_Start(&q[4]));
	CHECK_MPI(MPI_Start(&q[5]));
	CHECK_MPI(MPI_Waitall(2, &q[4], MPI_STATUSES_IGNORE));
	CHECK_INT(pin, 300 + left);
	CHECK_MPI(MPI_Request_free(&q[4]));
	CHECK_MPI(MPI_Request_free(&q[5]));

	/* MPI_Comm_idup of a communicator freed before the new one is complete. */
	MPI_Comm parent, child;
	MPI_Request qi;
	int one = 1, sum = 0;
	CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &parent));
	CHECK_MPI(MPI_Comm_idup(parent, &child, &qi));
	CHECK_MPI(MPI_Comm_free(&parent));
	CHECK_MPI(MPI_Wait(&qi, MPI_STATUS_IGNORE));
	CHECK_MPI(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, child));
	CHECK_INT(sum, size);
	CHECK_MPI(MPI_Comm_free(&child));

	for (int i = 0; i < 8; i++)
		CHECK_MPI(MPI_Comm_free(&extra[i]));
	free(big_in);
	free(big_out);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
