#!/bin/bash
# timeout_never_ends_a_job_early: mpiexec --timeout S (and SHOAL_TIMEOUT) lets a job that finishes in less than S seconds finish with its own status, on one node and with two hosts, and ends one that runs on after S seconds with status 124, never sooner than S seconds after mpiexec started. Timed in whole seconds, the limit could fall up to a second early. A job that a loaded machine keeps past S seconds may end with 124 (it did run S seconds), so each kind of job is tried until one finishes in time.
# timeout: 180
# asan: ASan's start-up of a job of two hosts takes longer than the 0.9 s these jobs leave it
# tsan: TSan's start-up of a job of two hosts takes longer than the 0.9 s these jobs leave it
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

# job ARGS...: run ARGS (mpiexec) with stdout in $OUT, stderr in $ERR, status in RC and the
# time from before mpiexec started until it ended in MS (milliseconds). The test's own limit
# only ends a hang (`run` would take mpiexec's own 124 for its limit).
job() {
	local start
	start=$(date +%s%N)
	timeout -k 5 120 "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	MS=$(( ($(date +%s%N) - start) / 1000000 ))
}

# ended_by_timeout S: the last job was ended by its S-second --timeout (status 124 and
# mpiexec's message), and no sooner than S seconds after it started.
ended_by_timeout() {
	expect_rc 124
	expect_err 'job ended by --timeout'
	[ "$MS" -ge $(($1 * 1000)) ] || { show; fail "the job ended after $MS ms, before its $1 s --timeout"; }
}

# in_time S ARGS...: a job whose ranks nap less than S seconds (ARGS, with --timeout S or
# SHOAL_TIMEOUT=S) finishes with status 0. A try that ended by the timeout must have run S
# seconds (never early); up to 10 tries, for a machine so loaded that starting the job
# took the difference.
in_time() {
	local s=$1 try
	shift
	for try in $(seq 10); do
		job "$@"
		[ "$RC" = 0 ] && return 0
		ended_by_timeout "$s"
		echo "try $try ran $MS ms, past its $s s limit, and was ended by it"
	done
	fail "10 tries of a job napping under its $s s limit all ran past it: $*"
}

# Naps of 1.1 s under a 2 s limit: a limit a second early would end them; starting a job
# may take 0.9 s.
for i in 1 2 3 4 5; do
	in_time 2 "$MPIEXEC" -n 2 --timeout 2 "$TEST_TMP/nap" 1100
done
for i in 1 2 3; do
	in_time 2 env SHOAL_TIMEOUT=2 "$MPIEXEC" -n 2 "$TEST_TMP/nap" 1100
	in_time 2 "$MPIEXEC" --launcher local -H a,b -n 2 --timeout 2 "$TEST_TMP/nap" 1100
done

# A job that would nap 100 s is ended by its 1 s limit, not sooner, and long before its end.
job "$MPIEXEC" -n 2 --timeout 1 "$TEST_TMP/nap" 100000
ended_by_timeout 1
[ "$MS" -lt 100000 ] || fail "the job ran its whole 100 s nap despite its 1 s --timeout"
exit 0
