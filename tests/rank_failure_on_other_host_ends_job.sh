#!/bin/bash
# rank_failure_on_other_host_ends_job: on 2 hosts (network namespaces), a rank on the second host that crashes (SIGSEGV), calls MPI_Abort(MPI_COMM_WORLD, 7) or exit(3) while the others wait in MPI_Recv for a message from it ends the whole job within 10 s: status 139, 7 or 3, a message naming the rank (and for the crash the signal and a backtrace), the output printed before it kept, and no process of the job left in any namespace.
# timeout: 120
. "$SHOAL_TESTS/lib/common.bash"
. "$SHOAL_TESTS/lib/netns.bash"

build fail <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
static void crash_here(void)
{
	volatile int *p = NULL;
	*p = 1;
}
int main(int argc, char **argv)
{
	int rank, size, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	printf("rank %d before\n", rank);
	fflush(stdout);
	MPI_Barrier(MPI_COMM_WORLD);  /* every line is printed before anyone fails */
	if (rank == size - 1) {
		if (!strcmp(argv[1], "crash"))
			crash_here();
		if (!strcmp(argv[1], "abort"))
			MPI_Abort(MPI_COMM_WORLD, 7);
		exit(3);
	}
	/* The others wait for the failing rank, which never sends. */
	MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

netns_up 2
# Rank 3 is on the second host (-ppn 2, by slot).
while read -r how rc err; do
	# Ranks left blocked would hang until the deadlock check ended the job with 125.
	run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/fail" "$how"
	expect_rc "$rc"
	expect_err "$err"
	expect_out_count '^rank [0-3] before$' 4
	netns_nothing_left "$how"
done <<LIST
crash 139 rank 3.*(SIGSEGV|signal 11|Segmentation)
abort 7 rank 3
exit 3 rank 3
LIST
# The crash report's backtrace names the function that crashed.
run -t 60 "${NETNS_MPIEXEC[@]}" -H "$(netns_hosts)" -ppn 2 "$TEST_TMP/fail" crash
expect_err 'crash_here'
exit 0
