#!/bin/bash
# crash_reports_rank_and_signal: SIGSEGV, SIGFPE and SIGABRT in one rank end the job with status 128+signal and a message naming the rank and the signal; output printed before the crash reaches a pipe.
. "$SHOAL_TESTS/lib/common.bash"

build crash <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d alive\n", rank);
	if (rank == 2) {
		printf("rank 2 about to crash\n");
		if (strcmp(argv[1], "segv") == 0) {
			volatile int *p = NULL;
			*p = 1;
		} else if (strcmp(argv[1], "fpe") == 0) {
			volatile int a = 1, b = 0;
			v = a / b;
			printf("%d\n", v);
		} else {
			abort();
		}
	}
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

check_crash() {
	local kind=$1 sig=$2 name=$3
	# stdout goes through a pipe, as with `mpiexec ... | tee log`.
	timeout -k 5 30 "$MPIEXEC" -n 4 "$TEST_TMP/crash" "$kind" 2>"$ERR" </dev/null | cat >"$OUT"
	RC=${PIPESTATUS[0]}
	[ "$RC" = 124 ] && { show; fail "$kind: timed out"; }
	expect_rc $((128 + sig))
	expect_err 'rank 2'
	grep -Eqi -- "$name|signal $sig\\b" "$ERR" || { show; fail "$kind: stderr does not name the signal ($name)"; }
	expect_out '^rank 2 about to crash$'
	expect_out '^rank 2 alive$'
}
check_crash segv 11 'SIGSEGV|segmentation'
check_crash fpe 8 'SIGFPE|floating'
check_crash abort 6 'SIGABRT|abort'
exit 0
