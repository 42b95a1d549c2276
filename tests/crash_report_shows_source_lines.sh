#!/bin/bash
# crash_report_shows_source_lines: a rank that crashes in a program built with -g gets a report naming the rank, the signal, the faulting address and its own frames with function names and source lines, and the job exits 139; on a job of several hosts the report names the crashing rank's host.
. "$SHOAL_TESTS/lib/common.bash"

build crashg -g -O0 <<'SRC'
#include <mpi.h>
static int deref(int *p)
{
	return *p + 1;          /* line 4: the fault */
}
int main(int argc, char **argv)
{
	int rank, x = 1;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int v = deref(rank == 2 ? (int *)0 : &x);   /* line 11 */
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return v - 2;
}
SRC

run -t 30 "$MPIEXEC" -n 4 "$TEST_TMP/crashg"
expect_rc 139
expect_err 'rank 2: killed by signal SIGSEGV .* at (\(nil\)|0x0)'
expect_err '#0 +deref at .*crashg\.c:4'
expect_err '#1 +main at .*crashg\.c:11'

run -t 30 "$MPIEXEC" --launcher local -H a:2,b:2 "$TEST_TMP/crashg"
expect_rc 139
expect_err '^shoal: rank 2 on host b: killed by signal SIGSEGV .* at (\(nil\)|0x0)'
expect_err '#0 +deref at .*crashg\.c:4'
exit 0
