#!/bin/bash
# output_reaches_mpiexec_as_it_is_printed: with mpiexec's stdout a file or pipe (a batch job's log, `| tee`), a rank's printf lines reach it while the job still runs, not only when it ends, and a job killed with SIGKILL keeps the lines its ranks printed before.
. "$SHOAL_TESTS/lib/common.bash"

build talker <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d started\n", rank);
	/* Runs on until the test has looked (or kills it). */
	while (access(argv[1], F_OK) != 0)
		usleep(10000);
	MPI_Finalize();
	return 0;
}
SRC

"$MPIEXEC" -n 2 "$TEST_TMP/talker" "$TEST_TMP/go" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
# The job cannot end before the test creates "go": lines that arrive meanwhile arrived
# while it ran.
await_out_count started 2 40 || true
kill -0 "$mpx" 2>/dev/null || fail "the job ended early"
lines=$(grep -c started "$OUT")
kill -KILL "$mpx"
wait "$mpx" 2>/dev/null
touch "$TEST_TMP/go"
[ "$lines" = 2 ] || { cat "$OUT"; fail "while the job ran, $lines of the 2 lines printed reached mpiexec's stdout"; }
[ "$(grep -c started "$OUT")" = 2 ] || fail "the SIGKILLed job lost lines it had printed"
