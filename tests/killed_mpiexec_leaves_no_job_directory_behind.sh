#!/bin/bash
# killed_mpiexec_leaves_no_job_directory_behind: mpiexec killed with SIGKILL takes its node process with it, and the job directory it could not remove (the ranks' program copies, on /dev/shm) is removed by the next mpiexec; a directory of a job still running is left alone.
# serial: any other mpiexec starting meanwhile sweeps the killed job's directory first
. "$SHOAL_TESTS/lib/common.bash"

build sleeper <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int v = 0;
	MPI_Init(&argc, &argv);
	/* Every rank waits for a message that never comes. */
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC
build quick <<'SRC'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(&argc, &argv); MPI_Finalize(); return 0; }
SRC
export SHOAL_DEADLOCK_S=0

# The job directory of mpiexec `pid` (empty until it exists).
job_dir() { ls -d /dev/shm/shoal-"$1" /dev/shm/shoal-"$1"-* /tmp/shoal-"$1" /tmp/shoal-"$1"-* 2>/dev/null | head -1; }

# Start a job that stays blocked; sets mpx (mpiexec's pid) and dir (its job directory).
start_blocked() {
	"$MPIEXEC" -n 4 "$TEST_TMP/sleeper" >"$OUT" 2>"$ERR" </dev/null &
	mpx=$!
	dir=
	for _ in $(seq 600); do
		dir=$(job_dir "$mpx")
		# The node (forked by its proxy, mpiexec's child) has copied the program there.
		[ -n "$dir" ] && pgrep -P "$mpx" shoal-node >/dev/null && [ -n "$(ls "$dir")" ] && break
		sleep 0.1
	done
	[ -n "$dir" ] || fail "no job directory for mpiexec $mpx"
	[ -n "$(ls "$dir")" ] || fail "the job directory $dir holds no program copies"
}

start_blocked
killed=$mpx
left=$dir
node=$(pgrep -P "$mpx" shoal-node)
kill -KILL "$killed"
wait "$killed" 2>/dev/null
for _ in $(seq 600); do
	kill -0 "$node" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$node" 2>/dev/null && fail "the node process $node outlived its killed mpiexec"
# Any mpiexec starting on this machine sweeps a dead job's directory: one of another user
# may get there before ours (the suite runs this test alone).
[ -d "$left" ] || echo "another mpiexec removed $left before ours"

# A running job's directory survives the next mpiexec; the dead one's does not.
start_blocked
run -t 30 "$MPIEXEC" -n 2 "$TEST_TMP/quick"
expect_rc 0
[ -d "$dir" ] || fail "the running job's directory $dir was removed"
[ -e "$left" ] && fail "stale job directory $left not removed"
kill -TERM "$mpx"
wait "$mpx" 2>/dev/null
[ -e "$dir" ] && fail "mpiexec ended by SIGTERM left its job directory $dir"
exit 0
