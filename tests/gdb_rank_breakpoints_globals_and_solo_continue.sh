#!/bin/bash
# gdb_rank_breakpoints_globals_and_solo_continue: rank N break stops only in rank N, rank 1,3 break only in ranks 1 and 3, print shows the selected rank's own global, and rank N continue moves rank N alone.
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

build ranks <<'SRC'
#include <mpi.h>
int counter;
void probe(int rank) { counter += 0 * rank; }
void solo(int rank) { counter += rank == 2; }  /* others may pass it before gdb stops them */
void after(int rank) { counter += 0 * rank; }
int main(int argc, char **argv)
{
	int rank;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	counter = rank * 10 + 1;
	MPI_Barrier(MPI_COMM_WORLD);   /* every counter is set before any probe */
	probe(rank);
	solo(rank);
	MPI_Barrier(MPI_COMM_WORLD);   /* nobody reaches after() while rank 2 is stopped */
	after(rank);
	MPI_Finalize();
	return 0;
}
SRC
cat >"$TEST_TMP/cmds" <<'GDB'
rank 2 break probe
continue
rank
print counter
rank 0-3 print counter
delete
rank 2 tbreak solo
rank 2 continue
info ranks 2
rank 2 print counter
rank 1,3 break after
continue
continue
kill
GDB
run "$MPIEXEC" --gdb-x "$TEST_TMP/cmds" -n 4 "$TEST_TMP/ranks"
expect_rc 0
expect_out 'Breakpoint [0-9]+ \(probe\) for rank 2$'
expect_out 'Breakpoint [0-9]+ \(after\) for ranks 1,3$'
# Each rank breakpoint stops only in its ranks: rank 2 once, then ranks 1 and 3 once each.
expect_out_count '"rank 2" hit Breakpoint' 1
expect_out_count '"rank 1" hit Breakpoint' 1
expect_out_count '"rank 3" hit Breakpoint' 1
expect_out_count '"rank 0" hit Breakpoint' 0
expect_out '^rank 2$'
expect_out '^\$1 = 21$'
vals=$(grep -A1 -E '^\[rank [0-3]\]$' "$OUT" | sed -n 's/^\$[0-9]* = //p' | head -n 4 | tr '\n' ' ')
[ "$vals" = "1 11 21 31 " ] || { show; fail "rank 0-3 print counter: expected '1 11 21 31 ', got '$vals'"; }
# rank 2 alone went on from probe to solo (the others were stopped: no barrier needed).
expect_out '"rank 2" hit Temporary breakpoint [0-9.]+, solo'
expect_out '^\* 2 +[0-9]+ +running +solo \(\) at ranks.c:4'
expect_out '^\$6 = 21$'
exit 0
