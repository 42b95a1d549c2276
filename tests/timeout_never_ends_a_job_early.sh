#!/bin/bash
# timeout_never_ends_a_job_early: mpiexec --timeout S (and SHOAL_TIMEOUT) lets a job that finishes in less than S seconds finish with its own status, on one node and with two hosts, and ends one that runs on after S seconds with status 124 no sooner than S seconds. Timed in whole seconds, the limit could fall up to a second early.
. "$SHOAL_TESTS/lib/common.bash"

build nap <<'SRC'
#include <stdlib.h>
#include <time.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	long ms = atol(argv[1]);
	struct timespec t = { ms / 1000, ms % 1000 * 1000000 };
	MPI_Init(&argc, &argv);
	nanosleep(&t, NULL);
	MPI_Finalize();
	return 0;
}
SRC

# job ARGS...: mpiexec ARGS under a 20 s limit, status in RC (`run` would take mpiexec's own
# 124 for its limit).
job() {
	timeout -k 5 20 "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

for i in 1 2 3 4 5; do
	job "$MPIEXEC" -n 2 --timeout 2 "$TEST_TMP/nap" 1500
	expect_rc 0
done
for i in 1 2 3; do
	job env SHOAL_TIMEOUT=1 "$MPIEXEC" -n 2 "$TEST_TMP/nap" 600
	expect_rc 0
	job "$MPIEXEC" --launcher local -H a,b -n 2 --timeout 1 "$TEST_TMP/nap" 600
	expect_rc 0
done

start=$(date +%s%N)
job "$MPIEXEC" -n 2 --timeout 1 "$TEST_TMP/nap" 10000
ms=$(( ($(date +%s%N) - start) / 1000000 ))
expect_rc 124
[ "$ms" -ge 1000 ] || fail "the job ended after $ms ms, before its 1 s --timeout"
[ "$ms" -lt 9000 ] || fail "the job ran $ms ms past its 1 s --timeout"
