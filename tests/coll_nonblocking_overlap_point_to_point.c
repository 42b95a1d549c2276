/* coll_nonblocking_overlap_point_to_point: Ibarrier, Ibcast and Iallreduce started before
 * point-to-point traffic complete after it, with correct values, and a rank that joins a
 * nonblocking collective last completes everyone's (others only call MPI_Wait/Test). */
/* ranks: 2 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int b = rank == 0 ? 42 : -1, x = rank, sum = -1, flag = 0;
	MPI_Request q[3];
	CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &q[0]));
	CHECK_MPI(MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &q[1]));
	CHECK_MPI(MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[2]));
	/* A ring exchange while the collectives are outstanding. */
	int got = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, next, 5, &got, 1, MPI_INT, prev, 5,
			       MPI_COMM_WORLD, MPI_STATUS_IGNORE));
	CHECK_INT(got, prev);
	CHECK_MPI(MPI_Waitall(3, q, MPI_STATUSES_IGNORE));
	CHECK_INT(b, 42);
	CHECK_INT(sum, size * (size - 1) / 2);

	/* The last rank joins only after everyone else has started and is polling with
	 * MPI_Test: its join completes all requests. */
	int big = rank;
	if (rank == size - 1) {
		int token;
		for (int k = 0; k < size - 1; k++)
			CHECK_MPI(MPI_Recv(&token, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD,
					   MPI_STATUS_IGNORE));
		CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &big, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
					 &q[0]));
		CHECK_MPI(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
	} else {
		CHECK_MPI(MPI_Iallreduce(MPI_IN_PLACE, &big, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD,
					 &q[0]));
		CHECK_MPI(MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE));
		CHECK_INT(flag, 0);
		CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, size - 1, 9, MPI_COMM_WORLD));
		while (!flag)
			CHECK_MPI(MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE));
		CHECK(q[0] == MPI_REQUEST_NULL);
	}
	CHECK_INT(big, size - 1);
	CHECK_MPI(MPI_Finalize());
	return 0;
}
