/* rma_comm_split_type_shared_then_allocate_shared: the communicator of
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) holds every rank of the node, and a window of
 * MPI_Win_allocate_shared over it gives every member each other member's segment through
 * MPI_Win_shared_query: each member stores its world rank in its own, and after
 * MPI_Win_sync and a barrier reads every member's, in the node communicator's order. */
/* ranks: 1 2 4 64 */
#include "check.h"

int main(int argc, char **argv)
{
	int rank, size, nrank, nsize, *mine;
	MPI_Comm node;
	MPI_Win win;
	MPI_Group wg, ng;

	CHECK_MPI(MPI_Init(&argc, &argv));
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL,
				      &node));
	MPI_Comm_rank(node, &nrank);
	MPI_Comm_size(node, &nsize);
	CHECK_INT(nsize, size);   /* one node */
	CHECK_MPI(MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node,
					  &mine, &win));
	CHECK_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
	mine[0] = rank;
	mine[1] = -rank;
	CHECK_MPI(MPI_Win_sync(win));
	CHECK_MPI(MPI_Barrier(node));
	CHECK_MPI(MPI_Win_sync(win));
	CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &wg));
	CHECK_MPI(MPI_Comm_group(node, &ng));
	for (int r = 0; r < nsize; r++) {
		int *seg, unit = -1, w = -1;
		MPI_Aint segsize = -1;
		CHECK_MPI(MPI_Win_shared_query(win, r, &segsize, &unit, &seg));
		CHECK_INT(segsize, 2 * sizeof(int));
		CHECK_INT(unit, sizeof(int));
		CHECK_MPI(MPI_Group_translate_ranks(ng, 1, &r, wg, &w));
		CHECK_INT(seg[0], w);
		CHECK_INT(seg[1], -w);
	}
	CHECK_MPI(MPI_Win_unlock_all(win));
	CHECK_MPI(MPI_Group_free(&wg));
	CHECK_MPI(MPI_Group_free(&ng));
	CHECK_MPI(MPI_Win_free(&win));
	CHECK_MPI(MPI_Comm_free(&node));
	CHECK_MPI(MPI_Finalize());
	return 0;
}
