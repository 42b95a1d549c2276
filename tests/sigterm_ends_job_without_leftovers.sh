#!/bin/bash
# sigterm_ends_job_without_leftovers: SIGTERM to mpiexec ends a running job with a non-zero status and leaves no process of the job behind.
. "$SHOAL_TESTS/lib/common.bash"

build forever <<'SRC'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	printf("rank %d waiting\n", rank);
	fflush(stdout);
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC

# descendants PID: PID's child processes, recursively.
descendants() {
	local c
	for c in $(pgrep -P "$1"); do
		echo "$c"
		descendants "$c"
	done
}
# alive PIDS...: those of PIDS that still exist and are not zombies.
alive() {
	local p
	for p in "$@"; do
		[ -e /proc/$p/stat ] && ! grep -q '^[0-9]* ([^)]*) Z' /proc/$p/stat && echo "$p"
	done
	return 0
}

"$MPIEXEC" -n 8 "$TEST_TMP/forever" >"$OUT" 2>"$ERR" </dev/null &
pid=$!
await_out_count waiting 8 || { kill -KILL $pid; show; fail "job did not start"; }
# The job's processes: mpiexec's descendants, and anything running our program's path.
job=$(descendants $pid; pgrep -f "$TEST_TMP/forever")

kill -TERM $pid
start=$(date +%s%N)
for i in $(seq 600); do  # a minute at most, for a loaded machine
	kill -0 $pid 2>/dev/null || break
	sleep 0.1
done
if kill -0 $pid 2>/dev/null; then
	kill -KILL $pid
	fail "mpiexec still running a minute after SIGTERM"
fi
wait $pid
RC=$?
expect_nonzero
# The job's processes may take a moment to go after mpiexec: a minute at most.
for i in $(seq 600); do
	left=$(alive $job $(pgrep -f "$TEST_TMP/forever"))
	[ -z "$left" ] && break
	sleep 0.1
done
if [ -n "$left" ]; then
	ps -o pid,ppid,stat,args -p $(echo $left | tr ' ' ',')
	kill -KILL $left
	fail "processes left behind after SIGTERM: $left"
fi
echo "ended in $(( ($(date +%s%N) - start) / 1000000 )) ms with status $RC"
exit 0
