/* coll_many_outstanding_nonblocking_match_in_order: 100 outstanding Ibcast/Iallreduce on one
 * communicator, interleaved with blocking collectives and completed in reverse order, match
 * by call order; user op and derived type freed while the operations are pending. */
/* ranks: 1 2 3 4 7 64 */
#include "check.h"

#define N 100

static void maxi(void *in, void *inout, int *len, MPI_Datatype *t)
{
	for (int i = 0; i < *len; i++)
		if (((int *)in)[i] > ((int *)inout)[i])
			((int *)inout)[i] = ((int *)in)[i];
}

int main(int argc, char **argv)
{
	int rank, size;
	static int bc[N], red[N], in[N];
	MPI_Request q[N];

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Op op;
	MPI_Datatype one;
	CHECK_MPI(MPI_Op_create(maxi, 1, &op));
	CHECK_MPI(MPI_Type_contiguous(1, MPI_INT, &one));
	CHECK_MPI(MPI_Type_commit(&one));
	for (int k = 0; k < N; k++) {
		int root = k % size;
		if (k % 2 == 0) {
			bc[k] = rank == root ? k * 7 : -1;
			CHECK_MPI(MPI_Ibcast(&bc[k], 1, MPI_INT, root, MPI_COMM_WORLD, &q[k]));
		} else {
			in[k] = rank * k;
			CHECK_MPI(MPI_Iallreduce(&in[k], &red[k], 1, one, op, MPI_COMM_WORLD, &q[k]));
		}
		if (k % 10 == 0)
			CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
	}
	CHECK_MPI(MPI_Op_free(&op));
	CHECK_MPI(MPI_Type_free(&one));
	for (int k = N - 1; k >= 0; k--)
		CHECK_MPI(MPI_Wait(&q[k], MPI_STATUS_IGNORE));
	for (int k = 0; k < N; k++) {
		if (k % 2 == 0)
			CHECK_INT(bc[k], k * 7);
		else
			CHECK_INT(red[k], (size - 1) * k);
	}
	CHECK_MPI(MPI_Finalize());
	return 0;
}
