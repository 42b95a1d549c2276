#!/bin/bash
# unfinished_output_lines_survive_the_node_ending: what a rank printed without a newline reaches mpiexec's stdout however the node ends: another rank's MPI_Abort (4 and 64 ranks), a rank exiting without MPI_Finalize, a crash, SIGTERM to mpiexec.
. "$SHOAL_TESTS/lib/common.bash"

build partial <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	FILE *f;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("<rank %d unfinished>", rank);  /* no newline: the rank's line stays open */
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1 && !strcmp(argv[1], "abort"))
		MPI_Abort(MPI_COMM_WORLD, 3);
	if (rank == 1 && !strcmp(argv[1], "exit"))
		exit(4);
	if (rank == 1 && !strcmp(argv[1], "crash"))
		*(volatile int *)(argc - 2 + (char *)0) = 1;  /* argc is 2: a write to address 0 */
	if (rank == 1 && !strcmp(argv[1], "term") && (f = fopen(argv[2], "w")) != NULL)
		fclose(f);  /* every rank has printed: the test may send SIGTERM */
	/* Everyone else waits for a message that never comes. */
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

# expect_all N: stdout holds every one of the N ranks' unfinished lines, each whole once.
expect_all() {
	local got
	got=$(grep -o '<rank [0-9]* unfinished>' "$OUT" | sort -u | wc -l)
	[ "$got" = "$1" ] || { show; fail "$2: $got of the $1 ranks' unfinished lines reached stdout"; }
}

for n in 4 64; do
	run -t 120 "$MPIEXEC" -n $n "$TEST_TMP/partial" abort
	expect_rc 3
	expect_all $n "MPI_Abort on $n ranks"
done

run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/partial" exit
expect_rc 4
expect_all 4 "exit without MPI_Finalize"

run -t 60 "$MPIEXEC" -n 4 "$TEST_TMP/partial" crash
expect_rc 139
expect_all 4 "SIGSEGV"

"$MPIEXEC" -n 4 "$TEST_TMP/partial" term "$TEST_TMP/printed" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
for _ in $(seq 600); do  # a minute at most, for a loaded machine
	[ -e "$TEST_TMP/printed" ] && break
	sleep 0.1
done
[ -e "$TEST_TMP/printed" ] || { kill -KILL $mpx; show; fail "the job did not start"; }
kill -TERM $mpx
wait $mpx
RC=$?
expect_rc 143
expect_all 4 "SIGTERM"
exit 0
