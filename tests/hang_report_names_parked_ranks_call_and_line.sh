#!/bin/bash
# hang_report_names_parked_ranks_call_and_line: in a job whose ranks are switched in user space (16 ranks, carrier threads), mpiexec --timeout's hang report names each parked rank's MPI call with its arguments and the program line that made it.
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
need_fibers
command -v gdb >/dev/null || skip "gdb is not installed"

build pairs <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	int rank, v = 0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* Even ranks wait for tag 5, their odd partners send tag 6 synchronously: all block. */
	if (rank % 2 == 0)
		MPI_Recv(&v, 1, MPI_INT, rank + 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else
		MPI_Ssend(&v, 1, MPI_INT, rank - 1, 6, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
SRC
"$MPIEXEC" --timeout 2 -n 16 "$TEST_TMP/pairs" >"$OUT" 2>"$ERR" </dev/null &
mpx=$!
# While the job waits: its node process runs the ranks on carrier threads.
carriers=0
for _ in $(seq 30); do
	node=$(pgrep -P "$(pgrep -P "$mpx" shoal-node)" shoal-node) &&
		carriers=$(cat /proc/"$node"/task/*/comm 2>/dev/null | grep -c '^carrier ') &&
		[ "$carriers" -gt 0 ] && break
	sleep 0.05
done
wait "$mpx"
RC=$?
[ "$carriers" -gt 0 ] || { show; fail "no carrier thread: ranks were not switched in user space"; }
expect_rc 124
expect_err 'hang report \(--timeout 2 s expired\)'
for r in $(seq 0 15); do
	if [ $((r % 2)) = 0 ]; then
		expect_err "^[ *] $r +[0-9]+ +in MPI_Recv\\(source=$((r + 1)), tag=5, comm=MPI_COMM_WORLD, count=1\\) +main \\(\\) at pairs\\.c:9\$"
	else
		expect_err "^[ *] $r +[0-9]+ +in MPI_Ssend\\(dest=$((r - 1)), tag=6, comm=MPI_COMM_WORLD, count=1\\) +main \\(\\) at pairs\\.c:11\$"
	fi
done
exit 0
