#!/bin/bash
# neighbor_mismatched_counts_message_names_both_ranks: a neighborhood collective whose neighbours disagree on a block's size is fatal by default, ends the job rather than hanging, and the message names the function, the two ranks, the blocks and their bytes, and the class (the nonblocking form's MPI_Wait names the two ranks and their bytes); one on a communicator without a topology is MPI_ERR_TOPOLOGY.
. "$SHOAL_TESTS/lib/common.bash"

build mismatch <<'SRC'
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, size, s[4] = { 0 }, r[4], dims[1], periods[1] = { 0 };
	MPI_Comm line;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (strcmp(argv[1], "notopo") == 0)
		MPI_Neighbor_alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
	/* rank 0 sends 2 ints to rank 1, which takes 1 */
	if (strcmp(argv[1], "nonblocking") == 0) {
		MPI_Request q;
		MPI_Ineighbor_alltoall(s, rank == 0 ? 2 : 1, MPI_INT, r, 1, MPI_INT, line, &q);
		MPI_Wait(&q, MPI_STATUS_IGNORE);
	}
	MPI_Neighbor_alltoall(s, rank == 0 ? 2 : 1, MPI_INT, r, 1, MPI_INT, line);
	MPI_Finalize();
	return 0;
}
SRC

run -t 30 "$MPIEXEC" -n 3 "$TEST_TMP/mismatch" counts
expect_nonzero
expect_err 'MPI_Neighbor_alltoall'
expect_err 'rank 0 sends 8 bytes in its send block 1 to rank 1, whose receive block 0 from it takes 4 bytes'
expect_err 'MPI_ERR_TRUNCATE'

run -t 30 "$MPIEXEC" -n 3 "$TEST_TMP/mismatch" nonblocking
expect_nonzero
expect_err 'MPI_Wait'
expect_err 'rank 0 sends 8 bytes to rank 1, whose receive block from it takes 4 bytes'
expect_err 'MPI_ERR_TRUNCATE'

run -t 30 "$MPIEXEC" -n 2 "$TEST_TMP/mismatch" notopo
expect_nonzero
expect_err 'MPI_Neighbor_alltoall: the communicator has no process topology'
expect_err 'MPI_ERR_TOPOLOGY'
exit 0
