/* coll_minloc_maxloc_ties_pick_lowest_index: MPI_MINLOC and MPI_MAXLOC on the pair types
 * (padded MPI_DOUBLE_INT and MPI_SHORT_INT too) pick the extreme value, and on ties the
 * lowest index. */
/* ranks: 1 3 4 7 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	/* Values 0,1,2,0,1,2,...: the minimum 0 first appears at rank 0, the max 2 at rank 2. */
	struct { int v, i; } in = { rank % 3, rank }, out;
	CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD));
	CHECK_INT(out.v, 0);
	CHECK_INT(out.i, 0);
	CHECK_MPI(MPI_Allreduce(&in, &out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD));
	CHECK_INT(out.v, size < 3 ? size - 1 : 2);
	CHECK_INT(out.i, size < 3 ? size - 1 : 2);
	/* Indexes given in reverse: ties resolve to the lowest index, not the lowest rank. */
	struct { double v; int i; } d[2] = { { 5.0, size - rank }, { -(double)(rank % 2), rank } },
				    dout[2];
	CHECK_MPI(MPI_Allreduce(d, dout, 2, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD));
	CHECK(dout[0].v == 5.0);
	CHECK_INT(dout[0].i, 1);
	CHECK(dout[1].v == (size > 1 ? -1.0 : 0.0));
	CHECK_INT(dout[1].i, size > 1 ? 1 : 0);
	CHECK_MPI(MPI_Allreduce(d, dout, 2, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
	CHECK_INT(dout[0].i, 1);
	CHECK(dout[1].v == 0.0);
	CHECK_INT(dout[1].i, 0);
	struct { short v; int i; } s = { (short)(rank == size / 2 ? -7 : 3), rank }, sout;
	CHECK_MPI(MPI_Reduce(&s, &sout, 1, MPI_SHORT_INT, MPI_MINLOC, 0, MPI_COMM_WORLD));
	if (rank == 0) {
		CHECK_INT(sout.v, -7);
		CHECK_INT(sout.i, size / 2);
	}
	struct { long double v; int i; } l = { 1.0L, 100 - rank }, lout;
	CHECK_MPI(MPI_Allreduce(&l, &lout, 1, MPI_LONG_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD));
	CHECK_INT(lout.i, 100 - (size - 1));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
