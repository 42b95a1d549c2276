/* comm_idup_does_not_block: MPI_Comm_idup returns before the other members join, so a rank
 * can receive a large message whose sender joins the idup only after the send completes;
 * the new communicator works once MPI_Wait returns. */
/* ranks: 2 4 */
#include "check.h"

#define BIG (1 << 20)

int main(int argc, char **argv)
{
	int rank, size;
	MPI_Comm c;
	MPI_Request q;
	static char buf[BIG];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &q));
		CHECK_MPI(MPI_Recv(buf, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
		CHECK_INT(buf[BIG - 1], 7);
	} else {
		if (rank == 1) {
			memset(buf, 7, BIG);
			/* Synchronous and large: completes only when rank 0 receives. */
			CHECK_MPI(MPI_Ssend(buf, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD));
		}
		CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &c, &q));
	}
	CHECK_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
	CHECK(q == MPI_REQUEST_NULL);
	int r = -1, got = -1;
	CHECK_MPI(MPI_Comm_rank(c, &r));
	CHECK_INT(r, rank);
	CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
			       (rank + size - 1) % size, 0, c, MPI_STATUS_IGNORE));
	CHECK_INT(got, (rank + size - 1) % size);

	/* Two outstanding idups on one parent complete in order. */
	MPI_Comm d[2];
	MPI_Request qs[2];
	CHECK_MPI(MPI_Comm_idup(c, &d[0], &qs[0]));
	CHECK_MPI(MPI_Comm_idup(c, &d[1], &qs[1]));
	CHECK_MPI(MPI_Waitall(2, qs, MPI_STATUSES_IGNORE));
	int cmp = -1;
	CHECK_MPI(MPI_Comm_compare(d[0], d[1], &cmp));
	CHECK_INT(cmp, MPI_CONGRUENT);
	CHECK_MPI(MPI_Comm_free(&d[0]));
	CHECK_MPI(MPI_Comm_free(&d[1]));
	CHECK_MPI(MPI_Comm_free(&c));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
