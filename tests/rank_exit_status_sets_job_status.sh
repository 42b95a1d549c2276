#!/bin/bash
# rank_exit_status_sets_job_status: exit(3) in one rank ends only that rank and makes the job exit 3 with a message naming the rank; a non-zero return from main does the same; all zero gives 0.
. "$SHOAL_TESTS/lib/common.bash"

build exitcode <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
/* argv[1]: "exit" or "return"; argv[2]: failing rank; argv[3]: code. */
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Finalize();
	if (argc > 3 && rank == atoi(argv[2])) {
		if (argv[1][0] == 'e')
			exit(atoi(argv[3]));
		return atoi(argv[3]);
	}
	/* Other ranks keep running after the failing rank's exit() and print. */
	printf("rank %d finished\n", rank);
	return 0;
}
SRC

run "$MPIEXEC" -n 4 "$TEST_TMP/exitcode"
expect_rc 0
expect_out_count '^rank [0-3] finished$' 4

run "$MPIEXEC" -n 4 "$TEST_TMP/exitcode" exit 2 3
expect_rc 3
expect_err 'rank 2'
# exit() ended only rank 2: the other three still printed.
expect_out_count '^rank [013] finished$' 3

run "$MPIEXEC" -n 4 "$TEST_TMP/exitcode" return 1 5
expect_rc 5
expect_err 'rank 1'
expect_out_count '^rank [023] finished$' 3

# Singleton: the program's own status.
run "$TEST_TMP/exitcode" exit 0 4
expect_rc 4
exit 0
