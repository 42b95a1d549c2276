#!/bin/bash
# abort_exits_with_code_naming_rank: MPI_Abort(MPI_COMM_WORLD, 7) from rank 1 of 4 ends the whole job (others blocked in MPI_Recv, who would otherwise wait for good) with exit status 7 and a message naming rank 1.
. "$SHOAL_TESTS/lib/common.bash"

build abort <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d before abort\n", rank);
	if (rank == 1)
		MPI_Abort(MPI_COMM_WORLD, atoi(argv[1]));
	/* Everyone else waits for a message that never comes. */
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

# Ranks left blocked would hang until the deadlock check ended the job with 125.
run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/abort" 7
expect_rc 7
expect_err 'rank 1'
# Output already printed (stdout is a file here, so fully buffered) is not lost.
expect_out '^rank 1 before abort$'

run -t 60 "$MPIEXEC" -n 2 "$TEST_TMP/abort" 42
expect_rc 42

# Singleton abort.
build abort1 <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Abort(MPI_COMM_WORLD, 9);
	return 0;
}
SRC
run -t 60 "$TEST_TMP/abort1"
expect_rc 9
exit 0
