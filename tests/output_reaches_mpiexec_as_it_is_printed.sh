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
	sleep(30);
	MPI_Finalize();
	return 0;
}
SRC

"$MPIEXEC" -n 2 "$TEST_TMP/talker" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
await_out_count started 2 || true
kill -0 "$mpx" 2>/dev/null || fail "the job ended early"
lines=$(grep -c started "$OUT")
kill -KILL "$mpx"
wait "$mpx" 2>/dev/null
sleep 0.5
[ "$lines" = 2 ] || { cat "$OUT"; fail "after 10 s of the job, $lines of the 2 lines printed had reached mpiexec's stdout"; }
[ "$(grep -c started "$OUT")" = 2 ] || fail "the SIGKILLed job lost lines it had printed"
