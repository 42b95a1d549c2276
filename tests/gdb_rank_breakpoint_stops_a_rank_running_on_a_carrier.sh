#!/bin/bash
# gdb_rank_breakpoint_stops_a_rank_running_on_a_carrier: in a job whose ranks are switched in user space, shoal-gdb's `rank 3 break f` stops rank 3 (and only it) while a carrier thread runs it, names rank 3 after gdb's stop line, and `rank` / `info ranks` show rank 3 selected on that carrier.
. "$SHOAL_TESTS/lib/common.bash"
# The job runs until the test ends it: no deadlock check.
export SHOAL_DEADLOCK_S=0
need_fibers
command -v gdb >/dev/null || skip "gdb is not installed"

build ticks <<'SRC'
#include <mpi.h>
volatile int hits;
void tick(int rank) { hits += rank; }
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* A rank that waits in the barrier parks, then goes on on a carrier thread. */
	for (;;) {
		MPI_Barrier(MPI_COMM_WORLD);
		tick(rank);
	}
}
SRC
start_job 4 "$TEST_TMP/ticks"
sleep 0.5
run "$SHOAL_BUILD/bin/shoal-gdb" "$node" -batch -nx -ex 'rank 3 break tick' \
	-ex continue -ex rank -ex 'info ranks 3' -ex continue -ex continue
expect_rc 0
expect_out 'Breakpoint [0-9]+ \(tick\) for rank 3$'
# Three stops, all in rank 3, each on a carrier and named after gdb's line.
expect_out_count '^Thread [0-9]+ "carrier [0-9]+" hit Breakpoint [0-9.]+, tick \(rank=3\)' 3
expect_out_count 'hit Breakpoint [0-9.]+, tick \(rank=[0-2]\)' 0
expect_out_count '^\[rank 3 hit Breakpoint [0-9]+ on thread [0-9]+ "carrier [0-9]+"\]$' 3
expect_out '^rank 3$'
expect_out '^\* 3 +[0-9]+ +running +tick \(\) at ticks\.c:3$'
exit 0
