#!/bin/bash
# shoal_gdb_attaches_to_64_ranks: shoal-gdb without a PID lists the running node processes; shoal-gdb PID attaches to a 64-rank job with symbols on demand, info ranks shows all 64 ranks in MPI_Recv at their source line (from one copy's symbols), and rank N + print shows rank N's global.
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

build stuck <<'SRC'
#include <mpi.h>
int mine;
int main(int argc, char **argv)
{
	int rank, v;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	mine = 100 + rank;
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
SRC
start_job 64 "$TEST_TMP/stuck"
sleep 0.5
run "$SHOAL_BUILD/bin/shoal-gdb"
expect_out "^  $node  64 ranks of $TEST_TMP/stuck\$"
# SHOAL_GDB_EAGER_MAX=0: attach as for a large job, loading only the selected ranks' copies.
SHOAL_GDB_EAGER_MAX=0 run "$SHOAL_BUILD/bin/shoal-gdb" "$node" -batch -nx \
	-ex 'info ranks' -ex 'rank 37' -ex 'print mine' -ex 'info sharedlibrary \.rank'
expect_rc 0
expect_out 'attached to a node process of 64 ranks; program symbols load per rank'
expect_out_count '^[ *] [0-9]+ +[0-9]+ +in MPI_Recv\(source=MPI_ANY_SOURCE, tag=3, comm=MPI_COMM_WORLD, count=1\)' 64
expect_out '^\$1 = 137$'
# info ranks shows every rank's source line from one copy's symbols (rank 0's: the copies
# are the same file); rank 37 read its own. No other copy's symbols were read.
expect_out_count '^[ *] [0-9]+ +[0-9]+ +in MPI_Recv\(.*\) +main \(\) at stuck\.c:9$' 64
[ "$(grep -c '^0x[0-9a-f]* *0x[0-9a-f]* *Yes' "$OUT")" = 2 ] || { show; fail "expected symbols for two copies"; }
expect_out '^0x[0-9a-f]* *0x[0-9a-f]* *Yes .*/stuck\.rank0$'
expect_out '^0x[0-9a-f]* *0x[0-9a-f]* *Yes .*/stuck\.rank37$'
exit 0
