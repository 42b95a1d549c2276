#!/bin/bash
# exit_without_finalize_ends_job: a rank that returns from main (or calls exit(0)) without MPI_Finalize while others wait for it in MPI_Recv ends the job with a non-zero status and a message naming the rank, instead of hanging; with exit(3) the job status is 3.
. "$SHOAL_TESTS/lib/common.bash"

build nofin <<'SRC'
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		if (argc > 1 && strcmp(argv[1], "exit") == 0)
			exit(0);
		if (argc > 1 && strcmp(argv[1], "exit3") == 0)
			exit(3);
		return 0; /* no MPI_Finalize */
	}
	/* Waits for rank 1, which never sends. */
	MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

# Unnoticed, the others would wait until the deadlock check ended the job with its report.
for how in return exit; do
	run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/nofin" $how
	expect_nonzero
	expect_err 'rank 1'
	grep -qi 'finali[sz]' "$ERR" || { show; fail "message does not mention MPI_Finalize"; }
	grep -q 'deadlock' "$ERR" && { show; fail "the rank's exit was found only as a deadlock"; }
done

# A failing exit status of that rank is the job's status.
run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/nofin" exit3
expect_rc 3
expect_err 'rank 1'
exit 0
