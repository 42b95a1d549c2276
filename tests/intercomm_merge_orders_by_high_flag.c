/* intercomm_merge_orders_by_high_flag: MPI_Intercomm_merge puts the group that passed
 * high = 0 first, whichever side it is, and the merged communicator carries traffic. */
/* ranks: 2 4 8 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Low half (world 0..k-1) and high half. */
	int k = size / 2, side = rank >= k;
	MPI_Comm half, inter, merged;
	CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, side, 0, &half));
	CHECK_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, side ? 0 : k, 1, &inter));

	for (int lowfirst = 0; lowfirst < 2; lowfirst++) {
		/* lowfirst: the low half passes high = 0; else the high half does. */
		int high = lowfirst ? side : !side, mrank = -1, msize = -1;
		CHECK_MPI(MPI_Intercomm_merge(inter, high, &merged));
		CHECK_MPI(MPI_Comm_rank(merged, &mrank));
		CHECK_MPI(MPI_Comm_size(merged, &msize));
		CHECK_INT(msize, size);
		int lsize = side ? size - k : k, lrank = side ? rank - k : rank;
		int expect = high ? (size - lsize) + lrank : lrank;
		CHECK_INT(mrank, expect);
		int flag = 1;
		CHECK_MPI(MPI_Comm_test_inter(merged, &flag));
		CHECK_INT(flag, 0);
		/* A ring on the merged communicator. */
		int got = -1;
		CHECK_MPI(MPI_Sendrecv(&mrank, 1, MPI_INT, (mrank + 1) % size, 0, &got, 1, MPI_INT,
				       (mrank + size - 1) % size, 0, merged, MPI_STATUS_IGNORE));
		CHECK_INT(got, (mrank + size - 1) % size);
		CHECK_MPI(MPI_Comm_free(&merged));
	}
	/* Same flag on both sides: the order is group-consistent (everyone agrees). */
	CHECK_MPI(MPI_Intercomm_merge(inter, 0, &merged));
	int mrank = -1, lrank;
	MPI_Comm_rank(merged, &mrank);
	MPI_Comm_rank(inter, &lrank);
	/* Ranks of one side are contiguous: each side's leader is 0 or the other's size. */
	if (lrank == 0)
		CHECK(mrank == 0 || mrank == size - (side ? size - k : k));
	CHECK_MPI(MPI_Comm_free(&merged));
	CHECK_MPI(MPI_Comm_free(&inter));
	CHECK_MPI(MPI_Comm_free(&half));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
