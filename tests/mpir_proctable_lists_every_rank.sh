#!/bin/bash
# mpir_proctable_lists_every_rank: a debugger breaking on MPIR_Breakpoint in mpiexec reads MPIR_proctable with one entry per rank, each naming the node process, the host and the program.
. "$SHOAL_TESTS/lib/common.bash"
# These jobs stay blocked on purpose while gdb looks at them: no deadlock check.
export SHOAL_DEADLOCK_S=0
command -v gdb >/dev/null || skip "gdb is not installed"

build idle <<'SRC'
#include <mpi.h>
int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Finalize();
	return 0;
}
SRC
run gdb -batch -nx -ex 'break MPIR_Breakpoint' -ex run \
	-ex 'printf "size=%d state=%d starter=%d\n", MPIR_proctable_size, MPIR_debug_state, MPIR_i_am_starter' \
	-ex 'printf "pid0=%d pid3=%d\n", MPIR_proctable[0].pid, MPIR_proctable[3].pid' \
	-ex 'printf "host=%s exe=%s\n", MPIR_proctable[2].host_name, MPIR_proctable[2].executable_name' \
	-ex kill --args "$MPIEXEC" -n 4 "$TEST_TMP/idle" 2>/dev/null
expect_out '^size=4 state=1 starter=1$'
expect_out "^host=$(hostname) exe=$TEST_TMP/idle\$"
pid0=$(sed -n 's/^pid0=\([0-9]*\) pid3=\([0-9]*\)$/\1/p' "$OUT")
pid3=$(sed -n 's/^pid0=\([0-9]*\) pid3=\([0-9]*\)$/\2/p' "$OUT")
[ -n "$pid0" ] && [ "$pid0" -gt 0 ] && [ "$pid0" = "$pid3" ] ||
	{ show; fail "proctable pids: rank 0 '$pid0', rank 3 '$pid3' (want one node pid)"; }
exit 0
