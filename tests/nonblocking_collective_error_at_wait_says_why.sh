#!/bin/bash
# nonblocking_collective_error_at_wait_says_why: a nonblocking collective that fails (counts or roots that differ between members) ends the job at the wait with a message saying why, as the blocking call's does, not only that the collective failed.
. "$SHOAL_TESTS/lib/common.bash"

build nbc <<'SRC'
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, in[2] = { 1, 2 }, out[2];
	MPI_Request req;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (strcmp(argv[1], "count") == 0)
		MPI_Iallreduce(in, out, rank == 0 ? 1 : 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
	else
		MPI_Ibcast(in, 2, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

run -t 20 "$MPIEXEC" -n 3 "$TEST_TMP/nbc" count
expect_nonzero
expect_err 'MPI_Wait'
expect_err 'passed counts .*do not match'

run -t 20 "$MPIEXEC" -n 3 "$TEST_TMP/nbc" root
expect_nonzero
expect_err 'MPI_Wait'
expect_err 'different roots'
